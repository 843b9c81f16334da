import { ConfigError, loadConfig } from './config';

describe('loadConfig', () => {
  it('defaults to the embedded database on port 3000', () => {
    const config = loadConfig({});
    expect(config.PORT).toBe(3000);
    expect(config.embeddedDatabase).toBe(true);
    expect(config.MIGRATE_ON_START).toBe(true);
  });

  it('reliability settings: rate limiting on by default (off under NODE_ENV=test), CORS closed', () => {
    const config = loadConfig({});
    expect(config.RATE_LIMIT_ENABLED).toBe(true);
    expect(config.RATE_LIMIT_PER_MINUTE).toBe(600);
    expect(config.CORS_ORIGINS).toBeUndefined();
    expect(config.IDEMPOTENCY_TTL_HOURS).toBe(24);
    expect(loadConfig({ NODE_ENV: 'test' }).RATE_LIMIT_ENABLED).toBe(false);
    expect(loadConfig({ NODE_ENV: 'test', RATE_LIMIT_ENABLED: 'true' }).RATE_LIMIT_ENABLED).toBe(true);
    expect(loadConfig({ CORS_ORIGINS: 'https://a.example, http://localhost:5173' }).CORS_ORIGINS).toBe(
      'https://a.example, http://localhost:5173',
    );
  });

  it('inactivity: games are abandoned / open games expire after 30 days by default', () => {
    const config = loadConfig({});
    expect(config.GAME_ABANDON_AFTER_MS).toBe(30 * 24 * 3600 * 1000);
    expect(config.GAME_EXPIRE_OPEN_AFTER_MS).toBeUndefined(); // the service then uses GAME_ABANDON_AFTER_MS
    const short = loadConfig({ GAME_ABANDON_AFTER_MS: '5000', GAME_EXPIRE_OPEN_AFTER_MS: '2000' });
    expect([short.GAME_ABANDON_AFTER_MS, short.GAME_EXPIRE_OPEN_AFTER_MS]).toEqual([5000, 2000]);
  });

  it('group commit: on, no window, 64 per statement, 2 writers by default; bad values refused', () => {
    const config = loadConfig({});
    expect([
      config.APPEND_BATCHING,
      config.APPEND_BATCH_WINDOW_MS,
      config.APPEND_BATCH_MAX,
      config.APPEND_BATCH_CONCURRENCY,
    ]).toEqual([true, 0, 64, 2]);
    const set = loadConfig({
      APPEND_BATCHING: 'false',
      APPEND_BATCH_WINDOW_MS: '2',
      APPEND_BATCH_MAX: '1000',
      APPEND_BATCH_CONCURRENCY: '1',
    });
    expect([
      set.APPEND_BATCHING,
      set.APPEND_BATCH_WINDOW_MS,
      set.APPEND_BATCH_MAX,
      set.APPEND_BATCH_CONCURRENCY,
    ]).toEqual([false, 2, 1000, 1]);
    expect(() => loadConfig({ APPEND_BATCHING: 'sometimes' })).toThrow('APPEND_BATCHING');
    for (const bad of ['-1', '1001', 'soon', '1.5'])
      expect(() => loadConfig({ APPEND_BATCH_WINDOW_MS: bad })).toThrow('APPEND_BATCH_WINDOW_MS');
    for (const bad of ['0', '1001', 'x'])
      expect(() => loadConfig({ APPEND_BATCH_MAX: bad })).toThrow('APPEND_BATCH_MAX');
    for (const bad of ['0', '17'])
      expect(() => loadConfig({ APPEND_BATCH_CONCURRENCY: bad })).toThrow('APPEND_BATCH_CONCURRENCY');
  });

  it('start-up and readiness settings (issue 11, item 8)', () => {
    const config = loadConfig({});
    expect(config.DATABASE_STARTUP_TIMEOUT_MS).toBe(60000);
    expect(config.READY_MAX_POOL_WAIT_MS).toBe(1000);
    expect(config.READY_MAX_EVENT_LOOP_DELAY_MS).toBe(1000);
    for (const name of ['DATABASE_STARTUP_TIMEOUT_MS', 'READY_MAX_POOL_WAIT_MS', 'READY_MAX_EVENT_LOOP_DELAY_MS'])
      for (const bad of ['0', '-1', 'soon', '1.5']) expect(() => loadConfig({ [name]: bad })).toThrow(name);
  });

  it('game cache bounds: 5,000 games and 16 MiB by default; zero or junk refused', () => {
    const config = loadConfig({});
    expect([config.GAME_CACHE_MAX_ENTRIES, config.GAME_CACHE_MAX_MB]).toEqual([5000, 16]);
    expect(loadConfig({ GAME_CACHE_MAX_MB: '64' }).GAME_CACHE_MAX_MB).toBe(64);
    for (const name of ['GAME_CACHE_MAX_ENTRIES', 'GAME_CACHE_MAX_MB'])
      for (const bad of ['0', '-1', 'lots', '1.5']) expect(() => loadConfig({ [name]: bad })).toThrow(name);
  });

  it('cached game reads: 5 s by default, 0 turns them off; negative, junk or over a minute refused', () => {
    expect(loadConfig({}).GAME_READ_CACHE_MAX_AGE_MS).toBe(5000);
    expect(loadConfig({ GAME_READ_CACHE_MAX_AGE_MS: '0' }).GAME_READ_CACHE_MAX_AGE_MS).toBe(0);
    for (const bad of ['-1', 'soon', '1.5', '60001'])
      expect(() => loadConfig({ GAME_READ_CACHE_MAX_AGE_MS: bad })).toThrow('GAME_READ_CACHE_MAX_AGE_MS');
  });

  it("V8's allocation-site pretenuring: unset by default (off), true/false taken, junk refused", () => {
    expect(loadConfig({}).V8_ALLOCATION_SITE_PRETENURING).toBeUndefined();
    expect(loadConfig({ V8_ALLOCATION_SITE_PRETENURING: 'true' }).V8_ALLOCATION_SITE_PRETENURING).toBe(true);
    expect(loadConfig({ V8_ALLOCATION_SITE_PRETENURING: 'false' }).V8_ALLOCATION_SITE_PRETENURING).toBe(false);
    expect(() => loadConfig({ V8_ALLOCATION_SITE_PRETENURING: 'sometimes' })).toThrow('V8_ALLOCATION_SITE_PRETENURING');
  });

  it("V8's heap growing: 0 (V8's own factor) by default, 1–300 fix it; out of range or junk refused", () => {
    expect(loadConfig({}).V8_HEAP_GROWING_PERCENT).toBe(0);
    expect(loadConfig({ V8_HEAP_GROWING_PERCENT: '25' }).V8_HEAP_GROWING_PERCENT).toBe(25);
    for (const bad of ['-1', '301', 'big', '2.5'])
      expect(() => loadConfig({ V8_HEAP_GROWING_PERCENT: bad })).toThrow('V8_HEAP_GROWING_PERCENT');
  });

  it('OAuth: issuer unset (http://localhost:<PORT> is used), access tokens of an hour; bad values refused', () => {
    const defaults = loadConfig({});
    expect(defaults.OAUTH_ISSUER).toBeUndefined();
    expect(defaults.OAUTH_ACCESS_TOKEN_SECONDS).toBe(3600);
    expect(loadConfig({ OAUTH_ISSUER: 'https://dice.example', OAUTH_ACCESS_TOKEN_SECONDS: '600' })).toMatchObject({
      OAUTH_ISSUER: 'https://dice.example',
      OAUTH_ACCESS_TOKEN_SECONDS: 600,
    });
    for (const bad of ['dice.example', 'https://dice.example/', 'https://dice.example/path', 'ftp://dice.example'])
      expect(() => loadConfig({ OAUTH_ISSUER: bad })).toThrow(/OAUTH_ISSUER/);
    for (const bad of ['59', '86401', 'x'])
      expect(() => loadConfig({ OAUTH_ACCESS_TOKEN_SECONDS: bad })).toThrow(/OAUTH_ACCESS_TOKEN_SECONDS/);
  });

  it('hardening settings: trust-proxy off, a registration budget, webhooks to public addresses only', () => {
    const config = loadConfig({});
    expect(config.TRUST_PROXY).toBe(false);
    expect(config.RATE_LIMIT_REGISTRATIONS_PER_MINUTE).toBe(10);
    expect(config.WEBHOOK_ALLOW_PRIVATE_NETWORKS).toBe(false);
    expect(config.WEBHOOK_REQUIRE_HTTPS).toBe(false);
    expect(loadConfig({ NODE_ENV: 'production' }).WEBHOOK_REQUIRE_HTTPS).toBe(true);
    expect(loadConfig({ NODE_ENV: 'production', WEBHOOK_REQUIRE_HTTPS: 'false' }).WEBHOOK_REQUIRE_HTTPS).toBe(false);
    expect(loadConfig({ TRUST_PROXY: 'true' }).TRUST_PROXY).toBe(true);
    expect(loadConfig({ TRUST_PROXY: '2' }).TRUST_PROXY).toBe(2);
    expect(loadConfig({ TRUST_PROXY: '10.0.0.0/8, loopback,::1' }).TRUST_PROXY).toEqual([
      '10.0.0.0/8',
      'loopback',
      '::1',
    ]);
  });

  const KEYS = {
    VAPID_PUBLIC_KEY: 'B' + 'A'.repeat(86),
    VAPID_PRIVATE_KEY: 'A'.repeat(43),
    LOG_SIGNING_KEY: 'ab'.repeat(32),
    SEED_ENCRYPTION_KEYS: `k2:${'cd'.repeat(32)},k1:${'EF'.repeat(32)}`,
  };

  it('accepts a PostgreSQL URL (with the keys it requires)', () => {
    const config = loadConfig({ DATABASE_URL: 'postgresql://postgres@127.0.0.1:5432/test', PORT: '8080', ...KEYS });
    expect(config.embeddedDatabase).toBe(false);
    expect(config.PORT).toBe(8080);
    expect(config.LOG_SIGNING_KEY).toBe('ab'.repeat(32));
    expect(config.SEED_ENCRYPTION_KEYS).toEqual([
      { id: 'k2', key: 'cd'.repeat(32) },
      { id: 'k1', key: 'ef'.repeat(32) },
    ]);
  });

  it('takes a standby for the public reads beside DATABASE_URL, with a lag bound above the check interval', () => {
    const config = loadConfig({
      DATABASE_URL: 'postgresql://postgres@primary:5432/db',
      DATABASE_READ_URL: 'postgresql://postgres@standby:5432/db',
      ...KEYS,
    });
    expect(config.DATABASE_READ_URL).toBe('postgresql://postgres@standby:5432/db');
    expect(config.DATABASE_READ_MAX_LAG_MS).toBe(5000);
    expect(config.DATABASE_READ_LAG_CHECK_MS).toBe(1000);
    expect(loadConfig({}).DATABASE_READ_URL).toBeUndefined();
  });

  it('keys are optional for the embedded default only', () => {
    expect(loadConfig({}).LOG_SIGNING_KEY).toBeUndefined();
    expect(loadConfig({}).SEED_ENCRYPTION_KEYS).toBeUndefined();
  });

  it.each([
    [{ DATABASE_URL: 'not-a-url' }, 'DATABASE_URL'],
    [{ DATABASE_URL: 'mysql://root@localhost/db' }, 'DATABASE_URL'],
    [{ PORT: 'abc' }, 'PORT'],
    [{ PORT: '70000' }, 'PORT'],
    [{ MIGRATE_ON_START: 'maybe' }, 'MIGRATE_ON_START'],
    [{ LOG_LEVEL: 'loud' }, 'LOG_LEVEL'],
    [{ DATABASE_POOL_MAX: '0' }, 'DATABASE_POOL_MAX'],
    [{ RATE_LIMIT_PER_MINUTE: '0' }, 'RATE_LIMIT_PER_MINUTE'],
    [{ RATE_LIMIT_ENABLED: 'sometimes' }, 'RATE_LIMIT_ENABLED'],
    [{ METRICS_ENABLED: 'perhaps' }, 'METRICS_ENABLED'],
    [{ DATABASE_DIRECT_URL: 'mysql://x' }, 'DATABASE_DIRECT_URL'],
    [{ DATABASE_DIRECT_URL: 'postgresql://postgres@127.0.0.1:5432/db' }, 'DATABASE_DIRECT_URL'],
    [{ DATABASE_URL: 'postgresql://h/db', ...KEYS, DATABASE_READ_URL: 'standby:5432' }, 'DATABASE_READ_URL'],
    [{ DATABASE_READ_URL: 'postgresql://standby:5432/db' }, 'DATABASE_READ_URL'],
    [{ DATABASE_READ_MAX_LAG_MS: '0' }, 'DATABASE_READ_MAX_LAG_MS'],
    [{ DATABASE_READ_LAG_CHECK_MS: 'often' }, 'DATABASE_READ_LAG_CHECK_MS'],
    [{ DATABASE_READ_MAX_LAG_MS: '1000', DATABASE_READ_LAG_CHECK_MS: '1000' }, 'DATABASE_READ_MAX_LAG_MS'],
    [{ METRICS_PORT: 'nine' }, 'METRICS_PORT'],
    [{ METRICS_PORT: '70000' }, 'METRICS_PORT'],
    [{ CORS_ORIGINS: 'example.com' }, 'CORS_ORIGINS'],
    [{ GAME_ABANDON_AFTER_MS: '0' }, 'GAME_ABANDON_AFTER_MS'],
    [{ GAME_ABANDON_AFTER_MS: '30d' }, 'GAME_ABANDON_AFTER_MS'],
    [{ GAME_EXPIRE_OPEN_AFTER_MS: '-1' }, 'GAME_EXPIRE_OPEN_AFTER_MS'],
    [{ GRAPHQL_MAX_DEPTH: '-1' }, 'GRAPHQL_MAX_DEPTH'],
    [{ DATABASE_CONNECT_TIMEOUT_MS: 'soon' }, 'DATABASE_CONNECT_TIMEOUT_MS'],
    [{ DATABASE_URL: 'postgresql://h/db', SEED_ENCRYPTION_KEYS: KEYS.SEED_ENCRYPTION_KEYS }, 'LOG_SIGNING_KEY'],
    [{ DATABASE_URL: 'postgresql://h/db', LOG_SIGNING_KEY: KEYS.LOG_SIGNING_KEY }, 'SEED_ENCRYPTION_KEYS'],
    [
      {
        DATABASE_URL: 'postgresql://h/db',
        LOG_SIGNING_KEY: KEYS.LOG_SIGNING_KEY,
        SEED_ENCRYPTION_KEYS: KEYS.SEED_ENCRYPTION_KEYS,
      },
      'VAPID_PUBLIC_KEY',
    ],
    [{ VAPID_PUBLIC_KEY: 'Bshort' }, 'VAPID_PUBLIC_KEY'],
    [{ VAPID_PRIVATE_KEY: 'x'.repeat(42) }, 'VAPID_PRIVATE_KEY'],
    [{ VAPID_SUBJECT: 'me@example.com' }, 'VAPID_SUBJECT'],
    [{ PUSH_ALLOW_PRIVATE_NETWORKS: 'maybe' }, 'PUSH_ALLOW_PRIVATE_NETWORKS'],
    [{ PLAYER_EVENTS_RETENTION_HOURS: '0' }, 'PLAYER_EVENTS_RETENTION_HOURS'],
    [{ LOG_SIGNING_KEY: 'abc' }, 'LOG_SIGNING_KEY'],
    [{ SEED_ENCRYPTION_KEYS: 'k1' }, 'SEED_ENCRYPTION_KEYS'],
    [{ SEED_ENCRYPTION_KEYS: `k1:${'00'.repeat(31)}` }, 'SEED_ENCRYPTION_KEYS'],
    [{ SEED_ENCRYPTION_KEYS: `k1:${'00'.repeat(32)},k1:${'11'.repeat(32)}` }, 'SEED_ENCRYPTION_KEYS'],
    [{ LOG_INTEGRATION_INTERVAL_MS: '0' }, 'LOG_INTEGRATION_INTERVAL_MS'],
    [{ TRUST_PROXY: 'yes please' }, 'TRUST_PROXY'],
    [{ TRUST_PROXY: '10.0.0.0/99' }, 'TRUST_PROXY'],
    [{ TRUST_PROXY: '10.0.0.1,' }, 'TRUST_PROXY'],
    [{ RATE_LIMIT_REGISTRATIONS_PER_MINUTE: '0' }, 'RATE_LIMIT_REGISTRATIONS_PER_MINUTE'],
    [{ WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'maybe' }, 'WEBHOOK_ALLOW_PRIVATE_NETWORKS'],
    [{ WEBHOOK_REQUIRE_HTTPS: 'always' }, 'WEBHOOK_REQUIRE_HTTPS'],
  ])('rejects %p with one line naming %s', (env, name) => {
    let error: unknown;
    try {
      loadConfig(env);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const message = (error as Error).message;
    expect(message).toContain(name);
    expect(message).not.toContain('\n');
  });

  it('never echoes a key in its error', () => {
    const secret = `k1:${'12'.repeat(31)}`;
    expect(() => loadConfig({ SEED_ENCRYPTION_KEYS: secret })).toThrow(ConfigError);
    try {
      loadConfig({ SEED_ENCRYPTION_KEYS: secret });
    } catch (e) {
      expect((e as Error).message).not.toContain('1212');
    }
  });
});
