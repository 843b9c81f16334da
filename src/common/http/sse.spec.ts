import { EventEmitter } from 'node:events';
import { get } from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import Fastify, { type FastifyReply, type FastifyRequest } from 'fastify';
import { configureSse, writeSse } from './sse';

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
    await writeSse(stream, req, reply, (s: string) => ({ text: s, last: false }));
    expect(stream.closed).toBe(true);
  });

  /** A stream of `count` messages (Infinity: without end), each given as soon as it is asked for. */
  function producer(count: number) {
    let closed = false;
    let sent = 0;
    const stream = {
      next: async (): Promise<IteratorResult<number>> => {
        await new Promise((r) => setImmediate(r));
        if (closed || sent >= count) return { value: undefined, done: true };
        return { value: sent++, done: false };
      },
      close: () => void (closed = true),
      [Symbol.asyncIterator]() {
        return this;
      },
      get closed() {
        return closed;
      },
    };
    return stream;
  }

  const BOUND = 64 * 1024;
  const PAYLOAD = 'x'.repeat(1000);

  /** A Fastify server with one SSE route over `stream`; resolves `done` when the writer returns. */
  async function serve(stream: ReturnType<typeof producer>) {
    const app = Fastify();
    let dropped = 0;
    let maxPending = 0;
    let finished!: () => void;
    const done = new Promise<void>((r) => (finished = r));
    configureSse(app, { maxBufferedBytes: BOUND, onDropped: () => dropped++ });
    app.get('/sse', async (req, reply) => {
      await writeSse(stream, req, reply, (i) => {
        maxPending = Math.max(maxPending, reply.raw.writableLength);
        return { text: `id: ${i}\ndata: ${PAYLOAD}\n\n`, last: false };
      });
      finished();
    });
    await app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = app.server.address() as AddressInfo;
    return { app, port, done, stats: () => ({ dropped, maxPending }) };
  }

  it('drops a reader that stops reading, its pending bytes never past the bound (SSE_MAX_BUFFERED_BYTES)', async () => {
    const stream = producer(Infinity);
    const { app, port, done, stats } = await serve(stream);
    try {
      const socket = connect(port, '127.0.0.1', () => {
        socket.write('GET /sse HTTP/1.1\r\nhost: test\r\n\r\n');
        socket.pause(); // never reads: the kernel's buffers fill, then the server's
      });
      socket.on('error', () => undefined);
      // Without back-pressure the writer would buffer without end and never return.
      await done;
      expect(stats().dropped).toBe(1);
      expect(stream.closed).toBe(true);
      expect(stats().maxPending).toBeLessThanOrEqual(BOUND);
      socket.destroy();
    } finally {
      await app.close();
    }
    // The kernel's loopback buffers (megabytes) fill first, one message per turn of the event
    // loop: seconds on a busy CI machine. The test waits for the writer's own return, not a timer.
  }, 30_000);

  it('gives a reader that reads every message, in order, and does not drop it', async () => {
    const count = 3000; // 3 MB: more than the bound many times over
    const stream = producer(count);
    const { app, port, stats } = await serve(stream);
    try {
      const ids = await new Promise<number[]>((resolve, reject) => {
        get({ host: '127.0.0.1', port, path: '/sse' }, (res) => {
          let text = '';
          res.setEncoding('utf8');
          res.on('data', (chunk: string) => (text += chunk));
          res.on('end', () => resolve([...text.matchAll(/^id: (\d+)$/gm)].map((m) => Number(m[1]))));
          res.on('error', reject);
        }).on('error', reject);
      });
      expect(ids).toEqual(Array.from({ length: count }, (_, i) => i));
      expect(stats().dropped).toBe(0);
    } finally {
      await app.close();
    }
  });

  it("ends an open stream when its server closes, and the connection with it (the server's close does not wait for it)", async () => {
    const app = Fastify();
    configureSse(app, { maxBufferedBytes: BOUND });
    const stream = idleStream();
    app.get('/sse', (req, reply) => writeSse(stream, req, reply, (s: string) => ({ text: s, last: false })));
    await app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = app.server.address() as AddressInfo;
    const client = new Promise<{ connection: string | undefined; closed: Promise<void> }>((resolve, reject) => {
      get({ host: '127.0.0.1', port, path: '/sse' }, (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => {
          text += chunk;
          // The opening comment: the stream is open; now the server closes.
          if (text.includes(': connected')) void app.close();
        });
        const closed = new Promise<void>((r) => res.socket.once('close', () => r()));
        res.on('end', () => resolve({ connection: res.headers.connection, closed }));
        res.on('error', reject);
      }).on('error', reject);
    });
    const { connection, closed } = await client;
    expect(stream.closed).toBe(true);
    expect(connection).toBe('close');
    await closed; // the server ended the connection too (it would otherwise stay open, idle)
  });
});
