/** The tournament audit bundle as REST shows it (docs/fairness.md §11); REST only (see decision 0064). */
import { ApiProperty } from '@nestjs/swagger';
import { TOURNAMENT_EVENT_TYPES } from '@fairdice/core/rules/tournament';
import { StandingRowView } from './tournament.models';

export class TournamentBundleEventView {
  @ApiProperty() version: number;
  @ApiProperty({ enum: TOURNAMENT_EVENT_TYPES, enumName: 'TournamentEventType' }) type: string;
  @ApiProperty({ description: "The event's data as canonical JSON text (RFC 8785), verbatim as hashed." })
  dataJson: string;
  @ApiProperty({
    type: String,
    nullable: true,
    description: 'The command of the batch as canonical JSON text (first event of a batch), else null.',
  })
  commandJson: string | null;
  @ApiProperty() prevHash: string;
  @ApiProperty() hash: string;
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
  @ApiProperty({
    type: 'array',
    items: { $ref: '#/components/schemas/AuditBundle' },
    description: "Every game's own audit bundle, in the order the roundStarted events list the games.",
  })
  games: object[];
  @ApiProperty({
    type: [StandingRowView],
    description: 'The standings the results give (displayName is not checked by the verifier).',
  })
  standings: StandingRowView[];
  @ApiProperty({
    description:
      "Hex root of the RFC 9162 Merkle tree over the games' leaves (canonical JSON {gameId, round, game, table, head}).",
  })
  gamesRoot: string;
}
