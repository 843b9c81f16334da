/**
 * /health/ready reflects overload, not only "the database answers" (issue 11, item 8): pool
 * connections awaited longer than READY_MAX_POOL_WAIT_MS, an event loop blocked longer than
 * READY_MAX_EVENT_LOOP_DELAY_MS. Liveness (/health) stays 200 throughout, and readiness comes
 * back by itself. (Causes are produced well beyond the thresholds; nothing here asserts a time.)
 */
import type { Pool, PoolClient } from 'pg';
import { PG_POOL } from '../../src/database/prisma.service';
import { createTestApp, type TestApp } from '../helpers/app';

jest.setTimeout(60_000);

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function eventuallyReady(t: TestApp): Promise<void> {
  for (let i = 0; i < 150; i++) {
    if ((await t.http().get('/health/ready')).status === 200) return;
    await sleep(200);
  }
  throw new Error('/health/ready did not become 200 again');
}

describe('readiness under overload', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ env: { READY_MAX_POOL_WAIT_MS: '100', READY_MAX_EVENT_LOOP_DELAY_MS: '100' } });
    await eventuallyReady(t);
  });
  afterAll(() => t.close());

  it('a blocked event loop makes the instance not ready for a while; liveness stays up', async () => {
    const until = Date.now() + 600;
    while (Date.now() < until) {
      // busy: the event loop cannot turn (600 ms against a 100 ms threshold)
    }
    const res = await t.http().get('/health/ready');
    expect(res.status).toBe(503);
    expect(res.body.code).toBe('NOT_READY');
    expect(res.body.checks.eventLoop).toMatchObject({ status: 'down', limitMs: 100 });
    expect(res.body.checks.eventLoop.delayMs).toBeGreaterThan(100);
    await t.http().get('/health').expect(200);
    await eventuallyReady(t);
  });

  it('an exhausted pool (every connection held, queries waiting) makes it not ready; it recovers when they are released', async () => {
    const pool = t.app.get<Pool>(PG_POOL);
    const held: PoolClient[] = [];
    for (let i = 0; i < (pool.options.max ?? 1); i++) held.push(await pool.connect());
    const waiting = pool.query('SELECT 1');
    try {
      await sleep(500); // the query has now waited well past 100 ms for a connection
      const res = await t.http().get('/health/ready');
      expect(res.status).toBe(503);
      expect(res.body.checks.database).toMatchObject({
        status: 'down',
        message: 'connection pool saturated',
        limitMs: 100,
      });
      await t.http().get('/health').expect(200);
    } finally {
      held.forEach((c) => c.release());
    }
    await waiting;
    await eventuallyReady(t);
  });
});
