/**
 * Personal access tokens (docs/accounts.md "Scoped tokens", decision 0132): bearer tokens of the
 * same form as the player's own (`fd_…`, stored hashed), rows of the sessions table with kind
 * 'personal', each with its own scopes and an optional expiry. Created, listed and revoked by
 * their owner; each creation and revocation writes its security log line in the same
 * transaction. A token creates only tokens within its own scopes that expire no later than it.
 */
import { randomUUID } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import type { Pool } from 'pg';
import { DomainException } from '../common/errors';
import type { CursorPage } from '../common/pagination/cursor';
import type { PageRequest } from '../common/pagination/page-request';
import { PG_POOL } from '../database/pg-pool';
import { dbOr, inTransaction } from '../database/unit-of-work';
import { PlayersService } from '../players/players.service';
import type { AuthenticatedPlayer } from '../players/players.types';
import { hasScope, insufficientScope } from '../players/require-scope';
import { isTokenScope, TOKEN_SCOPES, type TokenScope } from '../players/scopes';
import { generateToken, hashToken } from '../players/tokens';
import type { AccessTokenView, CreatedAccessToken, RequestOrigin } from './account-views';
import { pageOfLiveTokens } from './token-pages';

/** Live (not revoked, not expired) personal access tokens a player may hold. */
export const MAX_ACCESS_TOKENS = 50;
/** A token's name: 1 to 64 characters once trimmed. */
export const ACCESS_TOKEN_NAME_MAX = 64;
/** The longest expiry that may be asked for, in days (none: the token does not expire). */
export const MAX_EXPIRY_DAYS = 366;

const DAY_MS = 86_400_000;

export interface CreateAccessToken {
  name: unknown;
  scopes: unknown;
  expiresInDays?: unknown;
}

interface AccessTokenRow {
  id: string;
  label: string;
  scopes: string[];
  created_at: Date;
  last_used_at: Date;
  expires_at: Date | null;
}

const toView = (r: AccessTokenRow, currentId: string | null): AccessTokenView => ({
  id: r.id,
  name: r.label,
  scopes: r.scopes,
  createdAt: r.created_at,
  lastUsedAt: r.last_used_at,
  expiresAt: r.expires_at,
  current: r.id === currentId,
});

const invalid = (field: string, problem: string): DomainException =>
  new DomainException('VALIDATION_FAILED', `${field} ${problem}`, { errors: [{ field, problems: [problem] }] });

/** The request checked (VALIDATION_FAILED, UNKNOWN_SCOPE): its trimmed name, its scopes once each in vocabulary order, its expiry in days. */
export function checkAccessTokenRequest(input: CreateAccessToken): {
  name: string;
  scopes: TokenScope[];
  expiresInDays: number | null;
} {
  if (typeof input.name !== 'string') throw invalid('name', 'must be a string');
  const name = input.name.trim();
  if (name.length < 1 || name.length > ACCESS_TOKEN_NAME_MAX)
    throw invalid('name', `must be 1 to ${ACCESS_TOKEN_NAME_MAX} characters`);
  // eslint-disable-next-line no-control-regex -- control characters are what is refused
  if (/[\u0000-\u001f\u007f]/.test(name)) throw invalid('name', 'must not contain control characters');
  if (!Array.isArray(input.scopes) || input.scopes.length === 0)
    throw invalid('scopes', 'must name at least one scope');
  for (const scope of input.scopes) {
    if (!isTokenScope(scope))
      throw new DomainException(
        'UNKNOWN_SCOPE',
        `No scope named ${JSON.stringify(typeof scope === 'string' ? scope.slice(0, 64) : scope)}; the scopes are ${Object.keys(TOKEN_SCOPES).join(', ')}`,
        { scope: typeof scope === 'string' ? scope.slice(0, 64) : String(scope).slice(0, 64) },
      );
  }
  const asked = new Set<string>(input.scopes as string[]);
  const scopes = (Object.keys(TOKEN_SCOPES) as TokenScope[]).filter((s) => asked.has(s));
  let expiresInDays: number | null = null;
  if (input.expiresInDays !== undefined && input.expiresInDays !== null) {
    const d = input.expiresInDays;
    if (typeof d !== 'number' || !Number.isInteger(d) || d < 1 || d > MAX_EXPIRY_DAYS)
      throw invalid('expiresInDays', `must be a whole number of days from 1 to ${MAX_EXPIRY_DAYS}`);
    expiresInDays = d;
  }
  return { name, scopes, expiresInDays };
}

@Injectable()
export class AccessTokens {
  constructor(
    @Inject(PG_POOL) private readonly pool: Pool,
    private readonly players: PlayersService,
  ) {}

