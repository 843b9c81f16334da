/**
 * Scoped tokens (docs/accounts.md "Scoped tokens", issue 26 item 2): personal access tokens are
 * created, listed and revoked by their owner over REST and GraphQL; a token without the scope an
 * operation needs gets 403 INSUFFICIENT_SCOPE naming it (REST, GraphQL, the /v1/ws channel); a
 * revoked token gets 401 and the streams it opened end (game SSE, player events, graphql-ws,
 * /v1/ws); escalation, unknown scopes and bad requests are refused with nothing stored; an
 * expired token is refused.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { createClient } from 'graphql-ws';
import { createTestApp, gql, registerPlayer, type TestApp } from '../helpers/app';
import { openPlayerStream } from '../helpers/player-stream';
import { rowCounts } from '../helpers/row-counts';
import { ChannelClient } from '../helpers/ws-channel';
import { connect, registerClient, revokeRequest } from '../oauth/helpers';
import { poolOf } from './helpers';
// eslint-disable-next-line @typescript-eslint/no-require-imports -- ws ships no types here
const WebSocket: unknown = require('ws');

jest.setTimeout(60_000);

type Player = Awaited<ReturnType<typeof registerPlayer>>;

interface SseMessage {
  event?: string;
  id?: number;
  data?: any;
}

/** Opens a game's SSE stream; collects messages until the server ends the response. */
function openGameStream(port: number, gameId: string, token: string) {
  return openSse(port, `/v1/games/${gameId}/stream`, token);
}

/** Opens an SSE stream; collects messages until the server ends the response; `status` once the head came. */
function openSse(port: number, path: string, token: string) {
  let setStatus: (s: number) => void = () => {};
  const status = new Promise<number>((r) => (setStatus = r));
  const messages: SseMessage[] = [];
  const waiters = new Set<() => void>();
  const ended = new Promise<void>((resolve, reject) => {
    http
      .get(
        {
          host: '127.0.0.1',
          port,
          path,
          headers: { authorization: `Bearer ${token}` },
          agent: false,
        },
        (res) => {
          setStatus(res.statusCode ?? 0);
          let buffer = '';
          res.setEncoding('utf8');
          res.on('data', (chunk: string) => {
            buffer += chunk;
            let i: number;
            while ((i = buffer.indexOf('\n\n')) >= 0) {
              const block = buffer.slice(0, i);
              buffer = buffer.slice(i + 2);
              if (block.startsWith(':')) continue;
              const m: SseMessage = {};
              for (const line of block.split('\n')) {
                const k = line.slice(0, line.indexOf(':'));
                const v = line.slice(line.indexOf(':') + 2);
                if (k === 'id') m.id = Number(v);
                else if (k === 'event') m.event = v;
                else if (k === 'data') m.data = JSON.parse(v);
              }
              messages.push(m);
              for (const w of [...waiters]) w();
            }
          });
          res.on('end', () => resolve());
        },
      )
      .on('error', reject);
  });
  const until = (pred: () => boolean) =>
    new Promise<void>((resolve) => {
      if (pred()) return resolve();
      const w = () => {
        if (pred()) {
          waiters.delete(w);
          resolve();
        }
      };
      waiters.add(w);
    });
  return { messages, ended, until, status };
}

/** A graphql-ws subscription to a game's events; `live` once the first event came, `ended` with its error or completion. */
function subscribeGameEvents(port: number, gameId: string, token: string) {
  const client = createClient({
    url: `ws://127.0.0.1:${port}/graphql`,
    webSocketImpl: WebSocket,
    connectionParams: { authorization: `Bearer ${token}` },
    retryAttempts: 0,
  });
  const events: any[] = [];
  const errors: any[] = [];
  let markLive: () => void = () => {};
  const live = new Promise<void>((r) => (markLive = r));
  const ended = new Promise<{ error?: any }>((resolve) => {
    client.subscribe(
      { query: 'subscription($id: ID!) { gameEvents(gameId: $id) { version type } }', variables: { id: gameId } },
      {
        next: (msg: any) => {
          if (msg.errors) errors.push(...msg.errors);
          if (msg.data) events.push(msg.data.gameEvents);
          markLive();
        },
        error: (error: unknown) => resolve({ error }),
        complete: () => resolve({}),
      },
    );
  });
  return { client, events, errors, live, ended };
}

