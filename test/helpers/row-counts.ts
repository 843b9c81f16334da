/**
 * Row counts of the data tables, to check that a refused request stored nothing.
 *
 * Every table of the schema counts, found at run time (a table added by a new migration is
 * covered without editing this file), except:
 * - `_prisma_migrations`: the migration history;
 * - `rate_limit_counters`: counting refused requests is the rate limiter's job, so these rows
 *   legitimately move with every request (docs/operations.md, *Threat model*);
 * - `sign_in_failures`: counting refused password sign-ins is the lockout's job (docs/accounts.md,
 *   *Abuse limits*), as the rate limiter's counters;
 * - `transparency_log_nodes`, `transparency_tree_heads`: derived from the log's leaves by the
 *   background sequencer, which integrates pending leaves every LOG_INTEGRATION_INTERVAL_MS
 *   whatever the requests (docs/fairness.md §9.5). The leaves themselves are counted.
 */
import type { Pool } from 'pg';

export const ROW_COUNT_EXCLUDED = [
  '_prisma_migrations',
  'rate_limit_counters',
  'sign_in_failures',
  'transparency_log_nodes',
  'transparency_tree_heads',
];

export async function dataTables(pool: Pool): Promise<string[]> {
  const { rows } = await pool.query<{ name: string }>(
    `SELECT table_name AS name FROM information_schema.tables
      WHERE table_schema = current_schema() AND table_type = 'BASE TABLE' AND NOT (table_name = ANY($1))
      ORDER BY table_name`,
    [ROW_COUNT_EXCLUDED],
  );
  return rows.map((r) => r.name);
}

/** { table: row count } for every data table (one statement). */
export async function rowCounts(pool: Pool): Promise<Record<string, number>> {
  const tables = await dataTables(pool);
  if (tables.length === 0) return {};
  const { rows } = await pool.query<Record<string, number>>(
    `SELECT ${tables.map((t) => `(SELECT count(*)::int FROM "${t}") AS "${t}"`).join(', ')}`,
  );
  return rows[0];
}
