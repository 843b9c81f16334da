/**
 * Rate limiting: fixed one-minute windows counted in PostgreSQL (rate_limit_counters), so that
 * every instance shares the counters. Buckets (docs/operations.md, *Rate limits*):
 *
 * - `player:<id>`: requests with a VALID bearer token, per player (RATE_LIMIT_PER_MINUTE);
 * - `ip:<address>`: requests without a token or with an invalid one, per client address
 *   (request.ip, which follows TRUST_PROXY): a fresh junk token per request gains nothing;
 * - `register:<address>`: player registrations (POST /v1/players and each GraphQL registerPlayer
 *   field) per client address (RATE_LIMIT_REGISTRATIONS_PER_MINUTE), on top of the above.
 *
 * A REST request counts 1. A GraphQL request counts 1 when it arrives and, once its operation is
 * known, one more per root mutation field beyond the first (20 aliased createGame fields count
 * 20; graphqlRateLimitPlugin): a mutation is charged before anything executes.
 *
 * Batched (no database write per request): each instance counts locally per key and window and
 * flushes the deltas every FLUSH_EVERY_MS in ONE multi-row statement that returns the shared
 * totals:
 *
 *   INSERT ... SELECT FROM unnest(keys, windows, deltas) ON CONFLICT DO UPDATE SET count = count + delta
 *   RETURNING key, window, count
 *
 * A request is decided with (last shared total this instance saw + its local unflushed count).
 * The first request of a key on this instance (in a window, or after the key was idle for longer
 * than STALE_AFTER_MS) waits for a flush, so it starts from a fresh shared total; concurrent
 * waiters share one flush. Between flushes an instance does not see the other instances'
 * increments: the over-admission is bounded (docs/operations.md, *Rate limits*).
 *
 * Over the limit: 429 RATE_LIMITED (problem+json; GraphQL: extensions.code) with Retry-After =
 * seconds to the window's end. Every limited response carries RateLimit-Limit /
 * RateLimit-Remaining / RateLimit-Reset. Exempt: health, docs and GraphiQL routes, and CORS
 * preflights. If the counters cannot be written (database down), requests are decided on the
 * local counts alone (no waiting) and the unflushed deltas are kept for the next flush; the
 * request itself then fails fast with 503 if it needs the database. Rows of ended windows are
 * deleted (at most once a minute per instance, also when idle).
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Pool } from 'pg';
import type { Logger as Pino } from 'pino';
import { DomainException, normalizeError } from '../../common/errors';
import { bearerToken } from '../../common/http/bearer-token';

export interface RateLimitOptions {
  perMinute: number;
  /** Registrations per client address per minute. */
  registrationsPerMinute: number;
  /** Flush period of the local deltas (default 250 ms). */
  flushEveryMs?: number;
}

/** Resolves a bearer token to its player id, or null when the token is not valid. */
export type TokenResolver = (token: string, request: object) => Promise<string | null>;

export type RateLimitBucket = 'requests' | 'registrations';

export interface RateLimitDecision {
  allowed: boolean;
  limit: number;
  count: number;
  /** Seconds to the end of the window. */
  resetSeconds: number;
}

/** What the onRequest hook leaves on the request for later charges (the GraphQL plugin). */
export interface RequestRateLimit {
  key: string;
  /** Counts `units` more against `bucket` for this request's client. */
  charge(bucket: RateLimitBucket, units: number): Promise<RateLimitDecision>;
}

declare module 'fastify' {
  interface FastifyRequest {
    rateLimit?: RequestRateLimit;
  }
}

const EXEMPT = /^\/(health|docs|graphiql)(\/|-|$|\?)/;
const WINDOW_SECONDS = 60;
const WINDOW_MS = WINDOW_SECONDS * 1000;
const CLEANUP_EVERY_MS = 60_000;
const PAUSE_AFTER_FAILURE_MS = 1_000;
const DEFAULT_FLUSH_EVERY_MS = 250;

/**
 * The bucket of a request: its player when the bearer token is valid, else its client address
 * (request.ip: the socket's address, or the forwarded one as TRUST_PROXY allows).
 */
export async function rateLimitKey(
  request: Pick<FastifyRequest, 'headers' | 'ip'>,
  resolve: TokenResolver,
): Promise<string> {
  const token = bearerToken(request.headers.authorization);
  if (token) {
    // The database may be down: then count the address (the request's own auth answers 503).
    const playerId = await resolve(token, request).catch(() => null);
    if (playerId) return 'player:' + playerId;
  }
  return 'ip:' + request.ip;
}

