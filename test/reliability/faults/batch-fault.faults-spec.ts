/**
 * Fault test of group commit (decision 0045): the database connection writing a batch of moves is
 * killed while the statement runs (pg_terminate_backend on the private cluster's backend). Held in
 * the statement by a trigger that sleeps for one game of the batch, so the fault lands mid-batch.
 *
 * Checked, as a client observes it: every command of that batch gets 503 DATABASE_UNAVAILABLE
 * (none is acknowledged), nothing of the batch is stored (no event, no games-row change, no
 * idempotency record), and the clients' retries with the same Idempotency-Key are then applied
 * exactly once each.
 */
import { Pool } from 'pg';
import { createTestApp, registerPlayer, type TestApp } from '../../helpers/app';
import { EventStore } from '../../../src/event-store/event-store.service';

jest.setTimeout(120_000);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('a database fault in the middle of a batch', () => {
  let t: TestApp;
  let pool: Pool;

  beforeAll(async () => {
    t = await createTestApp();
    pool = new Pool({ connectionString: process.env.DATABASE_URL, max: 2 });
    pool.on('error', () => undefined);
  });
  afterAll(async () => {
    await pool?.query('DROP TRIGGER IF EXISTS batch_fault_sleep ON game_events').catch(() => undefined);
    await pool?.end().catch(() => undefined);
    await t?.close().catch(() => undefined);
  });

  it('fails every command of the batch, stores none of it, and the retries apply each once', async () => {
    const player = await registerPlayer(t, 'Faulted');
    const ids: string[] = [];
    for (let i = 0; i < 7; i++) {
      const g = await t.http().post('/v1/games').set(player.auth).send({ ruleSet: 'penta', seats: 1 }).expect(201);
      await t.http().post(`/v1/games/${g.body.id}/start`).set(player.auth).send({}).expect(200);
      ids.push(g.body.id as string);
    }
    const sleeper = ids[ids.length - 1];
    await pool.query(`CREATE OR REPLACE FUNCTION batch_fault_sleep() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF NEW.game_id = '${sleeper}' THEN PERFORM pg_sleep(60); END IF;
        RETURN NEW;
      END $$`);
    await pool.query(
      'CREATE TRIGGER batch_fault_sleep BEFORE INSERT ON game_events FOR EACH ROW EXECUTE FUNCTION batch_fault_sleep()',
    );
    const versions = async () =>
      (await pool.query<{ id: string; version: number }>('SELECT id, version FROM games WHERE id = ANY($1)', [ids]))
        .rows;
    const before = await versions();
    const eventsBefore = (await pool.query('SELECT count(*)::int AS n FROM game_events WHERE game_id = ANY($1)', [ids]))
      .rows[0].n as number;

    const keys = ids.map((id) => `batch-fault-${id}`);
    const send = (i: number) =>
      t.http().post(`/v1/games/${ids[i]}/roll`).set(player.auth).set('idempotency-key', keys[i]).send({});

    // All seven moves in one batch (held until they wait in it), then the fault while it is written.
    const batcher = t.app.get(EventStore).batcher!;
    const release = batcher.pause();
    const sent = Promise.all(ids.map((_, i) => send(i)));
    for (let i = 0; i < 1000 && batcher.pending < ids.length; i++) await sleep(10);
    expect(batcher.pending).toBe(ids.length);
    release();
    let killed = 0;
    for (let i = 0; i < 1000 && killed === 0; i++) {
      await sleep(10);
      const { rows } = await pool.query<{ ok: boolean }>(
        `SELECT pg_terminate_backend(pid) AS ok FROM pg_stat_activity
          WHERE state = 'active' AND query LIKE '%jsonb_to_recordset($1::jsonb)%item_no%' AND pid <> pg_backend_pid()`,
      );
      killed = rows.filter((r) => r.ok).length;
    }
    expect(killed).toBe(1);
    const first = await sent;

    // None acknowledged; nothing of the batch stored.
    expect(first.map((r) => r.status)).toEqual(ids.map(() => 503));
    expect(first.every((r) => r.body.code === 'DATABASE_UNAVAILABLE' && r.headers['retry-after'])).toBe(true);
    expect(await versions()).toEqual(before);
    expect(
      (await pool.query('SELECT count(*)::int AS n FROM game_events WHERE game_id = ANY($1)', [ids])).rows[0].n,
    ).toBe(eventsBefore);
    expect(
      (await pool.query('SELECT count(*)::int AS n FROM idempotency_records WHERE key = ANY($1)', [keys])).rows[0].n,
    ).toBe(0);

    // The clients retry with the same keys: each move is applied once.
    await pool.query('DROP TRIGGER batch_fault_sleep ON game_events');
    const retried = await Promise.all(ids.map((_, i) => send(i)));
    expect(retried.map((r) => r.status)).toEqual(ids.map(() => 200));
    const after = new Map((await versions()).map((r) => [r.id, r.version]));
    for (const [i, r] of retried.entries()) {
      const was = before.find((b) => b.id === ids[i])!.version;
      expect(r.body.version).toBeGreaterThan(was);
      expect(after.get(ids[i])).toBe(r.body.version);
    }
    const again = await Promise.all(ids.map((_, i) => send(i)));
    expect(again.map((r) => r.headers['idempotent-replayed'])).toEqual(ids.map(() => 'true'));
    expect(new Map((await versions()).map((r) => [r.id, r.version]))).toEqual(after);
  });
});
