/**
 * The game as a client sees it: ONE shape for REST (OpenAPI) and GraphQL.
 * Seats are numbered from 0 (the creator holds seat 0).
 */
import { Field, GraphQLISODateTime, ID, Int, ObjectType } from '@nestjs/graphql';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { JSONScalar } from './json.scalar';
import { connectionOf } from '../../common/graphql/connection';
import { apiRef, ref } from '../../common/openapi/json-schema';
import {
  AdviceSettingEnum,
  BoxIdEnum,
  ComputerLevelEnum,
  GameFamilyEnum,
  GameStatusEnum,
  RuleSetNameEnum,
  VisibilityEnum,
} from '../../common/graphql/enums';
import { GameEvent } from './game-event.types';
import type { GameEventView } from './game-event-view.model';

export { GameEventView } from './game-event-view.model';

@ObjectType({ description: 'One seat (numbered from 0; the creator holds seat 0).' })
export class SeatView {
  @Field(() => Int) @ApiProperty() seat: number;
  @Field(() => ID, { nullable: true }) @ApiProperty({ type: String, format: 'uuid', nullable: true }) playerId:
    string | null;
  @Field(() => String, {
    nullable: true,
    description: "The holder's display name; a hot seat's own name when it was given one (hotSeatNames).",
  })
  @ApiProperty({
    type: String,
    nullable: true,
    description: "The holder's display name; a hot seat's own name when it was given one (hotSeatNames).",
  })
  displayName: string | null;
  @Field({ description: 'Played by the creator from the same screen (their token).' }) @ApiProperty() hotSeat: boolean;
  @Field(() => ComputerLevelEnum, {
    nullable: true,
    description: 'The level of a seat the service plays (playerId null); null for a player’s seat or an open one.',
  })
  @ApiProperty({
    ...apiRef('ComputerLevel'),
    nullable: true,
    description: 'The level of a seat the service plays (playerId null); null for a player’s seat or an open one.',
  })
  computer: string | null;
  @Field(() => String, { nullable: true, description: 'Public entropy this seat adds to the dice.' })
  @ApiProperty({ type: String, nullable: true })
  clientSeed: string | null;
  @Field(() => Boolean, {
    nullable: true,
    description:
      "From the start on: true when nobody supplied this seat's seed and the service generated it at the start (it then protects nobody against the service), false when a player gave it. null before the start.",
  })
  @ApiProperty({ type: Boolean, nullable: true })
  clientSeedGenerated: boolean | null;
}

@ObjectType({ description: 'One box of a five-dice sheet: points, or null while open.' })
export class BoxView {
  @Field(() => BoxIdEnum) @ApiProperty(apiRef('BoxId')) box: string;
  @Field(() => Int, { nullable: true }) @ApiProperty({ type: Number, nullable: true }) points: number | null;
}

@ObjectType({ description: "A seat's five-dice sheet with its totals." })
export class FiveDiceSheetView {
  @Field(() => Int) @ApiProperty() seat: number;
  @Field(() => [BoxView]) @ApiProperty({ type: [BoxView] }) boxes: BoxView[];
  @Field(() => Int) @ApiProperty() upper: number;
  @Field(() => Int) @ApiProperty() upperBonus: number;
  @Field(() => Int) @ApiProperty() lower: number;
  @Field(() => Int) @ApiProperty() extraBonus: number;
  @Field(() => Int) @ApiProperty() total: number;
  @Field() @ApiProperty() quit: boolean;
}

@ObjectType({ description: 'An open box with what the current dice would score there.' })
export class BoxOptionView {
  @Field(() => BoxIdEnum) @ApiProperty(apiRef('BoxId')) box: string;
  @Field(() => Int) @ApiProperty() points: number;
  @Field(() => Int, { description: 'Extra five-of-a-kind bonus earned by entering the roll (any allowed box).' })
  @ApiProperty()
  bonus: number;
  @Field({ description: 'False when the joker rule forbids this box for this roll.' }) @ApiProperty() allowed: boolean;
}

@ObjectType({ description: "The current player's choices for the current dice." })
export class ScoreOptionsView {
  @Field(() => [BoxOptionView]) @ApiProperty({ type: [BoxOptionView] }) boxes: BoxOptionView[];
  @Field({ description: 'No allowed box scores above 0: a box must be sacrificed.' })
  @ApiProperty()
  mustSacrifice: boolean;
  @Field() @ApiProperty() jokerActive: boolean;
  @Field() @ApiProperty() fiveOfAKind: boolean;
}

