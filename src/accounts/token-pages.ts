/**
 * One cursor page of a player's live tokens of one kind (the `sessions` table: signed-in devices,
 * personal access tokens), newest first: what the sessions list and the access-token list share.
 */
import type { Pool } from 'pg';
import { cursorPage, decodeCursor, fromMicros, micros, type CursorPage } from '../common/pagination/cursor';
import type { PageRequest } from '../common/pagination/page-request';

export async function pageOfLiveTokens<R extends { id: string }, V>(
  pool: Pool,
  query: { list: string; playerId: string; kind: 'session' | 'personal'; columns: string },
  page: PageRequest,
  toView: (row: R) => V,
): Promise<CursorPage<V>> {
  const values: unknown[] = [query.playerId, page.limit + 1, query.kind];
  let keyset = '';
  if (page.cursor) {
    const [at, id] = decodeCursor(page.cursor, query.list, ['int', 'uuid']);
    values.push(at, id);
    keyset = `AND (created_at, id) < (${fromMicros('$4')}, $5::uuid)`;
  }
  const { rows } = await pool.query<R & { micros: string }>(
    `SELECT ${query.columns}, ${micros('created_at')} AS micros
       FROM sessions
      WHERE player_id = $1 AND kind = $3 AND revoked_at IS NULL AND (expires_at IS NULL OR expires_at > now())
            ${keyset}
      ORDER BY created_at DESC, id DESC LIMIT $2`,
    values,
  );
  return cursorPage(rows, page.limit, query.list, (r) => [Number(r.micros), r.id], toView);
}
