/** Tournament views shared by REST (OpenAPI) and GraphQL (@ObjectType). */
import { Field, ID, Int, ObjectType } from '@nestjs/graphql';
import { ApiProperty } from '@nestjs/swagger';
import { apiRef } from '../../common/openapi/json-schema';
import { RuleSetNameEnum, GameFamilyEnum, VisibilityEnum } from '../../common/graphql/enums';
import { TOURNAMENT_EVENT_TYPES } from '@fairdice/core/rules/tournament';
import {
  ENTRANT_STATUSES,
  EntrantStatusEnum,
  TOURNAMENT_FORMATS,
  TOURNAMENT_STATUSES,
  TournamentEventTypeEnum,
  TournamentFormatEnum,
  TournamentStatusEnum,
} from './tournament.inputs';

const nullableString = { type: String, nullable: true } as const;

@ObjectType({ description: 'An entrant: their seed is public entropy of every round seed.' })
export class EntrantView {
  @Field(() => Int, { description: '1-based, in registration order (the order of the seeds in the round seed).' })
  @ApiProperty()
  number: number;
  @Field(() => ID) @ApiProperty({ format: 'uuid' }) playerId: string;
  @Field(() => String, { nullable: true }) @ApiProperty(nullableString) displayName: string | null;
  @Field() @ApiProperty() clientSeed: string;
  @Field({ description: 'True when the service generated the seed (the entrant gave none).' })
  @ApiProperty()
  clientSeedGenerated: boolean;
  @Field(() => EntrantStatusEnum)
  @ApiProperty({ enum: ENTRANT_STATUSES, enumName: 'EntrantStatus' })
  status: string;
  @Field(() => String, { nullable: true, description: 'Why the entrant withdrew or was disqualified.' })
  @ApiProperty(nullableString)
  reason: string | null;
}

@ObjectType({ description: 'One game of a round: who sits where.' })
export class RoundGameView {
  @Field(() => ID) @ApiProperty({ format: 'uuid' }) gameId: string;
  @Field(() => Int, { description: '0-based game of the round.' }) @ApiProperty() game: number;
  @Field(() => Int, { description: '0-based table of the draw (0 in duplicate rounds).' }) @ApiProperty() table: number;
  @Field(() => [Int], { description: 'Entrant numbers in seat order.' })
  @ApiProperty({ type: [Number] })
  entrants: number[];
}

@ObjectType({ description: 'A round of the tournament.' })
export class TournamentRoundView {
  @Field(() => Int) @ApiProperty() round: number;
  @Field() @ApiProperty() finished: boolean;
  @Field(() => String, {
    nullable: true,
    description: 'The round seed (hex), revealed when every game of the round has ended.',
  })
  @ApiProperty(nullableString)
  roundSeed: string | null;
  @Field(() => [RoundGameView]) @ApiProperty({ type: [RoundGameView] }) games: RoundGameView[];
}

@ObjectType({ description: 'A tournament (docs/tournaments.md).' })
export class TournamentView {
  @Field(() => ID) @ApiProperty({ format: 'uuid' }) id: string;
  @Field() @ApiProperty() name: string;
  @Field(() => ID) @ApiProperty({ format: 'uuid' }) organizerId: string;
  @Field(() => String, { nullable: true }) @ApiProperty(nullableString) organizerName: string | null;
  @Field(() => RuleSetNameEnum) @ApiProperty(apiRef('RuleSetName')) ruleSet: string;
  @Field(() => GameFamilyEnum) @ApiProperty(apiRef('GameFamily')) family: string;
  // GraphQL: ruleOptions (typed, TournamentsResolver); REST: options.
  @ApiProperty(apiRef('GameOptions'))
  options: Record<string, unknown>;
  @Field(() => TournamentFormatEnum)
  @ApiProperty({ enum: TOURNAMENT_FORMATS, enumName: 'TournamentFormat' })
  format: string;
  @Field(() => VisibilityEnum) @ApiProperty(apiRef('Visibility')) visibility: string;
  @Field(() => TournamentStatusEnum)
  @ApiProperty({ enum: TOURNAMENT_STATUSES, enumName: 'TournamentStatus' })
  status: string;
  @Field(() => Int) @ApiProperty() maxEntrants: number;
  @Field(() => Int) @ApiProperty() rounds: number;
  @Field(() => Int) @ApiProperty() gamesPerRound: number;
  @Field(() => Int) @ApiProperty() tableSizeMin: number;
  @Field(() => Int) @ApiProperty() tableSizeMax: number;
  @Field(() => Int, { nullable: true }) @ApiProperty({ type: Number, nullable: true }) turnTimeLimitSeconds:
    number | null;
  @Field(() => String, { nullable: true })
  @ApiProperty({ type: String, nullable: true, format: 'date-time' })
  entryClosesAt: string | null;
  @Field(() => String, { nullable: true })
  @ApiProperty({ type: String, nullable: true, format: 'date-time' })
  startsAt: string | null;
  @Field({ description: 'SHA-256 (hex) of the tournament seed, published at creation.' })
  @ApiProperty({ pattern: '^[0-9a-f]{64}$' })
  commitment: string;
  @Field(() => String, {
    nullable: true,
    description: 'Fixed when registration closes (generated if the organizer set none).',
  })
  @ApiProperty(nullableString)
  organizerSeed: string | null;
  @Field(() => String, { nullable: true, description: 'The tournament seed (hex), revealed when the tournament ends.' })
  @ApiProperty(nullableString)
  tournamentSeed: string | null;
  @Field(() => String, { nullable: true }) @ApiProperty(nullableString) cancelReason: string | null;
  @Field(() => Int, { description: 'Number of events in the tournament stream.' }) @ApiProperty() version: number;
  @Field({ description: 'Hash of the last event (the commitment before any).' }) @ApiProperty() chainHead: string;
  @Field(() => [EntrantView]) @ApiProperty({ type: [EntrantView] }) entrants: EntrantView[];
  @Field(() => [TournamentRoundView]) @ApiProperty({ type: [TournamentRoundView] }) roundDetails: TournamentRoundView[];
  @Field() @ApiProperty() createdAt: Date;
  @Field() @ApiProperty() updatedAt: Date;
}

