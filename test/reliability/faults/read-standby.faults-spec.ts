/**
 * Fault test: read routing to a REAL streaming standby (DATABASE_READ_URL, decision 0091).
 *
 * The primary is the private cluster of `npm run test:faults` (never the machine's shared
 * PostgreSQL); the standby is a pg_basebackup -R of it on a free port (private-cluster.ts,
 * standbyOf). The app runs with DATABASE_READ_URL on the standby, a lag bound of 4 s and a lag
 * check every 250 ms.
 *
 * (a) The public reads (solo leaderboard, public profile, a finished game's audit) are answered by
 *     the standby: X-Data-Staleness-Ms on the answer and the fairdice_db_public_reads_total counter.
 * (b) Replay paused on the standby (pg_wal_replay_pause), changes on the primary: the open-games
 *     list is the old one, from the standby, marked with its staleness (within the bound); the
 *     moved game (GET /v1/games/{id}) is current; a game finished meanwhile has its audit (served
 *     by the primary, never a 404 or "not ended"); past the bound the list comes from the primary
 *     and is current. Replay resumed: the standby serves again.
 * (c) Standby stopped: the public reads still answer 200 (from the primary), readiness 200.
 */
import { Pool } from 'pg';
import { ReadRouter } from '../../../src/database/read-routing';
import { createTestApp, registerPlayer, type TestApp } from '../../helpers/app';
import { playToEnd, restClient } from '../../helpers/games';
import { waitFor } from '../../async/helpers';
import { PrivateCluster } from './private-cluster';

const MAX_LAG_MS = 4000;
const LAG_CHECK_MS = 250;
const STALENESS = 'x-data-staleness-ms';

jest.setTimeout(120_000);

