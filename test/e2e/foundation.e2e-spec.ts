import type { Pool } from 'pg';
import { PG_POOL } from '../../src/database/pg-pool';
import { createTestApp, gql, registerPlayer, type TestApp } from '../helpers/app';

describe('foundation: health, errors, GraphQL, docs', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('GET /health answers ok without touching the database', async () => {
    const res = await t.http().get('/health').expect(200);
    expect(res.body).toEqual({ status: 'ok' });
  });

  it('GET /health/ready reports the database up', async () => {
    const res = await t.http().get('/health/ready').expect(200);
    expect(res.body.details.database.status).toBe('up');
  });

  it('unknown routes are RFC 9457 problems with a stable code and a request id', async () => {
    const res = await t.http().get('/v1/no-such-thing').set('x-request-id', 'req-123').expect(404);
    expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(res.headers['x-request-id']).toBe('req-123');
    expect(res.body).toMatchObject({
      status: 404,
      code: 'ROUTE_NOT_FOUND',
      title: expect.any(String),
      type: expect.stringContaining('route-not-found'),
    });
  });

  it('malformed JSON is a 400 problem, not a 500', async () => {
    const res = await t
      .http()
      .post('/v1/players')
      .set('content-type', 'application/json')
      .send('{"displayName":')
      .expect(400);
    expect(res.body.code).toBe('VALIDATION_FAILED');
  });

  it('a body over the size limit is refused with 413', async () => {
    const res = await t
      .http()
      .post('/v1/players')
      .set('content-type', 'application/json')
      .send(JSON.stringify({ displayName: 'x'.repeat(70_000) }))
      .expect(413);
    expect(res.body.code).toBe('PAYLOAD_TOO_LARGE');
  });

  it('GraphQL answers a query', async () => {
    const body = await gql(t, '{ serviceInfo { name version } }');
    expect(body.data.serviceInfo.name).toBe('fairdice');
  });

  it('GraphQL validation errors carry extensions.code and no stack trace', async () => {
    const body = await gql(t, '{ noSuchField }');
    expect(body.errors?.[0].extensions?.code).toBe('VALIDATION_FAILED');
    expect(JSON.stringify(body)).not.toMatch(/stacktrace|at .*\.js/);
  });

  it('REST and GraphQL share error codes (unauthenticated)', async () => {
    const rest = await t.http().get('/v1/players/me').expect(401);
    expect(rest.body.code).toBe('UNAUTHENTICATED');
    const body = await gql(t, '{ me { id } }');
    expect(body.errors?.[0].extensions?.code).toBe('UNAUTHENTICATED');
  });

  it('Swagger UI and the OpenAPI 3.1 document are served locally', async () => {
    const ui = await t.http().get('/docs').redirects(1).expect(200);
    expect(ui.text).toContain('swagger-ui');
    expect(ui.text).not.toMatch(/https?:\/\/(unpkg|cdn)/);
    const doc = await t.http().get('/docs-json').expect(200);
    expect(doc.body.openapi).toBe('3.1.0');
  });

  it('the GraphiQL page and its assets are served from node_modules (no CDN)', async () => {
    const page = await t.http().get('/graphiql').expect(200);
    expect(page.text).not.toMatch(/https?:\/\/(unpkg|cdn|esm\.sh)/);
    for (const asset of ['react.js', 'react-dom.js', 'graphiql.js', 'graphiql.css', 'graphql-ws.js']) {
      const res = await t.http().get(`/graphiql/assets/${asset}`).expect(200);
      expect(res.body.length ?? res.text.length).toBeGreaterThan(1000);
    }
  });
});

describe('players', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('registers, reads the profile and rotates the token (old token stops working)', async () => {
    const p = await registerPlayer(t, 'Ada');
    expect(p.token).toMatch(/^fd_[A-Za-z0-9_-]{43}$/);
    const me = await t.http().get('/v1/players/me').set(p.auth).expect(200);
    expect(me.body).toMatchObject({ id: p.id, displayName: 'Ada' });
    expect(me.body.stats).toEqual(
      expect.arrayContaining([expect.objectContaining({ ruleSet: 'penta', gamesFinished: 0, soloBestScore: null })]),
    );
    const rotated = await t.http().post('/v1/players/me/token').set(p.auth).expect(200);
    expect(rotated.body.token).not.toBe(p.token);
    await t.http().get('/v1/players/me').set(p.auth).expect(401);
    await t.http().get('/v1/players/me').set('authorization', `Bearer ${rotated.body.token}`).expect(200);
  });

  it('the same over GraphQL', async () => {
    const reg = await gql(
      t,
      'mutation { registerPlayer(input: { displayName: "Grace" }) { token player { id displayName } } }',
    );
    const token = reg.data.registerPlayer.token;
    const me = await gql(t, '{ me { id displayName stats { ruleSet gamesFinished } } }', {}, token);
    expect(me.data.me.displayName).toBe('Grace');
    const rot = await gql(t, 'mutation { rotateToken { token } }', {}, token);
    const stale = await gql(t, '{ me { id } }', {}, token);
    expect(stale.errors?.[0].extensions?.code).toBe('UNAUTHENTICATED');
    const fresh = await gql(t, '{ me { id } }', {}, rot.data.rotateToken.token);
    expect(fresh.data.me.id).toBe(reg.data.registerPlayer.player.id);
  });

  it.each([
    [{}, 'missing displayName'],
    [{ displayName: '' }, 'empty'],
    [{ displayName: '   ' }, 'blank'],
    [{ displayName: 'x'.repeat(41) }, 'too long'],
    [{ displayName: 42 }, 'wrong type'],
    [{ displayName: 'Bob', admin: true }, 'unknown field'],
    [{ displayName: 'Bo\u0000b' }, 'control character'],
  ])('rejects %p (%s) with VALIDATION_FAILED and stores nothing', async (body: object, _why: string) => {
    const before = await countPlayers(t);
    const res = await t.http().post('/v1/players').send(body).expect(400);
    expect(res.body.code).toBe('VALIDATION_FAILED');
    expect(await countPlayers(t)).toBe(before);
  });

  it('rejects malformed and unknown tokens', async () => {
    for (const header of ['Bearer nope', 'Basic abc', `Bearer fd_${'A'.repeat(43)}`, 'Bearer']) {
      const res = await t.http().get('/v1/players/me').set('authorization', header).expect(401);
      expect(res.body.code).toBe('UNAUTHENTICATED');
    }
  });
});

async function countPlayers(t: TestApp): Promise<number> {
  const { rows } = await t.app.get<Pool>(PG_POOL).query<{ n: number }>('SELECT count(*)::int AS n FROM players');
  return rows[0].n;
}
