/**
 * Rate limiting: a fixed one-minute window per bearer token (per client IP without one),
 * counted in PostgreSQL (rate_limit_counters) so that every instance shares the counters.
 * One statement per request:
 *
 *   INSERT ... VALUES (key, <window start>, 1) ON CONFLICT DO UPDATE SET count = count + 1 RETURNING count
 *
 * Over the limit: 429 RATE_LIMITED (problem+json) with Retry-After = seconds to the window's
 * end. Every limited response carries RateLimit-Limit / RateLimit-Remaining / RateLimit-Reset.
 * Exempt: health, docs and GraphiQL routes, and CORS preflights. If the counter cannot be
 * written (database down), the request is let through (fail open) and the limiter pauses for a
 * second; the request itself then fails fast with 503 if it needs the database.
 */
import { createHash } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Pool } from 'pg';
import type { Logger as Pino } from 'pino';
import { DomainException, normalizeError } from '../../common/errors';
import { bearerToken } from '../../players/tokens';

export interface RateLimitOptions {
  perMinute: number;
}

const EXEMPT = /^\/(health|docs|graphiql)(\/|-|$|\?)/;
const WINDOW_SECONDS = 60;
const CLEANUP_EVERY_MS = 60_000;
const PAUSE_AFTER_FAILURE_MS = 1_000;

/** The bucket of a request: a hash of its token (never the token itself), else its IP. */
export function rateLimitKey(request: Pick<FastifyRequest, 'headers' | 'ip'>): string {
  const token = bearerToken(request.headers.authorization);
  if (token) return 'token:' + createHash('sha256').update(`rate-limit\0${token}`).digest('hex').slice(0, 32);
  return 'ip:' + request.ip;
}

export function registerRateLimit(fastify: FastifyInstance, pool: Pool, options: RateLimitOptions, logger: Pino): void {
  let pausedUntil = 0;
  let lastCleanup = 0;
  const limit = options.perMinute;

  fastify.addHook('onRequest', async (request, reply) => {
    if (request.method === 'OPTIONS' || EXEMPT.test(request.url)) return;
    const now = Date.now();
    if (now < pausedUntil) return;
    let count: number;
    let reset: number;
    try {
      const { rows } = await pool.query<{ count: number; reset: number }>(
        `INSERT INTO rate_limit_counters AS c (key, window_start, count)
         VALUES ($1, to_timestamp(floor(extract(epoch FROM now()) / ${WINDOW_SECONDS}) * ${WINDOW_SECONDS}), 1)
         ON CONFLICT (key, window_start) DO UPDATE SET count = c.count + 1
         RETURNING c.count, ceil(extract(epoch FROM c.window_start + interval '${WINDOW_SECONDS} seconds' - now()))::int AS reset`,
        [rateLimitKey(request)],
      );
      count = rows[0].count;
      reset = Math.max(1, rows[0].reset);
    } catch (err) {
      pausedUntil = now + PAUSE_AFTER_FAILURE_MS;
      logger.warn({ context: 'RateLimit', err: (err as Error).message }, 'rate-limit counter unavailable; requests pass unlimited for a second');
      return;
    }
    if (now - lastCleanup > CLEANUP_EVERY_MS) {
      lastCleanup = now;
      pool
        .query(`DELETE FROM rate_limit_counters WHERE window_start < now() - interval '${2 * WINDOW_SECONDS} seconds'`)
        .catch(() => undefined);
    }
    reply.header('ratelimit-limit', String(limit));
    reply.header('ratelimit-remaining', String(Math.max(0, limit - count)));
    reply.header('ratelimit-reset', String(reset));
    if (count <= limit) return;
    const { problem, headers } = normalizeError(
      new DomainException('RATE_LIMITED', `More than ${limit} requests in a minute; retry after ${reset} s`, { limit, retryAfterSeconds: reset }, { 'retry-after': String(reset) }),
      request.url.split('?')[0],
    );
    problem.requestId = String(request.id);
    return reply.code(429).headers(headers).type('application/problem+json').send(problem);
  });
}
