import { DatabaseStartupError, isTransientStartupError, retryUntilReady } from './database-wait';

const err = (code: string) => Object.assign(new Error(code), { code });

describe('start-up retries', () => {
  it('waiting cures a database that is down, starting, full or not resolvable yet; not a wrong password or database', () => {
    for (const code of ['ECONNREFUSED', '57P03', '53300', 'EAI_AGAIN', 'ETIMEDOUT'])
      expect(isTransientStartupError(err(code))).toBe(true);
    for (const code of ['28P01', '28000', '3D000', '42P01']) expect(isTransientStartupError(err(code))).toBe(false);
  });

  it('retries transient failures with backoff, then succeeds', async () => {
    let calls = 0;
    const value = await retryUntilReady(
      () => (++calls < 3 ? Promise.reject(err('ECONNREFUSED')) : Promise.resolve('ok')),
      { timeoutMs: 10_000, initialDelayMs: 1 },
    );
    expect([value, calls]).toEqual(['ok', 3]);
  });

  it('throws a permanent failure at once, and gives up on transient ones after the timeout', async () => {
    let calls = 0;
    await expect(
      retryUntilReady(
        () => {
          calls++;
          return Promise.reject(err('28P01'));
        },
        { timeoutMs: 10_000, initialDelayMs: 1 },
      ),
    ).rejects.toMatchObject({ code: '28P01' });
    expect(calls).toBe(1);
    await expect(
      retryUntilReady(() => Promise.reject(err('ECONNREFUSED')), { timeoutMs: 20, initialDelayMs: 5 }),
    ).rejects.toBeInstanceOf(DatabaseStartupError);
  });
});
