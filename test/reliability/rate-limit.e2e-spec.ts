/**
 * The rate limit cannot be bypassed (issue 11, item 4): a valid token is counted per player, an
 * invalid or missing one per client address (TRUST_PROXY decides which address), registrations
 * have their own per-address budget, a GraphQL mutation counts one per root field, and old
 * counter rows are deleted. Each test uses its own client address (X-Forwarded-For, trusted
 * with TRUST_PROXY=true) so that buckets do not mix.
 */
import { randomBytes } from 'node:crypto';
import type { Pool } from 'pg';
import { rateLimitKey } from '../../src/reliability/rate-limit/rate-limit';
import { createTestApp, registerPlayer, type TestApp } from '../helpers/app';
import { createTestPool } from '../helpers/database';
import { waitFor } from '../async/helpers';

jest.setTimeout(60_000);

/** Waits when a minute boundary is near, so that a fixed-window count is not split. */
async function awayFromMinuteBoundary(): Promise<void> {
  const intoMinute = Date.now() % 60_000;
  // Kept on purpose: the window is the wall clock's minute, so only the clock can move past it.
  if (intoMinute > 50_000) await new Promise((r) => setTimeout(r, 60_500 - intoMinute));
}

const junkToken = () => 'fd_' + randomBytes(32).toString('base64url'); // well-formed, never issued
let nextAddress = 1;
const freshAddress = () => `198.51.100.${nextAddress++}`;

