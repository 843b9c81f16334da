import ipaddr from 'ipaddr.js';
import { z } from 'zod';

/**
 * The service's configuration, read from the environment once at start-up.
 * A bad value stops the process with one line naming the variable (see `loadConfig`).
 */
const booleanFlag = z
  .enum(['true', 'false', '1', '0', 'yes', 'no'], { message: 'must be true or false' })
  .transform((v) => v === 'true' || v === '1' || v === 'yes');

const postgresUrl = z.string().refine((v) => {
  try {
    const u = new URL(v);
    return (u.protocol === 'postgres:' || u.protocol === 'postgresql:') && u.hostname.length > 0;
  } catch {
    return false;
  }
}, 'must be a postgresql:// URL such as postgresql://user:pass@host:5432/db');

const boundedInt = (name: string, min: number, max: number) =>
  z
    .string()
    .regex(/^\d+$/, `must be a whole number`)
    .transform(Number)
    .refine((n) => n >= min && n <= max, `${name} must be between ${min} and ${max}`);

const positiveInt = (name: string) =>
  z
    .string()
    .regex(/^\d+$/, `must be a whole number`)
    .transform(Number)
    .refine((n) => n > 0, `${name} must be greater than 0`);

/** proxy-addr's names for address ranges, accepted in TRUST_PROXY lists. */
const PROXY_RANGE_NAMES = ['loopback', 'linklocal', 'uniquelocal'];
const isAddressOrRange = (v: string): boolean => {
  if (PROXY_RANGE_NAMES.includes(v)) return true;
  try {
    if (v.includes('/')) ipaddr.parseCIDR(v);
    else ipaddr.parse(v);
    return ipaddr.isValid(v.split('/')[0]);
  } catch {
    return false;
  }
};

/**
 * Fastify's `trustProxy`: false (default: the socket's address is the client), true (trust every
 * X-Forwarded-For hop: only behind a proxy that overwrites the header), a hop count, or the proxies'
 * addresses / CIDR ranges.
 */
const trustProxy = z
  .string()
  .refine(
    (v) =>
      /^(true|false|\d{1,3})$/.test(v) ||
      v
        .split(',')
        .map((p) => p.trim())
        .every((p) => p.length > 0 && isAddressOrRange(p)),
    'must be true, false, a number of proxy hops, or a comma-separated list of proxy addresses / CIDR ranges (10.0.0.0/8, loopback)',
  )
  .transform((v): boolean | number | string[] =>
    v === 'true' ? true : v === 'false' ? false : /^\d+$/.test(v) ? Number(v) : v.split(',').map((p) => p.trim()),
  );