@ObjectType({ description: 'Five-dice specifics (penta, simple, bonus).' })
export class FiveDiceView {
  @Field(() => Int, { description: 'Rolls made this turn (0 to 3).' }) @ApiProperty() rollInTurn: number;
  @Field(() => [FiveDiceSheetView]) @ApiProperty({ type: [FiveDiceSheetView] }) sheets: FiveDiceSheetView[];
  @Field(() => ScoreOptionsView, { nullable: true, description: 'For the current player, once the dice are rolled.' })
  @ApiProperty({ type: ScoreOptionsView, nullable: true })
  scoreOptions: ScoreOptionsView | null;
}

@ObjectType({ description: 'A scoring selection of Farkle dice (indices into the current roll).' })
export class SelectionView {
  @Field(() => [Int]) @ApiProperty({ type: [Number] }) dice: number[];
  @Field(() => [Int]) @ApiProperty({ type: [Number] }) faces: number[];
  @Field(() => Int) @ApiProperty() points: number;
}

@ObjectType({ description: "A seat's Farkle score." })
export class FarklePlayerView {
  @Field(() => Int) @ApiProperty() seat: number;
  @Field(() => Int) @ApiProperty() total: number;
  @Field() @ApiProperty() onBoard: boolean;
  @Field() @ApiProperty() quit: boolean;
  @Field(() => Int) @ApiProperty() farkleStreak: number;
}

const LAST_ROUND_SEATS =
  'Null until a player reaches the target. Then the seats that still get a last turn AFTER the turn being played now, in turn order: the current seat is not listed, so the list is empty during the final turn.';

@ObjectType({ description: 'Farkle specifics.' })
export class FarkleView {
  @Field(() => Int) @ApiProperty() target: number;
  @Field(() => Int) @ApiProperty() entryThreshold: number;
  @Field(() => [FarklePlayerView]) @ApiProperty({ type: [FarklePlayerView] }) players: FarklePlayerView[];
  @Field(() => Int, { description: 'Points of the turn so far.' }) @ApiProperty() turnPoints: number;
  @Field(() => Int, { description: 'Dice the next roll throws (6 after hot dice).' }) @ApiProperty() diceLeft: number;
  @Field(() => [Int], { description: 'Indices set aside from the current roll.' })
  @ApiProperty({ type: [Number] })
  setAside: number[];
  @Field(() => [Int], { description: 'Faces set aside from the current roll.' })
  @ApiProperty({ type: [Number] })
  setAsideFaces: number[];
  @Field(() => [SelectionView], { description: 'Scoring selections of the current roll (before setting aside).' })
  @ApiProperty({ type: [SelectionView] })
  selections: SelectionView[];
  @Field(() => SelectionView, { nullable: true })
  @ApiProperty({ type: SelectionView, nullable: true })
  bestSelection: SelectionView | null;
  @Field(() => [Int], { nullable: true, description: LAST_ROUND_SEATS })
  @ApiProperty({ type: [Number], nullable: true, description: LAST_ROUND_SEATS })
  lastRoundSeats: number[] | null;
}

@ObjectType({ description: 'Final standing of a seat (equal totals share a rank; quitters rank last).' })
export class StandingView {
  @Field(() => Int) @ApiProperty() seat: number;
  @Field(() => ID, { nullable: true }) @ApiProperty({ type: String, nullable: true }) playerId: string | null;
  @Field(() => String, { nullable: true }) @ApiProperty({ type: String, nullable: true }) displayName: string | null;
  @Field(() => Int) @ApiProperty() total: number;
  @Field(() => Int) @ApiProperty() rank: number;
  @Field() @ApiProperty() quit: boolean;
}

