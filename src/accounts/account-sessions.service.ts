/**
 * Sessions (docs/accounts.md): a signed-in device's bearer token, of the same form as the player's
 * own, stored hashed and accepted by the AuthGuard. Opening, listing and revoking them; each change
 * writes its security log line in the same statement.
 */
import { randomUUID } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import type { Pool } from 'pg';
import { credentialCount } from '@fairdice/core/rules/account';
import { DomainException } from '../common/errors';
import type { CursorPage } from '../common/pagination/cursor';
import type { PageRequest } from '../common/pagination/page-request';
import { PG_POOL } from '../database/pg-pool';
import { AccountStore } from '../event-store/account-store.service';
import { PlayersService } from '../players/players.service';
import type { AuthenticatedPlayer } from '../players/players.types';
import { generateToken, hashToken } from '../players/tokens';
import type { RequestOrigin, SessionView, SignedIn } from './account-views';
import { pageOfLiveTokens } from './token-pages';

interface SessionRow {
  id: string;
  label: string;
  created_at: Date;
  last_used_at: Date;
  address: string | null;
  scopes: string[];
}

const toSession = (r: SessionRow, currentId: string | null): SessionView => ({
  id: r.id,
  label: r.label,
  createdAt: r.created_at,
  lastUsedAt: r.last_used_at,
  address: r.address,
  scopes: r.scopes,
  current: r.id === currentId,
});

@Injectable()
export class AccountSessions {
  constructor(
    @Inject(PG_POOL) private readonly pool: Pool,
    private readonly store: AccountStore,
    private readonly players: PlayersService,
  ) {}

  /** A new session for a player who just signed in, with its `signIn` security log line. */
  async open(
    playerId: string,
    label: string,
    origin: RequestOrigin,
    method: 'password' | 'passkey',
    credentialId?: string,
  ): Promise<SignedIn> {
    const token = generateToken();
    const id = randomUUID();
    const { rows } = await this.pool.query<SessionRow & { display_name: string; player_created_at: Date }>(
      `WITH s AS (
         INSERT INTO sessions (id, player_id, token_hash, label, address) VALUES ($1, $2, $3, $4, $5)
         RETURNING id, label, created_at, last_used_at, address, scopes),
       l AS (
         INSERT INTO security_log (player_id, type, address, detail) VALUES ($2, 'signIn', $5, $6))
       SELECT s.*, p.display_name, p.created_at AS player_created_at FROM s, players p WHERE p.id = $2`,
      [
        id,
        playerId,
        hashToken(token),
        label,
        origin.address,
        JSON.stringify({ method, sessionId: id, label, ...(credentialId ? { credentialId } : {}) }),
      ],
    );
    const r = rows[0];
    return {
      token,
      session: toSession(r, id),
      player: { id: playerId, displayName: r.display_name, createdAt: r.player_created_at },
    };
  }

  async list(player: AuthenticatedPlayer, page: PageRequest): Promise<CursorPage<SessionView>> {
    return pageOfLiveTokens<SessionRow, SessionView>(
      this.pool,
      {
        list: 'sessions',
        playerId: player.id,
        kind: 'session',
        columns: 'id, label, created_at, last_used_at, address, scopes',
      },
      page,
      (r) => toSession(r, player.sessionId ?? null),
    );
  }

  /** Revokes one of the player's sessions (SESSION_NOT_FOUND when none such is live). */
  async revoke(player: AuthenticatedPlayer, sessionId: string, origin: RequestOrigin): Promise<void> {
    const { rows } = await this.pool.query(
      `WITH s AS (
         UPDATE sessions SET revoked_at = now()
          WHERE id = $1 AND player_id = $2 AND kind = 'session' AND revoked_at IS NULL RETURNING id),
       l AS (
         INSERT INTO security_log (player_id, type, address, detail)
         SELECT $2, 'sessionRevoked', $3, jsonb_build_object('sessionId', s.id) FROM s)
       SELECT id FROM s`,
      [sessionId, player.id, origin.address],
    );
    this.players.forgetPlayer(player.id);
    if (rows.length === 0) throw new DomainException('SESSION_NOT_FOUND', 'No such live session of yours');
  }

  /**
   * Revokes every session; when the account has a credential to sign back in with, the player's
   * own token (the guest's first device) is retired as well.
   */
  async signOutEverywhere(
    player: AuthenticatedPlayer,
    origin: RequestOrigin,
  ): Promise<{ revokedSessions: number; playerTokenRetired: boolean }> {
    const { state } = await this.store.load(player.id);
    const retire = credentialCount(state) > 0;
    const { rows } = await this.pool.query<{ revoked: number }>(
      `WITH s AS (
         UPDATE sessions SET revoked_at = now() WHERE player_id = $1 AND revoked_at IS NULL RETURNING id),
       p AS (
         UPDATE players SET token_hash = $3, updated_at = now() WHERE id = $1 AND $4::boolean RETURNING id),
       l AS (
         INSERT INTO security_log (player_id, type, address, detail)
         SELECT $1, 'signedOutEverywhere', $2,
                jsonb_build_object('revokedSessions', (SELECT count(*) FROM s), 'playerTokenRetired', $4::boolean))
       SELECT (SELECT count(*) FROM s)::int AS revoked, (SELECT count(*) FROM p)::int AS retired`,
      [player.id, origin.address, hashToken(generateToken()), retire],
    );
    this.players.forgetPlayer(player.id);
    return { revokedSessions: rows[0].revoked, playerTokenRetired: retire };
  }
}
