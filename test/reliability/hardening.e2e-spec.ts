/**
 * Reliability and security of the HTTP surface, independent of games: rate limits, secure
 * headers and CORS, GraphQL limits and error hygiene, body limits, token storage.
 */
import type { Pool } from 'pg';
import { hashToken } from '../../src/players/tokens';
import { createTestApp, gql, registerPlayer, type TestApp } from '../helpers/app';
import { createTestPool } from '../helpers/database';
import { waitFor } from '../async/helpers';

jest.setTimeout(60_000);

/** Waits when a minute boundary is near, so that a fixed-window count is not split. */
async function awayFromMinuteBoundary(): Promise<void> {
  const intoMinute = Date.now() % 60_000;
  // Kept on purpose: the window is the wall clock's minute, so only the clock can move past it.
  if (intoMinute > 50_000) await new Promise((r) => setTimeout(r, 60_500 - intoMinute));
}

describe('rate limits (PostgreSQL counters, fixed one-minute window)', () => {
  let plain: TestApp;
  let limited: TestApp;
  let pool: Pool;
  beforeAll(async () => {
    plain = await createTestApp();
    // Its readiness is asked for below only to show it is exempt from the limit: its thresholds
    // are far above what a loaded CI machine can reach (starting an app in this process blocks
    // the event loop for a second or more), so that it answers 200 (test/reliability/readiness
    // tests them).
    limited = await createTestApp({
      env: {
        RATE_LIMIT_ENABLED: 'true',
        RATE_LIMIT_PER_MINUTE: '5',
        READY_TIMEOUT_MS: '15000',
        READY_MAX_POOL_WAIT_MS: '15000',
        READY_MAX_EVENT_LOOP_DELAY_MS: '15000',
      },
    });
    pool = createTestPool();
  });
  afterAll(async () => {
    await pool.end();
    await limited.close();
    await plain.close();
  });

  it('per token: the 6th request in a minute is 429 RATE_LIMITED with Retry-After; other tokens are unaffected', async () => {
    const a = await registerPlayer(plain, 'Ann');
    const b = await registerPlayer(plain, 'Bob');
    await awayFromMinuteBoundary();
    for (let i = 0; i < 5; i++) {
      const res = await limited.http().get('/v1/players/me').set(a.auth).expect(200);
      expect(res.headers['ratelimit-remaining']).toBe(String(4 - i));
    }
    const res = await limited.http().get('/v1/players/me').set(a.auth).expect(429);
    expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(res.body).toMatchObject({ status: 429, code: 'RATE_LIMITED' });
    const retryAfter = Number(res.headers['retry-after']);
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);
    await limited.http().get('/v1/players/me').set(b.auth).expect(200);
    // GraphQL is counted in the same bucket.
    const gqlRes = await limited.http().post('/graphql').set(a.auth).send({ query: '{ me { id } }' }).expect(429);
    expect(gqlRes.body.code).toBe('RATE_LIMITED');
  });

  it('counters live in PostgreSQL per player (valid token) or per address, never under a token', async () => {
    const { rows } = await pool.query<{ key: string; count: number }>('SELECT key, count FROM rate_limit_counters');
    expect(rows.length).toBeGreaterThan(0);
    expect(rows.every((r) => /^(player:[0-9a-f-]{36}|ip:.+|register:.+)$/.test(r.key))).toBe(true);
    expect(rows.some((r) => r.key.includes('fd_'))).toBe(false);
  });

  it('anonymous requests are counted per IP; health and docs are exempt', async () => {
    await awayFromMinuteBoundary();
    await pool.query("DELETE FROM rate_limit_counters WHERE key LIKE 'ip:%'");
    for (let i = 0; i < 5; i++)
      await limited
        .http()
        .get('/v1/rule-sets')
        .expect((r) => expect(r.status).not.toBe(429));
    await limited.http().get('/v1/rule-sets').expect(429);
    for (let i = 0; i < 8; i++) {
      await limited.http().get('/health').expect(200);
      await limited.http().get('/health/ready').expect(200);
    }
    await limited.http().get('/docs-json').expect(200);
  });

  it('two instances on one database share a budget (batched counters: bounded over-admission)', async () => {
    const other = await createTestApp({ env: { RATE_LIMIT_ENABLED: 'true', RATE_LIMIT_PER_MINUTE: '5' } });
    try {
      const c = await registerPlayer(plain, 'Cid');
      await awayFromMinuteBoundary();
      const ok = (r: { status: number }) => expect([200, 429]).toContain(r.status);
      let successes = 0;
      // 3 on this instance, then (after a flush) the rest on the other, alternating.
      for (let i = 0; i < 3; i++) {
        const res = await limited.http().get('/v1/players/me').set(c.auth).expect(ok);
        if (res.status === 200) successes++;
      }
      // This instance's count has been flushed to the shared row (its periodic flush).
      await waitFor(
        async () => {
          const { rows } = await pool.query<{ count: number }>('SELECT count FROM rate_limit_counters WHERE key = $1', [
            `player:${c.id}`,
          ]);
          return rows.length === 1 && rows[0].count >= successes;
        },
        10_000,
        "the first instance's flushed count",
      );
      for (let i = 0; i < 8; i++) {
        const res = await (i % 2 ? limited : other).http().get('/v1/players/me').set(c.auth).expect(ok);
        if (res.status === 200) successes++;
      }
      // One budget of 5, plus at most one request per instance decided before its next flush.
      expect(successes).toBeGreaterThanOrEqual(5);
      expect(successes).toBeLessThanOrEqual(5 + 2);
      // Both instances end up refusing (each once its shared total is refreshed by a flush).
      for (const app of [limited, other])
        await waitFor(
          async () => (await app.http().get('/v1/players/me').set(c.auth)).status === 429,
          10_000,
          'a 429 from each instance',
        );
    } finally {
      await other.close();
    }
  });
});

