/**
 * PrismaService: the generated PrismaClient over @prisma/adapter-pg, on the shared pg pool
 * (token PG_POOL). Provided by DatabaseModule (database.module.ts; wiring is documented there).
 */
import { Inject, Injectable, OnModuleDestroy, OnModuleInit } from '@nestjs/common';
import { PrismaPg } from '@prisma/adapter-pg';
import { Pool } from 'pg';
import { PrismaClient } from '../generated/prisma/client';
import { allowPreparedStatements } from './prepared-statements';

/** Injection token of the resolved DatabaseOptions. */
export const DATABASE_OPTIONS = Symbol('DATABASE_OPTIONS');
/** Injection token of the pg.Pool shared by PrismaService and raw queries. */
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

/** Creates the pool PrismaService and raw queries share. */
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

@Injectable()
export class PrismaService extends PrismaClient implements OnModuleInit, OnModuleDestroy {
  constructor(@Inject(PG_POOL) readonly pool: Pool) {
    // The adapter does not end a pool it was given; DatabaseModule ends it after disconnect.
    super({ adapter: new PrismaPg(pool) });
  }

  async onModuleInit(): Promise<void> {
    await this.$connect();
  }

  async onModuleDestroy(): Promise<void> {
    await this.$disconnect();
  }
}
