/**
 * Ratings (docs/ratings.md): applies each finished rated game to its players' Glicko-2 ratings
 * once (the job RATING_QUEUE that the finishing command schedules with its events), and reads
 * them back: a player's ratings and history, the rating leaderboards, and the public list of
 * rated results from which anyone can recompute every rating.
 */
import { Inject, Injectable, OnModuleInit, Optional } from '@nestjs/common';
import type { Pool } from 'pg';
import {
  currentDeviation,
  isProvisional,
  isRatingPool,
  type PlayerRating,
  rateGame,
  type RatedSeat,
  type Rating,
  type RatingPool,
  RATING_POOLS,
} from '@fairdice/core/rules/ratings';
import type { GameState } from '@fairdice/core/rules/game';
import { JobQueue, type ClaimedJob } from '../async/jobs/job-queue.service';
import { APP_CONFIG, type AppConfig } from '../config/config';
import { DomainException } from '../common/errors';
import { cursorPage, decodeCursor, type CursorPage } from '../common/pagination/cursor';
import type { PageRequest } from '../common/pagination/page-request';
import { PG_POOL } from '../database/prisma.service';
import { dbOr, inTransaction, type Queryable } from '../database/unit-of-work';
import { RATING_QUEUE, type RatingPayload } from '../event-store/async-effects';
import { EventStore } from '../event-store/event-store.service';

/** One seat of a rated result as the public list gives it. */
export interface RatedSeatView extends RatedSeat {
  seat: number;
}

export interface RatingValues {
  rating: number;
  rd: number;
  volatility: number;
}

export interface RatedResultView {
  seq: number;
  gameId: string;
  pool: string;
  finishedAt: Date;
  seats: RatedSeatView[];
  changes: Array<{ playerId: string; before: RatingValues; after: RatingValues }>;
}

export interface PlayerRatingView extends RatingValues {
  pool: string;
  /** The deviation now: grown by the time since the last rated game (docs/ratings.md §2.3). */
  currentRd: number;
  provisional: boolean;
  games: number;
  wins: number;
  draws: number;
  losses: number;
  lastGameAt: Date;
}

export interface RatingHistoryEntry {
  seq: number;
  gameId: string;
  pool: string;
  finishedAt: Date;
  before: RatingValues;
  after: RatingValues;
  wins: number;
  draws: number;
  losses: number;
}

export interface RatingLeaderboardEntry {
  rank: number;
  playerId: string;
  displayName: string;
  rating: number;
  rd: number;
  games: number;
  lastGameAt: Date;
}

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

const DAY_MS = 24 * 60 * 60 * 1000;

@Injectable()
export class RatingsService implements OnModuleInit {
  private readonly minGames: number;
  private readonly activeDays: number;

