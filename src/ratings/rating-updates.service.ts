/**
 * The update of ratings (docs/ratings.md): applies each finished rated game to its players'
 * Glicko-2 ratings once, as the job RATING_QUEUE that the finishing command schedules with its
 * events. The reads are RatingsService's.
 */
import { Inject, Injectable, OnModuleInit } from '@nestjs/common';
import type { Pool } from 'pg';
import { isRatingPool, type PlayerRating, rateGame, type RatingPool } from '@fairdice/core/rules/ratings';
import type { GameState } from '@fairdice/core/rules/game';
import { JobQueue, type ClaimedJob } from '../async/jobs/job-queue.service';
import { PG_POOL } from '../database/pg-pool';
import { dbOr, inTransaction, type Queryable } from '../database/unit-of-work';
import { RATING_QUEUE, type RatingPayload } from '../event-store/async-effects';
import { EventStore } from '../event-store/event-store.service';
import type { RatedSeatView } from './rating-views';

/** The seats of a finished rated game as rating results: final totals, and who forfeited (quit or ran out of time). */
export function ratedSeatsOf(state: GameState, timedOutSeats: ReadonlySet<number>): RatedSeatView[] {
  const standings = state.standings ?? [];
  return state.seats.map((s) => {
    const st = standings.find((x) => x.seat === s.seat);
    return {
      seat: s.seat,
      playerId: s.playerId ?? '',
      total: st?.total ?? 0,
      forfeited: Boolean(st?.quit) || timedOutSeats.has(s.seat),
    };
  });
}

@Injectable()
export class RatingUpdatesService implements OnModuleInit {
  constructor(
    @Inject(PG_POOL) private readonly pool: Pool,
    private readonly store: EventStore,
    private readonly jobs: JobQueue,
  ) {}

  onModuleInit(): void {
    this.jobs.register(RATING_QUEUE, (job) => this.handleJob(job));
  }

  async handleJob(job: ClaimedJob): Promise<void> {
    const payload = job.payload as Partial<RatingPayload>;
    if (typeof payload.gameId === 'string') await this.rateFinishedGame(payload.gameId);
  }

  /**
   * Applies a finished rated game to its players' ratings, once: the row of rated_games (unique
   * game id) is inserted in the same transaction as the ratings and their history, after the
   * players' rating locks are held, so `seq` orders every player's updates as they applied.
   * Returns false when there was nothing to do (not rated, not finished, already applied).
   */
  async rateFinishedGame(gameId: string, now = new Date()): Promise<boolean> {
    const g = await this.store.load(gameId);
    if (!g || !g.state.rated || g.state.status !== 'finished' || !isRatingPool(g.state.ruleSet)) return false;
    const pool: RatingPool = g.state.ruleSet;
    const finishedAt = g.row.finishedAt ?? now;
    const timedOut = await this.timedOutSeats(gameId);
    const seats = ratedSeatsOf(g.state, timedOut);
    if (seats.some((s) => s.playerId === '') || new Set(seats.map((s) => s.playerId)).size !== seats.length)
      return false; // every seat of a rated game is a different player (decideCreate, join)
    return inTransaction(this.pool, async () => {
      const db = dbOr(this.pool);
      // Per player and pool, in one order: concurrent games of a player apply one after the other.
      for (const id of [...seats.map((s) => s.playerId)].sort())
        await db.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`rating:${pool}:${id}`]);
      const inserted = await db.query<{ seq: string }>(
        `INSERT INTO rated_games (game_id, pool, finished_at, seats) VALUES ($1, $2, $3, $4::jsonb)
         ON CONFLICT (game_id) DO NOTHING RETURNING seq`,
        [gameId, pool, finishedAt, JSON.stringify(seats)],
      );
      if (inserted.rows.length === 0) return false; // already applied
      const seq = String(inserted.rows[0].seq);
      const current = await this.currentRatings(
        db,
        pool,
        seats.map((s) => s.playerId),
      );
      const changes = rateGame(seats, current, finishedAt.getTime());
      for (const c of changes) {
        await db.query(
          `INSERT INTO ratings (player_id, pool, rating, rd, volatility, games, wins, draws, losses, last_game_at, updated_at)
           VALUES ($1, $2, $3, $4, $5, 1, $6, $7, $8, $9, now())
           ON CONFLICT (player_id, pool) DO UPDATE SET rating = $3, rd = $4, volatility = $5,
             games = ratings.games + 1, wins = ratings.wins + $6, draws = ratings.draws + $7,
             losses = ratings.losses + $8, last_game_at = $9, updated_at = now()`,
          [c.playerId, pool, c.after.rating, c.after.rd, c.after.volatility, c.wins, c.draws, c.losses, finishedAt],
        );
        await db.query(
          `INSERT INTO rating_updates (seq, player_id, pool, game_id, rating_before, rd_before, volatility_before,
             rating_after, rd_after, volatility_after, wins, draws, losses)
           VALUES ($1::bigint, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13)`,
          [
            seq,
            c.playerId,
            pool,
            gameId,
            c.before.rating,
            c.before.rd,
            c.before.volatility,
            c.after.rating,
            c.after.rd,
            c.after.volatility,
            c.wins,
            c.draws,
            c.losses,
          ],
        );
      }
      return true;
    });
  }

  /** Seats that ran out of time at least once: the first event of a `timeout` command names the seat. */
  private async timedOutSeats(gameId: string): Promise<Set<number>> {
    const r = await this.pool.query<{ seat: number | null }>(
      `SELECT DISTINCT (payload->'command'->>'seat')::int AS seat FROM game_events
        WHERE game_id = $1 AND payload->'command'->>'type' = 'timeout'`,
      [gameId],
    );
    return new Set(r.rows.flatMap((x) => (x.seat === null ? [] : [x.seat])));
  }

  private async currentRatings(db: Queryable, pool: string, ids: string[]): Promise<Map<string, PlayerRating>> {
    const r = await db.query<CurrentRatingRow>(
      `SELECT player_id, rating, rd, volatility, last_game_at FROM ratings WHERE pool = $1 AND player_id = ANY($2::uuid[])`,
      [pool, ids],
    );
    const out = new Map<string, PlayerRating>();
    for (const row of r.rows)
      out.set(row.player_id, {
        rating: row.rating,
        rd: row.rd,
        volatility: row.volatility,
        lastGameAtMs: row.last_game_at.getTime(),
      });
    return out;
  }
}

interface CurrentRatingRow {
  player_id: string;
  rating: number;
  rd: number;
  volatility: number;
  last_game_at: Date;
}
