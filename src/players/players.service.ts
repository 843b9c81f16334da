import { randomUUID } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { Pool } from 'pg';
import { DomainException } from '../common/errors';
import { PG_POOL } from '../database/pg-pool';
import { ReadRouter } from '../database/read-routing';
import type { Queryable } from '../database/unit-of-work';
import { SeatStanding } from '@fairdice/core/rules/core/family';
import { RULE_SET_NAMES } from '@fairdice/core/rules/registry';
import { AuthenticatedPlayer, PlayerProfile, RuleSetStats } from './players.types';
import { tournamentResults, type TournamentResult } from './tournament-results';
import { tournamentLeaderboard, type TournamentLeaderboardEntry } from './tournament-leaderboard';
import { soloLeaderboard, type SoloLeaderboardEntry } from './leaderboard';
import type { CursorPage } from '../common/pagination/cursor';
import type { PageRequest } from '../common/pagination/page-request';
import { ALL_SCOPES } from './scopes';
import { generateToken, hashToken, looksLikeToken, sameHash } from './tokens';

/** How long an authenticated token is trusted without asking the database (this instance only). */
const AUTH_CACHE_TTL_MS = 5_000;
/**
 * How often a long-lived stream asks whether its token still authenticates (watchToken): a
 * revocation on this instance is seen at once, one made on another instance within this (plus
 * AUTH_CACHE_TTL_MS). docs/accounts.md "Scoped tokens".
 */
export const TOKEN_RECHECK_MS = 30_000;
const AUTH_CACHE_MAX = 10_000;

@Injectable()
export class PlayersService {
  /**
   * token hash → player, for AUTH_CACHE_TTL_MS (insertion-ordered: the oldest goes first when
   * full). Only hits are cached. A rotation on this instance evicts the player's entries at once;
   * another instance may accept the old token until its entry expires (docs/operations.md, Security).
   */
  private readonly authCache = new Map<string, { player: AuthenticatedPlayer; expires: number }>();
  /** Bumped by every rotation: a lookup that raced with one is not cached. */
  private rotations = 0;
  /** Told of every forgetPlayer: the player event streams re-check their token (src/player-events). */
  private readonly tokenListeners = new Set<(playerId: string) => void>();
  /**
   * An HTTP request's authentication, kept by the rate limiter for the auth guard of the same
   * request (both need the player: hashing the token twice cost ≈ 2 % of a cached game read).
   */
  private readonly byRequest = new WeakMap<object, { token: string; player: Promise<AuthenticatedPlayer | null> }>();

  constructor(
    @Inject(PG_POOL) private readonly pool: Pool,
    private readonly reads: ReadRouter,
  ) {}

  /** Registers a player; the token is returned here once and never again (only its hash is kept). */
  async register(displayName: string): Promise<{ player: PlayerProfile; token: string }> {
    const token = generateToken();
    const { rows } = await this.pool.query<ProfileRow>(
      `INSERT INTO players (id, display_name, token_hash, updated_at) VALUES ($1, $2, $3, now())
       RETURNING id, display_name, created_at`,
      [randomUUID(), displayName.trim(), hashToken(token)],
    );
    return { player: toProfile(rows[0]), token };
  }

  async profile(playerId: string, db: Queryable = this.pool): Promise<PlayerProfile> {
    const player = await findProfile(db, playerId);
    if (!player) throw new DomainException('PLAYER_NOT_FOUND', 'No such player');
    return player;
  }

  /**
   * A player's public profile with statistics per rule set (PLAYER_NOT_FOUND). A public read: on
   * the standby when DATABASE_READ_URL is set (decision 0091); a player the standby does not know
   * yet (just registered) is looked up on the primary.
   */
  async publicProfile(
    playerId: string,
  ): Promise<PlayerProfile & { stats: RuleSetStats[]; tournaments: TournamentResult[] }> {
    return this.reads.read(
      async (t) => {
        const player = await findProfile(t.db, playerId);
        if (!player && t.source === 'replica') t.missing();
        if (!player) throw new DomainException('PLAYER_NOT_FOUND', 'No such player');
        const query = (sql: string, params: unknown[]) => t.db.query(sql, params);
        return {
          ...player,
          stats: await this.stats(playerId, t.db),
          tournaments: await tournamentResults(query, playerId),
        };
      },
      { isAnswer: isClientError },
    );
  }

  /** Best solo scores of a rule set (src/players/leaderboard.ts). A public read (decision 0091). */
  soloLeaderboard(ruleSet: string, page: PageRequest): Promise<CursorPage<SoloLeaderboardEntry>> {
    return this.reads.read((t) => soloLeaderboard((sql, params) => t.db.query(sql, params), ruleSet, page), {
      isAnswer: isClientError,
    });
  }

