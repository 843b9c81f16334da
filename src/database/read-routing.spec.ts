import type { Pool } from 'pg';
import type { Queryable } from './unit-of-work';
import {
  collectReadSources,
  decideRoute,
  ReadRouter,
  stalenessBound,
  standbyCaughtUp,
  withStalenessHeader,
  type LagState,
} from './read-routing';

const opts = { maxLagMs: 5000, lagCheckMs: 1000 };
const now = 1_000_000;

describe('decideRoute', () => {
  const at = (s: Partial<LagState>): LagState => ({ checkedAt: now - 100, ok: true, caughtUpAt: now - 500, ...s });

  it('uses the standby while the last check succeeded, is recent and found it caught up within the bound', () => {
    expect(decideRoute(at({}), now, opts)).toEqual({ source: 'replica', reason: 'replica' });
    expect(decideRoute(at({ caughtUpAt: now - 5000 }), now, opts)).toEqual({ source: 'replica', reason: 'replica' });
  });

  it('goes to the primary before any check, after a failed check, and when the checks stopped coming', () => {
    expect(decideRoute({ checkedAt: null, ok: false, caughtUpAt: null }, now, opts)).toEqual({
      source: 'primary',
      reason: 'unreachable',
    });
    expect(decideRoute(at({ ok: false }), now, opts).reason).toBe('unreachable');
    expect(decideRoute(at({ checkedAt: now - 3001 }), now, opts).reason).toBe('unreachable');
    expect(decideRoute(at({ checkedAt: now - 3000 }), now, opts).reason).toBe('replica');
  });

  it('goes to the primary when the standby was last caught up longer ago than the bound, or never', () => {
    expect(decideRoute(at({ caughtUpAt: now - 5001 }), now, opts)).toEqual({ source: 'primary', reason: 'lag' });
    expect(decideRoute(at({ caughtUpAt: null }), now, opts)).toEqual({ source: 'primary', reason: 'lag' });
  });

  it('bounds the staleness by the time since the standby was last seen caught up', () => {
    expect(stalenessBound(at({ caughtUpAt: now - 1234 }), now)).toBe(1234);
    expect(stalenessBound(at({ caughtUpAt: null }), now)).toBeNull();
  });
});

/** A pg-like pool whose query answers from `answer` (or throws what it returns, if an Error). */
function fakePool(answer: (sql: string, params?: unknown[]) => unknown) {
  const calls: string[] = [];
  const pool = {
    calls,
    ended: false,
    query: jest.fn((sql: string, params?: unknown[]) => {
      calls.push(sql);
      const a = answer(sql, params);
      return a instanceof Error ? Promise.reject(a) : Promise.resolve({ rows: a as unknown[] });
    }),
    end: jest.fn(() => {
      pool.ended = true;
      return Promise.resolve();
    }),
  };
  return pool as unknown as typeof pool & Queryable;
}

describe('standbyCaughtUp', () => {
  it('reads the primary position first and compares the standby replay position with it', async () => {
    const order: string[] = [];
    const primary = fakePool(() => (order.push('primary'), [{ lsn: '0/3000060' }]));
    let params: unknown[] | undefined;
    const replica = fakePool(
      (_sql, p) => (order.push('replica'), (params = p), [{ recovery: true, caught_up: false }]),
    );
    expect(await standbyCaughtUp(primary, replica)).toBe(false);
    expect(order).toEqual(['primary', 'replica']);
    expect(params).toEqual(['0/3000060']);
  });

  it('is caught up when replay reached the position, or when the server is not in recovery', async () => {
    const primary = fakePool(() => [{ lsn: '0/1' }]);
    expect(
      await standbyCaughtUp(
        primary,
        fakePool(() => [{ recovery: true, caught_up: true }]),
      ),
    ).toBe(true);
    expect(
      await standbyCaughtUp(
        primary,
        fakePool(() => [{ recovery: false, caught_up: false }]),
      ),
    ).toBe(true);
    expect(
      await standbyCaughtUp(
        primary,
        fakePool(() => [{ recovery: true, caught_up: null }]),
      ),
    ).toBe(false);
  });
});