  constructor(
    @Inject(PG_POOL) private readonly pool: Pool,
    private readonly store: EventStore,
    private readonly jobs: JobQueue,
    @Optional() @Inject(APP_CONFIG) config?: AppConfig,
  ) {
    this.minGames = config?.RATING_LEADERBOARD_MIN_GAMES ?? 5;
    this.activeDays = config?.RATING_LEADERBOARD_ACTIVE_DAYS ?? 30;
  }

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
      const inserted = await db.query(
        `INSERT INTO rated_games (game_id, pool, finished_at, seats) VALUES ($1, $2, $3, $4::jsonb)
         ON CONFLICT (game_id) DO NOTHING RETURNING seq`,
        [gameId, pool, finishedAt, JSON.stringify(seats)],
      );
      if (inserted.rows.length === 0) return false; // already applied
      const seq = String((inserted.rows[0] as { seq: string }).seq);
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
    const r = await this.pool.query(
      `SELECT DISTINCT (payload->'command'->>'seat')::int AS seat FROM game_events
        WHERE game_id = $1 AND payload->'command'->>'type' = 'timeout'`,
      [gameId],
    );
    return new Set((r.rows as Array<{ seat: number | null }>).flatMap((x) => (x.seat === null ? [] : [x.seat])));
  }

  private async currentRatings(db: Queryable, pool: string, ids: string[]): Promise<Map<string, PlayerRating>> {
    const r = await db.query(
      `SELECT player_id, rating, rd, volatility, last_game_at FROM ratings WHERE pool = $1 AND player_id = ANY($2::uuid[])`,
      [pool, ids],
    );
    const out = new Map<string, PlayerRating>();
    for (const row of r.rows as Array<{
      player_id: string;
      rating: number;
      rd: number;
      volatility: number;
      last_game_at: Date;
    }>)
      out.set(row.player_id, {
        rating: row.rating,
        rd: row.rd,
        volatility: row.volatility,
        lastGameAtMs: row.last_game_at.getTime(),
      });
    return out;
  }

  /** A player's rating in each pool they have played rated games in (none: an empty list). */
  async playerRatings(playerId: string, now = new Date()): Promise<PlayerRatingView[]> {
    await this.checkPlayer(playerId);
    const r = await this.pool.query(
      `SELECT pool, rating, rd, volatility, games, wins, draws, losses, last_game_at FROM ratings
        WHERE player_id = $1 ORDER BY pool`,
      [playerId],
    );
    return (r.rows as RatingRow[]).map((row) => {
      const currentRd = currentDeviation(row, row.last_game_at.getTime(), now.getTime());
      return {
        pool: row.pool,
        rating: row.rating,
        rd: row.rd,
        volatility: row.volatility,
        currentRd,
        provisional: isProvisional({ rd: currentRd }),
        games: row.games,
        wins: row.wins,
        draws: row.draws,
        losses: row.losses,
        lastGameAt: row.last_game_at,
      };
    });
  }

  /** A player's rating history in a pool, newest first (cursor: the update's seq). */
  async history(playerId: string, pool: string, page: PageRequest): Promise<CursorPage<RatingHistoryEntry>> {
    checkPool(pool);
    await this.checkPlayer(playerId);
    const list = `rating-history:${playerId}:${pool}`;
    const after = page.cursor === undefined ? null : decodeCursor(page.cursor, list, ['int']);
    const r = await this.pool.query(
      `SELECT u.seq::text AS seq, u.game_id, u.pool, g.finished_at, u.rating_before, u.rd_before, u.volatility_before,
              u.rating_after, u.rd_after, u.volatility_after, u.wins, u.draws, u.losses
         FROM rating_updates u JOIN rated_games g ON g.seq = u.seq
        WHERE u.player_id = $1 AND u.pool = $2 AND ($3::bigint IS NULL OR u.seq < $3::bigint)
        ORDER BY u.seq DESC LIMIT $4`,
      [playerId, pool, after?.[0] ?? null, page.limit + 1],
    );
    return cursorPage(
      r.rows as UpdateRow[],
      page.limit,
      list,
      (u) => [Number(u.seq)],
      (u) => ({
        seq: Number(u.seq),
        gameId: u.game_id,
        pool: u.pool,
        finishedAt: u.finished_at,
        before: { rating: u.rating_before, rd: u.rd_before, volatility: u.volatility_before },
        after: { rating: u.rating_after, rd: u.rd_after, volatility: u.volatility_after },
        wins: u.wins,
        draws: u.draws,
        losses: u.losses,
      }),
    );
  }

  private async checkPlayer(playerId: string): Promise<void> {
    const r = await this.pool.query('SELECT 1 FROM players WHERE id = $1', [playerId]);
    if (r.rows.length === 0) throw new DomainException('PLAYER_NOT_FOUND', 'No such player');
  }

  /** The public list of rated results of a pool, in the order they applied (seq ascending). */
  async results(pool: string, page: PageRequest): Promise<CursorPage<RatedResultView>> {
    checkPool(pool);
    const list = `rated-results:${pool}`;
    const after = page.cursor === undefined ? null : decodeCursor(page.cursor, list, ['int']);
    const r = await this.pool.query(
      `SELECT g.seq::text AS seq, g.game_id, g.pool, g.finished_at, g.seats,
              coalesce(json_agg(json_build_object(
                'playerId', u.player_id,
                'before', json_build_object('rating', u.rating_before, 'rd', u.rd_before, 'volatility', u.volatility_before),
                'after', json_build_object('rating', u.rating_after, 'rd', u.rd_after, 'volatility', u.volatility_after)
              ) ORDER BY u.player_id) FILTER (WHERE u.player_id IS NOT NULL), '[]') AS changes
         FROM rated_games g LEFT JOIN rating_updates u ON u.seq = g.seq
        WHERE g.pool = $1 AND ($2::bigint IS NULL OR g.seq > $2::bigint)
        GROUP BY g.seq ORDER BY g.seq ASC LIMIT $3`,
      [pool, after?.[0] ?? null, page.limit + 1],
    );
    return cursorPage(
      r.rows as ResultRow[],
      page.limit,
      list,
      (g) => [Number(g.seq)],
      (g) => ({
        seq: Number(g.seq),
        gameId: g.game_id,
        pool: g.pool,
        finishedAt: g.finished_at,
        seats: g.seats,
        changes: g.changes,
      }),
    );
  }

  /**
   * A pool's rating leaderboard: players with at least RATING_LEADERBOARD_MIN_GAMES rated games
   * in it and one within the last RATING_LEADERBOARD_ACTIVE_DAYS days, by rating (high first),
   * then player id. rank: competition ranking by rating. The cursor is the last player's id; the
   * next page continues below that player's rating as it is then (a live list, like the others).
   */
  async leaderboard(pool: string, page: PageRequest, now = new Date()): Promise<CursorPage<RatingLeaderboardEntry>> {
    checkPool(pool);
    const list = `leaderboard:ratings:${pool}`;
    const after = page.cursor === undefined ? null : decodeCursor(page.cursor, list, ['uuid']);
    const since = new Date(now.getTime() - this.activeDays * DAY_MS);
    const r = await this.pool.query(
      `WITH listed AS (
         SELECT r.player_id, r.rating, r.rd, r.games, r.last_game_at, rank() OVER (ORDER BY r.rating DESC) AS rank
           FROM ratings r
          WHERE r.pool = $1 AND r.games >= $2 AND r.last_game_at >= $3),
       mark AS (SELECT rating, player_id FROM ratings WHERE pool = $1 AND player_id = $4::uuid)
       SELECT l.*, p.display_name FROM listed l JOIN players p ON p.id = l.player_id
        WHERE $4::uuid IS NULL
           OR l.rating < (SELECT rating FROM mark)
           OR (l.rating = (SELECT rating FROM mark) AND l.player_id > $4::uuid)
        ORDER BY l.rating DESC, l.player_id ASC LIMIT $5`,
      [pool, this.minGames, since, after?.[0] ?? null, page.limit + 1],
    );
    return cursorPage(
      r.rows as LeaderRow[],
      page.limit,
      list,
      (l) => [l.player_id],
      (l) => ({
        rank: Number(l.rank),
        playerId: l.player_id,
        displayName: l.display_name,
        rating: l.rating,
        rd: l.rd,
        games: l.games,
        lastGameAt: l.last_game_at,
      }),
    );
  }
}

export function checkPool(pool: string): asserts pool is RatingPool {
  // Every rule set is a pool (penta, simple, bonus, farkle): an unknown pool is an unknown rule set.
  if (!isRatingPool(pool))
    throw new DomainException(
      'RULE_SET_NOT_FOUND',
      `No rating pool named "${pool}"; pools: ${RATING_POOLS.join(', ')}`,
    );
}

interface RatingRow extends Rating {
  pool: string;
  games: number;
  wins: number;
  draws: number;
  losses: number;
  last_game_at: Date;
}
interface UpdateRow {
  seq: string;
  game_id: string;
  pool: string;
  finished_at: Date;
  rating_before: number;
  rd_before: number;
  volatility_before: number;
  rating_after: number;
  rd_after: number;
  volatility_after: number;
  wins: number;
  draws: number;
  losses: number;
}
interface ResultRow {
  seq: string;
  game_id: string;
  pool: string;
  finished_at: Date;
  seats: RatedSeatView[];
  changes: Array<{ playerId: string; before: RatingValues; after: RatingValues }>;
}
interface LeaderRow {
  player_id: string;
  display_name: string;
  rating: number;
  rd: number;
  games: number;
  last_game_at: Date;
  rank: string;
}