  /** Tournament results of a rule set (src/players/tournament-leaderboard.ts). A public read (decision 0091). */
  tournamentLeaderboard(ruleSet: string, page: PageRequest): Promise<CursorPage<TournamentLeaderboardEntry>> {
    return this.reads.read((t) => tournamentLeaderboard((sql, params) => t.db.query(sql, params), ruleSet, page), {
      isAnswer: isClientError,
    });
  }

  /** Issues a new token; the old one stops working at once. */
  async rotateToken(playerId: string): Promise<{ token: string }> {
    const token = generateToken();
    this.rotations++;
    this.forgetPlayer(playerId);
    const { rowCount } = await this.pool.query(`UPDATE players SET token_hash = $2, updated_at = now() WHERE id = $1`, [
      playerId,
      hashToken(token),
    ]);
    if (rowCount === 0) throw new DomainException('PLAYER_NOT_FOUND', 'No such player');
    this.rotations++;
    this.forgetPlayer(playerId);
    return { token };
  }

  /**
   * authenticate(token) for an HTTP request, kept with the request: a later `authenticatedBy` of
   * the same request and token answers from it (the rate limiter asks first, the auth guard next).
   */
  authenticateRequest(request: object, token: string): Promise<AuthenticatedPlayer | null> {
    const player = this.authenticate(token);
    this.byRequest.set(request, { token, player });
    return player;
  }

  /** The authentication `authenticateRequest` kept for this request and token, or a new one. */
  authenticatedBy(request: object, token: string): Promise<AuthenticatedPlayer | null> {
    const kept = this.byRequest.get(request);
    return kept !== undefined && kept.token === token ? kept.player : this.authenticate(token);
  }

  /** The player a bearer token belongs to, or null. */
  async authenticate(token: string): Promise<AuthenticatedPlayer | null> {
    if (!looksLikeToken(token)) return null;
    const hash = hashToken(token);
    const now = Date.now();
    const hit = this.authCache.get(hash);
    if (hit && hit.expires > now) return hit.player;
    if (hit) this.authCache.delete(hash);
    const generation = this.rotations;
    // The player's own token, or a live session of a signed-in device (src/accounts, docs/accounts.md),
    // whose last use is noted at most once a minute.
    const { rows } = await this.pool.query<{
      id: string;
      display_name: string;
      token_hash: string;
      session_id: string | null;
      scopes: string[] | null;
      kind: 'session' | 'personal' | 'oauth' | null;
      expires_at: Date | null;
    }>(
      `SELECT id, display_name, token_hash, NULL::uuid AS session_id, NULL::text[] AS scopes, NULL AS kind,
              NULL::timestamptz AS expires_at
         FROM players WHERE token_hash = $1
       UNION ALL
       SELECT p.id, p.display_name, s.token_hash, s.id, s.scopes, s.kind, s.expires_at
         FROM sessions s JOIN players p ON p.id = s.player_id
        WHERE s.token_hash = $1 AND s.revoked_at IS NULL AND (s.expires_at IS NULL OR s.expires_at > now())
       LIMIT 1`,
      [hash],
    );
    const row = rows[0];
    if (!row || !sameHash(row.token_hash, hash)) return null;
    const player: AuthenticatedPlayer = {
      id: row.id,
      displayName: row.display_name,
      sessionId: row.session_id,
      scopes: row.scopes ?? [ALL_SCOPES],
      tokenKind: row.kind ?? 'player',
    };
    if (row.session_id)
      this.pool
        .query(
          `UPDATE sessions SET last_used_at = now() WHERE id = $1 AND last_used_at < now() - interval '1 minute'`,
          [row.session_id],
        )
        .catch(() => undefined);
    // An expiring token is trusted from the cache no longer than it lives.
    const cachedUntil = Math.min(now + AUTH_CACHE_TTL_MS, row.expires_at ? row.expires_at.getTime() : Infinity);
    if (generation === this.rotations) {
      this.authCache.set(hash, { player, expires: cachedUntil });
      if (this.authCache.size > AUTH_CACHE_MAX) this.authCache.delete(this.authCache.keys().next().value as string);
    }
    return player;
  }

  /**
   * Drops the player's cached tokens on this instance (a rotation, a revoked session: src/accounts).
   * A revocation bumps `rotations` first so that a lookup racing with it is not cached.
   */
  forgetPlayer(playerId: string): void {
    this.rotations++;
    for (const [hash, entry] of this.authCache) if (entry.player.id === playerId) this.authCache.delete(hash);
    for (const listener of this.tokenListeners) listener(playerId);
  }

  /**
   * `listener` runs whenever some token of a player may have stopped working on this instance (a
   * rotation, a revoked session: every forgetPlayer); returns unsubscribe.
   */
  onTokensChanged(listener: (playerId: string) => void): () => void {
    this.tokenListeners.add(listener);
    return () => this.tokenListeners.delete(listener);
  }

