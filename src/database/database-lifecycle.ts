/**
 * Decides which database the process uses, before Nest starts:
 * - `databaseUrl` given: use it (pool size `poolMax`, default 10);
 * - otherwise: start the embedded PGlite server on `dataDir` (null = in memory) and use it
 *   with a pool of 1 (see embedded-postgres.ts).
 * With `migrateOnStart`, pending migrations are applied before returning (the migrate
 * connection is closed again before the app pool opens).
 */
import { EMBEDDED_POOL_MAX, startEmbeddedPostgres } from './embedded-postgres';
import { migrate } from './migrate';

export interface ResolveDatabaseOptions {
  databaseUrl?: string | null;
  /** A direct session for the migrations when databaseUrl goes through a transaction pooler. */
  directUrl?: string | null;
  /** Embedded data directory; null = in memory. Ignored when databaseUrl is set. */
  dataDir: string | null;
  migrateOnStart: boolean;
  /** Pool size against a real PostgreSQL (default 10). The embedded one always uses 1. */
  poolMax?: number;
  /** Port for the embedded server (default 0 = any free port). */
  embeddedPort?: number;
  log?: (line: string) => void;
}

export interface ResolvedDatabase {
  url: string;
  poolMax: number;
  embedded: boolean;
  /** Stops the embedded server (no-op for an external database). Call after app.close(). */
  stop(): Promise<void>;
}

export async function resolveDatabase(options: ResolveDatabaseOptions): Promise<ResolvedDatabase> {
  const log = options.log ?? (() => undefined);
  let resolved: ResolvedDatabase;
  if (options.databaseUrl) {
    resolved = {
      url: options.databaseUrl,
      poolMax: options.poolMax ?? 10,
      embedded: false,
      stop: () => Promise.resolve(),
    };
  } else {
    const pg = await startEmbeddedPostgres({ dataDir: options.dataDir, port: options.embeddedPort ?? 0 });
    log(`embedded PostgreSQL (PGlite) on ${pg.url}, data: ${options.dataDir ?? 'in memory'}`);
    resolved = { url: pg.url, poolMax: EMBEDDED_POOL_MAX, embedded: true, stop: () => pg.stop() };
  }
  if (options.migrateOnStart) {
    try {
      // The migrations hold a session advisory lock: never through a transaction pooler.
      await migrate((!resolved.embedded && options.directUrl) || resolved.url, { log });
    } catch (err) {
      await resolved.stop();
      throw err;
    }
  }
  return resolved;
}
