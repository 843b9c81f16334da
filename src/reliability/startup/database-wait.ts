/**
 * Start-up against a PostgreSQL that may not be there yet (docker compose, a database restarting,
 * a connection table that is full): instead of exiting, the process retries with exponential
 * backoff for DATABASE_STARTUP_TIMEOUT_MS while a minimal HTTP server already answers on the
 * service's port:
 *
 *   GET /health        200 {"status":"starting"}     (liveness: the process is fine, do not restart it)
 *   GET /health/ready  503                           (readiness: send no traffic yet)
 *   anything else      503 DATABASE_UNAVAILABLE, Retry-After: 2 (problem+json)
 *
 * Once the database answers and the migrations are applied, the real application takes the
 * port over (the waiting server closes, the application listens at once). Errors that waiting
 * cannot cure (a wrong password, an unknown database, a failing migration) end the wait at once;
 * so does the timeout. Either way the process exits 1 with one line.
 */
import http from 'node:http';
import { Client } from 'pg';
import { isDatabaseUnavailable, PROBLEM_TYPE_BASE } from '../../common/errors';

/** PostgreSQL SQLSTATEs that mean "not now" rather than "never". */
const TRANSIENT_SQLSTATES = new Set([
  '53300', // too_many_connections
  '53000', // insufficient_resources
  '57P03', // cannot_connect_now (starting up, in recovery)
  '57P01', // admin_shutdown
  '08000',
  '08001',
  '08004',
  '08006',
]);
const TRANSIENT_NODE_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EAI_AGAIN',
  'ENOTFOUND',
  'EPIPE',
]);

/** Is this a failure that may go away by waiting (down, starting, full, not resolvable yet)? */
export function isTransientStartupError(error: unknown): boolean {
  const raw = (error as { code?: unknown })?.code;
  const code = typeof raw === 'string' || typeof raw === 'number' ? String(raw) : '';
  if (TRANSIENT_SQLSTATES.has(code) || TRANSIENT_NODE_CODES.has(code)) return true;
  if (/^(28|3D)/.test(code)) return false; // authentication, unknown database: waiting does not help
  return isDatabaseUnavailable(error);
}

export interface WaitOptions {
  /** Give up after this long (ms). */
  timeoutMs: number;
  /** First retry delay; doubles up to maxDelayMs. */
  initialDelayMs?: number;
  maxDelayMs?: number;
  log?: (line: string) => void;
  /** Resolves when the wait should stop early (shutdown signal). */
  aborted?: () => boolean;
}

export class DatabaseStartupError extends Error {}

/**
 * Runs `attempt` until it succeeds, retrying transient failures with backoff until the timeout.
 * Non-transient failures are thrown at once.
 */
export async function retryUntilReady<T>(attempt: () => Promise<T>, options: WaitOptions): Promise<T> {
  const started = Date.now();
  let delay = options.initialDelayMs ?? 250;
  const maxDelay = options.maxDelayMs ?? 5000;
  for (let tries = 1; ; tries++) {
    try {
      return await attempt();
    } catch (error) {
      if (!isTransientStartupError(error)) throw error;
      const elapsed = Date.now() - started;
      const reason = describe(error);
      if (elapsed + delay > options.timeoutMs || options.aborted?.())
        throw new DatabaseStartupError(
          `the database did not become available within ${options.timeoutMs} ms (DATABASE_STARTUP_TIMEOUT_MS; last error: ${reason})`,
        );
      options.log?.(`database not available yet (${reason}); attempt ${tries}, retrying in ${delay} ms`);
      await new Promise((r) => setTimeout(r, delay));
      delay = Math.min(maxDelay, delay * 2);
    }
  }
}

/** A short, secret-free description of a connection error (no host names or users from messages). */
function describe(error: unknown): string {
  const code = (error as { code?: unknown })?.code;
  if (typeof code === 'string' || typeof code === 'number') return String(code);
  return (error instanceof Error ? error.message : 'unknown error').slice(0, 80);
}

/**
 * One connection and `SELECT 1`: does the database answer? The whole ping (connect, query, close)
 * takes at most `timeoutMs`: a server that accepts and then never answers (a database restarting,
 * a full or stalled one) fails it with ETIMEDOUT, a transient error, so the waiting server starts
 * and readiness answers 503 instead of the process hanging here with its port closed.
 */
export async function pingDatabase(url: string, timeoutMs = 5000): Promise<void> {
  const client = new Client({ connectionString: url, connectionTimeoutMillis: timeoutMs });
  client.on('error', () => undefined);
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(Object.assign(new Error(`no answer within ${timeoutMs} ms`), { code: 'ETIMEDOUT' })),
      timeoutMs,
    );
  });
  try {
    await Promise.race([client.connect().then(() => client.query('SELECT 1')), timedOut]);
  } catch (error) {
    // A server that does not answer would not answer the goodbye either: drop the socket.
    (client as unknown as { connection?: { stream?: { destroy(): void } } }).connection?.stream?.destroy();
    throw error;
  } finally {
    clearTimeout(timer);
    await client.end().catch(() => undefined);
  }
}

/** The waiting server described in the file comment. `close()` frees the port at once. */
export async function startWaitingServer(
  port: number,
  host: string,
): Promise<{ port: number; close(): Promise<void> }> {
  const server = http.createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0];
    if (path === '/health') {
      res.writeHead(200, { 'content-type': 'application/json; charset=utf-8' }).end('{"status":"starting"}');
      return;
    }
    if (path === '/health/ready') {
      const checks = { database: { status: 'down', message: 'starting: waiting for the database' } };
      res.writeHead(503, { 'content-type': 'application/problem+json', 'retry-after': '2' }).end(
        JSON.stringify({
          type: PROBLEM_TYPE_BASE + 'not-ready',
          title: 'This instance is not ready to take traffic',
          status: 503,
          detail: 'Not ready: database',
          code: 'NOT_READY',
          instance: path,
          checks,
        }),
      );
      return;
    }
    const problem = {
      type: PROBLEM_TYPE_BASE + 'database-unavailable',
      title: 'The database is unavailable; retry shortly',
      status: 503,
      detail: 'The service is starting and waiting for its database. Retry after a few seconds.',
      code: 'DATABASE_UNAVAILABLE',
      instance: path,
    };
    res.writeHead(503, { 'content-type': 'application/problem+json', 'retry-after': '2' }).end(JSON.stringify(problem));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve());
  });
  const address = server.address();
  return {
    port: typeof address === 'object' && address ? address.port : port,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
