import type { FastifyReply, FastifyRequest } from 'fastify';
import { ERROR_MAP } from '../common/errors/error-codes';
import { isAccessRevoked, type StreamItem } from './game-stream';
import { toEventView } from './game-view';

/** Heartbeat comment interval on the SSE stream (keeps proxies from closing an idle connection). */
export const SSE_HEARTBEAT_MS = 15_000;

/** The SSE event name of the final message sent when the subscriber may no longer see the game. */
export const ACCESS_REVOKED_EVENT = 'access-revoked';

/**
 * Writes `items` as Server-Sent Events until the stream ends, `message` returns null (after
 * writing a last message of its own) or the client goes away, with a comment heartbeat. Shared by
 * the game event stream and the tournament standings stream.
 */
export async function writeSse<T>(
  items: AsyncIterableIterator<T> & { close(): void },
  req: FastifyRequest,
  reply: FastifyReply,
  message: (item: T) => { text: string; last: boolean },
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
    items.close();
  };
  req.raw.once('close', stop);
  raw.once('close', stop);
  // A client that went away while the stream was being opened (backlog read) fired 'close'
  // before the listeners existed: stop now, or the stream would stay subscribed for good.
  if (raw.destroyed || req.raw.destroyed) stop();
  try {
    for await (const item of items) {
      const { text, last } = message(item);
      raw.write(text);
      if (last) break;
    }
  } finally {
    stop();
    if (!raw.writableEnded) raw.end();
  }
}

/**
 * Writes a game's events as Server-Sent Events (`id: <version>`, `event: <type>`, `data: <json>`).
 * When access is revoked the last message is `event: access-revoked` with
 * `data: {"code":"GAME_ACCESS_REVOKED",...}` (no id: resuming is pointless), then the response ends.
 */
export function writeEventStream(
  events: AsyncIterableIterator<StreamItem> & { close(): void },
  req: FastifyRequest,
  reply: FastifyReply,
): Promise<void> {
  return writeSse(events, req, reply, (e) => {
    if (isAccessRevoked(e)) {
      const data = {
        code: 'GAME_ACCESS_REVOKED',
        status: ERROR_MAP.GAME_ACCESS_REVOKED.status,
        detail: 'You may no longer see this game; the stream ends here',
        gameId: e.gameId,
      };
      return { text: `event: ${ACCESS_REVOKED_EVENT}\ndata: ${JSON.stringify(data)}\n\n`, last: true };
    }
    return { text: `id: ${e.version}\nevent: ${e.type}\ndata: ${JSON.stringify(toEventView(e))}\n\n`, last: false };
  });
}
