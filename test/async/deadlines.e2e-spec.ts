/**
 * Turn deadlines (single instance, embedded or PostgreSQL): a player who does nothing has the
 * turn completed ONCE by the computer's choice, as ordinary events marked reason 'timeout', with
 * auditable rolls; a move restarts the clock; a stale or repeated deadline is a no-op; the inbox
 * lists games awaiting my move, the nearest deadline first.
 */
import { verifyChain } from '@fairdice/core/fairness/hash-chain';
import { DeadlinesService } from '../../src/async/deadlines/deadlines.service';
import { createTestApp, gql, registerPlayer, type TestApp } from '../helpers/app';
import { poolOf, restClient } from '../helpers/games';
import { eventsOf, timeoutBatches, waitFor } from './helpers';

jest.setTimeout(30_000);

describe('turn deadlines', () => {
  let t: TestApp;
  let ada: { id: string; token: string };
  let bob: { id: string; token: string };

  beforeAll(async () => {
    t = await createTestApp({ env: { JOBS_POLL_INTERVAL_MS: '100' } });
    ada = await registerPlayer(t, 'Ada');
    bob = await registerPlayer(t, 'Bob');
  });
  afterAll(() => t?.close());

  it('completes the turn of a player who does nothing, once, with events marked timeout', async () => {
    const client = restClient(t);
    let view = await client.create(ada.token, { ruleSet: 'penta', seats: 2, turnTimeLimitSeconds: 2 });
    expect(view.turnTimeLimitSeconds).toBe(2);
    await client.join(bob.token, view.id);
    view = await client.start(ada.token, view.id);
    const started = Date.now();
    const startVersion = view.version;
    expect(view.currentSeat).toBe(0);

    const pool = poolOf(t);
    const batches = await waitFor(
      async () => {
        const b = timeoutBatches(await eventsOf(pool, view.id, startVersion));
        return b.length > 0 ? b : null;
      },
      8000,
      'the timeout events',
    );
    const elapsed = Date.now() - started;
    expect(elapsed).toBeGreaterThanOrEqual(1900);

    // Exactly one timeout batch for seat 0, right after the start: the computer's rolls, then its box.
    const [batch] = batches;
    expect(batch[0].version).toBe(startVersion + 1);
    expect(batch[0].command).toEqual({ type: 'timeout', seat: 0 });
    expect(batch.every((e) => e.data.reason === 'timeout' && e.seat === 0)).toBe(true);
    expect(batch[0].type).toBe('rolled');
    expect(batch.map((e) => e.type).filter((x) => x !== 'rolled')).toEqual(['scored']);
    expect(batch[0].rollNumber).not.toBeNull();

    // Nothing else happened to that turn: the game moved to seat 1, and one box of seat 0 is filled.
    // Kept on purpose: "no second batch" needs a window in which none comes.
    await new Promise((r) => setTimeout(r, 300));
    const all = await eventsOf(pool, view.id, startVersion);
    expect(timeoutBatches(all)).toHaveLength(1);
    expect(all.filter((e) => e.type === 'scored')).toHaveLength(1);
    const after = await client.get(ada.token, view.id);
    expect(after.currentSeat).toBe(1);
    expect(after.fiveDice.sheets[0].boxes.filter((b: any) => b.points !== null)).toHaveLength(1);

    // The rolls are auditable like any other: the chain verifies from the commitment.
    const every = await eventsOf(pool, view.id);
    const envelopes = every.map((e) => ({ gameId: view.id, ...e }));
    expect(verifyChain(after.commitment, envelopes, { expectedHead: after.chainHead })).toMatchObject({ ok: true });

    // The inbox of the next player shows the game with its new deadline (about 2 s away).
    const inbox = await t
      .http()
      .get('/v1/inbox')
      .set({ authorization: `Bearer ${bob.token}` })
      .expect(200);
    const item = inbox.body.items.find((i: any) => i.gameId === view.id);
    expect(item).toMatchObject({ seat: 1, turnTimeLimitSeconds: 2, version: after.version });
    const left = new Date(item.deadline).getTime() - Date.now();
    expect(left).toBeGreaterThan(-1000);
    expect(left).toBeLessThanOrEqual(2500);

    // Stop the game from timing out further in the background.
    await client.move(bob.token, view.id, { action: 'quit', body: {} });
  });

  it('a move restarts the clock; a stale or repeated deadline is a no-op', async () => {
    const client = restClient(t);
    let view = await client.create(ada.token, { ruleSet: 'simple', seats: 2, turnTimeLimitSeconds: 60 });
    await client.join(bob.token, view.id);
    view = await client.start(ada.token, view.id);
    const deadlines = t.app.get(DeadlinesService);
    const pool = poolOf(t);
    const v0 = view.version;
    const beforeMove = Date.now();
    view = await client.move(ada.token, view.id, { action: 'roll', body: {} });
    const afterMove = Date.now();
    // The deadline job was replaced: one job for the game, scheduled for the new version.
    const { rows: jobs } = await pool.query(`SELECT payload, run_at FROM async_jobs WHERE key = $1`, [
      `deadline:${view.id}`,
    ]);
    expect(jobs).toHaveLength(1);
    expect(jobs[0].payload).toMatchObject({ gameId: view.id, version: view.version, seat: 0 });
    const { rows: g } = await pool.query('SELECT turn_deadline FROM games WHERE id = $1', [view.id]);
    // The new deadline is the move's time plus the limit: between the request's send and its answer, + 60 s.
    const deadlineAt = new Date(g[0].turn_deadline).getTime();
    expect(deadlineAt).toBeGreaterThanOrEqual(beforeMove + 60_000 - 1);
    expect(deadlineAt).toBeLessThanOrEqual(afterMove + 60_000 + 1);

    // A deadline for an older version changes nothing.
    await deadlines.fire({ payload: { gameId: view.id, version: v0, seat: 0 } });
    expect(timeoutBatches(await eventsOf(pool, view.id))).toHaveLength(0);
    // The current one applies once, however often it runs (a job retried after a crash).
    await Promise.all([
      deadlines.fire({ payload: { gameId: view.id, version: view.version, seat: 0 } }),
      deadlines.fire({ payload: { gameId: view.id, version: view.version, seat: 0 } }),
    ]);
    await deadlines.fire({ payload: { gameId: view.id, version: view.version, seat: 0 } });
    const batches = timeoutBatches(await eventsOf(pool, view.id));
    expect(batches).toHaveLength(1);
    // The computer continues the turn the player began (its re-rolls), then scores its box.
    expect(batches[0].map((e) => e.type).filter((x) => x !== 'rolled')).toEqual(['scored']);
    expect(batches[0][0].version).toBe(view.version + 1);
    await client.move(bob.token, view.id, { action: 'quit', body: {} });
  });

  it('Farkle: the timed-out turn is banked or forfeited and the turn passes on', async () => {
    const client = restClient(t);
    let view = await client.create(ada.token, {
      ruleSet: 'farkle',
      seats: 2,
      turnTimeLimitSeconds: 1,
      options: { target: 2000, entryThreshold: 0 },
    });
    await client.join(bob.token, view.id);
    view = await client.start(ada.token, view.id);
    const first = view.currentSeat;
    const pool = poolOf(t);
    const batches = await waitFor(
      async () => {
        const b = timeoutBatches(await eventsOf(pool, view.id, view.version));
        return b.length > 0 ? b : null;
      },
      8000,
      'the Farkle timeout',
    );
    expect(batches[0][0].command).toEqual({ type: 'timeout', seat: first });
    expect(batches[0].every((e) => e.data.reason === 'timeout')).toBe(true);
    const types = batches[0].map((e) => e.type);
    expect(types[0]).toBe('rolled');
    expect(types.includes('banked') || types.includes('farkled')).toBe(true);
    const after = await client.get(ada.token, view.id);
    await client
      .move(after.currentPlayerId === ada.id ? ada.token : bob.token, view.id, { action: 'quit', body: {} })
      .catch(() => undefined);
  });

  it('inbox: my games awaiting my move, nearest deadline first, over REST and GraphQL', async () => {
    const carol = await registerPlayer(t, 'Carol');
    const client = restClient(t);
    const make = async (limit?: number) => {
      const v = await client.create(carol.token, {
        ruleSet: 'simple',
        seats: 1,
        ...(limit ? { turnTimeLimitSeconds: limit } : {}),
      });
      return client.start(carol.token, v.id);
    };
    const none = await make();
    const week = await make(604800);
    const hour = await make(3600);
    const open = await client.create(carol.token, { ruleSet: 'simple', seats: 2 }); // not started: not in the inbox
    const res = await t
      .http()
      .get('/v1/inbox')
      .set({ authorization: `Bearer ${carol.token}` })
      .expect(200);
    expect(res.body.items.map((i: any) => i.gameId)).toEqual([hour.id, week.id, none.id]);
    expect(res.body.items[0]).toMatchObject({
      ruleSet: 'simple',
      family: 'five-dice',
      seat: 0,
      seatCount: 1,
      turnTimeLimitSeconds: 3600,
    });
    expect(res.body.items[2].deadline).toBeNull();
    expect(res.body.items.some((i: any) => i.gameId === open.id)).toBe(false);

    const body = await gql(
      t,
      '{ inbox(limit: 2) { items { gameId deadline turnTimeLimitSeconds } nextOffset } }',
      {},
      carol.token,
    );
    expect(body.errors).toBeUndefined();
    expect(body.data.inbox.items.map((i: any) => i.gameId)).toEqual([hour.id, week.id]);
    expect(body.data.inbox.nextOffset).toBe(2);
    await t.http().get('/v1/inbox').expect(401);
    for (const query of ['limit=0', 'limit=101', 'limit=abc', 'offset=-1', 'page=2']) {
      const bad = await t
        .http()
        .get(`/v1/inbox?${query}`)
        .set({ authorization: `Bearer ${carol.token}` })
        .expect(400);
      expect(bad.body.code).toBe('VALIDATION_FAILED');
    }
  });

  it('accepts limits from 1 second to 7 days only', async () => {
    const auth = { authorization: `Bearer ${ada.token}` };
    await t
      .http()
      .post('/v1/games')
      .set(auth)
      .send({ ruleSet: 'simple', seats: 1, turnTimeLimitSeconds: 0 })
      .expect(400);
    await t
      .http()
      .post('/v1/games')
      .set(auth)
      .send({ ruleSet: 'simple', seats: 1, turnTimeLimitSeconds: 604801 })
      .expect(400);
    await t
      .http()
      .post('/v1/games')
      .set(auth)
      .send({ ruleSet: 'simple', seats: 1, turnTimeLimitSeconds: 1 })
      .expect(201);
  });
});
