/** e2e global teardown: drops the fresh PostgreSQL database or stops the embedded one. */
import type { FreshDatabase } from './database';

export default async function globalTeardown(): Promise<void> {
  const g = globalThis as { __FAIRDICE_TEST_DB__?: FreshDatabase };
  const db = g.__FAIRDICE_TEST_DB__;
  g.__FAIRDICE_TEST_DB__ = undefined;
  if (db) await db.drop();
}