describe('rate limit buckets', () => {
  let plain: TestApp;
  let pool: Pool;
  const apps: TestApp[] = [];
  const limitedApp = async (env: Record<string, string>) => {
    const t = await createTestApp({ env: { RATE_LIMIT_ENABLED: 'true', TRUST_PROXY: 'true', ...env } });
    apps.push(t);
    return t;
  };
  beforeAll(async () => {
    plain = await createTestApp();
    pool = createTestPool();
  });
  afterAll(async () => {
    for (const t of apps) await t.close();
    await pool.end();
    await plain.close();
  });
  const count = async (sql: string, params: unknown[] = []) => Number((await pool.query(sql, params)).rows[0].count);

  it('a junk-token flood from one address hits 429 at the configured budget (a fresh token per request gains nothing)', async () => {
    const t = await limitedApp({ RATE_LIMIT_PER_MINUTE: '5' });
    const ip = freshAddress();
    await awayFromMinuteBoundary();
    const statuses: number[] = [];
    for (let i = 0; i < 12; i++) {
      const res = await t
        .http()
        .get('/v1/players/me')
        .set('x-forwarded-for', ip)
        .set('authorization', `Bearer ${i % 3 === 2 ? 'junk-' + i : junkToken()}`);
      statuses.push(res.status);
      if (res.status === 429) expect(res.body.code).toBe('RATE_LIMITED');
    }
    expect(statuses).toEqual([...Array(5).fill(401), ...Array(7).fill(429)]);
    // No token at all: the same address bucket.
    await t.http().get('/v1/rule-sets').set('x-forwarded-for', ip).expect(429);
    // All of it is one counter row (the address), not one per token.
    // The next flush writes every pending counter in one statement: once the address row is there, so would be any token's.
    await waitFor(
      async () => (await count('SELECT count(*) FROM rate_limit_counters WHERE key = $1', [`ip:${ip}`])) === 1,
      10_000,
      'the flushed address counter',
    );
    expect(await count("SELECT count(*) FROM rate_limit_counters WHERE key LIKE 'token:%'")).toBe(0);
  });

  it('a valid token is counted per player, whatever the address; anonymous traffic of its address does not touch it', async () => {
    const t = await limitedApp({ RATE_LIMIT_PER_MINUTE: '4' });
    const ada = await registerPlayer(plain, 'Ada');
    const ip = freshAddress();
    await awayFromMinuteBoundary();
    // The address's anonymous budget is spent...
    for (let i = 0; i < 4; i++) await t.http().get('/v1/rule-sets').set('x-forwarded-for', ip).expect(200);
    await t.http().get('/v1/rule-sets').set('x-forwarded-for', ip).expect(429);
    // ...and Ada, behind the same address, still has her own four, from any address.
    for (let i = 0; i < 4; i++) {
      const res = await t
        .http()
        .get('/v1/players/me')
        .set(ada.auth)
        .set('x-forwarded-for', i % 2 ? ip : freshAddress())
        .expect(200);
      expect(res.headers['ratelimit-remaining']).toBe(String(3 - i));
    }
    await t.http().get('/v1/players/me').set(ada.auth).set('x-forwarded-for', freshAddress()).expect(429);
    await waitFor(
      async () => (await count('SELECT count(*) FROM rate_limit_counters WHERE key = $1', [`player:${ada.id}`])) === 1,
      10_000,
      'the flushed player counter',
    );
    expect(await count('SELECT count(*) FROM rate_limit_counters WHERE key = $1', [`player:${ada.id}`])).toBe(1);
  });

  it('a registration flood from one address hits 429 at RATE_LIMIT_REGISTRATIONS_PER_MINUTE (REST and GraphQL); nothing stored', async () => {
    const t = await limitedApp({ RATE_LIMIT_PER_MINUTE: '100', RATE_LIMIT_REGISTRATIONS_PER_MINUTE: '3' });
    const ip = freshAddress();
    await awayFromMinuteBoundary();
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) {
      const res = await t.http().post('/v1/players').set('x-forwarded-for', ip).send({ displayName: 'Flood' });
      statuses.push(res.status);
    }
    expect(statuses).toEqual([201, 201, 201, 429, 429, 429]);
    const refused = await t
      .http()
      .post('/graphql')
      .set('x-forwarded-for', ip)
      .send({ query: 'mutation { registerPlayer(input: { displayName: "Flood" }) { token } }' });
    expect(refused.status).toBe(429);
    expect(refused.body.errors[0].extensions).toMatchObject({ code: 'RATE_LIMITED' });
    expect(await count("SELECT count(*) FROM players WHERE display_name = 'Flood'")).toBe(3);
    // Another address may still register; other requests from the flooding address still work.
    await t
      .http()
      .post('/v1/players')
      .set('x-forwarded-for', freshAddress())
      .send({ displayName: 'Other' })
      .expect(201);
    await t.http().get('/v1/rule-sets').set('x-forwarded-for', ip).expect(200);
  });

  it('GraphQL: aliased registerPlayer fields each count against the registration budget', async () => {
    const t = await limitedApp({ RATE_LIMIT_PER_MINUTE: '100', RATE_LIMIT_REGISTRATIONS_PER_MINUTE: '3' });
    await awayFromMinuteBoundary();
    const query = `mutation { ${[0, 1, 2, 3].map((i) => `r${i}: registerPlayer(input: { displayName: "Aliased" }) { token }`).join(' ')} }`;
    const res = await t.http().post('/graphql').set('x-forwarded-for', freshAddress()).send({ query });
    expect(res.status).toBe(429);
    expect(res.body.errors[0].extensions.code).toBe('RATE_LIMITED');
    expect(res.body.data ?? null).toBeNull();
    expect(await count("SELECT count(*) FROM players WHERE display_name = 'Aliased'")).toBe(0);
  });

  it('GraphQL: 20 aliased createGame mutations count as 20', async () => {
    const t = await limitedApp({ RATE_LIMIT_PER_MINUTE: '25' });
    const cy = await registerPlayer(plain, 'Cy');
    await awayFromMinuteBoundary();
    const create = (n: number) =>
      `mutation { ${Array.from({ length: n }, (_, i) => `g${i}: createGame(input: { ruleSet: simple, seats: 2 }) { id }`).join(' ')} }`;
    const five = await t
      .http()
      .post('/graphql')
      .set(cy.auth)
      .send({ query: create(5) })
      .expect(200);
    expect(Object.keys(five.body.data)).toHaveLength(5);
    // The header is written when the request arrives (1 counted); the other 4 are charged after parsing.
    const after = await t.http().get('/v1/players/me').set(cy.auth).expect(200);
    expect(after.headers['ratelimit-remaining']).toBe(String(25 - 5 - 1));
    const games = await count('SELECT count(*) FROM games WHERE creator_id = $1', [cy.id]);
    const twenty = await t
      .http()
      .post('/graphql')
      .set(cy.auth)
      .send({ query: create(20) });
    expect(twenty.status).toBe(429);
    expect(twenty.body.errors[0].extensions).toMatchObject({ code: 'RATE_LIMITED', limit: 25 });
    expect(Number(twenty.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect(await count('SELECT count(*) FROM games WHERE creator_id = $1', [cy.id])).toBe(games);
  });

  it('without TRUST_PROXY, X-Forwarded-For is ignored: rotating it does not escape the budget', async () => {
    const t = await createTestApp({ env: { RATE_LIMIT_ENABLED: 'true', RATE_LIMIT_PER_MINUTE: '3' } });
    apps.push(t);
    await pool.query("DELETE FROM rate_limit_counters WHERE key LIKE 'ip:%127.0.0.1'");
    await awayFromMinuteBoundary();
    const statuses: number[] = [];
    for (let i = 0; i < 5; i++)
      statuses.push((await t.http().get('/v1/rule-sets').set('x-forwarded-for', freshAddress())).status);
    expect(statuses).toEqual([200, 200, 200, 429, 429]);
  });

  it('counter rows of ended windows are deleted', async () => {
    await pool.query(
      `INSERT INTO rate_limit_counters (key, window_start, count) VALUES ('ip:192.0.2.1', now() - interval '10 minutes', 7)`,
    );
    const t = await limitedApp({ RATE_LIMIT_PER_MINUTE: '100' });
    await t.http().get('/v1/rule-sets').set('x-forwarded-for', freshAddress()).expect(200);
    for (let i = 0; i < 50; i++) {
      if ((await count("SELECT count(*) FROM rate_limit_counters WHERE key = 'ip:192.0.2.1'")) === 0) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(
      await count("SELECT count(*) FROM rate_limit_counters WHERE window_start < now() - interval '2 minutes'"),
    ).toBe(0);
  });
});

describe('rate limit key when the token lookup fails', () => {
  it('falls back to the client address (no 500 from the hook)', async () => {
    const request = { headers: { authorization: `Bearer ${junkToken()}` }, ip: '192.0.2.7' };
    await expect(rateLimitKey(request, () => Promise.reject(new Error('database down')))).resolves.toBe('ip:192.0.2.7');
    await expect(rateLimitKey(request, () => Promise.resolve('p1'))).resolves.toBe('player:p1');
    await expect(
      rateLimitKey({ headers: { authorization: 'Bearer junk' }, ip: '::1' }, () => Promise.resolve(null)),
    ).resolves.toBe('ip:::1');
  });
});
