/**
 * A tournament's rounds, the part the service runs by itself: the scheduled start, each round's
 * draw and games (created and started as ordinary game commands), a round's end once its last game
 * ended, the next round or the finish. Jobs of TOURNAMENT_QUEUE drive it (a game's end, the start
 * time); every step is a tournament decision appended at the expected version in one transaction,
 * one at a time per tournament on this instance (`serialized`, shared with the commands).
 */
import { randomUUID } from 'node:crypto';
import { Inject, Injectable, OnModuleInit } from '@nestjs/common';
import type { Pool } from 'pg';
import { bytesToHex } from '@fairdice/core/fairness/bytes';
import { roundSeed, tableDraw } from '@fairdice/core/fairness/tournament';
import {
  minEntrants,
  roundSeedInputs,
  type GameResult,
  type RoundGame,
  type TournamentCommand,
  type TournamentState,
} from '@fairdice/core/rules/tournament';
import { JobQueue, type ClaimedJob } from '../async/jobs/job-queue.service';
import { DomainException } from '../common/errors';
import { PG_POOL } from '../database/pg-pool';
import { inTransaction } from '../database/unit-of-work';
import { TOURNAMENT_QUEUE } from '../event-store/async-effects';
import { TournamentStore, type LoadedTournament } from '../event-store/tournament-store.service';
import { generateClientSeed, generateServerSeed } from '../fairness/seed-generation';
import { GamesService } from '../games/games.service';
import { TournamentAggregate } from './tournament-aggregate';
import { TournamentBus } from './tournament-bus';

@Injectable()
export class TournamentRounds implements OnModuleInit {
  constructor(
    private readonly store: TournamentStore,
    private readonly games: GamesService,
    private readonly jobs: JobQueue,
    private readonly bus: TournamentBus,
    @Inject(PG_POOL) private readonly pool: Pool,
    private readonly aggregate: TournamentAggregate,
  ) {}

  onModuleInit(): void {
    this.jobs.register(TOURNAMENT_QUEUE, (job) => this.handleJob(job));
  }

  /** Job handler: a tournament game ended (payload.round) or the scheduled start came (kind 'start'). */
  async handleJob(job: ClaimedJob): Promise<void> {
    const payload = job.payload as { tournamentId?: string; kind?: string; round?: number };
    if (typeof payload.tournamentId !== 'string') return;
    const id = payload.tournamentId;
    if (payload.kind === 'start') return this.scheduledStart(id);
    return this.progress(id);
  }

  private async scheduledStart(id: string): Promise<void> {
    await this.serialized(id, async () => {
      const t = await this.store.load(id);
      if (!t || (t.state.status !== 'registering' && t.state.status !== 'closed')) return;
      const active = t.state.entrants.filter((e) => e.status === 'active').length;
      const sizes = this.seatable(t.state, active);
      if (active < minEntrants(t.state) || !sizes) {
        // Too few entrants at the scheduled time: the tournament is cancelled, with the reason recorded.
        const out = await inTransaction(this.pool, () =>
          this.apply(t, {
            type: 'cancel',
            playerId: null,
            reason: `too few entrants at the scheduled start (${active}, at least ${minEntrants(t.state)} needed)`,
            tournamentSeed: t.row.tournamentSeed,
          }),
        );
        this.bus.publish(id, out);
        return;
      }
      const out = await inTransaction(this.pool, () => this.startNow(t, null));
      this.bus.publish(id, out);
    });
  }

  /** Finishes the running round when all its games ended; then starts the next round or finishes the tournament. */
  async progress(id: string): Promise<void> {
    await this.serialized(id, async () => {
      const out = await inTransaction(this.pool, async () => {
        let t = await this.store.load(id);
        if (!t || t.state.status !== 'running') return null;
        const running = t.state.roundStates.find((r) => !r.finished);
        if (!running) return null;
        const rows = await this.store.roundGames(id, running.round);
        if (rows.length < running.games.length || rows.some((g) => g.status !== 'finished' && g.status !== 'abandoned'))
          return null;
        const results = running.games.map((g) =>
          resultOf(
            rows.find((r) => r.id === g.gameId)!,
            g.entrants.length,
          ),
        );
        const seedHex = bytesToHex(this.roundSeedOf(t, running.round));
        t = await this.apply(t, { type: 'finishRound', round: running.round, roundSeed: seedHex, results });
        await this.store.unsealRound(id, running.round);
        if (running.round < t.state.rounds) {
          const next = await this.startRound(t, running.round + 1);
          if (next) return next;
        }
        return this.apply(t, { type: 'finish', tournamentSeed: t.row.tournamentSeed });
      });
      if (out) this.bus.publish(id, out);
    });
  }