  /**
   * A new personal access token (shown once) with its view. Refused, with nothing stored: a bad
   * request, a scope the creating token does not hold (INSUFFICIENT_SCOPE: no escalation), an
   * expiry after the creating token's own, MAX_ACCESS_TOKENS live tokens already.
   */
  async create(
    player: AuthenticatedPlayer,
    input: CreateAccessToken,
    origin: RequestOrigin,
    now = new Date(),
  ): Promise<CreatedAccessToken> {
    const { name, scopes, expiresInDays } = checkAccessTokenRequest(input);
    for (const scope of scopes) if (!hasScope(player.scopes, scope)) throw insufficientScope(scope);
    let expiresAt = expiresInDays === null ? null : new Date(now.getTime() + expiresInDays * DAY_MS);
    const creatorExpiry = await this.expiryOf(player);
    if (creatorExpiry) {
      // A scoped token cannot make a longer-lived copy of itself: the new one ends when it does.
      if (expiresAt && expiresAt > creatorExpiry)
        throw invalid(
          'expiresInDays',
          `must not outlive the token creating it (it expires ${creatorExpiry.toISOString()})`,
        );
      expiresAt ??= creatorExpiry;
    }
    const token = generateToken();
    const id = randomUUID();
    const row = await inTransaction(this.pool, async () => {
      const db = dbOr(this.pool);
      // One creation at a time per player, so that the cap holds under concurrent requests.
      await db.query('SELECT id FROM players WHERE id = $1 FOR UPDATE', [player.id]);
      const { rows: live } = await db.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM sessions
          WHERE player_id = $1 AND kind = 'personal' AND revoked_at IS NULL AND (expires_at IS NULL OR expires_at > now())`,
        [player.id],
      );
      if (live[0].n >= MAX_ACCESS_TOKENS)
        throw new DomainException(
          'ACCESS_TOKEN_LIMIT_REACHED',
          `You hold ${MAX_ACCESS_TOKENS} live personal access tokens; revoke one first`,
          { limit: MAX_ACCESS_TOKENS },
        );
      const { rows } = await db.query<AccessTokenRow>(
        `INSERT INTO sessions (id, player_id, token_hash, label, address, scopes, kind, expires_at)
         VALUES ($1, $2, $3, $4, $5, $6, 'personal', $7)
         RETURNING id, label, scopes, created_at, last_used_at, expires_at`,
        [id, player.id, hashToken(token), name, origin.address, scopes, expiresAt],
      );
      await db.query(
        `INSERT INTO security_log (player_id, type, address, detail) VALUES ($1, 'accessTokenCreated', $2, $3)`,
        [
          player.id,
          origin.address,
          JSON.stringify({ tokenId: id, name, scopes, expiresAt: expiresAt?.toISOString() ?? null }),
        ],
      );
      return rows[0];
    });
    return { token, accessToken: toView(row, player.sessionId ?? null) };
  }

  /** The player's live personal access tokens, newest first. */
  async list(player: AuthenticatedPlayer, page: PageRequest): Promise<CursorPage<AccessTokenView>> {
    return pageOfLiveTokens<AccessTokenRow, AccessTokenView>(
      this.pool,
      {
        list: 'access-tokens',
        playerId: player.id,
        kind: 'personal',
        columns: 'id, label, scopes, created_at, last_used_at, expires_at',
      },
      page,
      (r) => toView(r, player.sessionId ?? null),
    );
  }

  /**
   * Revokes one of the player's personal access tokens (ACCESS_TOKEN_NOT_FOUND when none such is
   * live): it stops working at once on this instance, and the streams it opened here end
   * (PlayersService.watchToken); other instances within the documented delay.
   */
  async revoke(player: AuthenticatedPlayer, tokenId: string, origin: RequestOrigin): Promise<void> {
    const { rows } = await this.pool.query(
      `WITH t AS (
         UPDATE sessions SET revoked_at = now()
          WHERE id = $1 AND player_id = $2 AND kind = 'personal' AND revoked_at IS NULL
            AND (expires_at IS NULL OR expires_at > now())
          RETURNING id, label),
       l AS (
         INSERT INTO security_log (player_id, type, address, detail)
         SELECT $2, 'accessTokenRevoked', $3, jsonb_build_object('tokenId', t.id, 'name', t.label) FROM t)
       SELECT id FROM t`,
      [tokenId, player.id, origin.address],
    );
    this.players.forgetPlayer(player.id);
    if (rows.length === 0) throw new DomainException('ACCESS_TOKEN_NOT_FOUND', 'No such live access token of yours');
  }

  /** When the token asking expires (null: never; the player's own token and sessions never do). */
  private async expiryOf(player: AuthenticatedPlayer): Promise<Date | null> {
    if (!player.sessionId) return null;
    const { rows } = await this.pool.query<{ expires_at: Date | null }>(
      'SELECT expires_at FROM sessions WHERE id = $1',
      [player.sessionId],
    );
    return rows[0]?.expires_at ?? null;
  }
}
