/**
 * e2e global setup: one migrated database for the whole run, exported to the workers.
 * - DATABASE_URL set: a FRESH database fairdice_test_<timestamp>_<pid> is created on that
 *   server (the URL's database is only used to run CREATE DATABASE), migrated, and
 *   DATABASE_URL is pointed at it. FAIRDICE_TEST_DB=postgres.
 * - DATABASE_URL unset: an in-memory embedded PostgreSQL (PGlite over a loopback socket) is
 *   started in this (the Jest parent) process and migrated. FAIRDICE_TEST_DB=embedded.
 * Workers are started after this and inherit process.env. global-teardown.ts cleans up.
 */
import { randomBytes } from 'node:crypto';
import { migrate } from '../../src/database/migrate';
import { createFreshDatabase, type FreshDatabase } from './database';
import { redactUrl } from '../../src/database/redact-url';
import { generateVapidKeys } from '../../src/keys/service-keys';

export default async function globalSetup(): Promise<void> {
  const serverUrl = process.env.DATABASE_URL || undefined;
  const db = await createFreshDatabase(serverUrl);
  // Same process and global object as the teardown.
  (globalThis as { __FAIRDICE_TEST_DB__?: FreshDatabase }).__FAIRDICE_TEST_DB__ = db;
  try {
    await migrate(db.url);
  } catch (err) {
    await db.drop();
    throw err;
  }
  process.env.DATABASE_URL = db.url;
  // Per-run keys (required whenever DATABASE_URL is set), shared by every worker and every app
  // instance of the run, as production instances share theirs.
  process.env.LOG_SIGNING_KEY = randomBytes(32).toString('hex');
  process.env.SEED_ENCRYPTION_KEYS = `test-${randomBytes(3).toString('hex')}:${randomBytes(32).toString('hex')}`;
  const vapid = generateVapidKeys();
  process.env.VAPID_PUBLIC_KEY = vapid.publicKey;
  process.env.VAPID_PRIVATE_KEY = vapid.privateKey;
  process.env.FAIRDICE_TEST_DB = db.kind;
  const where =
    db.kind === 'postgres'
      ? `PostgreSQL ${redactUrl(db.url)} (fresh database, dropped afterwards)`
      : `embedded PostgreSQL (PGlite, in memory) at ${db.url} — set DATABASE_URL to use a real server`;
  process.stdout.write(`\n[e2e] tests run against ${where}\n`);
}
