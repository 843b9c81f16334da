import pino from 'pino';
import { strictValidationPipe } from '../../common/errors';
import { NoFieldsPipe } from '../../common/dto/no-fields.pipe';
import { StreamLimits } from '../../reliability/streams/stream-limits';
import type { GamesService } from '../games.service';
import type { ChannelContext } from './channel-context';
import { Connection } from './connection';
import { CLOSE } from './frames';

/** A `ws` socket stand-in: what was sent, how it was closed, and a settable bufferedAmount. */
class FakeSocket {
  readyState = 1;
  bufferedAmount = 0;
  sent: Array<Record<string, unknown>> = [];
  closedWith: number | null = null;
  terminated = false;
  private readonly handlers: Record<string, (...args: unknown[]) => void> = {};
  send(data: string) {
    this.sent.push(JSON.parse(data) as Record<string, unknown>);
  }
  close(code: number) {
    this.closedWith = code;
    this.readyState = 2;
  }
  terminate() {
    this.terminated = true;
    this.readyState = 3;
  }
  on(event: string, fn: (...args: unknown[]) => void) {
    this.handlers[event] = fn;
  }
  receive(frame: object) {
    this.handlers.message(Buffer.from(JSON.stringify(frame)), false);
  }
}

function context(maxBufferedBytes: number, dropped: () => void): ChannelContext {
  return {
    games: {} as GamesService,
    authenticate: (token) => Promise.resolve(token === 'good' ? { id: 'p1', displayName: 'Ada' } : null),
    limits: new StreamLimits({
      wsPerAddress: 5,
      wsPerPlayer: 5,
      subscriptionsPerConnection: 5,
      ssePerAddress: 5,
      connectionInitTimeoutMs: 1000,
    }),
    addressOf: () => '127.0.0.1',
    charge: null,
    settings: { maxInFlight: 4, maxBufferedBytes, authTimeoutMs: 1000 },
    logger: pino({ level: 'silent' }),
    onDropped: dropped,
    validation: strictValidationPipe(),
    noFields: new NoFieldsPipe(),
  };
}

/** Resolves once the socket has sent `n` frames (the authentication is asynchronous). */
async function sentFrames(ws: FakeSocket, n: number): Promise<void> {
  while (ws.sent.length < n) await new Promise((r) => setImmediate(r));
}

describe('command channel back-pressure (WS_MAX_BUFFERED_BYTES)', () => {
  it('a reader whose unsent bytes would pass the bound is dropped: close 4413, terminated, counted once, nothing more sent', async () => {
    let drops = 0;
    const ws = new FakeSocket();
    new Connection(
      ws as never,
      context(1000, () => drops++),
      'good',
    );
    await sentFrames(ws, 1);
    expect(ws.sent[0]).toMatchObject({ type: 'ready', playerId: 'p1' });

    // A reader that reads: answered.
    ws.receive({ type: 'ping', id: 'a' });
    expect(ws.sent[1]).toEqual({ type: 'pong', id: 'a' });

    // It stops reading: 990 bytes wait unsent, the next frame would pass 1000.
    ws.bufferedAmount = 990;
    ws.receive({ type: 'ping', id: 'b' });
    expect(ws.sent).toHaveLength(2);
    expect(ws.closedWith).toBe(CLOSE.TOO_SLOW);
    expect(ws.terminated).toBe(true);
    expect(drops).toBe(1);
    ws.receive({ type: 'ping', id: 'c' });
    expect(ws.sent).toHaveLength(2);
    expect(drops).toBe(1);
  });

  it('releases the per-player slot when it drops a reader', async () => {
    const ctx = context(10, () => undefined);
    const ws = new FakeSocket();
    new Connection(ws as never, ctx, 'good');
    // The `ready` frame alone passes a 10-byte bound: dropped at once.
    while (ws.closedWith === null) await new Promise((r) => setImmediate(r));
    expect(ws.closedWith).toBe(CLOSE.TOO_SLOW);
    expect(ctx.limits.trackedKeys()).toBe(0);
  });
});
