/**
 * The transparency log's reads in PostgreSQL (transparency_tree_heads, transparency_log_leaves,
 * transparency_log_nodes): signed heads, a game's leaves, and subtree roots from the stored
 * perfect subtrees (one query for any set of ranges).
 */
import type { Pool, PoolClient } from 'pg';
import {
  combinePerfect,
  fromHex,
  type LeafRange,
  LOG_LEAF_KINDS,
  type LogLeafKind,
  perfectSubtrees,
} from '@fairdice/core/fairness/transparency-log';

/** A signed tree head as stored. */
export interface HeadRow {
  tree_size: string;
  timestamp_ms: string;
  root_hash: string;
  signature: string;
}

/** A leaf as stored (leaf_index null: pending, not integrated yet). */
export interface LeafRow {
  id: string;
  game_id: string;
  kind: number;
  event_version: number;
  value: string;
  timestamp_ms: string;
  leaf_index: string | null;
}

const KIND_NAMES = Object.fromEntries(Object.entries(LOG_LEAF_KINDS).map(([k, v]) => [v, k])) as Record<
  number,
  LogLeafKind
>;

export const leafOf = (r: LeafRow) => ({
  kind: KIND_NAMES[r.kind],
  timestamp: Number(r.timestamp_ms),
  gameId: r.game_id,
  eventVersion: r.event_version,
  value: r.value,
});

/** The latest signed tree head (null at run time when none is signed yet; typed as the row, as before). */
export async function latestHeadRow(db: Pool | PoolClient) {
  const { rows } = await db.query<HeadRow>(
    `SELECT tree_size, timestamp_ms, root_hash, signature FROM transparency_tree_heads ORDER BY tree_size DESC LIMIT 1`,
  );
  return rows[0] ?? null;
}

/** The tree head signed at size `treeSize` (undefined: none was). */
export async function headRowAt(db: Pool | PoolClient, treeSize: number): Promise<HeadRow | undefined> {
  const { rows } = await db.query<HeadRow>(
    `SELECT tree_size, timestamp_ms, root_hash, signature FROM transparency_tree_heads WHERE tree_size = $1`,
    [treeSize],
  );
  return rows[0];
}

/** A game's leaves, by kind (created, then ended). */
export async function leavesOf(db: Pool | PoolClient, gameId: string): Promise<LeafRow[]> {
  const { rows } = await db.query<LeafRow>(
    `SELECT id, game_id, kind, event_version, value, timestamp_ms, leaf_index
       FROM transparency_log_leaves WHERE game_id = $1 ORDER BY kind`,
    [gameId],
  );
  return rows;
}

export async function readNodes(
  db: Pool | PoolClient,
  wanted: Array<{ level: number; index: number }>,
): Promise<Map<string, Uint8Array>> {
  const out = new Map<string, Uint8Array>();
  if (wanted.length === 0) return out;
  const { rows } = await db.query<{ level: number; idx: string; hash: string }>(
    `SELECT n.level, n.idx, n.hash FROM transparency_log_nodes n
       JOIN unnest($1::smallint[], $2::bigint[]) AS w(level, idx) ON n.level = w.level AND n.idx = w.idx`,
    [wanted.map((w) => w.level), wanted.map((w) => w.index)],
  );
  for (const r of rows) out.set(`${r.level}:${Number(r.idx)}`, fromHex(r.hash));
  return out;
}

/** The roots of the given subtrees, from the stored perfect subtrees (one query). */
export async function rangeHashes(db: Pool | PoolClient, ranges: readonly LeafRange[]): Promise<Uint8Array[]> {
  const parts = ranges.map(([lo, hi]) => perfectSubtrees(lo, hi));
  const nodes = await readNodes(db, parts.flat());
  return parts.map((ps) =>
    combinePerfect(
      ps.map((p) => {
        const h = nodes.get(`${p.level}:${p.index}`);
        if (!h) throw new Error(`transparency log: node ${p.level}:${p.index} is missing`);
        return h;
      }),
    ),
  );
}
