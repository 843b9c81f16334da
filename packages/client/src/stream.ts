/**
 * A game's events as an async iterable over Server-Sent Events (`GET /v1/games/{id}/stream`),
 * resumed across dropped connections with Last-Event-ID.
 *
 * The stream sends *named* events (`event: rolled`, `event: scored`, ...): a browser EventSource
 * delivers them only to `addEventListener(type, ...)`, never to `onmessage`. This helper reads the
 * stream with fetch instead, so it can send the Authorization header (EventSource cannot) and
 * works in Node, Deno, Bun and browsers alike.
 *
 * - Yields every event after `after` (default: from the beginning) exactly once, in version order.
 * - A connection that ends before the game did (network, proxy, server restart) is reopened after
 *   `reconnectDelayMs` (or the server's `retry:` / Retry-After) with `Last-Event-ID: <last version>`:
 *   the server sends what was missed, then live events, without gaps or duplicates.
 * - Ends after `gameFinished` or `gameAbandoned`. Throws a FairdiceError for a refused stream
 *   (404 GAME_NOT_FOUND, 401...) and for `event: access-revoked` (code GAME_ACCESS_REVOKED: you may
 *   no longer see the game; reconnecting would be refused).
 */
import { createParser, type EventSourceMessage } from 'eventsource-parser';
import { FairdiceError, problemOf, type Problem } from './errors';
import { abortableSleep, retryAfterMs, type FetchLike } from './retry';
import type { GameEvent } from './types';

export interface GameStreamOptions {
  baseUrl: string;
  gameId: string;
  /** Bearer token (needed for private games). */
  token?: string;
  /** Resume after this version (the last one you processed). */
  after?: number;
  /** Wait before reopening a dropped connection (default 1000 ms; the server's `retry:` wins). */
  reconnectDelayMs?: number;
  /** Consecutive failed reconnections before giving up (default 10; a received event resets the count). */
  maxReconnects?: number;
  signal?: AbortSignal;
  fetch?: FetchLike;
}

/** A refused connection worth retrying (429, 503). */
class RetryableStreamError extends FairdiceError {}

const TERMINAL = new Set(['gameFinished', 'gameAbandoned']);
export const ACCESS_REVOKED_EVENT = 'access-revoked';

export async function* gameEventStream(options: GameStreamOptions): AsyncGenerator<GameEvent, void, undefined> {
  const fetchImpl: FetchLike = options.fetch ?? ((request) => globalThis.fetch(request));
  const url = `${options.baseUrl.replace(/\/+$/, '')}/v1/games/${encodeURIComponent(options.gameId)}/stream`;
  let lastVersion = options.after;
  let delay = options.reconnectDelayMs ?? 1000;
  const maxReconnects = options.maxReconnects ?? 10;
  let failures = 0;

  for (;;) {
    const headers = new Headers({ accept: 'text/event-stream' });
    if (options.token) headers.set('authorization', `Bearer ${options.token}`);
    if (lastVersion !== undefined) headers.set('last-event-id', String(lastVersion));
    let wait = delay;
    try {
      const response = await fetchImpl(new Request(url, { headers, signal: options.signal }));
      if (!response.ok || !response.body) {
        const retryable = response.status === 429 || response.status === 503;
        const problem = await problemOf(response);
        if (!retryable) throw new FairdiceError(problem);
        wait = retryAfterMs(response.headers.get('retry-after')) ?? delay;
        throw new RetryableStreamError(problem);
      }
      const messages: EventSourceMessage[] = [];
      const parser = createParser({
        onEvent: (message) => messages.push(message),
        onRetry: (ms) => (delay = ms),
      });
      let received = 0;
      const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
      try {
        for (;;) {
          const { done, value } = await reader.read();
          if (done) break;
          parser.feed(value);
          while (messages.length) {
            const message = messages.shift()!;
            if (message.event === ACCESS_REVOKED_EVENT) {
              const data = JSON.parse(message.data) as Partial<Problem>;
              throw new FairdiceError({
                ...data,
                status: data.status ?? 403,
                code: data.code ?? 'GAME_ACCESS_REVOKED',
              });
            }
            const event = JSON.parse(message.data) as GameEvent;
            if (lastVersion !== undefined && event.version <= lastVersion) continue; // never twice
            lastVersion = event.version;
            failures = 0;
            received++;
            yield event;
            if (TERMINAL.has(event.type)) return;
          }
        }
      } finally {
        await reader.cancel().catch(() => undefined);
      }
      // The connection ended before the game did: reopen from the last version.
      if (received === 0 && ++failures > maxReconnects)
        throw new Error(`the stream of game ${options.gameId} closed ${failures} times without an event`);
    } catch (err) {
      if (err instanceof FairdiceError && !(err instanceof RetryableStreamError)) throw err;
      if (options.signal?.aborted) throw err;
      if (++failures > maxReconnects) throw err;
    }
    await abortableSleep(wait, options.signal);
  }
}
