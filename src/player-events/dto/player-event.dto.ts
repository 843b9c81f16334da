/**
 * The per-player events as typed in OpenAPI (one envelope schema per type, `PlayerEventMessage`
 * = their oneOf) and GraphQL (the union `PlayerEvent`), and the stream settings' input and view.
 * Field meanings: docs/async.md, *Player events*.
 */
import { createUnionType, Field, Float, ID, InputType, Int, ObjectType, registerEnumType } from '@nestjs/graphql';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ArrayMaxSize, IsArray, IsIn, IsNumber, IsOptional, Max, Min } from 'class-validator';
import { enumOf } from '../../common/graphql/enums';
import { PLAYER_EVENT_TYPES, type PlayerEventRecord, type PlayerStreamItem, isResync } from '../player-events.types';

export const PlayerEventTypeEnum = enumOf(PLAYER_EVENT_TYPES);
registerEnumType(PlayerEventTypeEnum, {
  name: 'PlayerEventType',
  description: 'A type of the per-player event stream (docs/async.md, Player events).',
});

const gameFields = {
  gameId: { format: 'uuid' },
};

@ObjectType()
export class SeatHolder {
  @Field(() => Int) @ApiProperty() seat: number;
  @Field(() => ID, { nullable: true }) @ApiProperty({ type: String, format: 'uuid', nullable: true }) playerId:
    string | null;
  @Field(() => String, { nullable: true, description: "A computer seat's level; null for a player's seat." })
  @ApiProperty({ type: String, nullable: true, enum: ['expert', 'optimal', 'standard', 'beginner'] })
  computer: string | null;
}

@ObjectType({ description: 'The game now waits on me (the turn passed to me, or the game started with my turn).' })
export class YourTurnData {
  @Field(() => ID) @ApiProperty(gameFields.gameId) gameId: string;
  @Field() @ApiProperty() ruleSet: string;
  @Field() @ApiProperty() family: string;
  @Field(() => Int, { description: "The game's version: expect it (If-Match) for my move." })
  @ApiProperty()
  version: number;
  @Field(() => Int, { description: 'The seat to move (mine).' }) @ApiProperty() seat: number;
  @Field(() => Int, { nullable: true }) @ApiProperty({ type: Number, nullable: true }) turnTimeLimitSeconds:
    number | null;
  @Field(() => String, { nullable: true, description: 'ISO time when the service moves for me; null: no limit.' })
  @ApiProperty({ type: String, format: 'date-time', nullable: true })
  deadline: string | null;
}

@ObjectType({ description: 'A share of my time for this move is left (my deadlineSoonShare) and I have not moved.' })
export class DeadlineSoonData {
  @Field(() => ID) @ApiProperty(gameFields.gameId) gameId: string;
  @Field(() => Int) @ApiProperty() version: number;
  @Field(() => Int) @ApiProperty() seat: number;
  @Field() @ApiProperty({ format: 'date-time' }) deadline: string;
  @Field(() => Int, { description: 'Whole seconds left when the reminder was raised.' })
  @ApiProperty()
  secondsLeft: number;
}

@ObjectType({ description: 'A game I am seated in started.' })
export class GameStartedData {
  @Field(() => ID) @ApiProperty(gameFields.gameId) gameId: string;
  @Field() @ApiProperty() ruleSet: string;
  @Field() @ApiProperty() family: string;
  @Field(() => Int) @ApiProperty() version: number;
  @Field(() => [SeatHolder]) @ApiProperty({ type: [SeatHolder] }) seats: SeatHolder[];
  @Field(() => ID, { nullable: true, description: 'The tournament the game belongs to, if any.' })
  @ApiProperty({ type: String, format: 'uuid', nullable: true })
  tournamentId: string | null;
}