  /** Closes registration if still open, starts, and creates round 1 (one transaction). */
  async startNow(t: LoadedTournament, by: string | null): Promise<LoadedTournament> {
    if (by !== null && by !== t.state.organizerId)
      throw new DomainException('NOT_ORGANIZER', 'only the organizer of the tournament can do this');
    if (t.state.status === 'registering') {
      t = await this.apply(t, {
        type: 'closeRegistration',
        playerId: by,
        generatedOrganizerSeed: generateClientSeed(),
      });
    }
    const active = t.state.entrants.filter((e) => e.status === 'active').length;
    if (t.state.status === 'closed' && active >= minEntrants(t.state) && !this.seatable(t.state, active))
      throw new DomainException(
        'TOO_FEW_ENTRANTS',
        `${active} entrants cannot be seated at tables of ${t.state.tableSizeMin} to ${t.state.tableSizeMax}`,
        { entrants: active, tableSizeMin: t.state.tableSizeMin, tableSizeMax: t.state.tableSizeMax },
      );
    t = await this.apply(t, { type: 'start', playerId: by });
    const started = await this.startRound(t, 1);
    if (!started) throw new Error('round 1 could not be seated'); // checked above
    return started;
  }

  private seatable(s: TournamentState, active: number): boolean {
    if (s.format === 'duplicate') return active >= 2;
    return (
      tableDraw(
        new Uint8Array(32),
        Array.from({ length: active }, (_, i) => `e${i}`),
        s.tableSizeMin,
        s.tableSizeMax,
      ) !== null
    );
  }

  private roundSeedOf(t: LoadedTournament, round: number): Uint8Array {
    return roundSeed({
      tournamentSeed: Buffer.from(t.row.tournamentSeed, 'hex'),
      tournamentId: t.row.id,
      round,
      seeds: roundSeedInputs(t.state),
    });
  }

  /**
   * Draws round `round`, creates and starts its games and records roundStarted. null when the
   * active entrants can no longer be seated (withdrawals): the tournament then finishes.
   */
  private async startRound(t: LoadedTournament, round: number): Promise<LoadedTournament | null> {
    const s = t.state;
    const seed = this.roundSeedOf(t, round);
    const active = s.entrants.filter((e) => e.status === 'active').sort((a, b) => a.number - b.number);
    const byPlayer = new Map(active.map((e) => [e.playerId, e]));
    const games: Array<RoundGame & { serverSeed: string; sealed: boolean }> = [];
    if (s.format === 'duplicate') {
      if (active.length < 1) return null;
      for (let g = 0; g < s.gamesPerRound; g++)
        for (const e of active)
          games.push({
            gameId: randomUUID(),
            game: g,
            table: 0,
            entrants: [e.number],
            serverSeed: bytesToHex(seed),
            sealed: true,
          });
    } else {
      const tables = tableDraw(
        seed,
        active.map((e) => e.playerId),
        s.tableSizeMin,
        s.tableSizeMax,
      );
      if (!tables) return null;
      for (let g = 0; g < s.gamesPerRound; g++)
        tables.forEach((players, table) =>
          games.push({
            gameId: randomUUID(),
            game: g,
            table,
            entrants: players.map((p) => byPlayer.get(p)!.number),
            serverSeed: generateServerSeed().toString('hex'),
            sealed: false,
          }),
        );
    }
    const next = await this.apply(t, {
      type: 'startRound',
      round,
      games: games.map(({ gameId, game, table, entrants }) => ({ gameId, game, table, entrants })),
    });
    const byNumber = new Map(active.map((e) => [e.number, e]));
    for (const g of games) {
      await this.games.createTournamentGame({
        gameId: g.gameId,
        ruleSet: s.ruleSet,
        options: s.options,
        // Duplicate games are seen by their own player only (docs/tournaments.md §5).
        visibility: s.format === 'duplicate' ? 'private' : s.visibility,
        turnTimeLimitSeconds: s.turnTimeLimitSeconds,
        serverSeed: g.serverSeed,
        seedSealed: g.sealed,
        organizerSeed: s.organizerSeed!,
        seats: g.entrants.map((n) => ({
          playerId: byNumber.get(n)!.playerId,
          clientSeed: byNumber.get(n)!.clientSeed,
        })),
        tournament: { id: s.id, format: s.format, round, game: g.game, table: g.table },
      });
    }
    return next;
  }

  /** One decision appended at the loaded version (a step of a command, a round's end, a scheduled start). */
  apply(t: LoadedTournament, command: TournamentCommand): Promise<LoadedTournament> {
    return this.aggregate.append(t, this.aggregate.decide(t, command), command);
  }

  /**
   * Commands on one tournament run one at a time on this instance (the expected-version rule
   * guards across instances: a racing writer gets VERSION_CONFLICT and nothing is stored).
   */
  private readonly queues = new Map<string, Promise<unknown>>();
  serialized<T>(id: string, fn: () => Promise<T>): Promise<T> {
    const prev = this.queues.get(id) ?? Promise.resolve();
    const run = prev.then(fn, fn);
    const tail = run.catch(() => undefined);
    this.queues.set(id, tail);
    void tail.then(() => {
      if (this.queues.get(id) === tail) this.queues.delete(id);
    });
    return run;
  }
}

/** A game's result from its read model: each seat's total (0 for a game with no standings). */
function resultOf(
  g: { id: string; status: string; standings: Array<{ seat: number; total: number }> | null },
  seats: number,
): GameResult {
  const scores = Array.from({ length: seats }, (_, seat) => g.standings?.find((x) => x.seat === seat)?.total ?? 0);
  return { gameId: g.id, scores, status: g.status === 'abandoned' ? 'abandoned' : 'finished' };
}