  /**
   * Watches the token a stream was opened with: `onRevoked` runs once, as soon as the token no
   * longer authenticates (rotated, revoked, expired, its player signed out everywhere). It checks
   * whenever the player's tokens change on this instance (forgetPlayer) and every `recheckMs`
   * (a change made on another instance). Returns stop; it stops by itself after onRevoked.
   */
  watchToken(token: string, playerId: string, onRevoked: () => void, recheckMs = TOKEN_RECHECK_MS): () => void {
    let stopped = false;
    const check = () => {
      if (stopped) return;
      this.authenticate(token)
        .then((player) => {
          if (stopped || (player && player.id === playerId)) return;
          stop();
          onRevoked();
        })
        .catch(() => undefined); // the database unreachable: try again at the next signal
    };
    const unlisten = this.onTokensChanged((id) => {
      if (id === playerId) check();
    });
    const timer = setInterval(check, recheckMs);
    timer.unref?.();
    const stop = () => {
      stopped = true;
      unlisten();
      clearInterval(timer);
    };
    return stop;
  }

  /**
   * Statistics per rule set from the player's finished games. A game counts as solo when it has
   * one seat; a game in which the player holds several seats (hot seat) counts as finished but
   * neither toward the solo record nor toward wins and losses (002: hot-seat games are not
   * added to the solo record, and a win against oneself means nothing). A game with a computer
   * seat is never solo (it has two seats or more) and, like a hot-seat game, does not count
   * toward wins and losses against players: its result goes to the computer* counters instead.
   * A duplicate tournament game counts only once its round has ended (`seedSealed` cleared): until
   * then its score would tell the other entrants about the shared dice (docs/tournaments.md §4).
   */
  async stats(playerId: string, db: Queryable = this.pool): Promise<RuleSetStats[]> {
    // Every seat of each finished game the player sat in, a game's seats as one JSON array.
    const { rows: games } = await db.query<{
      rule_set: string;
      seat_count: number;
      standings: unknown;
      seats: { seat: number; playerId: string | null; computerLevel: string | null }[];
    }>(
      `SELECT g.rule_set, g.seat_count, g.standings,
              (SELECT json_agg(json_build_object('seat', s.seat, 'playerId', s.player_id,
                                                 'computerLevel', s.computer_level))
                 FROM game_seats s WHERE s.game_id = g.id) AS seats
         FROM games g
        WHERE g.status = 'finished' AND NOT g.seed_sealed
          AND EXISTS (SELECT 1 FROM game_seats m WHERE m.game_id = g.id AND m.player_id = $1)`,
      [playerId],
    );
    const byRuleSet = new Map<string, RuleSetStats>(
      RULE_SET_NAMES.map((name) => [
        name,
        {
          ruleSet: name,
          gamesFinished: 0,
          soloGamesFinished: 0,
          soloBestScore: null,
          wins: 0,
          losses: 0,
          ties: 0,
          computerGamesFinished: 0,
          computerWins: 0,
          computerLosses: 0,
          computerTies: 0,
        },
      ]),
    );
    for (const game of games) {
      const stats = byRuleSet.get(game.rule_set);
      if (!stats) continue;
      const mySeats = game.seats.filter((s) => s.playerId === playerId).map((s) => s.seat);
      const standings = (game.standings ?? []) as unknown as SeatStanding[];
      const withComputer = game.seats.some((s) => s.computerLevel !== null);
      stats.gamesFinished++;
      if (withComputer) stats.computerGamesFinished++;
      if (mySeats.length !== 1) continue; // hot seat
      const mine = standings.find((s) => s.seat === mySeats[0]);
      if (!mine) continue;
      if (game.seat_count === 1) {
        stats.soloGamesFinished++;
        stats.soloBestScore = Math.max(stats.soloBestScore ?? mine.total, mine.total);
        continue;
      }
      const sharedFirst = standings.filter((s) => s.rank === 1).length > 1;
      const outcome = mine.rank !== 1 ? 'losses' : sharedFirst ? 'ties' : 'wins';
      if (withComputer)
        stats[outcome === 'wins' ? 'computerWins' : outcome === 'ties' ? 'computerTies' : 'computerLosses']++;
      else stats[outcome]++;
    }
    return [...byRuleSet.values()];
  }
}

/** A routed read's DomainException is its answer (an unknown rule set, a bad cursor), not a reason to ask the primary. */
const isClientError = (err: unknown): boolean => err instanceof DomainException;

interface ProfileRow {
  id: string;
  display_name: string;
  created_at: Date;
}

const toProfile = (p: ProfileRow): PlayerProfile => ({
  id: p.id,
  displayName: p.display_name,
  createdAt: p.created_at,
});

async function findProfile(db: Queryable, playerId: string): Promise<PlayerProfile | null> {
  const { rows } = await db.query<ProfileRow>(`SELECT id, display_name, created_at FROM players WHERE id = $1`, [
    playerId,
  ]);
  return rows[0] ? toProfile(rows[0]) : null;
}
