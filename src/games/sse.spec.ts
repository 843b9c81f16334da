import { EventEmitter } from 'node:events';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { writeSse } from './sse';

/** A stream that never yields (a game nobody moves in): only close() ends it. */
function idleStream() {
  let closed = false;
  let wake: ((r: IteratorResult<string>) => void) | null = null;
  const stream = {
    next: () =>
      closed
        ? Promise.resolve({ value: undefined, done: true as const })
        : new Promise<IteratorResult<string>>((r) => (wake = r)),
    close: () => {
      closed = true;
      wake?.({ value: undefined, done: true });
    },
    [Symbol.asyncIterator]() {
      return this;
    },
    get closed() {
      return closed;
    },
  };
  return stream;
}

describe('writeSse', () => {
  it('stops at once when the client went away while the stream was being opened (no listener left waiting)', async () => {
    const raw = Object.assign(new EventEmitter(), {
      destroyed: true,
      writableEnded: false,
      writeHead: jest.fn(),
      write: jest.fn(),
      end: jest.fn(),
    });
    const reqRaw = Object.assign(new EventEmitter(), { destroyed: true });
    const req = { id: 'r1', raw: reqRaw } as unknown as FastifyRequest;
    const reply = { hijack: jest.fn(), raw } as unknown as FastifyReply;
    const stream = idleStream();
    // The 'close' events fired before writeSse ran: only the destroyed flags tell.
    await writeSse(stream, req, reply, (s) => ({ text: s, last: false }));
    expect(stream.closed).toBe(true);
  });
});
