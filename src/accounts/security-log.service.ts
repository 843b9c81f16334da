/**
 * The security log (docs/accounts.md): one plain row per sign-in, failed sign-in, session revoked,
 * credential change… of a player, newest first. Lines written together with another change
 * (a session opened or revoked) are written in that change's own statement (AccountSessions);
 * this writes the lone ones and reads the log.
 */
import { Inject, Injectable } from '@nestjs/common';
import type { Pool } from 'pg';
import { cursorPage, decodeCursor, type CursorPage } from '../common/pagination/cursor';
import type { PageRequest } from '../common/pagination/page-request';
import { PG_POOL } from '../database/pg-pool';
import type { AuthenticatedPlayer } from '../players/players.types';
import type { SecurityLogDetail, SecurityLogEntryView } from './account-views';

const text = (v: unknown): string | null => (typeof v === 'string' ? v : null);
const flag = (v: unknown): boolean | null => (typeof v === 'boolean' ? v : null);

/** The stored detail in its closed shape (every member, null when the line has none). */
const toDetail = (d: Record<string, unknown>): SecurityLogDetail => ({
  method: text(d.method),
  sessionId: text(d.sessionId),
  label: text(d.label),
  passkeyId: text(d.passkeyId),
  credentialId: text(d.credentialId),
  name: text(d.name),
  username: text(d.username),
  reason: text(d.reason),
  replaced: flag(d.replaced),
  revokedSessions: typeof d.revokedSessions === 'number' ? d.revokedSessions : null,
  playerTokenRetired: flag(d.playerTokenRetired),
  tokenId: text(d.tokenId),
  scopes: Array.isArray(d.scopes) ? d.scopes.filter((s): s is string => typeof s === 'string') : null,
  expiresAt: text(d.expiresAt),
});

@Injectable()
export class SecurityLog {
  constructor(@Inject(PG_POOL) private readonly pool: Pool) {}

  async record(playerId: string, type: string, address: string | null, detail: object): Promise<void> {
    await this.pool.query('INSERT INTO security_log (player_id, type, address, detail) VALUES ($1, $2, $3, $4)', [
      playerId,
      type,
      address,
      JSON.stringify(detail),
    ]);
  }

  async list(player: AuthenticatedPlayer, page: PageRequest): Promise<CursorPage<SecurityLogEntryView>> {
    const list = 'security-log';
    const values: unknown[] = [player.id, page.limit + 1];
    let keyset = '';
    if (page.cursor) {
      const [id] = decodeCursor(page.cursor, list, ['int']);
      values.push(id);
      keyset = 'AND id < $3';
    }
    const { rows } = await this.pool.query<{
      id: string;
      type: string;
      created_at: Date;
      address: string | null;
      detail: Record<string, unknown>;
    }>(
      `SELECT id, type, created_at, address, detail FROM security_log WHERE player_id = $1 ${keyset}
        ORDER BY id DESC LIMIT $2`,
      values,
    );
    return cursorPage(
      rows,
      page.limit,
      list,
      (r) => [Number(r.id)],
      (r) => ({
        id: String(r.id),
        type: r.type,
        createdAt: r.created_at,
        address: r.address,
        detail: toDetail(r.detail),
      }),
    );
  }
}