@ObjectType({ description: 'A game as its players see it.' })
export class GameView {
  @Field(() => ID) @ApiProperty({ format: 'uuid' }) id: string;
  @Field(() => RuleSetNameEnum) @ApiProperty(apiRef('RuleSetName')) ruleSet: string;
  @Field(() => GameFamilyEnum) @ApiProperty(apiRef('GameFamily')) family: string;
  @Field(() => JSONScalar, {
    description: "The family's resolved options.",
    deprecationReason: 'Use ruleOptions: the same values, typed per family.',
  })
  @ApiProperty(apiRef('GameOptions'))
  options: Record<string, unknown>;
  @Field(() => GameStatusEnum)
  @ApiProperty(apiRef('GameStatus'))
  status: string;
  @Field(() => VisibilityEnum) @ApiProperty(apiRef('Visibility')) visibility: string;
  @Field(() => Int, { description: 'Number of events so far (the version of the last one).' })
  @ApiProperty()
  version: number;
  @Field(() => Int) @ApiProperty() seatCount: number;
  @Field(() => ID) @ApiProperty({ format: 'uuid' }) creatorId: string;
  @Field(() => [SeatView]) @ApiProperty({ type: [SeatView] }) seats: SeatView[];
  @Field(() => Int, { nullable: true }) @ApiProperty({ type: Number, nullable: true }) currentSeat: number | null;
  @Field(() => ID, { nullable: true }) @ApiProperty({ type: String, nullable: true }) currentPlayerId: string | null;
  @Field(() => [Int], { description: 'Current dice (five dice: all five; Farkle: the current roll).' })
  @ApiProperty({ type: [Number] })
  dice: number[];
  @Field(() => [Int], {
    description: 'Five dice: indices held on the last roll; Farkle: indices set aside from the current roll.',
  })
  @ApiProperty({ type: [Number] })
  held: number[];
  @Field(() => Int, { nullable: true, description: 'Five dice: rolls left this turn; null for Farkle.' })
  @ApiProperty({ type: Number, nullable: true })
  rollsLeft: number | null;
  @Field(() => FiveDiceView, { nullable: true })
  @ApiPropertyOptional({ type: FiveDiceView, nullable: true })
  fiveDice: FiveDiceView | null;
  @Field(() => FarkleView, { nullable: true })
  @ApiPropertyOptional({ type: FarkleView, nullable: true })
  farkle: FarkleView | null;
  @Field(() => [StandingView], { nullable: true, description: 'Final ranking, once finished.' })
  @ApiProperty({ type: [StandingView], nullable: true })
  standings: StandingView[] | null;
  @Field(() => Int, { nullable: true }) @ApiProperty({ type: Number, nullable: true }) turnTimeLimitSeconds:
    number | null;
  @Field(() => ComputerLevelEnum, { description: "The level the game's timeouts and auto-scores play with." })
  @ApiProperty({ ...apiRef('ComputerLevel'), description: "The level the game's timeouts and auto-scores play with." })
  computerLevel: string;
  @Field(() => AdviceSettingEnum, {
    description: 'Whether the service gives advice for this game (docs/advice.md); fixed at creation.',
  })
  @ApiProperty(apiRef('AdviceSetting'))
  advice: string;
  @Field({ description: "A rated game: its result updates the players' ratings (docs/ratings.md); fixed at creation." })
  @ApiProperty({
    description: "A rated game: its result updates the players' ratings (docs/ratings.md); fixed at creation.",
  })
  rated: boolean;
  @Field(() => ID, { nullable: true, description: 'The finished game this one is a rematch of; null when none.' })
  @ApiProperty({
    type: String,
    format: 'uuid',
    nullable: true,
    description: 'The finished game this one is a rematch of; null when none.',
  })
  rematchOf: string | null;
  @Field(() => String, { nullable: true }) @ApiProperty({ type: String, nullable: true }) organizerSeed: string | null;
  @Field({ description: 'SHA-256 (hex) of the server seed, published at creation.' }) @ApiProperty() commitment: string;
  @Field({ description: 'Hash of the last event.' }) @ApiProperty() chainHead: string;
  @Field(() => String, {
    nullable: true,
    description: 'The server seed (hex), revealed only once the game is finished or abandoned.',
  })
  @ApiProperty({ type: String, nullable: true })
  serverSeed: string | null;
  @Field(() => GraphQLISODateTime) @ApiProperty({ type: String, format: 'date-time' }) createdAt: Date;
  @Field(() => GraphQLISODateTime) @ApiProperty({ type: String, format: 'date-time' }) updatedAt: Date;
  @Field(() => GraphQLISODateTime, { nullable: true })
  @ApiProperty({ type: String, format: 'date-time', nullable: true })
  startedAt: Date | null;
  @Field(() => GraphQLISODateTime, { nullable: true })
  @ApiProperty({ type: String, format: 'date-time', nullable: true })
  finishedAt: Date | null;
}