/** The registration bucket of a client address. */
export const registrationKey = (ip: string) => 'register:' + ip;

interface Counter {
  /** Window start, ms since the epoch (this instance's clock). */
  window: number;
  /** Shared total of the window as of the last flush that included this key. */
  shared: number;
  /** Counted here, not yet flushed. */
  pending: number;
  /** Deltas taken by the flush in flight (added back if it fails). */
  inFlight: number;
  /** When the shared total was last read from the database (0 = never). */
  syncedAt: number;
}

/**
 * Local counters + periodic flush. Exported for tests; registerRateLimit wires it to Fastify.
 */
export class RateLimitCounters {
  private readonly counters = new Map<string, Counter>();
  private flushing: Promise<void> | null = null;
  private next: Promise<void> | null = null;
  private pausedUntil = 0;
  private lastCleanup = 0;
  private readonly staleAfterMs: number;

  constructor(
    private readonly pool: Pool,
    private readonly logger: Pino,
    readonly flushEveryMs: number,
  ) {
    this.staleAfterMs = Math.max(2 * flushEveryMs, 1000);
  }

  /** Counts `units` requests for `key`; resolves to the estimated shared count (these included) and the window end. */
  async hit(key: string, now = Date.now(), units = 1): Promise<{ count: number; windowEnd: number }> {
    const window = Math.floor(now / WINDOW_MS) * WINDOW_MS;
    let c = this.counters.get(key);
    if (!c || c.window !== window) {
      // A new window starts from zero; the previous window's unflushed deltas no longer matter.
      c = { window, shared: 0, pending: 0, inFlight: 0, syncedAt: 0 };
      this.counters.set(key, c);
    }
    c.pending += units;
    if (now - c.syncedAt > this.staleAfterMs && now >= this.pausedUntil) {
      await this.flush();
    }
    return { count: c.shared + c.pending + c.inFlight, windowEnd: window + WINDOW_MS };
  }

  /** Flushes every pending delta (and refreshes stale keys) in one statement; concurrent callers share it. */
  flush(): Promise<void> {
    if (this.flushing) {
      // A flush is in flight and may not include our delta: one more runs right after it
      // (shared by everyone who asks meanwhile).
      this.next ??= this.flushing.then(() => {
        this.next = null;
        return this.flush();
      });
      return this.next;
    }
    const run = this.flushOnce().finally(() => {
      this.flushing = null;
    });
    this.flushing = run;
    return run;
  }

  private async flushOnce(): Promise<void> {
    const now = Date.now();
    const current = Math.floor(now / WINDOW_MS) * WINDOW_MS;
    const batch: Array<[string, Counter]> = [];
    for (const [key, c] of this.counters) {
      if (c.window < current) {
        this.counters.delete(key); // an ended window: nothing to decide with it any more
        continue;
      }
      if (c.pending > 0 || now - c.syncedAt > this.staleAfterMs) batch.push([key, c]);
    }
    if (batch.length === 0) return;
    // A fixed lock order: two instances flushing overlapping keys cannot deadlock.
    batch.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : a[1].window - b[1].window));
    for (const [, c] of batch) {
      c.inFlight = c.pending;
      c.pending = 0;
    }
    try {
      const { rows } = await this.pool.query<{ key: string; w: number; count: number }>(
        `INSERT INTO rate_limit_counters AS c (key, window_start, count)
         SELECT x.k, to_timestamp(x.w / 1000.0), x.n FROM unnest($1::text[], $2::float8[], $3::int[]) AS x(k, w, n)
         ON CONFLICT (key, window_start) DO UPDATE SET count = c.count + EXCLUDED.count
         RETURNING c.key, (extract(epoch FROM c.window_start) * 1000)::float8 AS w, c.count`,
        [batch.map(([k]) => k), batch.map(([, c]) => c.window), batch.map(([, c]) => c.inFlight)],
      );
      const syncedAt = Date.now();
      const totals = new Map<string, number>();
      for (const r of rows) totals.set(`${r.key}\0${Math.round(Number(r.w))}`, Number(r.count));
      for (const [key, c] of batch) {
        const total = totals.get(`${key}\0${c.window}`);
        if (total !== undefined) c.shared = Math.max(c.shared + c.inFlight, total);
        else c.shared += c.inFlight;
        c.inFlight = 0;
        c.syncedAt = syncedAt;
      }
    } catch (err) {
      for (const [, c] of batch) {
        c.pending += c.inFlight;
        c.inFlight = 0;
      }
      if (now >= this.pausedUntil) {
        this.logger.warn(
          { context: 'RateLimit', err: (err as Error).message },
          'rate-limit counters unavailable; deciding on local counts',
        );
      }
      this.pausedUntil = now + PAUSE_AFTER_FAILURE_MS;
      return;
    }
    this.cleanup(now);
  }

  /** Deletes the rows of windows that ended more than a window ago (at most once per CLEANUP_EVERY_MS). */
  cleanup(now = Date.now()): void {
    if (now - this.lastCleanup <= CLEANUP_EVERY_MS || now < this.pausedUntil) return;
    this.lastCleanup = now;
    this.pool
      .query(`DELETE FROM rate_limit_counters WHERE window_start < now() - interval '${2 * WINDOW_SECONDS} seconds'`)
      .catch(() => undefined);
  }

  /** Periodic tick: flushes pending deltas only (stale idle keys are refreshed by their next request). */
  tick(): void {
    if (this.flushing || Date.now() < this.pausedUntil) return;
    this.cleanup();
    let pending = false;
    for (const c of this.counters.values())
      if (c.pending > 0) {
        pending = true;
        break;
      }
    if (pending) this.flush().catch(() => undefined);
  }
}