@ObjectType({ description: 'A game I am seated in ended (finished, or abandoned by the service).' })
export class GameFinishedData {
  @Field(() => ID) @ApiProperty(gameFields.gameId) gameId: string;
  @Field() @ApiProperty() ruleSet: string;
  @Field() @ApiProperty() family: string;
  @Field(() => Int) @ApiProperty() version: number;
  @Field({ description: 'finished or abandoned.' }) @ApiProperty({ enum: ['finished', 'abandoned'] }) status: string;
  @Field(() => Int, { nullable: true, description: 'My seat (my best-placed one when I hold several).' })
  @ApiProperty({ type: Number, nullable: true })
  seat: number | null;
  @Field(() => Int, { nullable: true, description: 'My place, 1 = winner (ties share a place); null when abandoned.' })
  @ApiProperty({ type: Number, nullable: true })
  place: number | null;
  @Field(() => Int, { description: 'How many places (seats) there were.' }) @ApiProperty() of: number;
  @Field(() => Int, { nullable: true, description: 'My final score; null when abandoned.' })
  @ApiProperty({ type: Number, nullable: true })
  total: number | null;
  @Field(() => ID, { nullable: true }) @ApiProperty({ type: String, format: 'uuid', nullable: true }) tournamentId:
    string | null;
}

@ObjectType({ description: 'Someone took a seat in an open game I am seated in.' })
export class SeatTakenData {
  @Field(() => ID) @ApiProperty(gameFields.gameId) gameId: string;
  @Field() @ApiProperty() ruleSet: string;
  @Field() @ApiProperty() family: string;
  @Field(() => Int) @ApiProperty() version: number;
  @Field(() => Int) @ApiProperty() seat: number;
  @Field(() => ID, { description: 'Who took it.' }) @ApiProperty({ format: 'uuid' }) playerId: string;
  @Field(() => Int, { description: 'Seats now held (players and computers).' }) @ApiProperty() seatsTaken: number;
  @Field(() => Int) @ApiProperty() seatCount: number;
}

@ObjectType({ description: 'A round of a tournament I entered started; my game of it.' })
export class TournamentRoundStartedData {
  @Field(() => ID) @ApiProperty({ format: 'uuid' }) tournamentId: string;
  @Field() @ApiProperty() name: string;
  @Field() @ApiProperty() ruleSet: string;
  @Field(() => Int, { description: "The tournament's version." }) @ApiProperty() version: number;
  @Field(() => Int) @ApiProperty() round: number;
  @Field(() => ID) @ApiProperty({ format: 'uuid' }) gameId: string;
  @Field(() => Int) @ApiProperty() table: number;
  @Field(() => Int, { description: 'My seat in that game.' }) @ApiProperty() seat: number;
}

@ObjectType({ description: 'A tournament I organize or entered ended (finished or cancelled).' })
export class TournamentFinishedData {
  @Field(() => ID) @ApiProperty({ format: 'uuid' }) tournamentId: string;
  @Field() @ApiProperty() name: string;
  @Field() @ApiProperty() ruleSet: string;
  @Field(() => Int) @ApiProperty() version: number;
  @Field({ description: 'finished or cancelled.' }) @ApiProperty({ enum: ['finished', 'cancelled'] }) status: string;
  @Field(() => Int, { nullable: true, description: 'My rank; null for an organizer who did not enter.' })
  @ApiProperty({ type: Number, nullable: true })
  rank: number | null;
  @Field(() => Int, { description: 'How many entrants are ranked.' }) @ApiProperty() of: number;
}

