import { randomUUID } from 'node:crypto';
import { seatOrder } from '@fairdice/core/fairness/seat-order';
/**
 * The matchmaker (docs/matchmaking.md): a pass pairs the open seeks by the pure rule
 * (`pairSeeks`, @fairdice/core/rules/seek) and, for each pairing, creates and starts the game
 * (GamesService.createStartedGame, seats in `seatOrder` of its commitment) and records `seekPaired` on each of its seeks through the one
 * command handler at the version the pass read.
 *
 * One pass at a time across every instance: a pass is ONE transaction that first takes the
 * transaction-scoped advisory lock MATCHMAKER_LOCK_KEY with a try-lock (an instance that finds
 * another pass running skips; the lock ends with the transaction, so a crashed instance never
 * holds it), then reads the open seeks FOR UPDATE. A pairing is never made twice: the seeks'
 * transitions are appended at their expected versions in the same transaction as the game, and
 * the decider refuses to pair a seek that is not open; any failure rolls the whole pass back
 * (no game without its paired seeks, no paired seek without its game). Passes run every
 * MATCHMAKER_INTERVAL_MS in every instance and when a seek is posted on this instance.
 */
import { Inject, Injectable, Logger, type OnModuleDestroy, type OnModuleInit } from '@nestjs/common';
import type { Pool } from 'pg';
import { isRatingPool, DEFAULT_RATING } from '@fairdice/core/rules/ratings';
import { pairSeeks, type WaitingSeek } from '@fairdice/core/rules/seek';
import { CommandHandler } from '../commands/command-handler';
import { APP_CONFIG, type AppConfig } from '../config/config';
import { PG_POOL } from '../database/pg-pool';
import { dbOr, inTransaction } from '../database/unit-of-work';
import { GamesService } from '../games/games.service';
import { SeekAggregate } from './seek-aggregate';

/** pg advisory lock key of the matchmaker's pass ("seek" in ASCII). */
export const MATCHMAKER_LOCK_KEY = 0x7365656b;

interface OpenSeekRow {
  id: string;
  player_id: string;
  pool: string;
  seats: number;
  rated: boolean;
  rating_min: number | null;
  rating_max: number | null;
  turn_time_limit_seconds: number | null;
  version: number;
  created_ms: string;
  now_ms: string;
  rating: number | null;
}

@Injectable()
export class MatchmakerService implements OnModuleInit, OnModuleDestroy {
  private readonly logger = new Logger('Matchmaker');
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;
  private again = false;
  private stopped = false;
  private failing = false;

  constructor(
    @Inject(PG_POOL) private readonly pool: Pool,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly handler: CommandHandler,
    private readonly seek: SeekAggregate,
    private readonly games: GamesService,
  ) {}

  onModuleInit(): void {
    if (!this.config.MATCHMAKER_ENABLED) return;
    this.timer = setInterval(() => this.wake(), this.config.MATCHMAKER_INTERVAL_MS);
    this.timer.unref();
  }

  async onModuleDestroy(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    await this.running;
  }

  /** Runs a pass now, or right after the one running (a seek posted meanwhile is seen). */
  wake(): void {
    if (!this.config.MATCHMAKER_ENABLED || this.stopped) return;
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = (async () => {
      do {
        this.again = false;
        await this.pass().then(
          () => {
            if (this.failing) this.logger.log('matchmaker passes succeed again');
            this.failing = false;
          },
          (err: unknown) => {
            // Once per failure streak (a database outage would otherwise log every interval).
            if (!this.failing) this.logger.warn(`matchmaker pass failed (retrying): ${(err as Error).message}`);
            this.failing = true;
          },
        );
      } while (this.again && !this.stopped);
    })().finally(() => {
      this.running = null;
    });
  }

  /**
   * One pass: the games it made (their ids), or null when another instance's pass held the lock.
   * Nothing is locked when no seek is open (one cheap read).
   */
  async pass(): Promise<string[] | null> {
    const any = await this.pool.query(`SELECT 1 FROM seeks WHERE status = 'open' LIMIT 1`);
    if (any.rows.length === 0) return [];
    return inTransaction(this.pool, async () => {
      const db = dbOr(this.pool);
      const lock = await db.query<{ ok: boolean }>('SELECT pg_try_advisory_xact_lock($1) AS ok', [MATCHMAKER_LOCK_KEY]);
      if (!lock.rows[0].ok) return null;
      // Waiting times on the database's clock: the same for every instance.
      const { rows } = await db.query<OpenSeekRow>(
        `SELECT s.id, s.player_id, s.pool, s.seats, s.rated, s.rating_min, s.rating_max, s.turn_time_limit_seconds,
                s.version, (extract(epoch from s.created_at) * 1000)::bigint AS created_ms,
                (extract(epoch from clock_timestamp()) * 1000)::bigint AS now_ms, r.rating
           FROM seeks s LEFT JOIN ratings r ON r.player_id = s.player_id AND r.pool = s.pool
          WHERE s.status = 'open' ORDER BY s.created_at, s.id FOR UPDATE OF s`,
      );
      if (rows.length === 0) return [];
      const waiting: WaitingSeek[] = rows.flatMap((r) =>
        isRatingPool(r.pool)
          ? [
              {
                id: r.id,
                playerId: r.player_id,
                pool: r.pool,
                seats: r.seats,
                rated: r.rated,
                turnTimeLimitSeconds: r.turn_time_limit_seconds,
                ratingMin: r.rating_min,
                ratingMax: r.rating_max,
                rating: r.rating ?? DEFAULT_RATING,
                createdAtMs: Number(r.created_ms),
              },
            ]
          : [],
      );
      const byId = new Map(rows.map((r) => [r.id, r]));
      const made: string[] = [];
      for (const pairing of pairSeeks(waiting, Number(rows[0].now_ms))) {
        const members = pairing.seekIds.map((id) => byId.get(id)!);
        const first = members[0];
        const { gameId } = await this.games.createStartedGame({
          gameId: randomUUID(),
          players: members.map((m) => m.player_id),
          ruleSet: first.pool as WaitingSeek['pool'],
          rated: first.rated,
          turnTimeLimitSeconds: first.turn_time_limit_seconds,
          advice: first.rated ? 'forbidden' : 'allowed',
          order: seatOrder,
        });
        for (const m of members) {
          const paired = await this.handler.serviceMove(this.seek, m.id, m.version, () =>
            Promise.resolve({ type: 'pair' as const, gameId, seekIds: pairing.seekIds }),
          );
          // The rows are locked by this pass: a seek that moved on is a bug, and the whole pass rolls back.
          if (paired === null) throw new Error(`seek ${m.id} moved on during the pass`);
        }
        made.push(gameId);
      }
      return made;
    });
  }
}