/** The problem+json body and headers of a 429. */
function tooMany(limit: number, reset: number, what: string, url: string) {
  return normalizeError(
    new DomainException(
      'RATE_LIMITED',
      `More than ${limit} ${what} in a minute; retry after ${reset} s`,
      { limit, retryAfterSeconds: reset },
      { 'retry-after': String(reset) },
    ),
    url,
  );
}

/** REST registration: POST /v1/players (query string aside). */
const isRegistration = (request: FastifyRequest) =>
  request.method === 'POST' && /^\/v1\/players\/?(\?|$)/.test(request.url);

export function registerRateLimit(
  fastify: FastifyInstance,
  pool: Pool,
  options: RateLimitOptions,
  resolveToken: TokenResolver,
  logger: Pino,
): (key: string) => Promise<RateLimitDecision> {
  const limits: Record<RateLimitBucket, number> = {
    requests: options.perMinute,
    registrations: options.registrationsPerMinute,
  };
  const counters = new RateLimitCounters(pool, logger, options.flushEveryMs ?? DEFAULT_FLUSH_EVERY_MS);
  const timer = setInterval(() => counters.tick(), counters.flushEveryMs);
  timer.unref();
  fastify.addHook('onClose', async () => {
    clearInterval(timer);
    await counters.flush().catch(() => undefined);
  });

  const decide = async (key: string, bucket: RateLimitBucket, units: number): Promise<RateLimitDecision> => {
    const now = Date.now();
    const { count, windowEnd } = await counters.hit(key, now, units);
    const limit = limits[bucket];
    return { allowed: count <= limit, limit, count, resetSeconds: Math.max(1, Math.ceil((windowEnd - now) / 1000)) };
  };

  fastify.addHook('onRequest', async (request, reply) => {
    if (request.method === 'OPTIONS' || EXEMPT.test(request.url)) return;
    const key = await rateLimitKey(request, resolveToken);
    const ip = request.ip;
    request.rateLimit = {
      key,
      charge: (bucket, units) => decide(bucket === 'registrations' ? registrationKey(ip) : key, bucket, units),
    };
    const general = await decide(key, 'requests', 1);
    reply.header('ratelimit-limit', String(general.limit));
    reply.header('ratelimit-remaining', String(Math.max(0, general.limit - general.count)));
    reply.header('ratelimit-reset', String(general.resetSeconds));
    let refused: RateLimitDecision | null = general.allowed ? null : general;
    let what = 'requests';
    if (!refused && isRegistration(request)) {
      const registrations = await decide(registrationKey(ip), 'registrations', 1);
      if (!registrations.allowed) {
        refused = registrations;
        what = 'registrations from your address';
      }
    }
    if (!refused) return;
    const { problem, headers } = tooMany(refused.limit, refused.resetSeconds, what, request.url.split('?')[0]);
    problem.requestId = String(request.id);
    return reply.code(429).headers(headers).type('application/problem+json').send(problem);
  });
  // One request of the general bucket, for transports outside Fastify's hooks (the WebSocket command channel).
  return (key) => decide(key, 'requests', 1);
}
