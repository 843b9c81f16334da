/** e2e global teardown: drops the fresh PostgreSQL databases or stops the embedded ones. */
import type { FreshDatabase } from './database';

export default async function globalTeardown(): Promise<void> {
  const g = globalThis as { __FAIRDICE_TEST_DB__?: FreshDatabase; __FAIRDICE_TEST_DBS__?: FreshDatabase[] };
  const dbs = g.__FAIRDICE_TEST_DBS__ ?? (g.__FAIRDICE_TEST_DB__ ? [g.__FAIRDICE_TEST_DB__] : []);
  g.__FAIRDICE_TEST_DB__ = undefined;
  g.__FAIRDICE_TEST_DBS__ = undefined;
  await Promise.all(dbs.map((db) => db.drop()));
}
