/**
 * The service's one pg pool (token PG_POOL) and its options. Provided by DatabaseModule
 * (database.module.ts; wiring is documented there). The service queries with `pg` only: Prisma
 * is the schema and the migrations (prisma/), not a client loaded at run time (decision 0162).
 */
import { Pool } from 'pg';
import { allowPreparedStatements } from './prepared-statements';

/** Injection token of the resolved DatabaseOptions. */
export const DATABASE_OPTIONS = Symbol('DATABASE_OPTIONS');
/** Injection token of the service's pg.Pool. */
export const PG_POOL = Symbol('PG_POOL');

export interface DatabaseOptions {
  /** postgresql:// URL (a real server or the embedded PGlite socket). */
  url: string;
  /** pg pool size; must be 1 for the embedded database. Default 10. */
  poolMax?: number;
  /** Wait at most this long for a connection, so a down database fails fast (default 1500). */
  connectTimeoutMs?: number;
  /** Client-side limit per query; the client is then discarded (default 10000). */
  queryTimeoutMs?: number;
  /** A standby for the public reads (read-routing.ts); unset = none. */
  readUrl?: string | null;
  /** Reads go to the standby only while it was last seen caught up at most this long ago (default 5000). */
  readMaxLagMs?: number;
  /** How often the standby's lag is checked (default 1000). */
  readLagCheckMs?: number;
  /** The pool's connections may hold named statements (prepared-statements.ts, decision 0152). */
  preparedStatements?: boolean;
}

/** Creates the service's pool (the standby's too, with its own URL: read-routing.ts). */
export function createPgPool(options: DatabaseOptions, applicationName = 'fairdice'): Pool {
  const pool = new Pool({
    connectionString: options.url,
    max: options.poolMax ?? 10,
    application_name: applicationName,
    // Fail fast while the database is unreachable (503 + Retry-After, see normalizeError);
    // covers both opening a connection and waiting for a free pool slot.
    connectionTimeoutMillis: options.connectTimeoutMs ?? 1500,
    // A query that hangs (half-open TCP after a network fault) is abandoned; pg then releases the
    // client with the error and the pool destroys it instead of reusing it.
    query_timeout: options.queryTimeoutMs ?? 10000,
    keepAlive: true,
    idleTimeoutMillis: 10000,
  });
  // An idle client losing its connection (server restart) must not crash the process; the pool
  // removes it and opens a new one on demand, so the service recovers without a restart.
  pool.on('error', () => undefined);
  // A checked-out client whose connection dies (server restart) emits 'error' on itself; with no
  // listener that would crash the process. The query in flight still rejects with the error.
  pool.on('connect', (client) => {
    client.on('error', () => undefined);
  });
  if (options.preparedStatements) allowPreparedStatements(pool);
  return pool;
}
