/**
 * Commands under retries, races and garbage: idempotency keys, conditional requests (ETag,
 * If-Match, If-None-Match), authorization of every operation, strict bodies.
 */
import type { AddressInfo } from 'node:net';
import { createTestApp, gql, registerPlayer, type TestApp } from '../helpers/app';
import { countCreatedBy, countEvents, poolOf } from '../helpers/games';

jest.setTimeout(120_000);

type Player = Awaited<ReturnType<typeof registerPlayer>>;

describe('commands: idempotency, concurrency, conditional requests, authorization', () => {
  let t: TestApp;
  let base: string;
  let ann: Player;
  let bob: Player;
  let eve: Player;

  beforeAll(async () => {
    t = await createTestApp({ listen: true });
    const { port } = t.app.getHttpServer().address() as AddressInfo;
    base = `http://127.0.0.1:${port}`;
    [ann, bob, eve] = [await registerPlayer(t, 'Ann'), await registerPlayer(t, 'Bob'), await registerPlayer(t, 'Eve')];
  });
  afterAll(() => t.close());

  /** A started two-player five-dice game (Ann to move), or an open one. */
  async function newGame(opts: { visibility?: 'public' | 'private'; start?: boolean } = {}): Promise<any> {
    const created = await t
      .http()
      .post('/v1/games')
      .set(ann.auth)
      .send({ ruleSet: 'penta', seats: 2, visibility: opts.visibility ?? 'public' })
      .expect(201);
    if (opts.start === false) return created.body;
    await t.http().post(`/v1/games/${created.body.id}/join`).set(bob.auth).send({}).expect(200);
    const started = await t.http().post(`/v1/games/${created.body.id}/start`).set(ann.auth).send({}).expect(200);
    return started.body;
  }

  async function post(path: string, player: Player, body: unknown, headers: Record<string, string> = {}) {
    const res = await fetch(base + path, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...player.auth, ...headers },
      body: JSON.stringify(body),
    });
    return { status: res.status, headers: res.headers, body: (await res.json()) as any };
  }

  /** Batches (first event of a command carries the command) stored after `version`. */
  async function batchesAfter(gameId: string, version: number): Promise<number> {
    const { rows } = await poolOf(t).query(
      `SELECT count(*)::int AS n FROM game_events WHERE game_id = $1 AND version > $2 AND payload->'command' IS NOT NULL AND payload->'command' <> 'null'::jsonb`,
      [gameId, version],
    );
    return rows[0].n;
  }

  it('50 concurrent identical commands with different keys: exactly 1 success, 49 conflicts (409), one command stored', async () => {
    const game = await newGame();
    await post(`/v1/games/${game.id}/roll`, ann, {}).then((r) => expect(r.status).toBe(200));
    const before = (await t.http().get(`/v1/games/${game.id}`).set(ann.auth).expect(200)).body;
    const box = before.fiveDice.scoreOptions.boxes.find((b: any) => b.allowed).box;
    const results = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        post(`/v1/games/${game.id}/score`, ann, { box }, { 'idempotency-key': `race-${game.id}-${i}` }),
      ),
    );
    const statuses = results.map((r) => r.status);
    expect(statuses.filter((s) => s === 200)).toHaveLength(1);
    expect(statuses.filter((s) => s === 409)).toHaveLength(49);
    expect(await batchesAfter(game.id, before.version)).toBe(1);
    const winner = results.find((r) => r.status === 200)!;
    expect(await countEvents(t, game.id)).toBe(winner.body.version);
  });

  it('50 concurrent requests with the SAME key: one execution; the others get the identical response or 409 in progress', async () => {
    const game = await newGame();
    const key = `same-${game.id}`;
    const results = await Promise.all(
      Array.from({ length: 50 }, () => post(`/v1/games/${game.id}/roll`, ann, {}, { 'idempotency-key': key })),
    );
    const ok = results.filter((r) => r.status === 200);
    const busy = results.filter((r) => r.status === 409);
    expect(ok.length + busy.length).toBe(50);
    expect(ok.length).toBeGreaterThanOrEqual(1);
    for (const r of busy) expect(r.body.code).toBe('IDEMPOTENCY_IN_PROGRESS');
    for (const r of ok) expect(r.body).toEqual(ok[0].body);
    expect(await batchesAfter(game.id, game.version)).toBe(1);
    // After it finished, the key always answers with the stored outcome.
    const again = await post(`/v1/games/${game.id}/roll`, ann, {}, { 'idempotency-key': key });
    expect(again.status).toBe(200);
    expect(again.body).toEqual(ok[0].body);
  });

  it('a command whose response was lost, retried with its key, gets the same result (the same dice) and is stored once', async () => {
    const game = await newGame();
    const key = 'lost-response-' + game.id;
    const first = await post(`/v1/games/${game.id}/roll`, ann, {}, { 'idempotency-key': key });
    expect(first.status).toBe(200);
    expect(first.headers.get('idempotent-replayed')).toBeNull();
    const events = await countEvents(t, game.id);
    const retry = await post(`/v1/games/${game.id}/roll`, ann, {}, { 'idempotency-key': key });
    expect(retry.status).toBe(200);
    expect(retry.headers.get('idempotent-replayed')).toBe('true');
    expect(retry.body).toEqual(first.body);
    expect(retry.body.dice).toEqual(first.body.dice);
    expect(retry.headers.get('etag')).toBe(`"${first.body.version}"`);
    // The same over GraphQL (same operation, same arguments, same key): the stored outcome.
    const viaGql = await gql(
      t,
      `mutation($id: ID!, $k: String) { roll(gameId: $id, idempotencyKey: $k) { version dice } }`,
      { id: game.id, k: key },
      ann.token,
    );
    expect(viaGql.data.roll).toEqual({ version: first.body.version, dice: first.body.dice });
    expect(await countEvents(t, game.id)).toBe(events);
  });

  it('GraphQL mutations take idempotencyKey: a retry replays the first result', async () => {
    const game = await newGame();
    const q = `mutation($id: ID!, $k: String) { roll(gameId: $id, idempotencyKey: $k) { version dice updatedAt } }`;
    const a = await gql(t, q, { id: game.id, k: 'gql-1' }, ann.token);
    const b = await gql(t, q, { id: game.id, k: 'gql-1' }, ann.token);
    expect(a.errors).toBeUndefined();
    expect(b.data).toEqual(a.data);
    expect(await batchesAfter(game.id, game.version)).toBe(1);
    const bad = await gql(t, q, { id: game.id, k: 'has space' }, ann.token);
    expect(bad.errors?.[0].extensions?.code).toBe('VALIDATION_FAILED');
  });

  it('the same key with a different request is 422; keys are scoped to the player', async () => {
    const game = await newGame();
    const key = 'scoped-' + game.id;
    expect((await post(`/v1/games/${game.id}/roll`, ann, {}, { 'idempotency-key': key })).status).toBe(200);
    const other = await post(`/v1/games/${game.id}/roll`, ann, { hold: [0] }, { 'idempotency-key': key });
    expect(other.status).toBe(422);
    expect(other.body.code).toBe('IDEMPOTENCY_KEY_REUSED');
    // Bob's key of the same name is his own: it runs (and fails on its own merits: not his turn).
    const bobs = await post(`/v1/games/${game.id}/roll`, bob, {}, { 'idempotency-key': key });
    expect(bobs.status).toBe(409);
    expect(bobs.body.code).toBe('NOT_YOUR_TURN');
  });

  it('an error outcome is stored and replayed too (until the window ends)', async () => {
    const game = await newGame();
    const key = 'error-' + game.id;
    const first = await post(`/v1/games/${game.id}/roll`, bob, {}, { 'idempotency-key': key });
    expect(first.status).toBe(409);
    expect(first.body.code).toBe('NOT_YOUR_TURN');
    const again = await post(`/v1/games/${game.id}/roll`, bob, {}, { 'idempotency-key': key });
    expect(again.status).toBe(409);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    const { requestId: _a, ...firstBody } = first.body;
    const { requestId: _b, ...againBody } = again.body;
    expect(againBody).toEqual(firstBody);
  });

  it('expired records are ignored (the key runs again) and deleted', async () => {
    const game = await newGame();
    const key = 'expired-' + game.id;
    const first = await post(`/v1/games/${game.id}/roll`, ann, {}, { 'idempotency-key': key });
    await poolOf(t).query(`UPDATE idempotency_records SET expires_at = now() - interval '1 second' WHERE key = $1`, [
      key,
    ]);
    const again = await post(`/v1/games/${game.id}/roll`, ann, {}, { 'idempotency-key': key });
    expect(again.status).toBe(200);
    expect(again.body.version).toBeGreaterThan(first.body.version);
    const { rows } = await poolOf(t).query(
      `SELECT count(*)::int AS n, min(expires_at) > now() + interval '23 hours' AS fresh FROM idempotency_records WHERE key = $1`,
      [key],
    );
    expect(rows[0]).toEqual({ n: 1, fresh: true });
  });

  it.each([
    ['empty', ''],
    ['a space', 'a b'],
    ['256 characters', 'k'.repeat(256)],
    ['non-ASCII', 'clé'],
  ])('a malformed Idempotency-Key (%s) is 400 before anything runs', async (_name, key) => {
    const game = await newGame();
    const res = await t.http().post(`/v1/games/${game.id}/roll`).set(ann.auth).set('idempotency-key', key).send({});
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('VALIDATION_FAILED');
    expect(await countEvents(t, game.id)).toBe(game.version);
  });

  it('GET carries ETag "<version>"; If-None-Match with it → 304', async () => {
    const game = await newGame();
    const res = await t.http().get(`/v1/games/${game.id}`).set(ann.auth).expect(200);
    expect(res.headers.etag).toBe(`"${game.version}"`);
    const cached = await t.http().get(`/v1/games/${game.id}`).set(ann.auth).set('if-none-match', `"${game.version}"`);
    expect(cached.status).toBe(304);
    expect(cached.text ?? '').toBe('');
    expect(cached.headers.etag).toBe(`"${game.version}"`);
    await t
      .http()
      .get(`/v1/games/${game.id}`)
      .set(ann.auth)
      .set('if-none-match', `W/"${game.version - 1}"`)
      .expect(200);
  });

  it('commands accept If-Match: stale → 412 PRECONDITION_FAILED and nothing stored; current → applied with the new ETag', async () => {
    const game = await newGame();
    const stale = await post(`/v1/games/${game.id}/roll`, ann, {}, { 'if-match': `"${game.version - 1}"` });
    expect(stale.status).toBe(412);
    expect(stale.body).toMatchObject({ code: 'PRECONDITION_FAILED', currentVersion: game.version });
    expect(await countEvents(t, game.id)).toBe(game.version);
    const fresh = await post(`/v1/games/${game.id}/roll`, ann, {}, { 'if-match': `"${game.version}"` });
    expect(fresh.status).toBe(200);
    expect(fresh.headers.get('etag')).toBe(`"${fresh.body.version}"`);
    const bad = await post(`/v1/games/${game.id}/roll`, ann, {}, { 'if-match': 'version 3' });
    expect(bad.status).toBe(400);
  });

  it('ids are validated before any query: a malformed game id is 400', async () => {
    for (const path of ['/v1/games/not-a-uuid', '/v1/games/1%27%20OR%201=1/roll', '/v1/games/123/events']) {
      const res = path.endsWith('roll')
        ? await t.http().post(path).set(ann.auth).send({})
        : await t.http().get(path).set(ann.auth);
      expect(res.status).toBe(400);
      expect(res.body.code).toBe('VALIDATION_FAILED');
    }
  });

  describe('another player cannot act in a game (403/404) and nothing is stored', () => {
    const commands: Array<[string, Record<string, unknown>]> = [
      ['join', {}],
      ['leave', {}],
      ['start', {}],
      ['cancel', {}],
      ['roll', {}],
      ['score', { box: 'chance' }],
      ['set-aside', { dice: [0] }],
      ['bank', {}],
      ['quit', {}],
    ];

    it.each(commands)('private game, REST %s → 404', async (command, body) => {
      const game = await newGame({ visibility: 'private' });
      const res = await post(`/v1/games/${game.id}/${command}`, eve, body, { 'idempotency-key': `eve-${command}` });
      expect(res.status).toBe(404);
      expect(res.body.code).toBe('GAME_NOT_FOUND');
      expect(await countEvents(t, game.id)).toBe(game.version);
    });

    it.each(commands.filter(([c]) => c !== 'join'))('public game, REST %s → 403 or 404', async (command, body) => {
      const game = await newGame();
      const res = await post(`/v1/games/${game.id}/${command}`, eve, body);
      expect([403, 404]).toContain(res.status);
      expect(await countEvents(t, game.id)).toBe(game.version);
    });

    it('open private game: outsiders cannot leave, start or cancel it', async () => {
      const game = await newGame({ visibility: 'private', start: false });
      for (const command of ['leave', 'start', 'cancel']) {
        const res = await post(`/v1/games/${game.id}/${command}`, eve, {});
        expect([403, 404]).toContain(res.status);
      }
      expect(await countEvents(t, game.id)).toBe(game.version);
    });

    it('GraphQL mutations: the same answers', async () => {
      const game = await newGame({ visibility: 'private' });
      const mutations = [
        'joinGame(gameId: $id)',
        'leaveGame(gameId: $id)',
        'startGame(gameId: $id)',
        'cancelGame(gameId: $id)',
        'roll(gameId: $id)',
        'scoreBox(gameId: $id, box: "chance")',
        'setAside(gameId: $id, dice: [0])',
        'bank(gameId: $id)',
        'quitGame(gameId: $id)',
      ];
      for (const m of mutations) {
        const body = await gql(t, `mutation($id: ID!) { ${m} { id } }`, { id: game.id }, eve.token);
        expect(body.errors?.[0].extensions?.code).toBe('GAME_NOT_FOUND');
      }
      expect(await countEvents(t, game.id)).toBe(game.version);
    });

    it('a private game is invisible to outsiders (404), visible to its players', async () => {
      const game = await newGame({ visibility: 'private' });
      await t.http().get(`/v1/games/${game.id}`).set(eve.auth).expect(404);
      await t.http().get(`/v1/games/${game.id}`).expect(404);
      await t.http().get(`/v1/games/${game.id}/events`).set(eve.auth).expect(404);
      const q = await gql(t, 'query($id: ID!) { game(id: $id) { id } }', { id: game.id }, eve.token);
      expect(q.errors?.[0].extensions?.code).toBe('GAME_NOT_FOUND');
      await t.http().get(`/v1/games/${game.id}`).set(bob.auth).expect(200);
    });
  });

  describe('extra fields in a body are rejected (400) and nothing is stored', () => {
    const extras = [
      { dice: [6, 6, 6, 6, 6] },
      { score: 50 },
      { version: 99 },
      { seed: 'abc' },
      { playerId: '00000000-0000-4000-8000-000000000000' },
    ];
    const commands: Array<[string, Record<string, unknown>]> = [
      ['join', {}],
      ['leave', {}],
      ['start', {}],
      ['cancel', {}],
      ['roll', {}],
      ['score', { box: 'chance' }],
      ['set-aside', { dice: [0] }],
      ['bank', {}],
      ['quit', {}],
    ];

    it.each(commands)('%s', async (command, body) => {
      const game = await newGame();
      for (const extra of extras) {
        const merged = { ...body, ...extra, ...(command === 'set-aside' && 'dice' in extra ? { score: 1 } : {}) };
        const res = await post(`/v1/games/${game.id}/${command}`, ann, merged);
        expect(res.status).toBe(400);
        expect(res.body.code).toBe('VALIDATION_FAILED');
      }
      expect(await countEvents(t, game.id)).toBe(game.version);
    });

    it('create', async () => {
      const before = await countCreatedBy(t, ann.id);
      for (const extra of [{ version: 1 }, { seed: 'abc' }, { score: 5 }, { serverSeed: 'ab' }]) {
        const res = await post('/v1/games', ann, { ruleSet: 'penta', seats: 1, ...extra });
        expect(res.status).toBe(400);
      }
      expect(await countCreatedBy(t, ann.id)).toEqual(before);
    });
  });
});
