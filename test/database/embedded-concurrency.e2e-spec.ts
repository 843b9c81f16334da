/**
 * Several connections to one embedded PGlite (jest workers, a CLI next to the app) must not
 * interleave their extended-protocol exchanges: each query binds to its own statement, and a
 * transaction on one connection does not stall the others for good. Without
 * serializeExchanges (src/database/embedded-postgres.ts) this fails with "unnamed prepared
 * statement does not exist", "portal does not exist" or a bind against another connection's
 * statement: large parameters arrive in several TCP chunks, so other connections' messages
 * slip in between.
 */
import { Client } from 'pg';
import { createFreshDatabase, type FreshDatabase } from '../helpers/database';
import { describeOnce } from '../helpers/suites';

describeOnce('embedded PostgreSQL: concurrent connections', () => {
  let db: FreshDatabase;
  beforeAll(async () => {
    db = await createFreshDatabase(); // no server URL: a private PGlite in a child process
  }, 60_000);
  afterAll(() => db?.drop());

  it('six connections running parameterized queries and transactions at once each get their own results', async () => {
    const clients = [0, 1, 2, 3, 4, 5].map(() => new Client({ connectionString: db.url }));
    const failures: string[] = [];
    for (const c of clients) c.on('error', (err) => failures.push(`connection error: ${err.message}`));
    await Promise.all(clients.map((c) => c.connect()));
    const big = 'y'.repeat(200_000); // several TCP chunks
    try {
      const run = async (c: Client, k: number) => {
        for (let i = 0; i < 200; i++) {
          try {
            if (k % 3 === 0) {
              const r = await c.query<{ v: number }>('SELECT $1::int + 1 AS v', [i]);
              if (r.rows[0]?.v !== i + 1) failures.push(`${k}: wrong row ${JSON.stringify(r.rows)}`);
            } else if (k % 3 === 1) {
              const r = await c.query<{ n: number; w: number }>('SELECT length($1::text) AS n, $2::int AS w', [big, i]);
              if (r.rows[0]?.n !== big.length || r.rows[0]?.w !== i) failures.push(`${k}: wrong row`);
            } else {
              await c.query('BEGIN');
              const r = await c.query<{ t: string }>('SELECT $1::text AS t', [`t${i}`]);
              await c.query('COMMIT');
              if (r.rows[0]?.t !== `t${i}`) failures.push(`${k}: wrong row ${JSON.stringify(r.rows)}`);
            }
          } catch (err) {
            failures.push(`${k}: ${(err as Error).message}`);
            return;
          }
        }
      };
      await Promise.all(clients.map((c, k) => run(c, k)));
    } finally {
      await Promise.all(clients.map((c) => c.end().catch(() => undefined)));
    }
    expect(failures).toEqual([]);
  }, 120_000);
});