@ObjectType({
  description:
    'A challenge of mine (docs/challenges.md): received, or ended (accepted, declined, cancelled, expired). The same fields for each type.',
})
export class ChallengeEventData {
  @Field(() => ID) @ApiProperty({ format: 'uuid' }) challengeId: string;
  @Field(() => Int, { description: "The challenge's version." }) @ApiProperty() version: number;
  @Field({ description: 'pending, accepted, declined, cancelled or expired.' })
  @ApiProperty({ enum: ['pending', 'accepted', 'declined', 'cancelled', 'expired'] })
  status: string;
  @Field(() => ID) @ApiProperty({ format: 'uuid' }) challengerId: string;
  @Field(() => String, { nullable: true }) @ApiProperty({ type: String, nullable: true }) challengerName: string | null;
  @Field(() => ID, {
    nullable: true,
    description: 'The challenged player; for an open challenge, its taker (else null).',
  })
  @ApiProperty({ type: String, format: 'uuid', nullable: true })
  opponentId: string | null;
  @Field(() => String, { nullable: true }) @ApiProperty({ type: String, nullable: true }) opponentName: string | null;
  @Field({ description: 'penta, simple, bonus or farkle.' }) @ApiProperty() pool: string;
  @Field() @ApiProperty() rated: boolean;
  @Field(() => Int) @ApiProperty() turnTimeLimitSeconds: number;
  @Field(() => String, { nullable: true }) @ApiProperty({ type: String, nullable: true }) message: string | null;
  @Field() @ApiProperty({ format: 'date-time' }) expiresAt: string;
  @Field(() => ID, { nullable: true, description: 'The game an acceptance started.' })
  @ApiProperty({ type: String, format: 'uuid', nullable: true })
  gameId: string | null;
  @Field(() => String, { nullable: true, description: 'Why it was declined (a declined challenge only).' })
  @ApiProperty({ type: String, nullable: true })
  reason: string | null;
}

/** The envelope fields every stored event has. */
function envelope<D>(type: string, data: new () => D, description: string) {
  const name = `${type[0].toUpperCase()}${type.slice(1)}PlayerEvent`;
  @ObjectType(name, { description })
  class Envelope {
    @Field(() => Float, { description: "My stream's sequence number (the SSE id; resume after it)." })
    @ApiProperty({ type: 'integer', minimum: 1 })
    seq: number;
    @Field(() => PlayerEventTypeEnum) @ApiProperty({ enum: [type] }) type: string;
    @Field({ description: 'ISO time it was stored.' }) @ApiProperty({ format: 'date-time' }) createdAt: string;
    @Field(() => data) @ApiProperty({ type: data }) data: D;
  }
  // The OpenAPI schema's name is the class's.
  Object.defineProperty(Envelope, 'name', { value: name });
  return Envelope;
}

export const YourTurnEvent = envelope('yourTurn', YourTurnData, 'It is my turn in a game.');
export const DeadlineSoonEvent = envelope('deadlineSoon', DeadlineSoonData, 'My move is due soon.');
export const GameStartedEvent = envelope('gameStarted', GameStartedData, 'A game of mine started.');
export const GameFinishedEvent = envelope('gameFinished', GameFinishedData, 'A game of mine ended.');
export const SeatTakenEvent = envelope('seatTaken', SeatTakenData, 'A seat of my open game was taken.');
export const TournamentRoundStartedEvent = envelope(
  'tournamentRoundStarted',
  TournamentRoundStartedData,
  'A round of my tournament started.',
);
export const TournamentFinishedEvent = envelope(
  'tournamentFinished',
  TournamentFinishedData,
  'A tournament of mine ended.',
);
export const ChallengeReceivedEvent = envelope(
  'challengeReceived',
  ChallengeEventData,
  'A player challenged me (direct challenges only).',
);
export const ChallengeAcceptedEvent = envelope(
  'challengeAccepted',
  ChallengeEventData,
  'A challenge of mine was accepted: its game started (gameId).',
);
export const ChallengeDeclinedEvent = envelope(
  'challengeDeclined',
  ChallengeEventData,
  'A challenge of mine was declined (reason).',
);
export const ChallengeCancelledEvent = envelope(
  'challengeCancelled',
  ChallengeEventData,
  'A challenge of mine was cancelled by its challenger.',
);
export const ChallengeExpiredEvent = envelope(
  'challengeExpired',
  ChallengeEventData,
  'A challenge of mine expired unanswered.',
);

@ObjectType({
  description:
    'My position is older than the retention: events were pruned. Reload what you show (inbox, games), then follow the stream, which continues after `seq`.',
})
export class ResyncPlayerEvent {
  @Field(() => Float, { description: 'The stream continues after this number (the SSE id).' })
  @ApiProperty({ type: 'integer', minimum: 0 })
  seq: number;
  @Field() @ApiProperty({ enum: ['resync'] }) type: string;
  @Field() @ApiProperty({ enum: ['retention'] }) reason: string;
  @Field() @ApiProperty() detail: string;
}

