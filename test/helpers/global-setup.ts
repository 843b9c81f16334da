/**
 * e2e global setup: one migrated database per Jest worker, exported to the workers.
 * - DATABASE_URL set: a FRESH database fairdice_test_<timestamp>_<pid> is created on that
 *   server (the URL's database is only used to run CREATE DATABASE) and migrated; each further
 *   worker gets a copy of it (CREATE DATABASE … TEMPLATE, no second migration).
 *   FAIRDICE_TEST_DB=postgres.
 * - DATABASE_URL unset: an in-memory embedded PostgreSQL (PGlite over a loopback socket, in a
 *   child process) is started and migrated per worker. FAIRDICE_TEST_DB=embedded.
 * Why one per worker: suites check that a refused request "stored nothing" by counting the rows
 * of every table (row-counts.ts), and the embedded database serves one connection at a time;
 * workers sharing one database would see each other's rows and wait on each other's queries.
 * Within a worker the files run one after another, as they did with a single worker.
 *
 * The URLs go to the workers as FAIRDICE_TEST_DATABASE_URLS (JSON, worker 1 first);
 * worker-database.ts (setupFiles) points each worker's process.env.DATABASE_URL at its own.
 * DATABASE_URL is worker 1's database (a run in band uses only that one).
 * Workers are started after this and inherit process.env. global-teardown.ts cleans up.
 */
import { randomBytes } from 'node:crypto';
import { Pool } from 'pg';
import { migrate } from '../../src/database/migrate';
import { createFreshDatabase, type FreshDatabase } from './database';
import { redactUrl } from '../../src/database/redact-url';
import { generateVapidKeys } from '../../src/keys/service-keys';

type Held = { __FAIRDICE_TEST_DB__?: FreshDatabase; __FAIRDICE_TEST_DBS__?: FreshDatabase[] };

// Jest passes its global configuration first: its maxWorkers is the number of workers this run may start.
export default async function globalSetup(globalConfig?: { maxWorkers?: number }): Promise<void> {
  const serverUrl = process.env.DATABASE_URL || undefined;
  const workers = Math.max(1, globalConfig?.maxWorkers ?? 1);
  const held = globalThis as Held; // same process and global object as the teardown
  const dbs: FreshDatabase[] = [];
  held.__FAIRDICE_TEST_DBS__ = dbs;
  try {
    const first = await createFreshDatabase(serverUrl);
    dbs.push(first);
    held.__FAIRDICE_TEST_DB__ = first;
    if (first.kind === 'postgres') {
      await migrate(first.url);
      // Copies of the migrated database: a template copy is a file copy, far quicker than
      // replaying the migrations. The template must have no open connection (migrate closed its).
      for (let worker = 2; worker <= workers; worker++) dbs.push(await copyDatabase(serverUrl!, first, `w${worker}`));
    } else {
      const more = await Promise.all(
        Array.from({ length: workers - 1 }, async () => {
          const db = await createFreshDatabase();
          dbs.push(db);
          return db;
        }),
      );
      await Promise.all([first, ...more].map((db) => migrate(db.url)));
    }
  } catch (err) {
    await Promise.all(dbs.map((db) => db.drop().catch(() => undefined)));
    held.__FAIRDICE_TEST_DBS__ = undefined;
    held.__FAIRDICE_TEST_DB__ = undefined;
    throw err;
  }
  process.env.DATABASE_URL = dbs[0].url;
  process.env.FAIRDICE_TEST_DATABASE_URLS = JSON.stringify(dbs.map((db) => db.url));
  // Per-run keys (required whenever DATABASE_URL is set), shared by every worker and every app
  // instance of the run, as production instances share theirs.
  process.env.LOG_SIGNING_KEY = randomBytes(32).toString('hex');
  process.env.SEED_ENCRYPTION_KEYS = `test-${randomBytes(3).toString('hex')}:${randomBytes(32).toString('hex')}`;
  const vapid = generateVapidKeys();
  process.env.VAPID_PUBLIC_KEY = vapid.publicKey;
  process.env.VAPID_PRIVATE_KEY = vapid.privateKey;
  process.env.FAIRDICE_TEST_DB = dbs[0].kind;
  const count = dbs.length === 1 ? 'one database' : `one database per worker (${dbs.length})`;
  const where =
    dbs[0].kind === 'postgres'
      ? `PostgreSQL ${redactUrl(dbs[0].url)}, ${count} (fresh, dropped afterwards)`
      : `embedded PostgreSQL (PGlite, in memory), ${count}, at ${dbs.map((db) => db.url).join(', ')} — set DATABASE_URL to use a real server`;
  process.stdout.write(`\n[e2e] tests run against ${where}\n`);
}

/**
 * A new database on the server of `serverUrl`, created from `template` (PostgreSQL only). The
 * statements run on serverUrl's database: a template may have no connection, this one included.
 */
async function copyDatabase(serverUrl: string, template: FreshDatabase, suffix: string): Promise<FreshDatabase> {
  const source = new URL(template.url).pathname.slice(1);
  const name = `${source}_${suffix}`;
  const admin = new Pool({ connectionString: serverUrl, max: 1 });
  try {
    await admin.query(`CREATE DATABASE "${name}" TEMPLATE "${source}"`);
  } finally {
    await admin.end();
  }
  const target = new URL(template.url);
  target.pathname = `/${name}`;
  return {
    url: target.toString(),
    kind: 'postgres',
    async drop() {
      const dropper = new Pool({ connectionString: serverUrl, max: 1 });
      try {
        await dropper.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      } finally {
        await dropper.end();
      }
    },
  };
}