describe('scoped tokens', () => {
  let t: TestApp;
  let port: number;
  let base: string;
  beforeAll(async () => {
    t = await createTestApp({ listen: true, env: { JOBS_ENABLED: 'false' } });
    port = (t.app.getHttpServer().address() as AddressInfo).port;
    base = `http://127.0.0.1:${port}`;
  });
  afterAll(async () => {
    await t?.close();
  });

  const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

  async function createToken(
    owner: string,
    body: { name: string; scopes: string[]; expiresInDays?: number },
  ): Promise<{ token: string; id: string; body: any }> {
    const res = await t.http().post('/v1/accounts/me/tokens').set(bearer(owner)).send(body);
    if (res.status !== 201) throw new Error(`HTTP ${res.status}: ${res.text}`);
    return { token: res.body.token, id: res.body.accessToken.id, body: res.body };
  }

  /** `send` must be refused with `status` and `code`, and no data table may change. */
  async function refused(send: () => PromiseLike<{ status: number; body: any }>, status: number, code: string) {
    const before = await rowCounts(poolOf(t));
    const res = await send();
    expect({ status: res.status, code: res.body.code }).toEqual({ status, code });
    expect(await rowCounts(poolOf(t))).toEqual(before);
    return res.body;
  }

  /** A started solo game of the player: seat 0 is to roll. */
  async function soloGame(p: Player): Promise<{ id: string; version: number }> {
    const g = await t.http().post('/v1/games').set(p.auth).send({ ruleSet: 'simple', seats: 1 }).expect(201);
    const started = await t.http().post(`/v1/games/${g.body.id}/start`).set(p.auth).send({}).expect(200);
    return { id: g.body.id, version: started.body.version };
  }

  describe('personal access tokens', () => {
    it('are created (shown once), listed and revoked by their owner, with security log lines', async () => {
      const ada = await registerPlayer(t, 'Ada');
      const created = await createToken(ada.token, { name: '  score bot ', scopes: ['game:play', 'game:read'] });
      expect(created.token).toMatch(/^fd_/);
      expect(created.body.accessToken).toEqual({
        id: expect.any(String),
        name: 'score bot',
        scopes: ['game:read', 'game:play'],
        createdAt: expect.any(String),
        lastUsedAt: expect.any(String),
        expiresAt: null,
        current: false,
      });
      // Stored hashed: the secret is nowhere in the table.
      const { rows } = await poolOf(t).query('SELECT token_hash, kind FROM sessions WHERE id = $1', [created.id]);
      expect(rows[0].kind).toBe('personal');
      expect(rows[0].token_hash).not.toContain(created.token);

      const list = await t.http().get('/v1/accounts/me/tokens').set(ada.auth).expect(200);
      expect(list.body.items.map((i: any) => i.id)).toEqual([created.id]);
      // A personal access token is not a signed-in device.
      const sessions = await t.http().get('/v1/accounts/me/sessions').set(ada.auth).expect(200);
      expect(sessions.body.items).toEqual([]);
      // It works within its scopes; listing with it marks it current (it holds no account:read: 403).
      await t.http().get(`/v1/games`).set(bearer(created.token)).expect(200);

      await t.http().delete(`/v1/accounts/me/tokens/${created.id}`).set(ada.auth).expect(204);
      expect((await t.http().get('/v1/accounts/me/tokens').set(ada.auth).expect(200)).body.items).toEqual([]);
      await refused(
        () => t.http().delete(`/v1/accounts/me/tokens/${created.id}`).set(ada.auth),
        404,
        'ACCESS_TOKEN_NOT_FOUND',
      );
      const log = await t.http().get('/v1/accounts/me/security-log').set(ada.auth).expect(200);
      expect(log.body.items.map((l: any) => [l.type, l.detail.tokenId, l.detail.name])).toEqual([
        ['accessTokenRevoked', created.id, 'score bot'],
        ['accessTokenCreated', created.id, 'score bot'],
      ]);
      expect(log.body.items[1].detail.scopes).toEqual(['game:read', 'game:play']);
    });

    it('over GraphQL: createAccessToken, accessTokens, revokeAccessToken', async () => {
      const bob = await registerPlayer(t, 'Bob');
      const made = await gql(
        t,
        'mutation($input: CreateAccessTokenInput!) { createAccessToken(input: $input) { token accessToken { id name scopes expiresAt current } } }',
        { input: { name: 'reader', scopes: ['account:read'], expiresInDays: 7 } },
        bob.token,
      );
      expect(made.errors).toBeUndefined();
      const { token, accessToken } = made.data.createAccessToken;
      expect(accessToken).toMatchObject({ name: 'reader', scopes: ['account:read'], current: false });
      const days = (Date.parse(accessToken.expiresAt) - Date.now()) / 86_400_000;
      expect(days).toBeGreaterThan(6.9);
      expect(days).toBeLessThanOrEqual(7);
      // The token lists itself as the current one.
      const listed = await gql(t, '{ accessTokens { edges { node { id current } } } }', {}, token);
      expect(listed.data.accessTokens.edges.map((e: any) => e.node)).toEqual([{ id: accessToken.id, current: true }]);
      const revoked = await gql(
        t,
        'mutation($id: ID!) { revokeAccessToken(id: $id) }',
        { id: accessToken.id },
        bob.token,
      );
      expect(revoked.data.revokeAccessToken).toBe(true);
      const after = await gql(t, '{ accessTokens { edges { node { id } } } }', {}, bob.token);
      expect(after.data.accessTokens.edges).toEqual([]);
    });

    it.each([
      ['an unknown scope', { name: 'x', scopes: ['game:read', 'games:write'] }, 400, 'UNKNOWN_SCOPE'],
      ['"*" (a token names its scopes)', { name: 'x', scopes: ['*'] }, 400, 'UNKNOWN_SCOPE'],
      ['no scope', { name: 'x', scopes: [] }, 400, 'VALIDATION_FAILED'],
      ['scopes missing', { name: 'x' }, 400, 'VALIDATION_FAILED'],
      ['a scope that is not a string', { name: 'x', scopes: [7] }, 400, 'VALIDATION_FAILED'],
      ['an empty name', { name: '   ', scopes: ['game:read'] }, 400, 'VALIDATION_FAILED'],
      ['a name over 64 characters', { name: 'n'.repeat(65), scopes: ['game:read'] }, 400, 'VALIDATION_FAILED'],
      ['expiry of 0 days', { name: 'x', scopes: ['game:read'], expiresInDays: 0 }, 400, 'VALIDATION_FAILED'],
      ['expiry over 366 days', { name: 'x', scopes: ['game:read'], expiresInDays: 367 }, 400, 'VALIDATION_FAILED'],
      ['a fractional expiry', { name: 'x', scopes: ['game:read'], expiresInDays: 1.5 }, 400, 'VALIDATION_FAILED'],
      ['an unknown field', { name: 'x', scopes: ['game:read'], admin: true }, 400, 'VALIDATION_FAILED'],
    ] as Array<[string, Record<string, unknown>, number, string]>)(
      'refuses %s, storing nothing',
      async (_what, body, status, code) => {
        const p = await registerPlayer(t, 'Cy');
        const problem = await refused(
          () => t.http().post('/v1/accounts/me/tokens').set(p.auth).send(body),
          status,
          code,
        );
        if (code === 'UNKNOWN_SCOPE')
          expect(problem.scope).toBe((body.scopes as string[]).find((s) => s !== 'game:read'));
      },
    );

    it('GraphQL refuses an unknown scope with the same code, storing nothing', async () => {
      const p = await registerPlayer(t, 'Dee');
      const before = await rowCounts(poolOf(t));
      const res = await gql(
        t,
        'mutation($input: CreateAccessTokenInput!) { createAccessToken(input: $input) { token } }',
        { input: { name: 'x', scopes: ['game:fly'] } },
        p.token,
      );
      expect(res.errors?.[0].extensions).toMatchObject({ code: 'UNKNOWN_SCOPE', scope: 'game:fly' });
      expect(await rowCounts(poolOf(t))).toEqual(before);
    });

    it('a token creates only tokens within its scopes and its lifetime (no escalation), storing nothing when refused', async () => {
      const p = await registerPlayer(t, 'Eve');
      const writer = await createToken(p.token, {
        name: 'writer',
        scopes: ['account:write', 'game:read'],
        expiresInDays: 2,
      });
      const escalation = await refused(
        () =>
          t
            .http()
            .post('/v1/accounts/me/tokens')
            .set(bearer(writer.token))
            .send({ name: 'more', scopes: ['game:read', 'game:play'] }),
        403,
        'INSUFFICIENT_SCOPE',
      );
      expect(escalation.requiredScope).toBe('game:play');
      const longer = await refused(
        () =>
          t
            .http()
            .post('/v1/accounts/me/tokens')
            .set(bearer(writer.token))
            .send({ name: 'longer', scopes: ['game:read'], expiresInDays: 30 }),
        400,
        'VALIDATION_FAILED',
      );
      expect(longer.detail).toMatch(/must not outlive/);
      // Within both: created, and without an expiry of its own it ends with its creator.
      const narrower = await createToken(writer.token, { name: 'narrower', scopes: ['game:read'] });
      expect(narrower.body.accessToken.expiresAt).toBe(
        (await t.http().get('/v1/accounts/me/tokens').set(p.auth).expect(200)).body.items.find(
          (i: any) => i.id === writer.id,
        ).expiresAt,
      );
      // A token without account:write creates none.
      const reader = await refused(
        () =>
          t
            .http()
            .post('/v1/accounts/me/tokens')
            .set(bearer(narrower.token))
            .send({ name: 'x', scopes: ['game:read'] }),
        403,
        'INSUFFICIENT_SCOPE',
      );
      expect(reader.requiredScope).toBe('account:write');
    });

    it('credentials, sessions and rotation need a full token: a token with every scope gets 403 requiredScope "*"', async () => {
      const p = await registerPlayer(t, 'Fay');
      const all = await createToken(p.token, {
        name: 'all',
        scopes: [
          'game:read',
          'game:create',
          'game:play',
          'tournament:read',
          'tournament:write',
          'webhook:write',
          'advice:read',
          'account:read',
          'account:write',
        ],
      });
      for (const [method, path, body] of [
        ['post', '/v1/players/me/token', {}],
        ['post', '/v1/accounts/me/sign-out-everywhere', {}],
        ['put', '/v1/accounts/me/username', { username: 'fay_full' }],
        ['put', '/v1/accounts/me/password', { password: 'a long enough password' }],
      ] as const) {
        const problem = await refused(
          () => t.http()[method](path).set(bearer(all.token)).send(body),
          403,
          'INSUFFICIENT_SCOPE',
        );
        expect([path, problem.requiredScope]).toEqual([path, '*']);
      }
      // The player's own token (issued before scoped tokens existed: every scope) still may.
      await t.http().post('/v1/players/me/token').set(p.auth).send({}).expect(200);
    });

    it('refuses a 51st live token (ACCESS_TOKEN_LIMIT_REACHED), storing nothing', async () => {
      const p = await registerPlayer(t, 'Gus');
      for (let i = 0; i < 50; i++) await createToken(p.token, { name: `t${i}`, scopes: ['game:read'] });
      const problem = await refused(
        () =>
          t
            .http()
            .post('/v1/accounts/me/tokens')
            .set(p.auth)
            .send({ name: 'one more', scopes: ['game:read'] }),
        409,
        'ACCESS_TOKEN_LIMIT_REACHED',
      );
      expect(problem.limit).toBe(50);
      // Paged by cursor like the sessions.
      const first = await t.http().get('/v1/accounts/me/tokens?limit=30').set(p.auth).expect(200);
      const second = await t
        .http()
        .get(`/v1/accounts/me/tokens?limit=30&cursor=${encodeURIComponent(first.body.nextCursor)}`)
        .set(p.auth)
        .expect(200);
      expect(first.body.items.length + second.body.items.length).toBe(50);
      expect(second.body.nextCursor).toBeNull();
    });

    it('an expired token is refused (401) and no longer listed', async () => {
      const p = await registerPlayer(t, 'Hal');
      const short = await createToken(p.token, { name: 'short', scopes: ['game:read'], expiresInDays: 1 });
      // The day passes (not used before, so no instance has it cached).
      await poolOf(t).query(`UPDATE sessions SET expires_at = now() - interval '1 second' WHERE id = $1`, [short.id]);
      const res = await t.http().get('/v1/games').set(bearer(short.token)).expect(401);
      expect(res.body.code).toBe('UNAUTHENTICATED');
      const g = await gql(t, '{ myGames { items { id } } }', {}, short.token);
      expect(g.errors?.[0].extensions?.code).toBe('UNAUTHENTICATED');
      expect((await t.http().get('/v1/accounts/me/tokens').set(p.auth).expect(200)).body.items).toEqual([]);
    });
  });

  describe('scopes are enforced', () => {
    it('a game:read token gets 403 INSUFFICIENT_SCOPE on a roll over REST, GraphQL and /v1/ws; a game:play one rolls', async () => {
      const p = await registerPlayer(t, 'Ivy');
      const game = await soloGame(p);
      const reader = await createToken(p.token, { name: 'reader', scopes: ['game:read'] });

      const before = await rowCounts(poolOf(t));
      const rest = await t.http().post(`/v1/games/${game.id}/roll`).set(bearer(reader.token)).send({});
      expect(rest.status).toBe(403);
      expect(rest.headers['content-type']).toMatch(/application\/problem\+json/);
      expect(rest.body).toMatchObject({ code: 'INSUFFICIENT_SCOPE', requiredScope: 'game:play' });

      const viaGql = await gql(
        t,
        'mutation($id: ID!) { roll(gameId: $id) { version } }',
        { id: game.id },
        reader.token,
      );
      expect(viaGql.errors?.[0].extensions).toMatchObject({
        code: 'INSUFFICIENT_SCOPE',
        requiredScope: 'game:play',
        status: 403,
      });

      const ws = await ChannelClient.connect(port, reader.token);
      const answer = await ws.move({ id: 'r1', gameId: game.id, command: 'roll' });
      expect(answer).toMatchObject({
        type: 'error',
        id: 'r1',
        problem: { code: 'INSUFFICIENT_SCOPE', requiredScope: 'game:play' },
      });
      // Reading is within its scope: it follows the game on the channel.
      ws.send({ type: 'subscribe', id: 's1', gameId: game.id });
      await ws.frame((f) => f.type === 'event' && f.gameId === game.id);
      await ws.close();
      expect(await rowCounts(poolOf(t))).toEqual(before);
      expect((await t.http().get(`/v1/games/${game.id}`).set(bearer(reader.token)).expect(200)).body.version).toBe(
        game.version,
      );

      const player = await createToken(p.token, { name: 'player', scopes: ['game:play'] });
      const rolled = await t.http().post(`/v1/games/${game.id}/roll`).set(bearer(player.token)).send({}).expect(200);
      expect(rolled.body.version).toBeGreaterThan(game.version);
      // …but it cannot read without game:read, nor follow the game on the channel.
      const read = await t.http().get(`/v1/games/${game.id}`).set(bearer(player.token)).expect(403);
      expect(read.body.requiredScope).toBe('game:read');
      const ws2 = await ChannelClient.connect(port, player.token);
      ws2.send({ type: 'subscribe', id: 's2', gameId: game.id });
      const refusedFollow = await ws2.frame((f) => f.id === 's2');
      expect(refusedFollow).toMatchObject({
        type: 'error',
        problem: { code: 'INSUFFICIENT_SCOPE', requiredScope: 'game:read' },
      });
      await ws2.close();
    });

    it('opening a stream needs its scope: game SSE, player events and graphql-ws subscriptions answer INSUFFICIENT_SCOPE', async () => {
      const p = await registerPlayer(t, 'Nia');
      const game = await soloGame(p);
      const advice = await createToken(p.token, { name: 'advice', scopes: ['advice:read'] });
      const sse = openGameStream(port, game.id, advice.token);
      expect(await sse.status).toBe(403);
      await sse.ended;
      const events = openPlayerStream(base, advice.token);
      const opened = await events.opened;
      expect(opened.status).toBe(403);
      expect(JSON.parse(opened.body!)).toMatchObject({ code: 'INSUFFICIENT_SCOPE', requiredScope: 'game:read' });
      const sub = subscribeGameEvents(port, game.id, advice.token);
      const end = await sub.ended;
      // The refused subscription's errors come as its one result, then it completes.
      expect(end.error).toBeUndefined();
      expect(sub.errors[0]?.extensions).toMatchObject({ code: 'INSUFFICIENT_SCOPE', requiredScope: 'game:read' });
      await sub.client.dispose();
    });

    it('a public read needs no token, and a token on it needs the read scope', async () => {
      const p = await registerPlayer(t, 'Jo');
      const game = await soloGame(p);
      await t.http().get(`/v1/games/${game.id}`).expect(200);
      const advice = await createToken(p.token, { name: 'advice', scopes: ['advice:read'] });
      const res = await t.http().get(`/v1/games/${game.id}`).set(bearer(advice.token)).expect(403);
      expect(res.body).toMatchObject({ code: 'INSUFFICIENT_SCOPE', requiredScope: 'game:read' });
      // The transparency log's head never reads the caller: any token, or none.
      await t.http().get('/v1/transparency/tree-head').set(bearer(advice.token)).expect(200);
    });
  });

  describe('revocation', () => {
    it('a revoked token gets 401 on REST and GraphQL, and its open game SSE, player event, graphql-ws and /v1/ws streams end', async () => {
      const p = await registerPlayer(t, 'Kim');
      const game = await soloGame(p);
      const pat = await createToken(p.token, { name: 'streams', scopes: ['game:read', 'game:play'] });

      const sse = openGameStream(port, game.id, pat.token);
      await sse.until(() => sse.messages.length >= game.version);
      const events = openPlayerStream(base, pat.token);
      expect((await events.opened).status).toBe(200);
      const sub = subscribeGameEvents(port, game.id, pat.token);
      await sub.live;
      const ws = await ChannelClient.connect(port, pat.token);

      await t.http().delete(`/v1/accounts/me/tokens/${pat.id}`).set(p.auth).expect(204);

      // Each ends on its own, with its end signal.
      await sse.ended;
      expect(sse.messages[sse.messages.length - 1]).toMatchObject({
        event: 'revoked',
        data: { code: 'UNAUTHENTICATED' },
      });
      await events.ended;
      expect(events.messages[events.messages.length - 1]).toMatchObject({ event: 'revoked' });
      const end = await sub.ended;
      expect(end.error?.code).toBe(4401);
      const closed = await ws.closed;
      expect(closed.code).toBe(4401);
      expect(ws.frames[ws.frames.length - 1]).toMatchObject({ type: 'error', problem: { code: 'UNAUTHENTICATED' } });
      await sub.client.dispose();

      const rest = await t.http().post(`/v1/games/${game.id}/roll`).set(bearer(pat.token)).send({});
      expect([rest.status, rest.body.code]).toEqual([401, 'UNAUTHENTICATED']);
      const viaGql = await gql(t, 'mutation($id: ID!) { roll(gameId: $id) { version } }', { id: game.id }, pat.token);
      expect(viaGql.errors?.[0].extensions?.code).toBe('UNAUTHENTICATED');
    });

    it('an OAuth access token revoked by its app (RFC 7009) gets 401 on REST and GraphQL, and its SSE and graphql-ws streams end', async () => {
      const p = await registerPlayer(t, 'Oz');
      const game = await soloGame(p);
      const clientId = await registerClient(t, p.token);
      const oauth = await connect(t, p.token, clientId, 'game:read game:play');

      const sse = openGameStream(port, game.id, oauth.access_token);
      await sse.until(() => sse.messages.length >= game.version);
      const sub = subscribeGameEvents(port, game.id, oauth.access_token);
      await sub.live;

      await revokeRequest(t, { token: oauth.access_token, client_id: clientId }).expect(200);

      await sse.ended;
      expect(sse.messages[sse.messages.length - 1]).toMatchObject({ event: 'revoked' });
      const end = await sub.ended;
      expect(end.error?.code).toBe(4401);
      await sub.client.dispose();
      const rest = await t.http().post(`/v1/games/${game.id}/roll`).set(bearer(oauth.access_token)).send({});
      expect([rest.status, rest.body.code]).toEqual([401, 'UNAUTHENTICATED']);
      const viaGql = await gql(
        t,
        'mutation($id: ID!) { roll(gameId: $id) { version } }',
        { id: game.id },
        oauth.access_token,
      );
      expect(viaGql.errors?.[0].extensions?.code).toBe('UNAUTHENTICATED');
    });

    it("rotating the player's token ends the streams it opened", async () => {
      const p = await registerPlayer(t, 'Lou');
      const game = await soloGame(p);
      const sse = openGameStream(port, game.id, p.token);
      await sse.until(() => sse.messages.length >= game.version);
      const sub = subscribeGameEvents(port, game.id, p.token);
      await sub.live;
      const ws = await ChannelClient.connect(port, p.token);

      await t.http().post('/v1/players/me/token').set(p.auth).send({}).expect(200);

      await sse.ended;
      expect(sse.messages[sse.messages.length - 1]).toMatchObject({ event: 'revoked' });
      expect((await sub.ended).error?.code).toBe(4401);
      expect((await ws.closed).code).toBe(4401);
      await sub.client.dispose();
    });

    it("a tournament's standings stream opened with a token ends when the token is revoked", async () => {
      const p = await registerPlayer(t, 'Oda');
      const made = await t
        .http()
        .post('/v1/tournaments')
        .set(p.auth)
        .send({ name: 'Scoped cup', ruleSet: 'penta', format: 'duplicate', maxEntrants: 8, rounds: 2 })
        .expect(201);
      const reader = await createToken(p.token, { name: 'standings', scopes: ['tournament:read'] });
      const stream = openSse(port, `/v1/tournaments/${made.body.id}/standings/stream`, reader.token);
      await stream.until(() => stream.messages.some((m) => m.event === 'standings'));
      await t.http().delete(`/v1/accounts/me/tokens/${reader.id}`).set(p.auth).expect(204);
      await stream.ended;
      expect(stream.messages[stream.messages.length - 1]).toMatchObject({
        event: 'revoked',
        data: { code: 'UNAUTHENTICATED' },
      });
    });

    it('a stream opened with another token of the player stays open', async () => {
      const p = await registerPlayer(t, 'Max');
      const game = await soloGame(p);
      const a = await createToken(p.token, { name: 'a', scopes: ['game:read'] });
      const b = await createToken(p.token, { name: 'b', scopes: ['game:read'] });
      const sseA = openGameStream(port, game.id, a.token);
      const sseB = openGameStream(port, game.id, b.token);
      await sseA.until(() => sseA.messages.length >= game.version);
      await sseB.until(() => sseB.messages.length >= game.version);
      await t.http().delete(`/v1/accounts/me/tokens/${a.id}`).set(p.auth).expect(204);
      await sseA.ended;
      // B still gets the next event (a roll), then ends when its own token is revoked.
      await t.http().post(`/v1/games/${game.id}/roll`).set(p.auth).send({}).expect(200);
      await sseB.until(() =>
        sseB.messages.some((m) => m.event === 'rolled' || m.event === 'diceRolled' || (m.id ?? 0) > game.version),
      );
      expect(sseB.messages.some((m) => m.event === 'revoked')).toBe(false);
      await t.http().delete(`/v1/accounts/me/tokens/${b.id}`).set(p.auth).expect(204);
      await sseB.ended;
    });
  });
});
