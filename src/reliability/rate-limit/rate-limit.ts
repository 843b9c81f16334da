/**
 * Rate limiting: a fixed one-minute window per bearer token (per client IP without one),
 * counted in PostgreSQL (rate_limit_counters) so that every instance shares the counters.
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
 * Over the limit: 429 RATE_LIMITED (problem+json) with Retry-After = seconds to the window's
 * end. Every limited response carries RateLimit-Limit / RateLimit-Remaining / RateLimit-Reset.
 * Exempt: health, docs and GraphiQL routes, and CORS preflights. If the counters cannot be
 * written (database down), requests are decided on the local counts alone (no waiting) and the
 * unflushed deltas are kept for the next flush; the request itself then fails fast with 503 if it
 * needs the database.
 */
import { createHash } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Pool } from 'pg';
import type { Logger as Pino } from 'pino';
import { DomainException, normalizeError } from '../../common/errors';
import { bearerToken } from '../../common/http/bearer-token';

export interface RateLimitOptions {
  perMinute: number;
  /** Flush period of the local deltas (default 250 ms). */
  flushEveryMs?: number;
}

const EXEMPT = /^\/(health|docs|graphiql)(\/|-|$|\?)/;
const WINDOW_SECONDS = 60;
const WINDOW_MS = WINDOW_SECONDS * 1000;
const CLEANUP_EVERY_MS = 60_000;
const PAUSE_AFTER_FAILURE_MS = 1_000;
const DEFAULT_FLUSH_EVERY_MS = 250;

/** The bucket of a request: a hash of its token (never the token itself), else its IP. */
export function rateLimitKey(request: Pick<FastifyRequest, 'headers' | 'ip'>): string {
  const token = bearerToken(request.headers.authorization);
  if (token) return 'token:' + createHash('sha256').update(`rate-limit\0${token}`).digest('hex').slice(0, 32);
  return 'ip:' + request.ip;
}

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

  /** Counts one request for `key`; resolves to the estimated shared count (this one included) and the window end. */
  async hit(key: string, now = Date.now()): Promise<{ count: number; windowEnd: number }> {
    const window = Math.floor(now / WINDOW_MS) * WINDOW_MS;
    let c = this.counters.get(key);
    if (!c || c.window !== window) {
      // A new window starts from zero; the previous window's unflushed deltas no longer matter.
      c = { window, shared: 0, pending: 0, inFlight: 0, syncedAt: 0 };
      this.counters.set(key, c);
    }
    c.pending++;
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
    if (now - this.lastCleanup > CLEANUP_EVERY_MS) {
      this.lastCleanup = now;
      this.pool
        .query(`DELETE FROM rate_limit_counters WHERE window_start < now() - interval '${2 * WINDOW_SECONDS} seconds'`)
        .catch(() => undefined);
    }
  }

  /** Periodic tick: flushes pending deltas only (stale idle keys are refreshed by their next request). */
  tick(): void {
    if (this.flushing || Date.now() < this.pausedUntil) return;
    let pending = false;
    for (const c of this.counters.values())
      if (c.pending > 0) {
        pending = true;
        break;
      }
    if (pending) this.flush().catch(() => undefined);
  }
}

export function registerRateLimit(fastify: FastifyInstance, pool: Pool, options: RateLimitOptions, logger: Pino): void {
  const limit = options.perMinute;
  const counters = new RateLimitCounters(pool, logger, options.flushEveryMs ?? DEFAULT_FLUSH_EVERY_MS);
  const timer = setInterval(() => counters.tick(), counters.flushEveryMs);
  timer.unref();
  fastify.addHook('onClose', async () => {
    clearInterval(timer);
    await counters.flush().catch(() => undefined);
  });

  fastify.addHook('onRequest', async (request, reply) => {
    if (request.method === 'OPTIONS' || EXEMPT.test(request.url)) return;
    const now = Date.now();
    const { count, windowEnd } = await counters.hit(rateLimitKey(request), now);
    const reset = Math.max(1, Math.ceil((windowEnd - now) / 1000));
    reply.header('ratelimit-limit', String(limit));
    reply.header('ratelimit-remaining', String(Math.max(0, limit - count)));
    reply.header('ratelimit-reset', String(reset));
    if (count <= limit) return;
    const { problem, headers } = normalizeError(
      new DomainException(
        'RATE_LIMITED',
        `More than ${limit} requests in a minute; retry after ${reset} s`,
        { limit, retryAfterSeconds: reset },
        { 'retry-after': String(reset) },
      ),
      request.url.split('?')[0],
    );
    problem.requestId = String(request.id);
    return reply.code(429).headers(headers).type('application/problem+json').send(problem);
  });
}
