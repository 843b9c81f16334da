import type { FastifyReply, FastifyRequest } from 'fastify';
import type { StoredEvent } from '../event-store/event-store.types';
import { toEventView } from './game-view';

/** Heartbeat comment interval on the SSE stream (keeps proxies from closing an idle connection). */
export const SSE_HEARTBEAT_MS = 15_000;

/**
 * Writes a game's events as Server-Sent Events (`id: <version>`, `event: <type>`, `data: <json>`)
 * until the stream ends or the client goes away, with a comment heartbeat.
 */
export async function writeEventStream(
  events: AsyncIterableIterator<StoredEvent> & { close(): void },
  req: FastifyRequest,
  reply: FastifyReply,
): Promise<void> {
  reply.hijack();
  const raw = reply.raw;
  raw.writeHead(200, {
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-cache, no-transform',
    connection: 'keep-alive',
    'x-accel-buffering': 'no',
    'x-request-id': String(req.id),
  });
  raw.write(': connected\n\n');
  const heartbeat = setInterval(() => raw.write(': heartbeat\n\n'), SSE_HEARTBEAT_MS);
  const stop = () => {
    clearInterval(heartbeat);
    events.close();
  };
  req.raw.on('close', stop);
  raw.on('close', stop);
  try {
    for await (const e of events) {
      raw.write(`id: ${e.version}\nevent: ${e.type}\ndata: ${JSON.stringify(toEventView(e))}\n\n`);
    }
  } finally {
    stop();
    if (!raw.writableEnded) raw.end();
  }
}
