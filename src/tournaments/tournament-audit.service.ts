import { Injectable } from '@nestjs/common';
import { DomainException } from '../common/errors';
import { AuditService } from '../audit/audit.service';
import type { AuditBundle } from '@fairdice/core/fairness/audit-bundle';
import { canonicalJson } from '@fairdice/core/fairness/canonical';
import {
  gamesRoot,
  TOURNAMENT_AUDIT_FORMAT,
  TOURNAMENT_AUDIT_FORMAT_VERSION,
  type TournamentAuditBundle,
} from '@fairdice/core/fairness/tournament-verifier';
import type { AuthenticatedPlayer } from '../players/players.types';
import { TournamentsService } from './tournaments.service';

/**
 * One audit bundle for a whole ended tournament (docs/fairness.md §11): its events, every game's
 * own bundle, the standings, and a Merkle root over the games' final heads. Only once the
 * tournament has ended: before, a duplicate round's games are sealed to their own players.
 */
@Injectable()
export class TournamentAuditService {
  constructor(
    private readonly tournaments: TournamentsService,
    private readonly audit: AuditService,
  ) {}

  async bundle(player: AuthenticatedPlayer | null, id: string): Promise<TournamentAuditBundle> {
    return (await this.bundleWithTimes(player, id)).bundle;
  }

  /** The bundle and, per game (same order), when each of its events was stored (for GraphQL's typed events). */
  async bundleWithTimes(
    player: AuthenticatedPlayer | null,
    id: string,
  ): Promise<{ bundle: TournamentAuditBundle; gameEventTimes: Map<number, Date>[] }> {
    const t = await this.tournaments.loadFor(player, id);
    const s = t.state;
    if (s.status !== 'finished' && s.status !== 'cancelled')
      throw new DomainException(
        'TOURNAMENT_NOT_ENDED',
        `The tournament is ${s.status}: its audit bundle exists once it has finished or was cancelled (its seed is revealed then)`,
      );
    const places = s.roundStates.flatMap((r) => r.games.map((g) => ({ ...g, round: r.round })));
    const games: AuditBundle[] = [];
    const gameEventTimes: Map<number, Date>[] = [];
    for (const p of places) {
      const { bundle, eventTimes } = await this.audit.bundleForTournamentWithTimes(p.gameId);
      games.push(bundle);
      gameEventTimes.push(eventTimes);
    }
    const bundle: TournamentAuditBundle = {
      format: TOURNAMENT_AUDIT_FORMAT,
      formatVersion: TOURNAMENT_AUDIT_FORMAT_VERSION,
      tournamentId: s.id,
      commitment: s.commitment,
      tournamentSeed: s.tournamentSeed,
      events: t.events.map((e) => ({
        version: e.version,
        type: e.type,
        dataJson: canonicalJson(e.data),
        commandJson: e.command === null ? null : canonicalJson(e.command),
        prevHash: e.prevHash,
        hash: e.hash,
      })),
      games: games as unknown as TournamentAuditBundle['games'],
      standings: (await this.tournaments.standingsOf(t)).rows,
      gamesRoot: gamesRoot(
        places.map((p, i) => ({
          gameId: p.gameId,
          round: p.round,
          game: p.game,
          table: p.table,
          head: games[i].chainHead,
        })),
      ),
    };
    return { bundle, gameEventTimes };
  }
}