@ObjectType({ description: 'A page of tournaments, newest first.' })
export class TournamentPage {
  @Field(() => [TournamentView]) @ApiProperty({ type: [TournamentView] }) items: TournamentView[];
  @Field(() => String, { nullable: true }) @ApiProperty(nullableString) nextCursor: string | null;
}

@ObjectType({ description: "An entrant's result in one round." })
export class StandingRoundView {
  @Field(() => Int) @ApiProperty() round: number;
  @Field(() => Int) @ApiProperty() score: number;
  @Field(() => Int) @ApiProperty() matchPoints: number;
  @Field(() => Int) @ApiProperty() games: number;
}

@ObjectType({ description: 'One line of the standings (order and tie-breaks: docs/tournaments.md §4).' })
export class StandingRowView {
  @Field(() => Int, { description: 'Shared by entrants equal on every ranking key (1, 1, 3).' })
  @ApiProperty({ description: 'Shared by entrants equal on every ranking key (1, 1, 3).' })
  rank: number;
  @Field({ description: 'Another entrant has the same rank (shown as "1=").' })
  @ApiProperty({ description: 'Another entrant has the same rank (shown as "1=").' })
  tied: boolean;
  @Field(() => Int) @ApiProperty() entrant: number;
  @Field(() => ID) @ApiProperty({ format: 'uuid' }) playerId: string;
  @Field(() => String, { nullable: true }) @ApiProperty(nullableString) displayName: string | null;
  @Field(() => EntrantStatusEnum) @ApiProperty({ enum: ENTRANT_STATUSES, enumName: 'EntrantStatus' }) status: string;
  @Field(() => Int) @ApiProperty() totalScore: number;
  @Field(() => Int) @ApiProperty() matchPoints: number;
  @Field(() => Int) @ApiProperty() bestGame: number;
  @Field(() => Int) @ApiProperty() gamesPlayed: number;
  @Field(() => [StandingRoundView]) @ApiProperty({ type: [StandingRoundView] }) rounds: StandingRoundView[];
}

@ObjectType({ description: 'The standings now.' })
export class StandingsView {
  @Field(() => ID) @ApiProperty({ format: 'uuid' }) tournamentId: string;
  @Field(() => Int) @ApiProperty() version: number;
  @Field(() => TournamentStatusEnum)
  @ApiProperty({ enum: TOURNAMENT_STATUSES, enumName: 'TournamentStatus' })
  status: string;
  @Field({ description: "True when running tables games' current totals are counted." }) @ApiProperty() live: boolean;
  @Field(() => [StandingRowView]) @ApiProperty({ type: [StandingRowView] }) rows: StandingRowView[];
}

const DATA_JSON =
  "The event's data as canonical JSON text (RFC 8785): the verbatim member a verifier re-hashes (members per type: docs/tournaments.md §6).";
const COMMAND_JSON = 'The command of the batch as canonical JSON text (on the first event of a batch), else null.';

@ObjectType({ description: 'A stored tournament event: the hashed envelope (docs/tournaments.md §6).' })
export class TournamentEventView {
  @Field(() => Int) @ApiProperty() version: number;
  @Field(() => TournamentEventTypeEnum)
  @ApiProperty({ enum: TOURNAMENT_EVENT_TYPES, enumName: 'TournamentEventType' })
  type: string;
  @Field({ description: DATA_JSON })
  @ApiProperty({ description: DATA_JSON })
  dataJson: string;
  @Field(() => String, { nullable: true, description: COMMAND_JSON })
  @ApiProperty({ type: String, nullable: true, description: COMMAND_JSON })
  commandJson: string | null;
  @Field() @ApiProperty() prevHash: string;
  @Field() @ApiProperty() hash: string;
  @Field() @ApiProperty() createdAt: Date;
}
