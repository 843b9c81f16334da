/**
 * The tournament audit bundle (docs/fairness.md §11): REST's document (TournamentAuditBundleView,
 * games as AuditBundle JSON) and GraphQL's typed twin (TournamentAuditBundleGraph, games as the
 * typed AuditBundle). Decision 0064 and its addendum.
 */
import { Field, ID, Int, ObjectType } from '@nestjs/graphql';
import { ApiProperty } from '@nestjs/swagger';
import { TOURNAMENT_EVENT_TYPES } from '@fairdice/core/rules/tournament';
import { AuditBundleView } from '../../audit/dto/audit-bundle.types';
import { StandingRowView } from './tournament.models';
import { TournamentEventTypeEnum } from './tournament.inputs';

const DATA_JSON = "The event's data as canonical JSON text (RFC 8785), verbatim as hashed.";
const COMMAND_JSON = 'The command of the batch as canonical JSON text (first event of a batch), else null.';
const FORMAT = "Always 'fairdice-tournament-audit'.";
const GAMES = "Every game's own audit bundle, in the order the roundStarted events list the games.";
const STANDINGS = 'The standings the results give (displayName is not checked by the verifier).';
const GAMES_ROOT =
  "Hex root of the RFC 9162 Merkle tree over the games' leaves (canonical JSON {gameId, round, game, table, head}).";

@ObjectType('TournamentBundleEvent', {
  description: "One of the tournament's hash-chained events in its audit bundle (docs/fairness.md §11).",
})
export class TournamentBundleEventView {
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
}

export class TournamentAuditBundleView {
  @ApiProperty({ enum: ['fairdice-tournament-audit'] }) format: string;
  @ApiProperty({ enum: [1] }) formatVersion: number;
  @ApiProperty({ format: 'uuid' }) tournamentId: string;
  @ApiProperty({ description: 'SHA-256 (hex) of the tournament seed, published at creation.' }) commitment: string;
  @ApiProperty({
    type: String,
    nullable: true,
    description: 'The tournament seed (hex), revealed when the tournament ended.',
  })
  tournamentSeed: string | null;
  @ApiProperty({ type: [TournamentBundleEventView] }) events: TournamentBundleEventView[];
  @ApiProperty({ type: 'array', items: { $ref: '#/components/schemas/AuditBundle' }, description: GAMES })
  games: object[];
  @ApiProperty({ type: [StandingRowView], description: STANDINGS })
  standings: StandingRowView[];
  @ApiProperty({ description: GAMES_ROOT })
  gamesRoot: string;
}

@ObjectType('TournamentAuditBundle', {
  description:
    'The audit bundle of a whole ended tournament (docs/fairness.md §11), typed: the members of GET /v1/tournaments/{id}/audit, each game as the typed AuditBundle.',
})
export class TournamentAuditBundleGraph {
  @Field({ description: FORMAT }) format: string;
  @Field(() => Int, { description: 'Always 1.' }) formatVersion: number;
  @Field(() => ID) tournamentId: string;
  @Field({ description: 'SHA-256 (hex) of the tournament seed, published at creation.' }) commitment: string;
  @Field(() => String, {
    nullable: true,
    description: 'The tournament seed (hex), revealed when the tournament ended.',
  })
  tournamentSeed: string | null;
  @Field(() => [TournamentBundleEventView]) events: TournamentBundleEventView[];
  @Field(() => [AuditBundleView], {
    description: `${GAMES} Typed; games(offset, limit) gives the slice from offset (default 0), at most limit (1 to 100; default all): page with small limits to stay under the query cost limit.`,
  })
  games: AuditBundleView[];
  @Field(() => [StandingRowView], { description: STANDINGS }) standings: StandingRowView[];
  @Field({ description: GAMES_ROOT }) gamesRoot: string;
}
