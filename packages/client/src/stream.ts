/**
 * Server-Sent Events of the fairdice API as async iterables: a game's events
 * (`GET /v1/games/{id}/stream`, gameEventStream) and a tournament's live standings
 * (`GET /v1/tournaments/{id}/standings/stream`, tournamentStandingsStream), both reopened after a
 * dropped connection by one reader (readSse).
 *
 * The streams send *named* events (`event: rolled`, `event: standings`, ...): a browser EventSource
 * delivers them only to `addEventListener(type, ...)`, never to `onmessage`. This reader uses fetch
 * instead, so it can send the Authorization header (EventSource cannot) and works in Node, Deno,
 * Bun and browsers alike.
 *
 * - A connection that ends before the stream did (network, proxy, server restart) is reopened after
 *   `reconnectDelayMs` (or the server's `retry:` / Retry-After).
 * - A refused stream (404, 401...) throws a FairdiceError at once; 429 and 503 are retried.
 */
import { createParser, type EventSourceMessage } from 'eventsource-parser';
import { FairdiceError, problemOf, type Problem } from './errors';
import { abortableSleep, retryAfterMs, type FetchLike } from './retry';
import type { GameEvent, PlayerStreamMessage, TournamentStandings } from './types';

/** What every stream takes besides its id. */
export interface StreamOptions {
  baseUrl: string;
  /** Bearer token (needed for private games and tournaments). */
  token?: string;
  /** Wait before reopening a dropped connection (default 1000 ms; the server's `retry:` wins). */
  reconnectDelayMs?: number;
  /** Consecutive failed reconnections before giving up (default 10; a received message resets the count). */
  maxReconnects?: number;
  signal?: AbortSignal;
  fetch?: FetchLike;
}

export interface GameStreamOptions extends StreamOptions {
  gameId: string;
  /** Resume after this version (the last one you processed). */
  after?: number;
}

export interface TournamentStandingsStreamOptions extends StreamOptions {
  tournamentId: string;
}

export interface PlayerEventStreamOptions extends StreamOptions {
  /** The player's token: the stream is always the token's own player's. */
  token: string;
  /** Resume after this sequence number (the last `seq` you processed); 0: everything kept; default: live only. */
  after?: number;
}

/** A refused connection worth retrying (429, 503). */
class RetryableStreamError extends FairdiceError {}

const TERMINAL = new Set(['gameFinished', 'gameAbandoned']);
const ENDED_TOURNAMENT = new Set(['finished', 'cancelled']);
export const ACCESS_REVOKED_EVENT = 'access-revoked';
/** The last message of a stream whose token was rotated, revoked or expired (docs/accounts.md "Scoped tokens"). */
export const TOKEN_REVOKED_EVENT = 'revoked';
export const STANDINGS_EVENT = 'standings';

/** Throws the UNAUTHENTICATED problem a stream's `revoked` message carries. */
function throwRevoked(data: string): never {
  const problem = JSON.parse(data) as Partial<Problem>;
  throw new FairdiceError({ ...problem, status: problem.status ?? 401, code: problem.code ?? 'UNAUTHENTICATED' });
}

/**
 * A game's events, resumed across dropped connections with Last-Event-ID.
 *
 * - Yields every event after `after` (default: from the beginning) exactly once, in version order:
 *   a reopened connection sends `Last-Event-ID: <last version>` and the server sends what was
 *   missed, then live events, without gaps or duplicates.
 * - Ends after `gameFinished` or `gameAbandoned`. Throws a FairdiceError for a refused stream
 *   (404 GAME_NOT_FOUND, 401...), for `event: access-revoked` (code GAME_ACCESS_REVOKED: you may
 *   no longer see the game; reconnecting would be refused) and for `event: revoked` (code
 *   UNAUTHENTICATED: the token that opened it was rotated, revoked or expired).
 */
export function gameEventStream(options: GameStreamOptions): AsyncGenerator<GameEvent, void, undefined> {
  let lastVersion = options.after;
  return readSse<GameEvent>(options, {
    path: `/v1/games/${encodeURIComponent(options.gameId)}/stream`,
    name: `game ${options.gameId}`,
    lastEventId: () => (lastVersion === undefined ? undefined : String(lastVersion)),
    read(message) {
      if (message.event === TOKEN_REVOKED_EVENT) throwRevoked(message.data);
      if (message.event === ACCESS_REVOKED_EVENT) {
        const data = JSON.parse(message.data) as Partial<Problem>;
        throw new FairdiceError({ ...data, status: data.status ?? 403, code: data.code ?? 'GAME_ACCESS_REVOKED' });
      }
      const event = JSON.parse(message.data) as GameEvent;
      if (lastVersion !== undefined && event.version <= lastVersion) return null; // never twice
      lastVersion = event.version;
      return { value: event, last: TERMINAL.has(event.type) };
    },
  });
}

