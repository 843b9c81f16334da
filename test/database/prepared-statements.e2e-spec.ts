/**
 * Named statements on the hot path (src/database/prepared-statements.ts, decision 0152): where the
 * service prepares them, and that PostgreSQL then holds them on the connection that ran them.
 */
import { Pool } from 'pg';
import { createTestApp, registerPlayer } from '../helpers/app';
import { poolOf } from '../helpers/games';
import { testDatabaseUrl, testDbKind } from '../helpers/database';
import { createPgPool } from '../../src/database/pg-pool';
import { preparesStatements } from '../../src/database/prepared-statements';
import { selectEventsAfter } from '../../src/event-store/game-statements';

jest.setTimeout(60_000);

const onPostgres = testDbKind() === 'postgres';

describe('prepared statements', () => {
  it('the service prepares them on PostgreSQL, not behind a transaction pooler, not when turned off, never embedded', async () => {
    const cases: Array<[Record<string, string>, boolean]> = [
      [{}, onPostgres],
      [{ DATABASE_DIRECT_URL: testDatabaseUrl() }, false],
      [{ DATABASE_PREPARED_STATEMENTS: 'false' }, false],
      [{ DATABASE_DIRECT_URL: testDatabaseUrl(), DATABASE_PREPARED_STATEMENTS: 'true' }, onPostgres],
    ];
    for (const [env, prepared] of cases) {
      const t = await createTestApp({ env: { JOBS_ENABLED: 'false', ...env } });
      try {
        expect([env, preparesStatements(poolOf(t))]).toEqual([env, prepared]);
        // Either way the service works: a player and a game.
        const p = await registerPlayer(t, 'Prepared');
        const game = await t.http().post('/v1/games').set(p.auth).send({ ruleSet: 'simple', seats: 1 }).expect(201);
        await t.http().post(`/v1/games/${game.body.id}/start`).set(p.auth).send({}).expect(200);
        await t.http().post(`/v1/games/${game.body.id}/roll`).set(p.auth).send({}).expect(200);
      } finally {
        await t.close();
      }
    }
  });

  (onPostgres ? it : it.skip)(
    'a named statement is prepared once on its connection and reused; unnamed elsewhere',
    async () => {
      const named = createPgPool({ url: testDatabaseUrl(), poolMax: 1, preparedStatements: true });
      const plain = new Pool({ connectionString: testDatabaseUrl(), max: 1 });
      const held = (pool: Pool) =>
        pool
          .query<{ name: string }>(`SELECT name FROM pg_prepared_statements WHERE name LIKE 'fairdice_%' ORDER BY name`)
          .then((r) => r.rows.map((x) => x.name));
      try {
        const id = '00000000-0000-4000-8000-00000000abcd';
        expect(await selectEventsAfter(named, id, 0, 10)).toEqual([]);
        expect(await selectEventsAfter(named, id, 0, 10)).toEqual([]);
        expect(await held(named)).toEqual(['fairdice_events_after']);
        // A client checked out of such a pool (a transaction) prepares too.
        const client = await named.connect();
        try {
          expect(preparesStatements(client)).toBe(true);
          await client.query('BEGIN');
          expect(await selectEventsAfter(client, id, 1, 10)).toEqual([]);
          await client.query('COMMIT');
        } finally {
          client.release();
        }
        expect(await selectEventsAfter(plain, id, 0, 10)).toEqual([]);
        expect(preparesStatements(plain)).toBe(false);
        expect(await held(plain)).toEqual([]);
      } finally {
        await named.end();
        await plain.end();
      }
    },
  );
});