export const configSchema = z.object({
  NODE_ENV: z
    .enum(['development', 'production', 'test'], { message: 'must be development, production or test' })
    .default('development'),
  HOST: z.string().min(1).default('0.0.0.0'),
  PORT: z
    .string()
    .regex(/^\d+$/, 'must be a port number (0-65535)')
    .transform(Number)
    .refine((n) => n >= 0 && n <= 65535, 'must be a port number (0-65535)')
    .default(3000),
  DATABASE_URL: postgresUrl.optional(),
  DATABASE_POOL_MAX: positiveInt('DATABASE_POOL_MAX').default(10),
  /**
   * A direct session to the same PostgreSQL for what a transaction-mode pooler (PgBouncer) cannot
   * carry: LISTEN and the migrations' session lock. Unset: DATABASE_URL. Only with DATABASE_URL.
   */
  DATABASE_DIRECT_URL: postgresUrl.optional(),
  /** Hot statements as named (prepared) statements (decision 0152). Default: on unless DATABASE_DIRECT_URL says a transaction pooler is in front; never on the embedded database (nor with a pool of one connection). */
  DATABASE_PREPARED_STATEMENTS: booleanFlag.optional(),
  /**
   * A streaming standby (or a proxy port that routes to one) for the public, staleness-tolerant
   * reads: leaderboards, public profiles, the open-games list, finished games' audits (decision
   * 0091). Unset: every read on DATABASE_URL. Only with DATABASE_URL.
   */
  DATABASE_READ_URL: postgresUrl.optional(),
  /** Reads go to the standby only while it was last seen caught up at most this long ago (ms). */
  DATABASE_READ_MAX_LAG_MS: positiveInt('DATABASE_READ_MAX_LAG_MS').default(5000),
  /** How often the standby's replay position is compared with the primary's (ms). */
  DATABASE_READ_LAG_CHECK_MS: positiveInt('DATABASE_READ_LAG_CHECK_MS').default(1000),
  PGLITE_DATA_DIR: z.string().min(1).default('./data/pglite'),
  MIGRATE_ON_START: booleanFlag.default(true),
  LOG_LEVEL: z
    .enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'], {
      message: 'must be one of fatal, error, warn, info, debug, trace, silent',
    })
    .default('info'),
  SHUTDOWN_TIMEOUT_MS: positiveInt('SHUTDOWN_TIMEOUT_MS').default(10000),
  GRAPHIQL: booleanFlag.optional(),
  // --- reliability (docs/operations.md) ---
  /** Rate limiting on/off. Default: on, except NODE_ENV=test. */
  RATE_LIMIT_ENABLED: booleanFlag.optional(),
  /** Requests (GraphQL: root mutation fields) per player, or per client address without a valid token, per fixed one-minute window. */
  RATE_LIMIT_PER_MINUTE: positiveInt('RATE_LIMIT_PER_MINUTE').default(600),
  /** Player registrations (REST and GraphQL) per client address per one-minute window. */
  RATE_LIMIT_REGISTRATIONS_PER_MINUTE: positiveInt('RATE_LIMIT_REGISTRATIONS_PER_MINUTE').default(10),
  /** Which proxies' X-Forwarded-For to believe for the client address (Fastify trustProxy). */
  TRUST_PROXY: trustProxy.default(false),
  /** Comma-separated allowed CORS origins ("*" = any); unset = no cross-origin access. */
  CORS_ORIGINS: z
    .string()
    .refine(
      (v) =>
        v
          .split(',')
          .map((o) => o.trim())
          .filter(Boolean)
          .every((o) => o === '*' || /^https?:\/\/[^/\s]+$/.test(o)),
      'must be "*" or a comma-separated list of origins such as https://app.example.com',
    )
    .optional(),
  /** GraphQL: deepest field nesting, estimated cost and aliases allowed in one document. */
  GRAPHQL_MAX_DEPTH: positiveInt('GRAPHQL_MAX_DEPTH').default(10),
  GRAPHQL_MAX_COST: positiveInt('GRAPHQL_MAX_COST').default(5000),
  GRAPHQL_MAX_ALIASES: positiveInt('GRAPHQL_MAX_ALIASES').default(20),
  /** Live connections (docs/operations.md "Live connections"): GraphQL WebSockets per client address and per player. */
  WS_MAX_CONNECTIONS_PER_ADDRESS: positiveInt('WS_MAX_CONNECTIONS_PER_ADDRESS').default(50),
  WS_MAX_CONNECTIONS_PER_PLAYER: positiveInt('WS_MAX_CONNECTIONS_PER_PLAYER').default(10),
  /** Subscriptions running at once on one WebSocket. */
  WS_MAX_SUBSCRIPTIONS_PER_CONNECTION: positiveInt('WS_MAX_SUBSCRIPTIONS_PER_CONNECTION').default(20),
  /** A WebSocket that sends no connection_init within this time is closed (4408). */
  WS_CONNECTION_INIT_TIMEOUT_MS: positiveInt('WS_CONNECTION_INIT_TIMEOUT_MS').default(5000),
  /** WebSocket command channel (/v1/ws): moves awaiting their answer on one connection; one more is TOO_MANY_IN_FLIGHT. */
  WS_MAX_COMMANDS_IN_FLIGHT: positiveInt('WS_MAX_COMMANDS_IN_FLIGHT').default(32),
  /** WebSocket command channel: one connection's unsent bytes; past it the connection is dropped (4413). */
  WS_MAX_BUFFERED_BYTES: positiveInt('WS_MAX_BUFFERED_BYTES').default(1024 * 1024),
  /** SSE streams (game events, tournament standings) per client address. */
  SSE_MAX_STREAMS_PER_ADDRESS: positiveInt('SSE_MAX_STREAMS_PER_ADDRESS').default(50),
  /** One SSE reader's pending bytes (unsent, its socket not draining); a reader past it is dropped. */
  SSE_MAX_BUFFERED_BYTES: positiveInt('SSE_MAX_BUFFERED_BYTES').default(1024 * 1024),
  /** pg pool: time to wait for a connection (a down database fails fast) and per-query limit. */
  DATABASE_CONNECT_TIMEOUT_MS: positiveInt('DATABASE_CONNECT_TIMEOUT_MS').default(1500),
  DATABASE_QUERY_TIMEOUT_MS: positiveInt('DATABASE_QUERY_TIMEOUT_MS').default(10000),
  /** Start-up: how long to wait (with backoff) for an external PostgreSQL that is down, starting or full. */
  DATABASE_STARTUP_TIMEOUT_MS: positiveInt('DATABASE_STARTUP_TIMEOUT_MS').default(60000),
  /**
   * Readiness: /health/ready answers within this (ms) whatever the database does; a database that
   * has not answered its ping by then makes it 503 NOT_READY.
   */
  READY_TIMEOUT_MS: positiveInt('READY_TIMEOUT_MS').default(1500),
  /** Readiness (/health/ready 503) when a pool connection was awaited longer than this (ms), recently or now. */
  READY_MAX_POOL_WAIT_MS: positiveInt('READY_MAX_POOL_WAIT_MS').default(1000),
  /** Readiness (/health/ready 503) when the event loop was blocked longer than this (ms) in the last seconds. */
  READY_MAX_EVENT_LOOP_DELAY_MS: positiveInt('READY_MAX_EVENT_LOOP_DELAY_MS').default(1000),
  /** The event store's per-instance game cache: most games kept, and most estimated MiB (decision 0052). */
  GAME_CACHE_MAX_ENTRIES: positiveInt('GAME_CACHE_MAX_ENTRIES').default(5000),
  GAME_CACHE_MAX_MB: positiveInt('GAME_CACHE_MAX_MB').default(16),
  /** How long a cached game known current may answer reads without PostgreSQL (decision 0150); 0: never. */
  GAME_READ_CACHE_MAX_AGE_MS: boundedInt('GAME_READ_CACHE_MAX_AGE_MS', 0, 60_000).default(5000),
  /** How long an idempotency key's outcome is kept and replayed. */
  IDEMPOTENCY_TTL_HOURS: positiveInt('IDEMPOTENCY_TTL_HOURS').default(24),
  // --- group commit of appends (docs/operations.md "Group commit and durability", decision 0045) ---
  /** Write the appends of concurrent commands to different games in one statement. Default on. */
  APPEND_BATCHING: booleanFlag.default(true),
  /** How long a free writer waits to gather more appends (ms; 0 = to the end of the event-loop turn). */
  APPEND_BATCH_WINDOW_MS: boundedInt('APPEND_BATCH_WINDOW_MS', 0, 1000).default(0),
  /** Most commands written by one statement. */
  APPEND_BATCH_MAX: boundedInt('APPEND_BATCH_MAX', 1, 1000).default(64),
  /** Batches written at the same time (each on its own pool connection); the next one gathers meanwhile. */
  APPEND_BATCH_CONCURRENCY: boundedInt('APPEND_BATCH_CONCURRENCY', 1, 16).default(2),
  // --- metrics (docs/operations.md "Metrics") ---
  /** Prometheus metrics at /metrics. Default on. */
  METRICS_ENABLED: booleanFlag.default(true),
  /** Serve /metrics on this port (own listener) instead of the public one; unset = on the public port. */
  METRICS_PORT: z
    .string()
    .regex(/^\d+$/, 'must be a port number (0-65535)')
    .transform(Number)
    .refine((n) => n >= 0 && n <= 65535, 'must be a port number (0-65535)')
    .optional(),
  /** Address of the metrics listener when METRICS_PORT is set. */
  METRICS_HOST: z.string().min(1).default('127.0.0.1'),
  // --- async play: deadlines, push, webhooks (docs/async.md) ---
  /** Run the job worker (turn deadlines, webhook deliveries) in this instance. */
  JOBS_ENABLED: booleanFlag.default(true),
  /** How often the worker looks for due jobs. */
  JOBS_POLL_INTERVAL_MS: positiveInt('JOBS_POLL_INTERVAL_MS').default(1000),
  /** Rating leaderboards (docs/ratings.md §5): the rated games a player needs in the pool to be listed. */
  RATING_LEADERBOARD_MIN_GAMES: positiveInt('RATING_LEADERBOARD_MIN_GAMES').default(5),
  /** Rating leaderboards: a player is listed only with a rated game in the pool within this many days. */
  RATING_LEADERBOARD_ACTIVE_DAYS: positiveInt('RATING_LEADERBOARD_ACTIVE_DAYS').default(30),
  /** Challenges (docs/challenges.md): an unanswered challenge expires this many seconds after it was made. */
  CHALLENGE_EXPIRY_SECONDS: positiveInt('CHALLENGE_EXPIRY_SECONDS').default(86_400),
  /** Challenges: how many pending challenges a player may have made at once. */
  CHALLENGE_MAX_PENDING: positiveInt('CHALLENGE_MAX_PENDING').default(20),
  /** Run the matchmaker's passes in this instance (docs/matchmaking.md; one pass at a time across instances). */
  MATCHMAKER_ENABLED: booleanFlag.default(true),
  /** How often the matchmaker pairs the open seeks (a new seek also wakes this instance's matchmaker). */
  MATCHMAKER_INTERVAL_MS: positiveInt('MATCHMAKER_INTERVAL_MS').default(1000),
  /** A claimed job is invisible to other workers this long (it runs again after a crash). */
  JOBS_LEASE_SECONDS: positiveInt('JOBS_LEASE_SECONDS').default(60),
  /** Live push between instances: auto = PostgreSQL LISTEN/NOTIFY unless the database is the embedded one. */
  EVENT_BUS: z.enum(['auto', 'memory', 'postgres'], { message: 'must be auto, memory or postgres' }).default('auto'),
  /**
   * Games never left unrevealed (docs/async.md): a started game with no command for this long is
   * abandoned and its server seed revealed. Default 30 days.
   */
  GAME_ABANDON_AFTER_MS: positiveInt('GAME_ABANDON_AFTER_MS').default(2_592_000_000),
  /** An open game that never starts expires (abandoned, seed revealed) after this long. Default: GAME_ABANDON_AFTER_MS. */
  GAME_EXPIRE_OPEN_AFTER_MS: positiveInt('GAME_EXPIRE_OPEN_AFTER_MS').optional(),
  /** Webhook deliveries: attempts in all, first retry delay (doubling), per-request timeout. */
  WEBHOOK_MAX_ATTEMPTS: positiveInt('WEBHOOK_MAX_ATTEMPTS').default(8),
  WEBHOOK_BACKOFF_BASE_MS: positiveInt('WEBHOOK_BACKOFF_BASE_MS').default(1000),
  WEBHOOK_TIMEOUT_MS: positiveInt('WEBHOOK_TIMEOUT_MS').default(10000),
  /** Allow webhook URLs on loopback, private, link-local... addresses (tests, private deployments). */
  WEBHOOK_ALLOW_PRIVATE_NETWORKS: booleanFlag.default(false),
  /** Only https:// webhook URLs. Default: on when NODE_ENV=production. */
  WEBHOOK_REQUIRE_HTTPS: booleanFlag.optional(),
  // --- the per-player event stream and Web Push (docs/async.md, *Player events*) ---
  /** A player's events are kept this long for resuming (Last-Event-ID / after); older ones are pruned (then: resync). */
  PLAYER_EVENTS_RETENTION_HOURS: positiveInt('PLAYER_EVENTS_RETENTION_HOURS').default(168),
  /** How often the prune job runs. */
  PLAYER_EVENTS_PRUNE_INTERVAL_MS: positiveInt('PLAYER_EVENTS_PRUNE_INTERVAL_MS').default(3_600_000),
  // --- advice (docs/advice.md "Tables") ---
  /** Where solved five-dice tables are cached (one file per option set, reused across restarts). */
  ADVICE_CACHE_DIR: z.string().min(1).default('./data/advice'),
  /** Worker threads that build advice tables. Default: min(2, available CPUs). */
  ADVICE_WORKERS: positiveInt('ADVICE_WORKERS').optional(),
  /** Tables waiting for a worker at most; beyond that a request for a new table gets 503 ADVICE_BUSY. */
  ADVICE_QUEUE_MAX: positiveInt('ADVICE_QUEUE_MAX').default(16),
  /** Tables kept in memory at most besides the presets' (five-dice about 6.3 MB each, Farkle 2.2 MB; the least recently used is dropped and reloaded from disk or solved again). */
  ADVICE_MEMORY_TABLES: positiveInt('ADVICE_MEMORY_TABLES').default(8),
  /** Bytes of custom (non-preset) table files in ADVICE_CACHE_DIR at most; the least recently used file is deleted first. The presets' files are kept outside this bound. */
  ADVICE_CACHE_MAX_BYTES: positiveInt('ADVICE_CACHE_MAX_BYTES').default(256 * 1024 * 1024),
  /** New tables a player may have built per hour for options outside the presets (the stateless advisers); past it, 429 ADVICE_BUILD_LIMITED. Anonymous callers get preset and already-built tables only. */
  ADVICE_CUSTOM_BUILDS_PER_HOUR: positiveInt('ADVICE_CUSTOM_BUILDS_PER_HOUR').default(10),
  /** Build (or load) the three presets' tables in the background at start-up. Default: on, except NODE_ENV=test. */
  ADVICE_WARM_PRESETS: booleanFlag.optional(),
  /** V8's allocation-site pretenuring (objects of sites that survived at start allocated straight in the old generation). Default: off, 40–70 MiB less peak memory under load (decision 0163). Read by src/runtime-flags.ts at start. */
  V8_ALLOCATION_SITE_PRETENURING: booleanFlag.optional(),
  /** How far V8 lets the old generation grow past what survived its last full collection, in percent (decision 0151); 0: V8's own dynamic factor (up to 300 %). Read by src/runtime-flags.ts at start. */
  V8_HEAP_GROWING_PERCENT: boundedInt('V8_HEAP_GROWING_PERCENT', 0, 300).default(0),
  /** Nice value (0–19) of an advice worker thread during a start-up warm-up build: it uses only CPU that moves leave over; a table someone waits for runs at normal priority (decision 0141). */
  ADVICE_WORKER_NICE: z.coerce.number().int().min(0).max(19).default(19),
  /** An advice worker thread with nothing to do for this long is stopped (its memory returned); the next table starts one again. */
  ADVICE_WORKER_IDLE_MS: positiveInt('ADVICE_WORKER_IDLE_MS').default(2000),
  /** A speculative table (a preset not yet on disk, Farkle) is built only once the event loop has been busy less than this share of a second (0–1), so the warm-up never competes with moves (decision 0141). */
  ADVICE_WARM_IDLE_UTILIZATION: z.coerce.number().min(0).max(1).default(0.1),
  // --- accounts (docs/accounts.md) ---
  /** WebAuthn relying-party id: the host name (or a registrable suffix of it) the web client is served on. */
  WEBAUTHN_RP_ID: z
    .string()
    .regex(/^[a-z0-9]([a-z0-9.-]*[a-z0-9])?$/, 'must be a host name such as fairdice.example or localhost')
    .default('localhost'),
  /** The name authenticators show for the relying party. */
  WEBAUTHN_RP_NAME: z.string().min(1).max(64).default('fairdice'),
  /** Origins a WebAuthn response may come from (comma-separated). Default: http://localhost:<PORT>. */
  WEBAUTHN_ORIGINS: z
    .string()
    .refine(
      (v) =>
        v
          .split(',')
          .map((o) => o.trim())
          .filter(Boolean)
          .every((o) => /^https?:\/\/[^/\s]+$/.test(o)),
      'must be a comma-separated list of origins such as https://fairdice.example',
    )
    .transform((v) =>
      v
        .split(',')
        .map((o) => o.trim())
        .filter(Boolean),
    )
    .optional(),
  /** Password attempts per username before each further one locks it (back-off from SIGN_IN_LOCK_SECONDS). */
  SIGN_IN_ACCOUNT_FREE_ATTEMPTS: boundedInt('SIGN_IN_ACCOUNT_FREE_ATTEMPTS', 1, 1000).default(5),
  /** Password attempts per client address before each further one locks the address. */
  SIGN_IN_ADDRESS_FREE_ATTEMPTS: boundedInt('SIGN_IN_ADDRESS_FREE_ATTEMPTS', 1, 100000).default(20),
  /** First lock after the free attempts (seconds); doubled with each further attempt, at most an hour. */
  SIGN_IN_LOCK_SECONDS: boundedInt('SIGN_IN_LOCK_SECONDS', 1, 3600).default(60),
  // --- OAuth for third-party apps (docs/oauth.md) ---
  /** The authorization server's issuer identifier (RFC 8414): the public origin of the service. Default: http://localhost:<PORT>. */
  OAUTH_ISSUER: z
    .string()
    .regex(/^https?:\/\/[^/\s?#]+$/, 'must be an origin such as https://fairdice.example (no path)')
    .optional(),
  /** Lifetime of an OAuth access token (seconds); refresh tokens live 30 days and rotate on every use. */
  OAUTH_ACCESS_TOKEN_SECONDS: boundedInt('OAUTH_ACCESS_TOKEN_SECONDS', 60, 86400).default(3600),
  // --- keys (docs/operations.md "Keys"; required whenever DATABASE_URL is set) ---
  /** Ed25519 private key (the 32-byte RFC 8032 seed, 64 hex digits) that signs the transparency log's tree heads. */
  LOG_SIGNING_KEY: z
    .string()
    .regex(/^[0-9a-fA-F]{64}$/, 'must be 64 hex digits (a 32-byte Ed25519 private key)')
    .transform((v) => v.toLowerCase())
    .optional(),
  /**
   * AES-256 keys that encrypt server seeds at rest: "<id>:<64 hex>[,<id>:<64 hex>...]". The first
   * encrypts; every one decrypts (rotation: put the new key first, keep the old ones until the
   * start-up re-encryption has run).
   */
  SEED_ENCRYPTION_KEYS: z
    .string()
    .transform((v, ctx) => {
      const keys = v
        .split(',')
        .map((k) => k.trim())
        .filter(Boolean)
        .map((k) => /^([A-Za-z0-9_-]{1,32}):([0-9a-fA-F]{64})$/.exec(k));
      if (keys.length === 0 || keys.some((k) => k === null)) {
        ctx.addIssue({
          code: 'custom',
          message: 'must be "<id>:<64 hex digits>" (id: 1-32 letters, digits, _ or -), comma-separated, newest first',
        });
        return z.NEVER;
      }
      const parsed = keys.map((k) => ({ id: k![1], key: k![2].toLowerCase() }));
      if (new Set(parsed.map((k) => k.id)).size !== parsed.length) {
        ctx.addIssue({ code: 'custom', message: 'has the same key id twice' });
        return z.NEVER;
      }
      return parsed;
    })
    .optional(),
  /**
   * The VAPID key pair (RFC 8292) that signs Web Push requests, base64url (web-push's
   * generateVAPIDKeys(): public 65 bytes uncompressed P-256, private 32 bytes). Required with
   * DATABASE_URL (every instance must sign with the same key the browsers subscribed with).
   */
  VAPID_PUBLIC_KEY: z
    .string()
    .regex(/^B[A-Za-z0-9_-]{86}$/, 'must be a base64url uncompressed P-256 public key (87 characters)')
    .optional(),
  VAPID_PRIVATE_KEY: z
    .string()
    .regex(/^[A-Za-z0-9_-]{43}$/, 'must be a base64url 32-byte P-256 private key (43 characters)')
    .optional(),
  /** The contact the push services see in the VAPID JWT (`sub`): a mailto: or https: URL. */
  VAPID_SUBJECT: z
    .string()
    .regex(/^(mailto:.+|https:\/\/.+)$/, 'must be a mailto: or https: URL')
    .default('mailto:operator@fairdice.invalid'),
  /** Allow push endpoints on loopback, private, link-local... addresses (tests, private deployments). */
  PUSH_ALLOW_PRIVATE_NETWORKS: booleanFlag.default(false),
  /** Push subscriptions per player at most (PUSH_SUBSCRIPTION_LIMIT_REACHED). */
  PUSH_MAX_SUBSCRIPTIONS_PER_PLAYER: positiveInt('PUSH_MAX_SUBSCRIPTIONS_PER_PLAYER').default(10),
  /** Attempts per push delivery (then dropped), first retry delay (doubling), per-request timeout. */
  PUSH_MAX_ATTEMPTS: positiveInt('PUSH_MAX_ATTEMPTS').default(5),
  PUSH_BACKOFF_BASE_MS: positiveInt('PUSH_BACKOFF_BASE_MS').default(1000),
  PUSH_TIMEOUT_MS: positiveInt('PUSH_TIMEOUT_MS').default(10000),
  /** How often the log sequencer integrates pending leaves and signs a new tree head. */
  LOG_INTEGRATION_INTERVAL_MS: positiveInt('LOG_INTEGRATION_INTERVAL_MS').default(1000),
});