describe('secure headers and CORS', () => {
  let t: TestApp;
  let cors: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
    cors = await createTestApp({ env: { CORS_ORIGINS: 'https://app.example' } });
  });
  afterAll(async () => {
    await cors.close();
    await t.close();
  });

  it('API responses carry helmet headers and a strict CSP', async () => {
    const res = await t.http().get('/health').expect(200);
    expect(res.headers['content-security-policy']).toContain("default-src 'none'");
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['x-frame-options']).toBeDefined();
    expect(res.headers['strict-transport-security']).toBeDefined();
    expect(res.headers['x-powered-by']).toBeUndefined();
    expect(res.headers['cross-origin-resource-policy']).toBe('same-origin');
    // Computed once at start (decision 0153), on every answer: a refusal's problem too.
    const refused = await t.http().get('/v1/players/me').expect(401);
    expect(refused.headers['x-content-type-options']).toBe('nosniff');
    expect(refused.headers['referrer-policy']).toBe('no-referrer');
    expect(refused.headers['content-security-policy']).toContain("default-src 'none'");
    // With CORS open, API answers are readable cross-origin.
    const open = await cors.http().get('/health').expect(200);
    expect(open.headers['cross-origin-resource-policy']).toBe('cross-origin');
    expect(open.headers['x-content-type-options']).toBe('nosniff');
  });

  it('Swagger UI and GraphiQL still work: a same-origin CSP that allows their inline bootstrap', async () => {
    for (const path of ['/graphiql', '/docs/']) {
      const res = await t.http().get(path).redirects(1).expect(200);
      const csp = res.headers['content-security-policy'];
      expect(csp).toContain("default-src 'self'");
      expect(csp).toContain("script-src 'self' 'unsafe-inline'");
      expect(csp).not.toMatch(/https?:/);
    }
  });

  it('CORS is closed by default', async () => {
    const res = await t
      .http()
      .options('/v1/players/me')
      .set('origin', 'https://evil.example')
      .set('access-control-request-method', 'GET');
    expect(res.headers['access-control-allow-origin']).toBeUndefined();
  });

  it('CORS_ORIGINS opens it to the listed origins only, with our headers', async () => {
    const ok = await cors
      .http()
      .options('/v1/games/00000000-0000-4000-8000-000000000000/roll')
      .set('origin', 'https://app.example')
      .set('access-control-request-method', 'POST')
      .set('access-control-request-headers', 'authorization,content-type,idempotency-key,if-match');
    expect(ok.status).toBeLessThan(300);
    expect(ok.headers['access-control-allow-origin']).toBe('https://app.example');
    expect(ok.headers['access-control-allow-headers']).toMatch(/idempotency-key/i);
    // A read asking for the database (Cache-Control: no-cache, decision 0150) passes the preflight.
    const read = await cors
      .http()
      .options('/v1/games/00000000-0000-4000-8000-000000000000')
      .set('origin', 'https://app.example')
      .set('access-control-request-method', 'GET')
      .set('access-control-request-headers', 'authorization,cache-control,if-none-match');
    expect(read.status).toBeLessThan(300);
    expect(read.headers['access-control-allow-headers']).toMatch(/cache-control/i);
    const get = await cors.http().get('/health').set('origin', 'https://app.example').expect(200);
    expect(get.headers['access-control-expose-headers']).toMatch(/etag/i);
    const other = await cors.http().get('/health').set('origin', 'https://evil.example').expect(200);
    expect(other.headers['access-control-allow-origin']).toBeUndefined();
  });
});

