/**
 * `npm run db:migrate`: applies pending migrations (see migrate.ts).
 * DATABASE_URL set: migrates that database. Unset: opens the embedded database in
 * PGLITE_DATA_DIR (default ./data/pglite), migrates it and closes it again.
 * Exit code 1 with the error on failure.
 */
import { startEmbeddedPostgres } from './embedded-postgres';
import { migrate } from './migrate';
import { redactUrl } from './redact-url';

async function main(): Promise<void> {
  const log = (line: string) => console.log(`[db:migrate] ${line}`);
  const url = process.env.DATABASE_URL;
  if (url) {
    log(`migrating ${redactUrl(url)}`);
    await migrate(url, { log });
    return;
  }
  const dataDir = process.env.PGLITE_DATA_DIR || './data/pglite';
  log(`DATABASE_URL not set: migrating the embedded database in ${dataDir}`);
  const pg = await startEmbeddedPostgres({ dataDir });
  try {
    await migrate(pg.url, { log });
  } finally {
    await pg.stop();
  }
}

main().catch((err: unknown) => {
  console.error(`[db:migrate] ${err instanceof Error ? err.message : String(err)}`);
  process.exitCode = 1;
});