export type AppConfig = Omit<
  z.output<typeof configSchema>,
  'RATE_LIMIT_ENABLED' | 'WEBHOOK_REQUIRE_HTTPS' | 'ADVICE_WARM_PRESETS'
> & {
  /** True when no DATABASE_URL is set: the embedded PGlite database is used. */
  embeddedDatabase: boolean;
  RATE_LIMIT_ENABLED: boolean;
  WEBHOOK_REQUIRE_HTTPS: boolean;
  ADVICE_WARM_PRESETS: boolean;
};

export class ConfigError extends Error {}

const SECRET_VARIABLES = new Set(['LOG_SIGNING_KEY', 'SEED_ENCRYPTION_KEYS', 'VAPID_PRIVATE_KEY']);

/** Parses the environment. Throws ConfigError whose message is one line naming the variable. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): AppConfig {
  // Empty strings mean "unset" (docker-compose and shells often pass VAR= ).
  const input = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== ''));
  const parsed = configSchema.safeParse(input);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const name = String(issue.path[0] ?? 'environment');
    // Keys are never echoed (the message goes to logs).
    const shown =
      env[name] === undefined || SECRET_VARIABLES.has(name) ? '' : ` (got "${String(env[name]).slice(0, 60)}")`;
    throw new ConfigError(`Invalid configuration: ${name} ${issue.message}${shown}`);
  }
  // Only the embedded default may generate its own keys (into its data directory); a service on
  // PostgreSQL may run as several instances, which must all sign and decrypt with the same keys.
  if (parsed.data.DATABASE_URL !== undefined) {
    for (const name of ['LOG_SIGNING_KEY', 'SEED_ENCRYPTION_KEYS', 'VAPID_PUBLIC_KEY', 'VAPID_PRIVATE_KEY'] as const) {
      if (parsed.data[name] === undefined)
        throw new ConfigError(
          `Invalid configuration: ${name} is required when DATABASE_URL is set (see docs/operations.md, Keys)`,
        );
    }
  }
  if (parsed.data.DATABASE_DIRECT_URL !== undefined && parsed.data.DATABASE_URL === undefined)
    throw new ConfigError(
      'Invalid configuration: DATABASE_DIRECT_URL needs DATABASE_URL (it is the direct session beside a pooled DATABASE_URL)',
    );
  if (parsed.data.DATABASE_READ_URL !== undefined && parsed.data.DATABASE_URL === undefined)
    throw new ConfigError(
      'Invalid configuration: DATABASE_READ_URL needs DATABASE_URL (it is a standby of that PostgreSQL; the embedded database has none)',
    );
  if (parsed.data.DATABASE_READ_MAX_LAG_MS <= parsed.data.DATABASE_READ_LAG_CHECK_MS)
    throw new ConfigError(
      `Invalid configuration: DATABASE_READ_MAX_LAG_MS must be greater than DATABASE_READ_LAG_CHECK_MS (${parsed.data.DATABASE_READ_LAG_CHECK_MS}): the lag is only known once per check`,
    );
  return {
    ...parsed.data,
    embeddedDatabase: parsed.data.DATABASE_URL === undefined,
    RATE_LIMIT_ENABLED: parsed.data.RATE_LIMIT_ENABLED ?? parsed.data.NODE_ENV !== 'test',
    WEBHOOK_REQUIRE_HTTPS: parsed.data.WEBHOOK_REQUIRE_HTTPS ?? parsed.data.NODE_ENV === 'production',
    ADVICE_WARM_PRESETS: parsed.data.ADVICE_WARM_PRESETS ?? parsed.data.NODE_ENV !== 'test',
  };
}

/** Injection token for the typed configuration. */
export const APP_CONFIG = Symbol('APP_CONFIG');
