import net from 'node:net';
import { DatabaseStartupError, isTransientStartupError, pingDatabase, retryUntilReady } from './database-wait';

/**
 * A PostgreSQL that lets a client log in (AuthenticationOk, ReadyForQuery) and then never answers
 * a query, holding the connection: as a database that is stalled, or restarting behind a proxy.
 */
async function stalledDatabase(): Promise<{ url: string; unanswered: () => string[]; close(): Promise<void> }> {
  const sockets = new Set<net.Socket>();
  const queries: string[] = [];
  const server = net.createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => undefined);
    socket.once('data', () => {
      // The startup message: log in at once, then stay silent whatever comes.
      socket.write(Buffer.from([0x52, 0, 0, 0, 8, 0, 0, 0, 0, 0x5a, 0, 0, 0, 5, 0x49]));
      socket.on('data', (d) => {
        if (d[0] === 0x51) queries.push(d.subarray(5, d.length - 1).toString());
      });
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const { port } = server.address() as net.AddressInfo;
  return {
    url: `postgresql://fairdice@127.0.0.1:${port}/fairdice`,
    unanswered: () => [...queries],
    close: async () => {
      sockets.forEach((s) => s.destroy());
      await new Promise((r) => server.close(r));
    },
  };
}

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

  it('a database that logs in and never answers fails the ping with a transient error (the wait goes on)', async () => {
    const db = await stalledDatabase();
    try {
      const error = await pingDatabase(db.url, 200).then(
        () => null,
        (e: unknown) => e,
      );
      expect(error).toMatchObject({ code: 'ETIMEDOUT' });
      expect(isTransientStartupError(error)).toBe(true);
      // It gave up on its own, on a query the database got and never answered (not at connect).
      expect(db.unanswered()).toEqual(['SELECT 1']);
    } finally {
      await db.close();
    }
  });
});
