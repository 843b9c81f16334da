/**
 * The one Server-Sent Events writer (game event streams, tournament standings; issue 25 item 7),
 * with back-pressure: a message is written only while the socket takes it (after `write()` returns
 * false the writer waits for `drain`, holding what comes meanwhile), and a reader whose pending
 * bytes (the response's buffer and those held) would pass the bound is dropped: its connection is
 * closed and `onDropped` counts it. A reader that stops reading therefore costs at most the bound,
 * never memory without end (docs/operations.md "Live connections"; decision 0092).
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

/** Heartbeat comment interval on the SSE stream (keeps proxies from closing an idle connection). */
export const SSE_HEARTBEAT_MS = 15_000;

/** Default bound of one reader's pending bytes (SSE_MAX_BUFFERED_BYTES). */
export const DEFAULT_SSE_MAX_BUFFERED_BYTES = 1024 * 1024;

export interface SseOptions {
  /** A reader whose pending bytes would pass this is dropped. */
  maxBufferedBytes: number;
  /** Called once per dropped reader (the metric fairdice_sse_readers_dropped_total). */
  onDropped?: () => void;
}

/** The wire format of a long-lived stream written by writeSse: its type, first bytes and keep-alive. */
export interface StreamFraming {
  contentType: string;
  /** Written first ('' for none). */
  opening: string;
  /** Written every SSE_HEARTBEAT_MS. */
  heartbeat: string;
}
export const SSE_FRAMING: StreamFraming = {
  contentType: 'text/event-stream; charset=utf-8',
  opening: ': connected\n\n',
  heartbeat: ': heartbeat\n\n',
};
/** Newline-delimited JSON (as Lichess's streams): one JSON value a line; an empty line keeps the connection alive. */
export const NDJSON_FRAMING: StreamFraming = {
  contentType: 'application/x-ndjson; charset=utf-8',
  opening: '',
  heartbeat: '\n',
};

const optionsByServer = new WeakMap<object, SseOptions>();
/** Each server's open streams, by the function that ends one. */
const openStreams = new WeakMap<object, Set<() => void>>();

/**
 * Sets the bound and the drop counter of the streams served by `server` (app.factory.ts), and
 * ends its open streams when it closes: an open stream never finishes by itself, so a shutdown
 * would otherwise wait for SHUTDOWN_TIMEOUT_MS and exit 1. Clients reconnect (SSE's own retry,
 * Last-Event-ID) to an instance that is up.
 */
export function configureSse(server: FastifyInstance, options: SseOptions): void {
  optionsByServer.set(server, options);
  const open = new Set<() => void>();
  openStreams.set(server, open);
  server.addHook('preClose', (done) => {
    for (const end of open) end();
    done();
  });
}

const optionsOf = (req: FastifyRequest): SseOptions =>
  optionsByServer.get(req.server) ?? { maxBufferedBytes: DEFAULT_SSE_MAX_BUFFERED_BYTES };

/**
 * Writes `items` as Server-Sent Events until the stream ends, `message` returns `last` (after
 * writing that message), the client goes away or is dropped for not reading; with a heartbeat.
 */
export async function writeSse<T>(
  items: AsyncIterableIterator<T> & { close(): void },
  req: FastifyRequest,
  reply: FastifyReply,
  message: (item: T) => { text: string; last: boolean },
  framing: StreamFraming = SSE_FRAMING,
): Promise<void> {
  const { maxBufferedBytes, onDropped } = optionsOf(req);
  reply.hijack();
  const raw = reply.raw;
  raw.writeHead(200, {
    'content-type': framing.contentType,
    'cache-control': 'no-cache, no-transform',
    // The connection ends with the stream (its end is not followed by another request on it): a
    // connection kept alive after a stream ended at shutdown would hold the server's close open.
    connection: 'close',
    'x-accel-buffering': 'no',
    'x-request-id': String(req.id),
  });
  // Messages held while the socket drains, and their size.
  const held: string[] = [];
  let heldBytes = 0;
  let draining = false;
  let dropped = false;
  const flush = () => {
    draining = false;
    while (held.length > 0 && !raw.destroyed) {
      const text = held.shift() as string;
      heldBytes -= Buffer.byteLength(text);
      if (!raw.write(text)) {
        draining = true;
        raw.once('drain', flush);
        return;
      }
    }
  };
  const send = (text: string) => {
    if (dropped || raw.destroyed) return;
    const bytes = Buffer.byteLength(text);
    if (raw.writableLength + heldBytes + bytes > maxBufferedBytes) {
      dropped = true;
      held.length = 0;
      heldBytes = 0;
      onDropped?.();
      raw.destroy();
      stop();
      return;
    }
    if (draining) {
      held.push(text);
      heldBytes += bytes;
    } else if (!raw.write(text)) {
      draining = true;
      raw.once('drain', flush);
    }
  };
  const heartbeat = setInterval(() => send(framing.heartbeat), SSE_HEARTBEAT_MS);
  const stop = () => {
    clearInterval(heartbeat);
    items.close();
  };
  // A server configured by configureSse ends its streams when it closes.
  const open = openStreams.get(req.server);
  open?.add(stop);
  if (framing.opening) send(framing.opening);
  req.raw.once('close', stop);
  raw.once('close', stop);
  // A client that went away while the stream was being opened (backlog read) fired 'close'
  // before the listeners existed: stop now, or the stream would stay subscribed for good.
  if (raw.destroyed || req.raw.destroyed) stop();
  try {
    for await (const item of items) {
      const { text, last } = message(item);
      send(text);
      if (last || dropped) break;
    }
  } finally {
    stop();
    open?.delete(stop);
    // The last messages may still be held: end once they are written.
    const finish = () => {
      if (raw.writableEnded || raw.destroyed) return;
      if (draining) raw.once('drain', finish);
      else raw.end();
    };
    finish();
  }
}
