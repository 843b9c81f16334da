/**
 * The player-events store statement probes indexes whatever PostgreSQL estimates for its input
 * (decision 0155): jsonb_to_recordset is estimated at 100 rows, and as joins the generic plan of
 * the prepared statement hashed a sequential scan of every player and every stored event for the
 * one or two notices of a command. Checked on the generic plan with tables big enough for a
 * sequential scan to look cheap to the planner, inside a transaction that is rolled back.
 */
import { createTestApp, type TestApp } from '../helpers/app';
import { poolOf } from '../helpers/games';
import { testDbKind } from '../helpers/database';
import { STORE_SQL } from '../../src/player-events/player-events.service';

jest.setTimeout(60_000);

const onPostgres = testDbKind() === 'postgres';

(onPostgres ? describe : describe.skip)('player events store: index probes only', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ env: { JOBS_ENABLED: 'false' } });
  });
  afterAll(() => t.close());

  it('the generic plan scans no players, events or settings table, and the statement still stores', async () => {
    const client = await poolOf(t).connect();
    try {
      await client.query('BEGIN');
      const { rows } = await client.query<{ id: string }>(
        `INSERT INTO players (id, display_name, token_hash, created_at, updated_at)
         SELECT gen_random_uuid(), 'plan ' || i, md5(i::text) || md5(i::text || 'x'), now(), now()
           FROM generate_series(1, 3000) i RETURNING id`,
      );
      const busy = rows[0].id;
      await client.query(`INSERT INTO player_event_heads (player_id, last_seq) VALUES ($1, 3000)`, [busy]);
      await client.query(
        `INSERT INTO player_events (player_id, seq, type, source, data)
         SELECT $1, i, 'gameStarted', 'plan:' || i, '{}' FROM generate_series(1, 3000) i`,
        [busy],
      );
      await client.query('ANALYZE players, player_events, player_event_heads');
      await client.query('SET LOCAL plan_cache_mode = force_generic_plan');
      await client.query(`PREPARE plan_store (jsonb, float8, text[]) AS ${STORE_SQL}`);
      const notices = JSON.stringify([
        { player_id: busy, type: 'gameFinished', source: 'plan:new', data: { gameId: 'g' }, ord: 0 },
        // Not a player: left out, as before.
        { player_id: '00000000-0000-4000-8000-000000000000', type: 'gameFinished', source: 'x', data: {}, ord: 1 },
      ]);
      const args = `'${notices}'::jsonb, 0.2, '{yourTurn}'::text[]`;
      const plan = (await client.query<{ 'QUERY PLAN': string }>(`EXPLAIN EXECUTE plan_store (${args})`)).rows
        .map((r) => r['QUERY PLAN'])
        .join('\n');
      expect(plan).not.toMatch(/Seq Scan on (players|player_events|player_event_settings|push_subscriptions) /);
      expect(plan).toMatch(/Index Only Scan using players_pkey/);
      expect(plan).toMatch(/Index Only Scan using player_events_player_id_source_key/);
      const stored = await client.query<{ player_id: string; seq: string }>(`EXECUTE plan_store (${args})`);
      expect(stored.rows).toEqual([expect.objectContaining({ player_id: busy, seq: '3001' })]);
      // The same notice again (a job run twice) stores nothing.
      expect((await client.query(`EXECUTE plan_store (${args})`)).rows).toEqual([]);
    } finally {
      await client.query('ROLLBACK');
      client.release();
    }
  });
});
