/**
 * The fetch the REST client sends through: an Idempotency-Key on every command, and retries that
 * are safe by construction.
 *
 * - Commands (POST /v1/games, POST/PUT /v1/games/{id}/<action>, and the same of /v1/tournaments
 *   with /v1/tournaments/{id}/entrants/{playerId}/<action>) get `Idempotency-Key: <uuid>`
 *   unless the caller set one. The key is chosen once per call, so every retry of that call
 *   carries the same key and the server replays the first outcome (the same dice) instead of
 *   acting twice (docs/operations.md, "Idempotency").
 * - Retried: network errors, 503, and 409 IDEMPOTENCY_IN_PROGRESS for requests that are safe to
 *   repeat (GET/HEAD, or carrying an Idempotency-Key); 429 for every request (a rate-limited
 *   request was refused before it ran). Never retried: other 4xx, 500 (a bug, not a hiccup).
 * - The wait honours Retry-After (seconds or an HTTP date), else grows exponentially, and never
 *   exceeds `maxDelayMs`.
 */

export interface RetryOptions {
  /** Attempts in all, the first included (default 4). */
  attempts?: number;
  /** First back-off when the server gives no Retry-After (default 250 ms, doubled per attempt). */
  baseDelayMs?: number;
  /** Upper bound of any single wait, Retry-After included (default 30 s). */
  maxDelayMs?: number;
  /** Waits `ms` (tests pass a fake clock). */
  sleep?: (ms: number, signal?: AbortSignal | null) => Promise<void>;
}

export type FetchLike = (input: Request) => Promise<Response>;

const COMMAND_PATH =
  /\/v1\/(?:games(?:\/[^/]+\/[a-z-]+)?|tournaments(?:\/[^/]+\/(?:[a-z-]+|entrants\/[^/]+\/[a-z]+))?|challenges(?:\/[^/]+\/(?:accept|decline|cancel))?|seeks)\/?$/;
/** Cancelling a seek is a DELETE that takes an Idempotency-Key too. */
const DELETE_COMMAND_PATH = /\/v1\/seeks\/[^/]+\/?$/;

/**
 * Whether a request is a command of a game, tournament, challenge or seek (the operations that
 * accept an Idempotency-Key).
 */
export function isCommand(method: string, url: string): boolean {
  const path = new URL(url).pathname;
  if (method === 'DELETE') return DELETE_COMMAND_PATH.test(path);
  if (method !== 'POST' && method !== 'PUT') return false;
  return COMMAND_PATH.test(path);
}

/** A new idempotency key: a random UUID (Web Crypto; every supported runtime has it). */
export function newIdempotencyKey(): string {
  return globalThis.crypto.randomUUID();
}

/** Milliseconds a Retry-After header asks for, or undefined. */
export function retryAfterMs(header: string | null, now = Date.now()): number | undefined {
  if (!header) return undefined;
  if (/^\s*\d+\s*$/.test(header)) return Number(header) * 1000;
  const at = Date.parse(header);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}

const abortReason = (signal: AbortSignal): Error =>
  signal.reason instanceof Error ? signal.reason : new Error('The operation was aborted');

/** Waits `ms`, or rejects as soon as `signal` aborts. */
export const abortableSleep = (ms: number, signal?: AbortSignal | null) =>
  new Promise<void>((resolve, reject) => {
    if (signal?.aborted) return reject(abortReason(signal));
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener(
      'abort',
      () => {
        clearTimeout(timer);
        reject(abortReason(signal));
      },
      { once: true },
    );
  });

async function problemCode(response: Response): Promise<string | undefined> {
  try {
    const body = (await response.clone().json()) as { code?: unknown };
    return typeof body?.code === 'string' ? body.code : undefined;
  } catch {
    return undefined;
  }
}

/** Wraps `fetch` with the idempotency key and the retry policy above. */
export function resilientFetch(base: FetchLike, options: RetryOptions = {}): FetchLike {
  const attempts = Math.max(1, options.attempts ?? 4);
  const baseDelay = options.baseDelayMs ?? 250;
  const maxDelay = options.maxDelayMs ?? 30_000;
  const sleep = options.sleep ?? abortableSleep;

  return async (input: Request): Promise<Response> => {
    let request = input;
    if (isCommand(request.method, request.url) && !request.headers.has('idempotency-key')) {
      const headers = new Headers(request.headers);
      headers.set('idempotency-key', newIdempotencyKey());
      request = new Request(request, { headers });
    }
    const repeatable = request.method === 'GET' || request.method === 'HEAD' || request.headers.has('idempotency-key');

    for (let attempt = 1; ; attempt++) {
      const last = attempt >= attempts;
      const backoff = Math.min(maxDelay, baseDelay * 2 ** (attempt - 1));
      let response: Response;
      try {
        response = await base(last ? request : request.clone());
      } catch (err) {
        if (last || !repeatable || request.signal?.aborted) throw err;
        await sleep(backoff, request.signal);
        continue;
      }
      if (last) return response;
      const retry =
        response.status === 429 ||
        (repeatable &&
          (response.status === 503 ||
            (response.status === 409 && (await problemCode(response)) === 'IDEMPOTENCY_IN_PROGRESS')));
      if (!retry) return response;
      const wait = Math.min(maxDelay, retryAfterMs(response.headers.get('retry-after')) ?? backoff);
      await response.body?.cancel().catch(() => undefined);
      await sleep(wait, request.signal);
    }
  };
}
