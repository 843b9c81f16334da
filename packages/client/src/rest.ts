/**
 * The REST client: openapi-fetch over the generated `paths`, so every path, parameter, body and
 * response is typed from openapi/openapi.json. Adds the bearer token and the resilient fetch
 * (Idempotency-Key on commands, safe retries: retry.ts).
 */
import createClient, { type Client, type Middleware } from 'openapi-fetch';
import type { paths } from './generated/openapi';
import { resilientFetch, type FetchLike, type RetryOptions } from './retry';

/** Media types the default client reads: a command answers the whole game (application/json). */
export type FairdiceMedia = 'application/json' | 'application/problem+json' | 'text/event-stream';
/** Media type of a command's compact answer (Prefer: return=minimal): its events and the new version. */
export const COMMAND_EVENTS_MEDIA_TYPE = 'application/vnd.fairdice.command-events+json';

export type FairdiceRestClient = Client<paths, FairdiceMedia>;
/**
 * A client whose commands answer just their events and the game's new version (CommandEventsView),
 * for clients that keep their own state: every request carries `Prefer: return=minimal`.
 */
export type FairdiceCompactClient = Client<paths, typeof COMMAND_EVENTS_MEDIA_TYPE | 'application/problem+json'>;

export interface FairdiceClientOptions {
  /** Where the service runs, e.g. `https://fairdice.example` (no trailing `/v1`). */
  baseUrl: string;
  /** The bearer token (`POST /v1/players` returns it), or a function that returns the current one. */
  token?: string | (() => string | undefined | Promise<string | undefined>);
  /**
   * Called when a request answers 401: return a new token to send the request once more with it
   * (an OAuth app refreshes here: oauthTokenProvider's `refresh`), or undefined to keep the 401.
   */
  onUnauthorized?: () => Promise<string | undefined>;
  /** Retry policy of retry.ts, or `false` to send every request once. */
  retry?: RetryOptions | false;
  /** The fetch to use (default: the runtime's global fetch). */
  fetch?: FetchLike;
  /** Headers sent on every request. */
  headers?: Record<string, string>;
}

/** Sets `Authorization: Bearer <token>` unless the request already carries an Authorization header. */
export function bearerAuth(token: NonNullable<FairdiceClientOptions['token']>): Middleware {
  return {
    async onRequest({ request }) {
      if (request.headers.has('authorization')) return undefined;
      const value = typeof token === 'function' ? await token() : token;
      if (value) request.headers.set('authorization', `Bearer ${value}`);
      return request;
    },
  };
}

/**
 * A typed REST client: `const { data, error } = await api.POST('/v1/games/{id}/roll', { params: { path: { id } }, body: { hold: [] } })`.
 * Errors are returned (`error` holds the problem+json body); `unwrap()` turns them into exceptions.
 */
export function createFairdiceClient(options: FairdiceClientOptions): FairdiceRestClient {
  return createClientWith<FairdiceMedia>(options);
}

/**
 * Like createFairdiceClient, but commands answer compactly: `const { version, events } =
 * unwrap(await api.POST('/v1/games/{id}/roll', ...))`. Use it for commands only (reads answer
 * application/json, which this client's types do not describe); fold the events into your state
 * (e.g. with @fairdice/core's evolveGame) or render them.
 */
export function createFairdiceCompactClient(options: FairdiceClientOptions): FairdiceCompactClient {
  const client = createClientWith<typeof COMMAND_EVENTS_MEDIA_TYPE | 'application/problem+json'>(options);
  client.use({
    onRequest({ request }) {
      request.headers.set('prefer', 'return=minimal');
      return request;
    },
  });
  return client;
}

function createClientWith<Media extends `${string}/${string}`>(options: FairdiceClientOptions): Client<paths, Media> {
  const base: FetchLike = options.fetch ?? ((request) => globalThis.fetch(request));
  const client = createClient<paths, Media>({
    baseUrl: options.baseUrl.replace(/\/+$/, ''),
    headers: options.headers,
    fetch: retryUnauthorized(
      options.retry === false ? base : resilientFetch(base, options.retry),
      options.onUnauthorized,
    ),
  });
  if (options.token) client.use(bearerAuth(options.token));
  return client;
}

/** One more try with a new token after a 401, when the caller can get one (onUnauthorized). */
function retryUnauthorized(fetch: FetchLike, onUnauthorized: FairdiceClientOptions['onUnauthorized']): FetchLike {
  if (!onUnauthorized) return fetch;
  return async (request) => {
    const spare = request.clone();
    const response = await fetch(request);
    if (response.status !== 401) return response;
    const token = await onUnauthorized();
    if (!token) return response;
    spare.headers.set('authorization', `Bearer ${token}`);
    return fetch(spare);
  };
}