@ObjectType({ description: 'A game in a list (from the read model).' })
export class GameSummaryView {
  @Field(() => ID) @ApiProperty({ format: 'uuid' }) id: string;
  @Field(() => RuleSetNameEnum) @ApiProperty(apiRef('RuleSetName')) ruleSet: string;
  @Field(() => GameFamilyEnum) @ApiProperty(apiRef('GameFamily')) family: string;
  @Field(() => GameStatusEnum) @ApiProperty(apiRef('GameStatus')) status: string;
  @Field(() => VisibilityEnum) @ApiProperty(apiRef('Visibility')) visibility: string;
  @Field(() => Int) @ApiProperty() version: number;
  @Field(() => Int) @ApiProperty() seatCount: number;
  @Field(() => Int, { description: 'Seats held by a player or played by the computer.' })
  @ApiProperty({ description: 'Seats held by a player or played by the computer.' })
  seatsTaken: number;
  @Field(() => Int, { description: 'Seats the computer plays: > 0 in a game against computer opponents.' })
  @ApiProperty({ description: 'Seats the computer plays: > 0 in a game against computer opponents.' })
  computerSeats: number;
  @Field(() => ID) @ApiProperty({ format: 'uuid' }) creatorId: string;
  @Field(() => Int, { nullable: true }) @ApiProperty({ type: Number, nullable: true }) currentSeat: number | null;
  @Field(() => ID, { nullable: true }) @ApiProperty({ type: String, nullable: true }) currentPlayerId: string | null;
  @Field({ description: 'It is the caller’s move.' }) @ApiProperty() awaitingMyMove: boolean;
  @Field(() => GraphQLISODateTime) @ApiProperty({ type: String, format: 'date-time' }) createdAt: Date;
  @Field(() => GraphQLISODateTime) @ApiProperty({ type: String, format: 'date-time' }) updatedAt: Date;
}

@ObjectType({ description: 'A page of games, newest first.' })
export class GamePage {
  @Field(() => [GameSummaryView]) @ApiProperty({ type: [GameSummaryView] }) items: GameSummaryView[];
  @Field(() => Int, {
    nullable: true,
    description: 'Offset of the next page, or null on the last page (and when paging by cursor).',
    deprecationReason: 'Offsets shift while games are created; use gamesConnection (first/after).',
  })
  @ApiProperty({
    type: 'integer',
    nullable: true,
    deprecated: true,
    description:
      'Deprecated (use nextCursor): offset of the next page; null on the last page and when paging by cursor.',
  })
  nextOffset: number | null;
  @ApiProperty({
    type: String,
    nullable: true,
    description: 'Pass as `cursor` for the next page (opaque); null on the last page.',
  })
  nextCursor: string | null;
}

@ObjectType('GameConnection', { description: 'Games, newest first (Relay connection; decision 0025).' })
export class GameConnection extends connectionOf(GameSummaryView, 'Game', 'game') {}

@ObjectType({ description: 'A page of events, oldest first.' })
export class GameEventPage {
  @Field(() => [GameEvent]) @ApiProperty({ type: 'array', items: ref('GameEvent') }) items: GameEventView[];
  @Field(() => Int, { nullable: true, description: 'Pass as `after` for the next page; null when no more events.' })
  @ApiProperty({ type: Number, nullable: true })
  nextAfter: number | null;
  @ApiProperty({
    type: String,
    nullable: true,
    description: 'Pass as `cursor` for the next page (opaque); null when no more events.',
  })
  nextCursor: string | null;
}

@ObjectType('GameEventConnection', { description: "A game's events, oldest first (Relay connection)." })
export class GameEventConnection extends connectionOf(GameEvent, 'GameEvent', 'event') {}

/**
 * The compact answer to a command (REST, `Prefer: return=minimal`): the events the command
 * appended and the game's new version, for clients that keep their own state (docs/api.md).
 */
export class CommandEventsView {
  @ApiProperty({ format: 'uuid' }) gameId: string;
  @ApiProperty({ description: "The game's version after the command: the version of its last event (also the ETag)." })
  version: number;
  @ApiProperty({
    type: 'array',
    items: ref('GameEvent'),
    description:
      'The events this command appended, oldest first (as GET /v1/games/{id}/events and the stream give them).',
  })
  events: GameEventView[];
}
