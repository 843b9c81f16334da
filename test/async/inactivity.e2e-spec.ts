/**
 * Games never left unrevealed (issue 12 point 2), with short periods: a started game with no
 * move for GAME_ABANDON_AFTER_MS is abandoned through the job queue and its server seed revealed
 * (the audit shows it and the verifier passes, dice included); an open game that never starts
 * expires after GAME_EXPIRE_OPEN_AFTER_MS the same way. Creation and start schedule the game's job;
 * moves do not touch it: a job that finds the game played recently puts itself off.
 */
import { createHash } from 'node:crypto';
import { InactivityService } from '../../src/async/inactivity/inactivity.service';
import { verifyBundle } from '@fairdice/core/fairness/verifier';
import { createTestApp, registerPlayer, type TestApp } from '../helpers/app';
import { poolOf, restClient } from '../helpers/games';
import { eventsOf, waitFor } from './helpers';

jest.setTimeout(60_000);

describe('inactivity: stalled games are abandoned, open games expire, seeds revealed', () => {
  let t: TestApp;
  let ada: { id: string; token: string };
  let bob: { id: string; token: string };

  beforeAll(async () => {
    t = await createTestApp({
      env: { JOBS_POLL_INTERVAL_MS: '100', GAME_ABANDON_AFTER_MS: '3000', GAME_EXPIRE_OPEN_AFTER_MS: '4000' },
    });
    ada = await registerPlayer(t, 'Ada');
    bob = await registerPlayer(t, 'Bob');
  });
  afterAll(() => t?.close());

  const jobOf = async (id: string) =>
    (await poolOf(t).query(`SELECT queue, payload FROM async_jobs WHERE key = $1`, [`inactivity:${id}`])).rows[0];
  const statusOf = async (id: string) => (await restClient(t).get(ada.token, id)).status;

  it('a started game with no move is abandoned by the job; the audit reveals its seed and verifies', async () => {
    const client = restClient(t);
    let view = await client.create(ada.token, { ruleSet: 'simple', seats: 1 });
    expect(await jobOf(view.id)).toMatchObject({ queue: 'inactivity', payload: { gameId: view.id, version: 2 } });
    view = await client.setSeed(ada.token, view.id, { clientSeed: 'ada-stalls' });
    view = await client.start(ada.token, view.id);
    const started = view.version;
    view = await client.move(ada.token, view.id, { action: 'roll', body: {} });
    // The start rescheduled the job (the playing period); the move did not touch it.
    expect(view.version).toBeGreaterThan(started);
    expect(await jobOf(view.id)).toMatchObject({ payload: { gameId: view.id, version: started } });
    expect(view.serverSeed).toBeNull();

    await waitFor(async () => (await statusOf(view.id)) === 'abandoned', 30_000, 'the game to be abandoned');
    const events = await eventsOf(poolOf(t), view.id);
    expect(events.at(-1)).toMatchObject({
      version: view.version + 1,
      type: 'gameAbandoned',
      seat: null,
      data: { reason: 'inactive' },
      command: { type: 'abandon', reason: 'inactive' },
    });
    expect(await jobOf(view.id)).toBeUndefined();

    const bundle = (await t.http().get(`/v1/games/${view.id}/audit`).expect(200)).body;
    expect(bundle.status).toBe('abandoned');
    expect(bundle.serverSeed).toMatch(/^[0-9a-f]{64}$/);
    expect(createHash('sha256').update(Buffer.from(bundle.serverSeed, 'hex')).digest('hex')).toBe(view.commitment);
    const report = verifyBundle(bundle, { commitment: view.commitment, heads: [view.chainHead] });
    expect(report.checks.filter((c) => c.status === 'fail')).toEqual([]);
    expect(report).toMatchObject({ ok: true, diceChecked: true });
    expect((await client.get(ada.token, view.id)).serverSeed).toBe(bundle.serverSeed);
  });

  it('an open game that never starts expires the same way, the period counted from its last command', async () => {
    const client = restClient(t);
    let view = await client.create(ada.token, { ruleSet: 'farkle', seats: 3 });
    // Kept on purpose: the join must come 2.5 s after the creation (the period is counted from it).
    await new Promise((r) => setTimeout(r, 2500));
    view = await client.join(bob.token, view.id, { clientSeed: 'bob-waits' });
    const joinedAt = Date.now();
    await waitFor(async () => (await statusOf(view.id)) === 'abandoned', 30_000, 'the open game to expire');
    // The job first came due 4 s after the creation, found the join 2.5 s old and put itself off.
    expect(Date.now() - joinedAt).toBeGreaterThanOrEqual(3900);
    const events = await eventsOf(poolOf(t), view.id);
    expect(events.at(-1)).toMatchObject({ type: 'gameAbandoned', data: { reason: 'expired' } });
    const bundle = (await t.http().get(`/v1/games/${view.id}/audit`).expect(200)).body;
    expect(bundle.serverSeed).toMatch(/^[0-9a-f]{64}$/);
    expect(verifyBundle(bundle)).toMatchObject({ ok: true, diceChecked: true });
  });

  it('a game without a job (older than the job, or its row lost) gets one at start-up', async () => {
    const client = restClient(t);
    const view = await client.create(ada.token, { ruleSet: 'simple', seats: 2 });
    await poolOf(t).query('DELETE FROM async_jobs WHERE key = $1', [`inactivity:${view.id}`]);
    expect(await jobOf(view.id)).toBeUndefined();
    expect(await t.app.get(InactivityService).ensureJobs()).toBeGreaterThanOrEqual(1);
    expect(await jobOf(view.id)).toMatchObject({ queue: 'inactivity', payload: { gameId: view.id, version: 2 } });
    // idempotent: a second pass adds nothing for it
    const again = await poolOf(t).query('SELECT count(*)::int AS n FROM async_jobs WHERE key = $1', [
      `inactivity:${view.id}`,
    ]);
    await t.app.get(InactivityService).ensureJobs();
    expect(
      (await poolOf(t).query('SELECT count(*)::int AS n FROM async_jobs WHERE key = $1', [`inactivity:${view.id}`]))
        .rows[0].n,
    ).toBe(again.rows[0].n);
  });

  it('a job that finds the game played within the period puts itself off to the period after the last command', async () => {
    const client = restClient(t);
    let view = await client.create(ada.token, { ruleSet: 'penta', seats: 2 });
    view = await client.join(bob.token, view.id, {});
    const before = (await eventsOf(poolOf(t), view.id)).length;
    const outcome = await t.app.get(InactivityService).fire({ payload: { gameId: view.id, version: 2 } });
    // Open game, expiry 4000 ms after the join that just happened: nothing stored, look again then.
    expect(outcome).toEqual({ retryInMs: expect.any(Number) });
    expect((outcome as { retryInMs: number }).retryInMs).toBeGreaterThan(0);
    expect((outcome as { retryInMs: number }).retryInMs).toBeLessThanOrEqual(4000);
    expect((await eventsOf(poolOf(t), view.id)).length).toBe(before);
    expect(await statusOf(view.id)).toBe('open');
    // A finished or cancelled game is left alone too.
    await t
      .http()
      .post(`/v1/games/${view.id}/cancel`)
      .set({ authorization: `Bearer ${ada.token}` })
      .send({})
      .expect(200);
    const cancelled = (await eventsOf(poolOf(t), view.id)).length;
    // The command that ended it dropped its pending job.
    expect(await jobOf(view.id)).toBeUndefined();
    expect(
      await t.app.get(InactivityService).fire({ payload: { gameId: view.id, version: cancelled } }),
    ).toBeUndefined();
    expect((await eventsOf(poolOf(t), view.id)).length).toBe(cancelled);
  });
});
