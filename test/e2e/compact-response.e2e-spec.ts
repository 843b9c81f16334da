/**
 * The compact command response (Prefer: return=minimal, docs/api.md): a client that keeps its
 * own state gets the events its command appended and the new version instead of the whole game.
 * Also through the SDK's compact client, and with idempotent replays.
 */
import { createFairdiceCompactClient, unwrap } from '../../packages/client/src';
import { evolveGame, fiveDicePlay, type GameEvent, type GameState, replayGame } from '@fairdice/core/rules/game';
import { createTestApp, registerPlayer, type TestApp } from '../helpers/app';

jest.setTimeout(60_000);

const MEDIA = 'application/vnd.fairdice.command-events+json';
type P = { id: string; token: string; auth: { authorization: string } };
type EventJson = {
  gameId: string;
  version: number;
  type: string;
  seat: number | null;
  data: Record<string, unknown>;
  rollNumber: number | null;
  command: Record<string, unknown> | null;
  hash: string;
};
const asGameEvent = (e: EventJson): GameEvent => ({
  type: e.type,
  seat: e.seat,
  data: e.data,
  rollNumber: e.rollNumber,
  command: e.command as GameEvent['command'],
});

describe('compact command responses (Prefer: return=minimal)', () => {
  let t: TestApp;
  let ada: P;
  const minimal = { prefer: 'return=minimal' };

  beforeAll(async () => {
    t = await createTestApp({ listen: true });
    ada = await registerPlayer(t, 'Ada');
  });
  afterAll(() => t.close());

  const post = (path: string, body: object, headers: Record<string, string> = {}) =>
    t.http().post(`/v1/games${path}`).set(ada.auth).set(headers).send(body);
  const history = async (id: string) =>
    (await t.http().get(`/v1/games/${id}/events?limit=100`).set(ada.auth).expect(200)).body.items as EventJson[];

  it('answers the events the command appended and the new version; folding them gives the game the server has', async () => {
    const created = await post('', { ruleSet: 'simple', seats: 1 }, minimal).expect(201);
    expect(created.headers['content-type']).toContain(MEDIA);
    expect(created.headers['preference-applied']).toBe('return=minimal');
    expect(created.headers.vary).toMatch(/prefer/i);
    const id = created.body.gameId as string;
    expect(created.body.events.map((e: EventJson) => e.type)).toEqual(['gameCreated', 'seatTaken']);
    expect(created.headers.etag).toBe(`"${created.body.version}"`);
    expect(created.body).not.toHaveProperty('status'); // not the game

    // The client's own state, built from nothing but compact answers.
    let state: GameState = replayGame(id, created.body.events.map(asGameEvent));
    let version = created.body.version as number;
    for (const [path, body] of [
      ['start', {}],
      ['roll', {}],
      ['roll', { hold: [0, 1] }],
      ['score', { box: 'chance' }],
    ] as const) {
      const r = await post(`/${id}/${path}`, body, minimal).expect(200);
      expect(r.headers['preference-applied']).toBe('return=minimal');
      expect(r.body.gameId).toBe(id);
      expect(r.body.events[0].version).toBe(version + 1); // nothing skipped
      expect(r.body.version).toBe(r.body.events[r.body.events.length - 1].version);
      expect(r.headers.etag).toBe(`"${r.body.version}"`);
      state = (r.body.events as EventJson[]).map(asGameEvent).reduce(evolveGame, state);
      version = r.body.version;
    }
    // Same events as the history, hash for hash, and the same state as the server's own view.
    const all = await history(id);
    expect(all.map((e) => e.version)).toEqual(Array.from({ length: version }, (_, i) => i + 1));
    const game = (await t.http().get(`/v1/games/${id}`).set(ada.auth).expect(200)).body;
    expect(game.version).toBe(state.version);
    expect(game.fiveDice.sheets[0].boxes.find((b: { box: string }) => b.box === 'chance').points).toBe(
      fiveDicePlay(state)!.sheets[0].boxes.chance,
    );
  });

  it('without the preference, or with one it does not know, answers the whole game as before', async () => {
    for (const headers of [
      {} as Record<string, string>,
      { prefer: 'return=representation' },
      { prefer: 'return=tiny' },
      { prefer: ';;=' },
    ]) {
      const r = await post('', { ruleSet: 'simple', seats: 1 }, headers).expect(201);
      expect(r.headers['content-type']).toContain('application/json');
      expect(r.headers['preference-applied']).toBeUndefined();
      expect(r.body).toMatchObject({ status: 'open', version: 2 });
      expect(typeof r.body.id).toBe('string');
    }
  });

  it('an error stays a problem (nothing stored), whatever the preference', async () => {
    const id = (await post('', { ruleSet: 'simple', seats: 1 }, minimal).expect(201)).body.gameId;
    const before = (await history(id)).length;
    const r = await post(`/${id}/roll`, {}, minimal).expect(409);
    expect(r.headers['content-type']).toContain('application/problem+json');
    expect(r.body.code).toBe('GAME_NOT_STARTED');
    expect(r.headers['preference-applied']).toBeUndefined();
    expect((await history(id)).length).toBe(before);
  });

  it('an idempotent replay answers the same compact body; without the preference, the stored game', async () => {
    const id = (await post('', { ruleSet: 'simple', seats: 1 }, minimal).expect(201)).body.gameId;
    await post(`/${id}/start`, {}, minimal).expect(200);
    const key = { 'idempotency-key': `roll-${id}` };
    const first = await post(`/${id}/roll`, {}, { ...minimal, ...key }).expect(200);
    expect(first.headers['preference-applied']).toBe('return=minimal');
    const again = await post(`/${id}/roll`, {}, { ...minimal, ...key }).expect(200);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.headers['preference-applied']).toBe('return=minimal');
    // The same events (createdAt aside: the first answer carries the instance's clock, as the live
    // stream does; the replay reads the stored events, whose timestamps the database took).
    const withoutTime = (b: { events: Array<Record<string, unknown>> }) => ({
      ...b,
      events: b.events.map(({ createdAt: _createdAt, ...e }) => e),
    });
    expect(withoutTime(again.body)).toEqual(withoutTime(first.body));
    const whole = await post(`/${id}/roll`, {}, key).expect(200);
    expect(whole.headers['idempotent-replayed']).toBe('true');
    expect(whole.body).toMatchObject({ id, version: first.body.version });
    expect(whole.body.dice).toEqual(first.body.events[0].data.dice);
    expect((await history(id)).length).toBe(first.body.version); // the roll happened once
  });

  it('with CORS: Vary keeps Origin beside Prefer, and a browser may send Prefer and read Preference-Applied', async () => {
    const cors = await createTestApp({ env: { CORS_ORIGINS: 'https://app.example' } });
    try {
      const me = await registerPlayer(cors, 'Cora');
      const origin = { origin: 'https://app.example' };
      const r = await cors
        .http()
        .post('/v1/games')
        .set(me.auth)
        .set(origin)
        .set(minimal)
        .send({ ruleSet: 'simple', seats: 1 })
        .expect(201);
      const vary = String(r.headers.vary)
        .split(',')
        .map((v) => v.trim().toLowerCase());
      expect(vary).toEqual(expect.arrayContaining(['origin', 'prefer']));
      expect(r.headers['access-control-expose-headers']).toMatch(/Preference-Applied/);
      const preflight = await cors
        .http()
        .options('/v1/games')
        .set(origin)
        .set('access-control-request-method', 'POST')
        .set('access-control-request-headers', 'prefer');
      expect(String(preflight.headers['access-control-allow-headers'])).toMatch(/Prefer/);
    } finally {
      await cors.close();
    }
  });

  it("the SDK's compact client sends the preference and types the answer", async () => {
    const baseUrl = `http://127.0.0.1:${(t.app.getHttpServer().address() as { port: number }).port}`;
    const api = createFairdiceCompactClient({ baseUrl, token: ada.token });
    const created = unwrap(await api.POST('/v1/games', { body: { ruleSet: 'simple', seats: 1 } }));
    const started = unwrap(
      await api.POST('/v1/games/{id}/start', { params: { path: { id: created.gameId } }, body: {} }),
    );
    expect(started.version).toBeGreaterThan(created.version);
    expect(started.events.map((e) => e.type)).toContain('gameStarted');
  });
});