/**
 * A tournament's live standings: the standings now, then again whenever they change (a round ends,
 * an entrant withdraws, a move in a running tables game: `live: true`). Each connection starts with
 * the standings of that moment, so a reopened one misses nothing that matters.
 * Ends after standings whose status is `finished` or `cancelled` (they change no more). Throws a
 * FairdiceError for a refused stream (404 TOURNAMENT_NOT_FOUND, 401...) and UNAUTHENTICATED once the
 * token that opened it is rotated, revoked or expired (`revoked`).
 */
export function tournamentStandingsStream(
  options: TournamentStandingsStreamOptions,
): AsyncGenerator<TournamentStandings, void, undefined> {
  return readSse<TournamentStandings>(options, {
    path: `/v1/tournaments/${encodeURIComponent(options.tournamentId)}/standings/stream`,
    name: `the standings of tournament ${options.tournamentId}`,
    lastEventId: () => undefined,
    read(message) {
      if (message.event === TOKEN_REVOKED_EVENT) throwRevoked(message.data);
      if (message.event !== STANDINGS_EVENT) return null;
      const standings = JSON.parse(message.data) as TournamentStandings;
      return { value: standings, last: ENDED_TOURNAMENT.has(standings.status) };
    },
  });
}

/**
 * My event stream (`GET /v1/players/me/events`, docs/async.md "Player events"): yourTurn,
 * deadlineSoon, gameStarted, gameFinished, seatTaken, tournamentRoundStarted, tournamentFinished,
 * over all my games, resumed across dropped connections with Last-Event-ID (the last `seq`), each
 * event exactly once in `seq` order. A `resync` message is yielded too (events were pruned: reload
 * what you show); the stream continues after it. Never ends by itself; throws a FairdiceError
 * UNAUTHENTICATED once the token is rotated (`revoked`), and for a refused stream (400
 * INVALID_EVENT_CURSOR, 401).
 */
export function playerEventStream(
  options: PlayerEventStreamOptions,
): AsyncGenerator<PlayerStreamMessage, void, undefined> {
  let lastSeq = options.after;
  return readSse<PlayerStreamMessage>(options, {
    path: '/v1/players/me/events',
    name: 'my event stream',
    lastEventId: () => (lastSeq === undefined ? undefined : String(lastSeq)),
    read(message) {
      if (message.event === TOKEN_REVOKED_EVENT) throwRevoked(message.data);
      const event = JSON.parse(message.data) as PlayerStreamMessage;
      if (lastSeq !== undefined && event.seq <= lastSeq && event.type !== 'resync') return null; // never twice
      lastSeq = event.seq;
      return { value: event, last: false };
    },
  });
}

interface SseSource<T> {
  path: string;
  /** For the error of a stream that keeps closing empty. */
  name: string;
  /** Sent as Last-Event-ID on each (re)connection; undefined: none. */
  lastEventId(): string | undefined;
  /** A message to yield (and whether the stream ends after it), or null to pass over it. May throw. */
  read(message: EventSourceMessage): { value: T; last: boolean } | null;
}

async function* readSse<T>(options: StreamOptions, source: SseSource<T>): AsyncGenerator<T, void, undefined> {
  const fetchImpl: FetchLike = options.fetch ?? ((request) => globalThis.fetch(request));
  const url = `${options.baseUrl.replace(/\/+$/, '')}${source.path}`;
  let delay = options.reconnectDelayMs ?? 1000;
  const maxReconnects = options.maxReconnects ?? 10;
  let failures = 0;

  for (;;) {
    const headers = new Headers({ accept: 'text/event-stream' });
    if (options.token) headers.set('authorization', `Bearer ${options.token}`);
    const lastEventId = source.lastEventId();
    if (lastEventId !== undefined) headers.set('last-event-id', lastEventId);
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
            const item = source.read(messages.shift()!);
            if (!item) continue;
            failures = 0;
            received++;
            yield item.value;
            if (item.last) return;
          }
        }
      } finally {
        await reader.cancel().catch(() => undefined);
      }
      // The connection ended before the stream did: reopen it.
      if (received === 0 && ++failures > maxReconnects)
        throw new Error(`the stream of ${source.name} closed ${failures} times without an event`);
    } catch (err) {
      if (err instanceof FairdiceError && !(err instanceof RetryableStreamError)) throw err;
      if (options.signal?.aborted) throw err;
      if (++failures > maxReconnects) throw err;
    }
    await abortableSleep(wait, options.signal);
  }
}