describe('public reads on a streaming standby (DATABASE_READ_URL)', () => {
  const primary = PrivateCluster.fromEnv();
  let standby: PrivateCluster;
  let standbyPool: Pool;
  let t: TestApp;
  let router: ReadRouter;
  const started = Date.now();

  /** The e2e database on the standby: same name as on the primary. */
  const onStandby = (url: string) => {
    const u = new URL(url);
    u.port = String(standby.port);
    return u.toString();
  };

  beforeAll(async () => {
    standby = await PrivateCluster.standbyOf(primary);
    standbyPool = new Pool({ connectionString: onStandby(process.env.DATABASE_URL!), max: 1 });
    standbyPool.on('error', () => undefined);
    t = await createTestApp({
      env: {
        DATABASE_READ_URL: onStandby(process.env.DATABASE_URL!),
        DATABASE_READ_MAX_LAG_MS: String(MAX_LAG_MS),
        DATABASE_READ_LAG_CHECK_MS: String(LAG_CHECK_MS),
        // Readiness is asserted for the database (the standby must not count); the event loop of a
        // test process that also drives the clients on a busy machine is not what is tested here.
        READY_MAX_EVENT_LOOP_DELAY_MS: '60000',
      },
    });
    router = t.app.get(ReadRouter);
    expect(router.enabled).toBe(true);
  });

  afterAll(async () => {
    await standbyPool?.query('SELECT pg_wal_replay_resume()').catch(() => undefined);
    await standbyPool?.end().catch(() => undefined);
    await t?.close().catch(() => undefined);
    standby?.destroy();
    process.stdout.write(
      `[faults] read-standby: ${Date.now() - started} ms, reads ${JSON.stringify(router?.readCounts())}\n`,
    );
  });

  /** The standby has replayed everything the primary had flushed when asked (the router's own check). */
  const caughtUp = async () => {
    const before = Date.now();
    await waitFor(
      async () => {
        await router.check();
        return router.lag().ok && (router.lag().caughtUpAt ?? 0) >= before;
      },
      30_000,
      'the standby to catch up',
    );
  };

  async function finishedSoloGame(token: string): Promise<any> {
    const client = restClient(t);
    const game = await client.create(token, { ruleSet: 'simple', seats: 1, visibility: 'public', advice: 'forbidden' });
    const view = await client.start(token, game.id);
    return playToEnd(t, client, view, () => token);
  }

  const metric = async (reason: string): Promise<number> => {
    const res = await t.http().get('/metrics').expect(200);
    const line = res.text
      .split('\n')
      .find((l) => l.startsWith('fairdice_db_public_reads_total{') && l.includes(`reason="${reason}"`));
    return line ? Number(line.split(' ').pop()) : 0;
  };

  it('(a) serves the public reads from the standby, marked with their staleness', async () => {
    const ada = await registerPlayer(t, 'Ada');
    const game = await finishedSoloGame(ada.token);
    expect(game.status).toBe('finished');
    await caughtUp();
    const before = await metric('replica');

    const board = await t.http().get('/v1/leaderboards/simple/solo').expect(200);
    expect(board.body.items.map((i: any) => i.gameId)).toContain(game.id);
    const profile = await t.http().get(`/v1/players/${ada.id}`).expect(200);
    expect(profile.body.displayName).toBe('Ada');
    const audit = await t.http().get(`/v1/games/${game.id}/audit`).expect(200);
    expect(audit.body.serverSeed).toEqual(expect.any(String));
    for (const res of [board, profile, audit]) {
      expect(Number(res.headers[STALENESS])).toBeGreaterThanOrEqual(0);
      expect(Number(res.headers[STALENESS])).toBeLessThanOrEqual(MAX_LAG_MS);
    }
    expect((await metric('replica')) - before).toBe(3);
    // A player's own reads never go there.
    const me = await t.http().get('/v1/players/me').set(ada.auth).expect(200);
    expect(me.headers[STALENESS]).toBeUndefined();
  });

  it('(b) while replay is paused: stale within the bound, then from the primary; moved games and new audits are current', async () => {
    const bob = await registerPlayer(t, 'Bob');
    const client = restClient(t);
    await caughtUp();
    await standbyPool.query('SELECT pg_wal_replay_pause()');
    await waitFor(
      async () => (await standbyPool.query('SELECT pg_get_wal_replay_pause_state() AS s')).rows[0].s === 'paused',
      10_000,
      'replay to pause',
    );
    const paused = Date.now();
    try {
      await whilePaused(paused, bob, client);
    } finally {
      await standbyPool.query('SELECT pg_wal_replay_resume()');
    }

    // Replay resumed: the standby catches up and serves again, now current.
    await caughtUp();
    const again = await t.http().get('/v1/games?scope=open&limit=100').expect(200);
    expect(again.headers[STALENESS]).toBeDefined();
    expect(again.body.items.map((g: any) => g.id)).toContain(openGameId);
  });

  let openGameId = '';
  /** (b) with replay paused since `paused`. */
  async function whilePaused(
    paused: number,
    bob: { token: string; auth: { authorization: string } },
    client: ReturnType<typeof restClient>,
  ): Promise<void> {
    // Changes on the primary the standby does not replay.
    const open = await client.create(bob.token, { ruleSet: 'simple', seats: 2, visibility: 'public' });
    openGameId = open.id;
    const solo = await client.create(bob.token, { ruleSet: 'simple', seats: 1, visibility: 'public' });
    await client.start(bob.token, solo.id);
    const rolled = await client.move(bob.token, solo.id, { action: 'roll', body: {} });

    // The open list: the standby's, without the new game, marked with its staleness (within the bound).
    const stale = await t.http().get('/v1/games?scope=open&limit=100').expect(200);
    expect(Date.now() - paused).toBeLessThan(MAX_LAG_MS); // else this machine is too slow for the check
    expect(stale.headers[STALENESS]).toBeDefined();
    expect(Number(stale.headers[STALENESS])).toBeLessThanOrEqual(MAX_LAG_MS);
    expect(stale.body.items.map((g: any) => g.id)).not.toContain(open.id);
    // The proof that the standby answered: the game is on the primary, and not on the standby.
    expect((await standbyPool.query('SELECT 1 FROM games WHERE id = $1', [open.id])).rowCount).toBe(0);

    // What a player acts on is the primary's: the game just moved, at its new version.
    const now = await t.http().get(`/v1/games/${solo.id}`).set(bob.auth).expect(200);
    expect(now.body.version).toBe(rolled.version);
    expect(now.headers[STALENESS]).toBeUndefined();

    // A game that finished after the pause: its audit comes from the primary (the standby lacks it).
    const missingBefore = await metric('missing');
    const finished = await playToEnd(t, client, rolled, () => bob.token);
    const audit = await t.http().get(`/v1/games/${finished.id}/audit`).expect(200);
    expect(audit.body.serverSeed).toEqual(expect.any(String));
    expect(audit.body.endedAt).toEqual(expect.any(String));
    expect(audit.headers[STALENESS]).toBeUndefined();
    expect((await metric('missing')) - missingBefore).toBe(1);

    // Past the bound the open list comes from the primary, and is current.
    const lagBefore = await metric('lag');
    const fresh = await waitFor(
      async () => {
        const res = await t.http().get('/v1/games?scope=open&limit=100').expect(200);
        if (res.headers[STALENESS] !== undefined) {
          // Still the standby's answer: only while within the bound.
          expect(Number(res.headers[STALENESS])).toBeLessThanOrEqual(MAX_LAG_MS + LAG_CHECK_MS);
          return null;
        }
        return res;
      },
      MAX_LAG_MS + 10_000,
      'the open list to come from the primary',
      100,
    );
    // It came from the primary because the standby was last seen caught up longer ago than the bound.
    expect(Date.now() - router.lag().caughtUpAt!).toBeGreaterThan(MAX_LAG_MS);
    expect(fresh.body.items.map((g: any) => g.id)).toContain(open.id);
    expect((await metric('lag')) - lagBefore).toBeGreaterThanOrEqual(1);
  }

  it('(c) standby down: the public reads answer 200 from the primary, readiness 200', async () => {
    const cy = await registerPlayer(t, 'Cy');
    await caughtUp();
    await standby.stopAsync(); // not stop(): that would block this process's event loop
    await waitFor(
      async () => {
        await router.check();
        return !router.reachable();
      },
      10_000,
      'the lag check to fail',
    );
    const board = await t.http().get('/v1/leaderboards/simple/solo').expect(200);
    expect(board.headers[STALENESS]).toBeUndefined();
    const profile = await t.http().get(`/v1/players/${cy.id}`).expect(200);
    expect(profile.body.displayName).toBe('Cy');
    await t.http().get('/v1/games?scope=open').expect(200);
    const ready = await t.http().get('/health/ready');
    expect({ status: ready.status, body: ready.body }).toEqual({
      status: 200,
      body: expect.objectContaining({ status: 'ok' }),
    });
    expect(await metric('unreachable')).toBeGreaterThanOrEqual(3);
    const up = await t.http().get('/metrics').expect(200);
    expect(up.text).toMatch(/^fairdice_db_standby_up 0$/m);
    // The series docs/operations.md lists "only with DATABASE_READ_URL" (test/reliability/metrics checks the rest).
    for (const name of [
      'fairdice_db_public_reads_total',
      'fairdice_db_standby_staleness_seconds',
      'fairdice_db_standby_up',
    ])
      expect(up.text).toMatch(new RegExp(`^# TYPE ${name} `, 'm'));
  });
});