describe('ReadRouter.read', () => {
  function router(replicaAnswer: (sql: string) => unknown, url: string | null = 'postgresql://standby/db') {
    const primary = fakePool((sql) => (sql.includes('wal') ? [{ lsn: '0/10' }] : [{ side: 'primary' }]));
    const replica = fakePool((sql) =>
      sql.includes('pg_is_in_recovery') ? [{ recovery: true, caught_up: true }] : replicaAnswer(sql),
    );
    const r = new ReadRouter(
      primary as unknown as Pool,
      { url, maxLagMs: 5000, lagCheckMs: 1000 },
      () => replica as unknown as Pool,
    );
    return { r, primary, replica };
  }
  const readSide = (r: ReadRouter) =>
    r.read(async (t) => {
      const { rows } = await t.db.query<{ side: string }>('SELECT side');
      return `${t.source}:${rows[0].side}`;
    });

  afterEach(() => jest.useRealTimers());

  it('without DATABASE_READ_URL reads on the primary and counts nothing', async () => {
    const { r, replica } = router(() => [{ side: 'standby' }], null);
    expect(r.enabled).toBe(false);
    await r.check();
    expect(await readSide(r)).toBe('primary:primary');
    expect(replica.query).not.toHaveBeenCalled();
    expect(Object.values(r.readCounts()).every((n) => n === 0)).toBe(true);
  });

  it('reads on the primary until a check found the standby caught up, then on the standby', async () => {
    const { r } = router(() => [{ side: 'standby' }]);
    expect(await readSide(r)).toBe('primary:primary');
    await r.check();
    const { value, served } = await collectReadSources(() => readSide(r));
    expect(value).toBe('replica:standby');
    expect(served.replica).toBe(1);
    expect(served.stalenessMs).toBeGreaterThanOrEqual(0);
    expect(r.readCounts()).toEqual({ replica: 1, lag: 0, unreachable: 1, missing: 0, error: 0 });
    await r.close();
  });

  it('re-reads on the primary when the standby lacks the row or fails, but not for a client error', async () => {
    const { r } = router(() => new Error('connection refused'));
    await r.check();
    expect(await readSide(r)).toBe('primary:primary');
    const missing = await r.read((t) => {
      if (t.source === 'replica') t.missing();
      return Promise.resolve(t.source);
    });
    expect(missing).toBe('primary');
    const answer = new Error('RULE_SET_NOT_FOUND');
    await expect(r.read(() => Promise.reject(answer), { isAnswer: (e) => e === answer })).rejects.toBe(answer);
    expect(r.readCounts()).toEqual({ replica: 1, lag: 0, unreachable: 0, missing: 1, error: 1 });
    await r.close();
  });

  it('stops using the standby once it has not been caught up for longer than the bound', async () => {
    jest.useFakeTimers({ now: 10_000_000, doNotFake: ['nextTick', 'setImmediate'] });
    let caughtUp = true;
    const primary = fakePool((sql) => (sql.includes('wal') ? [{ lsn: '0/10' }] : [{ side: 'primary' }]));
    const replica = fakePool((sql) =>
      sql.includes('pg_is_in_recovery') ? [{ recovery: true, caught_up: caughtUp }] : [{ side: 'standby' }],
    );
    const r = new ReadRouter(
      primary as unknown as Pool,
      { url: 'postgresql://s/db', maxLagMs: 5000, lagCheckMs: 1000 },
      () => replica as unknown as Pool,
    );
    await r.check();
    caughtUp = false; // replay paused
    jest.setSystemTime(10_004_000);
    await r.check();
    expect(await readSide(r)).toBe('replica:standby'); // 4 s behind at most: within the bound
    const header: Record<string, string> = {};
    await withStalenessHeader({ header: (n, v) => (header[n] = v) }, () => readSide(r));
    expect(header).toEqual({ 'X-Data-Staleness-Ms': '4000' });
    jest.setSystemTime(10_005_500);
    await r.check();
    expect(await readSide(r)).toBe('primary:primary');
    expect(r.readCounts().lag).toBe(1);
    caughtUp = true;
    await r.check();
    expect(await readSide(r)).toBe('replica:standby');
    await r.close();
  });

  it('goes to the primary while the standby does not answer its lag check', async () => {
    const primary = fakePool((sql) => (sql.includes('wal') ? [{ lsn: '0/10' }] : [{ side: 'primary' }]));
    const replica = fakePool(() => new Error('ECONNREFUSED'));
    const r = new ReadRouter(
      primary as unknown as Pool,
      { url: 'postgresql://s/db', maxLagMs: 5000, lagCheckMs: 1000 },
      () => replica as unknown as Pool,
    );
    await r.check();
    expect(r.reachable()).toBe(false);
    expect(await readSide(r)).toBe('primary:primary');
    expect(r.readCounts().unreachable).toBe(1);
    await r.close();
    expect(replica.end).toHaveBeenCalled();
  });
});