describe('GraphQL limits', () => {
  let t: TestApp;
  let pool: Pool;
  beforeAll(async () => {
    t = await createTestApp({ env: { GRAPHQL_MAX_DEPTH: '2', GRAPHQL_MAX_COST: '60', GRAPHQL_MAX_ALIASES: '20' } });
    pool = createTestPool();
  });
  afterAll(async () => {
    await pool.end();
    await t.close();
  });

  const playersNamed = async (name: string) =>
    Number((await pool.query('SELECT count(*) FROM players WHERE display_name = $1', [name])).rows[0].count);

  it('a document over the depth limit is refused before execution (nothing stored)', async () => {
    const res = await t
      .http()
      .post('/graphql')
      .send({ query: 'mutation { registerPlayer(input: { displayName: "Deep" }) { player { id } } }' })
      .expect(400);
    expect(res.body.errors[0].extensions.code).toBe('QUERY_TOO_COMPLEX');
    expect(res.body.data).toBeUndefined();
    expect(await playersNamed('Deep')).toBe(0);
  });

  it('a document over the cost limit is refused before execution', async () => {
    const query = `mutation { ${Array.from({ length: 7 }, (_, i) => `p${i}: registerPlayer(input: { displayName: "Costly" }) { token }`).join(' ')} }`;
    const body = await gql(t, query);
    expect(body.errors?.[0].extensions).toMatchObject({ code: 'QUERY_TOO_COMPLEX', limit: 'cost' });
    expect(await playersNamed('Costly')).toBe(0);
    const list = await gql(t, '{ openGames(limit: 100) { items { id ruleSet } } }');
    expect(list.errors?.[0].extensions?.code).toBe('QUERY_TOO_COMPLEX');
  });

  it('a document with 1,000 aliased mutations is refused; nothing runs', async () => {
    const query = `mutation{${Array.from({ length: 1000 }, (_, i) => `m${i}:registerPlayer(input:{displayName:"Alias"}){token}`).join(' ')}}`;
    expect(JSON.stringify({ query }).length).toBeLessThan(64 * 1024);
    const res = await t.http().post('/graphql').send({ query }).expect(400);
    expect(res.body.errors[0].extensions.code).toBe('QUERY_TOO_COMPLEX');
    expect(await playersNamed('Alias')).toBe(0);
    const fewer = `mutation { ${Array.from({ length: 21 }, (_, i) => `m${i}: registerPlayer(input: { displayName: "Alias" }) { token }`).join(' ')} }`;
    const body = await gql(t, fewer);
    expect(body.errors?.[0].extensions?.code).toBe('QUERY_TOO_COMPLEX');
    expect(await playersNamed('Alias')).toBe(0);
  });

  it('batched HTTP requests are refused', async () => {
    const res = await t
      .http()
      .post('/graphql')
      .send([{ query: '{ serviceInfo { name } }' }, { query: '{ serviceInfo { name } }' }]);
    expect(res.status).toBe(400);
    expect(JSON.stringify(res.body)).not.toContain('"fairdice"');
  });

  it('introspection stays on (the full introspection query passes the limits)', async () => {
    const { getIntrospectionQuery } = await import('graphql');
    const body = await gql(t, getIntrospectionQuery({ descriptions: true, inputValueDeprecation: true }));
    expect(body.errors).toBeUndefined();
    expect(body.data.__schema.types.length).toBeGreaterThan(10);
  });

  it('unknown fields in GraphQL inputs are rejected (400 VALIDATION_FAILED)', async () => {
    const body = await gql(t, 'mutation { registerPlayer(input: { displayName: "Extra", admin: true }) { token } }');
    expect(body.errors?.[0].extensions?.code).toBe('VALIDATION_FAILED');
    const vars = await gql(t, 'mutation($i: RegisterPlayerInput!) { registerPlayer(input: $i) { token } }', {
      i: { displayName: 'Extra', admin: true },
    });
    expect(vars.errors?.[0].extensions?.code).toBe('VALIDATION_FAILED');
    expect(await playersNamed('Extra')).toBe(0);
  });

  it('the 64 KiB body limit applies to GraphQL too', async () => {
    const res = await t
      .http()
      .post('/graphql')
      .set('content-type', 'application/json')
      .send(JSON.stringify({ query: `{ serviceInfo { name } } #${'x'.repeat(70_000)}` }));
    expect(res.status).toBe(413);
  });
});

describe('production error hygiene', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ env: { NODE_ENV: 'production' } });
  });
  afterAll(() => t.close());

  it('no field suggestions ("Did you mean") and no stack traces in GraphQL errors', async () => {
    const body = await gql(t, '{ serviceInf { name } }');
    expect(body.errors?.[0].extensions?.code).toBe('VALIDATION_FAILED');
    const text = JSON.stringify(body);
    expect(text).not.toMatch(/Did you mean/i);
    expect(text).not.toMatch(/stacktrace|\bat .*\.(js|ts):\d+/);
  });
});

describe('tokens', () => {
  let t: TestApp;
  let pool: Pool;
  beforeAll(async () => {
    t = await createTestApp();
    pool = createTestPool();
  });
  afterAll(async () => {
    await pool.end();
    await t.close();
  });

  it('are 256 random bits, stored only as their SHA-256', async () => {
    const p = await registerPlayer(t, 'Hashed');
    expect(p.token).toMatch(/^fd_[A-Za-z0-9_-]{43}$/);
    expect(Buffer.from(p.token.slice(3), 'base64url').length).toBe(32);
    const { rows } = await pool.query('SELECT token_hash FROM players WHERE id = $1', [p.id]);
    expect(rows[0].token_hash).not.toBe(p.token);
    expect(rows[0].token_hash).not.toContain(p.token.slice(3));
    expect(rows[0].token_hash).toBe(hashToken(p.token));
    expect(rows[0].token_hash).toMatch(/^[0-9a-f]{64}$/);
    const other = await registerPlayer(t, 'Hashed');
    expect(other.token).not.toBe(p.token);
  });
});
