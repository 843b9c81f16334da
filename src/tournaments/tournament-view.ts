import { canonicalJson } from '@fairdice/core/fairness/canonical';
import type { StoredTournamentEvent } from '../event-store/tournament-store.service';
import type { TournamentEventView, TournamentView } from './dto/tournament.models';
import type { TournamentState } from '@fairdice/core/rules/tournament';

/**
 * What the view is made from (TournamentsService's TournamentSnapshot has this shape). Declared
 * here, not imported from the service, which imports this module: that was an import cycle.
 */
export interface TournamentViewSource {
  state: TournamentState;
  head: string;
  names: Record<string, string>;
  createdAt: Date;
  updatedAt: Date;
}

export function toTournamentView(t: TournamentViewSource): TournamentView {
  const s = t.state;
  return {
    id: s.id,
    name: s.name,
    organizerId: s.organizerId,
    organizerName: t.names[s.organizerId] ?? null,
    ruleSet: s.ruleSet,
    family: s.family,
    options: s.options,
    format: s.format,
    visibility: s.visibility,
    status: s.status,
    maxEntrants: s.maxEntrants,
    rounds: s.rounds,
    gamesPerRound: s.gamesPerRound,
    tableSizeMin: s.tableSizeMin,
    tableSizeMax: s.tableSizeMax,
    turnTimeLimitSeconds: s.turnTimeLimitSeconds,
    entryClosesAt: s.entryClosesAt,
    startsAt: s.startsAt,
    commitment: s.commitment,
    organizerSeed: s.status === 'registering' ? null : s.organizerSeed,
    tournamentSeed: s.tournamentSeed,
    cancelReason: s.cancelReason,
    version: s.version,
    chainHead: t.head,
    entrants: s.entrants.map((e) => ({
      number: e.number,
      playerId: e.playerId,
      displayName: t.names[e.playerId] ?? null,
      clientSeed: e.clientSeed,
      clientSeedGenerated: e.clientSeedGenerated,
      status: e.status,
      reason: e.reason,
    })),
    roundDetails: s.roundStates.map((r) => ({
      round: r.round,
      finished: r.finished,
      roundSeed: r.roundSeed,
      games: r.games.map((g) => ({ gameId: g.gameId, game: g.game, table: g.table, entrants: [...g.entrants] })),
    })),
    createdAt: t.createdAt,
    updatedAt: t.updatedAt,
  };
}

export const toTournamentEventView = (e: StoredTournamentEvent): TournamentEventView => ({
  version: e.version,
  type: e.type,
  dataJson: canonicalJson(e.data),
  commandJson: e.command === null ? null : canonicalJson(e.command),
  prevHash: e.prevHash,
  hash: e.hash,
  createdAt: e.createdAt,
});