/** The SSE / NDJSON last message when the token no longer authenticates (rotated, or its session revoked): the stream ends. */
export class RevokedMessage {
  @ApiProperty({ enum: ['revoked'] }) type: string;
  @ApiProperty({ enum: ['UNAUTHENTICATED'] }) code: string;
  @ApiProperty({ enum: [401] }) status: number;
  @ApiProperty() detail: string;
}

export const PLAYER_EVENT_CLASSES = {
  yourTurn: YourTurnEvent,
  deadlineSoon: DeadlineSoonEvent,
  gameStarted: GameStartedEvent,
  gameFinished: GameFinishedEvent,
  seatTaken: SeatTakenEvent,
  tournamentRoundStarted: TournamentRoundStartedEvent,
  tournamentFinished: TournamentFinishedEvent,
  challengeReceived: ChallengeReceivedEvent,
  challengeAccepted: ChallengeAcceptedEvent,
  challengeDeclined: ChallengeDeclinedEvent,
  challengeCancelled: ChallengeCancelledEvent,
  challengeExpired: ChallengeExpiredEvent,
} as const;

export const PlayerEventUnion = createUnionType({
  name: 'PlayerEvent',
  description: 'One message of my event stream (myEvents): a stored event, or a resync.',
  types: () => [...Object.values(PLAYER_EVENT_CLASSES), ResyncPlayerEvent] as const,
  resolveType: (value: { type: string }) =>
    value.type === 'resync'
      ? ResyncPlayerEvent
      : (PLAYER_EVENT_CLASSES[value.type as keyof typeof PLAYER_EVENT_CLASSES] ?? YourTurnEvent),
});

export const RESYNC_DETAIL =
  'Events after your position were pruned (retention): reload what you show, then follow from here';

/** The wire form of a stream item (SSE data, an NDJSON line, a GraphQL PlayerEvent). */
export function messageOf(item: PlayerEventRecord | Exclude<PlayerStreamItem, { kind: 'revoked' }>) {
  if ('kind' in item && isResync(item))
    return { seq: item.seq, type: 'resync', reason: item.reason, detail: RESYNC_DETAIL };
  return { seq: item.seq, type: item.type, createdAt: item.createdAt, data: item.data };
}

export class PlayerEventSettingsView {
  @ApiProperty({
    type: 'number',
    format: 'double',
    minimum: 0,
    maximum: 0.9,
    description:
      'deadlineSoon is raised when this share of the move time limit is left and I have not moved since yourTurn; 0 = never. Default 0.25.',
  })
  deadlineSoonShare: number;
  @ApiProperty({
    enum: PLAYER_EVENT_TYPES,
    isArray: true,
    description: 'The event types sent as Web Push notifications. Default: yourTurn and gameFinished.',
  })
  pushEvents: string[];
}

@ObjectType('PlayerEventSettings', { description: 'My settings of the event stream and of Web Push.' })
export class PlayerEventSettingsModel {
  @Field(() => Float) deadlineSoonShare: number;
  @Field(() => [PlayerEventTypeEnum]) pushEvents: string[];
}

@InputType({ description: 'Fields left out keep their value.' })
export class UpdatePlayerEventSettingsInput {
  @Field(() => Float, { nullable: true, description: '0 (never) to 0.9.' })
  @ApiPropertyOptional({ type: 'number', format: 'double', minimum: 0, maximum: 0.9 })
  @IsOptional()
  @IsNumber({ allowNaN: false, allowInfinity: false })
  @Min(0)
  @Max(0.9)
  deadlineSoonShare?: number;

  @Field(() => [PlayerEventTypeEnum], { nullable: true })
  @ApiPropertyOptional({ enum: PLAYER_EVENT_TYPES, isArray: true })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(PLAYER_EVENT_TYPES.length)
  @IsIn(PLAYER_EVENT_TYPES, { each: true })
  pushEvents?: string[];
}
