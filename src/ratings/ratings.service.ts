/**
 * The reads of ratings (docs/ratings.md): a player's ratings and history, the rating
 * leaderboards, and the public list of rated results from which anyone can recompute every
 * rating. The update of a finished game is RatingUpdatesService's.
 */
import { Inject, Injectable, Optional } from '@nestjs/common';
import type { Pool } from 'pg';
import {
  currentDeviation,
  isProvisional,
  isRatingPool,
  type Rating,
  type RatingPool,
  RATING_POOLS,
} from '@fairdice/core/rules/ratings';
import { APP_CONFIG, type AppConfig } from '../config/config';
import { DomainException } from '../common/errors';
import { cursorPage, decodeCursor, type CursorPage } from '../common/pagination/cursor';
import type { PageRequest } from '../common/pagination/page-request';
import { PG_POOL } from '../database/pg-pool';
import type {
  PlayerRatingView,
  RatedResultView,
  RatedSeatView,
  RatingHistoryEntry,
  RatingLeaderboardEntry,
  RatingValues,
} from './rating-views';

const DAY_MS = 24 * 60 * 60 * 1000;

@Injectable()
export class RatingsService {
  private readonly minGames: number;
  private readonly activeDays: number;

  constructor(
    @Inject(PG_POOL) private readonly pool: Pool,
    @Optional() @Inject(APP_CONFIG) config?: AppConfig,
  ) {
    this.minGames = config?.RATING_LEADERBOARD_MIN_GAMES ?? 5;
    this.activeDays = config?.RATING_LEADERBOARD_ACTIVE_DAYS ?? 30;
  }

  /** A player's rating in each pool they have played rated games in (none: an empty list). */
  async playerRatings(playerId: string, now = new Date()): Promise<PlayerRatingView[]> {
    await this.checkPlayer(playerId);
    const r = await this.pool.query<RatingRow>(
      `SELECT pool, rating, rd, volatility, games, wins, draws, losses, last_game_at FROM ratings
        WHERE player_id = $1 ORDER BY pool`,
      [playerId],
    );
    return r.rows.map((row) => {
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
    const r = await this.pool.query<UpdateRow>(
      `SELECT u.seq::text AS seq, u.game_id, u.pool, g.finished_at, u.rating_before, u.rd_before, u.volatility_before,
              u.rating_after, u.rd_after, u.volatility_after, u.wins, u.draws, u.losses
         FROM rating_updates u JOIN rated_games g ON g.seq = u.seq
        WHERE u.player_id = $1 AND u.pool = $2 AND ($3::bigint IS NULL OR u.seq < $3::bigint)
        ORDER BY u.seq DESC LIMIT $4`,
      [playerId, pool, after?.[0] ?? null, page.limit + 1],
    );
    return cursorPage(
      r.rows,
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
    const r = await this.pool.query<ResultRow>(
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
      r.rows,
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
    const r = await this.pool.query<LeaderRow>(
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
      r.rows,
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
