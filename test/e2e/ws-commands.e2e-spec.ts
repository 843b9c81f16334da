/**
 * The WebSocket command channel (/v1/ws; docs/api.md "WebSocket command channel", decision 0123,
 * issue 29 item 1): a whole game played over it, with a follower on the same kind of connection;
 * a retried frame under the same idempotency key applies once; a stale expected version is
 * VERSION_CONFLICT; every bad frame gets a coded error and stores nothing; authentication once
 * per connection (first frame or subprotocol), refused without it or with a bad token.
 */
import type { AddressInfo } from 'node:net';
import { evolveGame, type GameEvent, type GameState, replayGame } from '@fairdice/core/rules/game';
import { createTestApp, registerPlayer, type TestApp } from '../helpers/app';
import { chooseMove, countEvents } from '../helpers/games';
import { ChannelClient, type Frame } from '../helpers/ws-channel';
import { FairdiceChannel } from '../../packages/client/src';

jest.setTimeout(120_000);

type P = { id: string; token: string; auth: { authorization: string } };

const asGameEvent = (e: Frame): GameEvent => ({
  type: e.type,
  seat: e.seat,
  data: e.data,
  rollNumber: e.rollNumber,
  command: e.command as GameEvent['command'],
});

/** REST action names (helpers/games.ts) → the channel's command names (the move tables). */
const commandOf = (action: string) => (action === 'set-aside' ? 'setAside' : action);

describe('WebSocket command channel (/v1/ws)', () => {
  let t: TestApp;
  let port: number;
  let ada: P;
  let bob: P;
  let n = 0;
  const nextId = () => `f${++n}`;

  beforeAll(async () => {
    t = await createTestApp({
      listen: true,
      env: { WS_MAX_COMMANDS_IN_FLIGHT: '2', WS_CONNECTION_INIT_TIMEOUT_MS: '1500' },
    });
    port = (t.app.getHttpServer().address() as AddressInfo).port;
    ada = await registerPlayer(t, 'Ada');
    bob = await registerPlayer(t, 'Bob');
  });
  afterAll(() => t.close());

  const view = async (id: string) => (await t.http().get(`/v1/games/${id}`).set(ada.auth).expect(200)).body;
  const newGame = async (seats = 1) =>
    (await t.http().post('/v1/games').set(ada.auth).send({ ruleSet: 'simple', seats }).expect(201)).body as {
      id: string;
      version: number;
    };

  it('plays a whole game: join, start and every move over the channel; a follower gets every event, then "ended"', async () => {
    const game = await newGame(2);
    const adaWs = await ChannelClient.connect(port, ada.token);
    // Bob authenticates with the subprotocol instead of a frame.
    const bobWs = new ChannelClient(port, ['fairdice.v1', `fairdice.token.${bob.token}`]);
    await bobWs.opened;
    expect(bobWs.ws.protocol).toBe('fairdice.v1'); // the token is never echoed
    expect((await bobWs.frame((f) => f.type === 'ready')).playerId).toBe(bob.id);

    const follower = await ChannelClient.connect(port, ada.token);
    follower.send({ type: 'subscribe', id: 's1', gameId: game.id });
    expect(await follower.frame((f) => f.type === 'subscribed')).toMatchObject({ id: 's1', gameId: game.id });

    // The client's own state, folded from nothing but the answers' events.
    const history = (await t.http().get(`/v1/games/${game.id}/events?limit=100`).set(ada.auth).expect(200)).body;
    let state: GameState = replayGame(game.id, history.items.map(asGameEvent));
    let version = game.version;
    const apply = (answer: Frame) => {
      expect(answer).toMatchObject({ type: 'result', gameId: game.id, replayed: false });
      expect(answer.events[0].version).toBe(version + 1);
      for (const e of answer.events) state = evolveGame(state, asGameEvent(e));
      version = answer.version;
      expect(answer.events[answer.events.length - 1].version).toBe(version);
    };

    const join = await bobWs.move({ id: nextId(), gameId: game.id, command: 'join', expectedVersion: version });
    apply(join);
    apply(await adaWs.move({ id: nextId(), gameId: game.id, command: 'start', expectedVersion: version }));

    let moves = 0;
    for (let v = await view(game.id); v.status === 'playing'; v = await view(game.id)) {
      expect(v.version).toBe(version); // the folded version is the server's
      const m = chooseMove(v);
      const ws = v.currentPlayerId === ada.id ? adaWs : bobWs;
      const id = nextId();
      apply(
        await ws.move({
          id,
          gameId: game.id,
          command: commandOf(m.action),
          args: m.body,
          expectedVersion: version,
          idempotencyKey: `k-${id}`,
        }),
      );
      moves++;
      expect(moves).toBeLessThan(200);
    }
    const final = await view(game.id);
    expect(final.status).toBe('finished');
    expect(state.status).toBe('finished');
    expect(state.version).toBe(final.version);

    // The follower got every event from version 1, in order, then the end of the stream.
    const ended = await follower.frame((f) => f.type === 'unsubscribed');
    expect(ended).toMatchObject({ id: 's1', gameId: game.id, reason: 'ended' });
    const events = follower.frames.filter((f) => f.type === 'event').map((f) => f.event);
    expect(events.map((e) => e.version)).toEqual(Array.from({ length: final.version }, (_, i) => i + 1));
    expect(events[events.length - 1].type).toBe('gameFinished');

    // Resuming from a version: only the later events.
    follower.send({ type: 'subscribe', id: 's2', gameId: game.id, after: final.version - 2 });
    await follower.frame((f) => f.type === 'unsubscribed' && f.id === 's2');
    const resumed = follower.frames.filter((f) => f.type === 'event').slice(events.length);
    expect(resumed.map((f) => f.event.version)).toEqual([final.version - 1, final.version]);

    await Promise.all([adaWs.close(), bobWs.close(), follower.close()]);
  });

  it('a retried frame with the same idempotency key applies once (the answer is replayed)', async () => {
    const game = await newGame();
    const ws = await ChannelClient.connect(port, ada.token);
    await ws.move({ id: 'start', gameId: game.id, command: 'start' });
    const before = await countEvents(t, game.id);
    const frame = { gameId: game.id, command: 'roll', idempotencyKey: 'roll-once-1' };
    const first = await ws.move({ id: 'r1', ...frame });
    expect(first).toMatchObject({ type: 'result', replayed: false });
    const retried = await ws.move({ id: 'r2', ...frame });
    expect(retried).toMatchObject({ type: 'result', id: 'r2', replayed: true, version: first.version });
    // The same events (createdAt aside: the first answer carries the in-memory time, the replay the stored one).
    const same = (events: Frame[]) => events.map(({ createdAt: _createdAt, ...e }) => e);
    expect(same(retried.events)).toEqual(same(first.events));
    expect(await countEvents(t, game.id)).toBe(before + first.events.length);
    // The same key with other arguments is refused, as over REST.
    const reused = await ws.move({ id: 'r3', ...frame, args: { hold: [0] } });
    expect(reused.problem.code).toBe('IDEMPOTENCY_KEY_REUSED');
    expect(await countEvents(t, game.id)).toBe(before + first.events.length);
    await ws.close();
  });

  it('a stale expected version is VERSION_CONFLICT with the current version, and stores nothing', async () => {
    const game = await newGame();
    const ws = await ChannelClient.connect(port, ada.token);
    const started = await ws.move({ id: 'a', gameId: game.id, command: 'start', expectedVersion: game.version });
    const before = await countEvents(t, game.id);
    const stale = await ws.move({ id: 'b', gameId: game.id, command: 'roll', expectedVersion: game.version });
    expect(stale).toMatchObject({ type: 'error', id: 'b' });
    expect(stale.problem).toMatchObject({ code: 'VERSION_CONFLICT', status: 409, currentVersion: started.version });
    expect(await countEvents(t, game.id)).toBe(before);
    await ws.close();
  });

  describe('bad frames: a coded error each, nothing stored, the connection stays usable', () => {
    let ws: ChannelClient;
    let game: { id: string; version: number };
    let before: number;

    beforeAll(async () => {
      game = await newGame(2);
      const bobWs = await ChannelClient.connect(port, bob.token);
      await bobWs.move({ id: 'j', gameId: game.id, command: 'join' });
      await bobWs.close();
      ws = await ChannelClient.connect(port, ada.token);
      await ws.move({ id: 's', gameId: game.id, command: 'start' });
      before = await countEvents(t, game.id);
    });
    afterEach(async () => {
      expect(await countEvents(t, game.id)).toBe(before);
      // Still open and answering.
      ws.send({ type: 'ping', id: 'p' });
      expect(await ws.frame((f) => f.type === 'pong' && f.id === 'p')).toBeTruthy();
    });
    afterAll(() => ws.close());

    it('not JSON: MALFORMED_REQUEST', async () => {
      ws.send('{"type": "move", ');
      const e = await ws.frame((f) => f.type === 'error');
      expect(e).toMatchObject({ id: null, problem: { code: 'MALFORMED_REQUEST', status: 400 } });
    });

    it('a frame of no known shape: VALIDATION_FAILED naming the field, answered under its id', async () => {
      ws.send({ type: 'move', id: 'v1', gameId: game.id, command: 'roll', extra: 1 });
      const e = await ws.answer('v1');
      expect(e.problem.code).toBe('VALIDATION_FAILED');
      expect(e.problem.errors.length).toBeGreaterThan(0);
      ws.send({ type: 'teleport', id: 'v2' });
      expect((await ws.answer('v2')).problem.code).toBe('VALIDATION_FAILED');
    });

    it('an unknown command: UNSUPPORTED_OPERATION listing the commands of the move tables', async () => {
      const e = await ws.move({ id: 'u1', gameId: game.id, command: 'teleport' });
      expect(e.problem.code).toBe('UNSUPPORTED_OPERATION');
      expect(e.problem.commands).toEqual(
        expect.arrayContaining(['join', 'start', 'roll', 'score', 'setAside', 'bank']),
      );
    });

    it("bad args: the move's own validation (as its REST body)", async () => {
      const e = await ws.move({ id: 'a1', gameId: game.id, command: 'roll', args: { hold: 'all' } });
      expect(e.problem.code).toBe('VALIDATION_FAILED');
      const g = await ws.move({ id: 'a2', gameId: 'not-a-uuid', command: 'roll' });
      expect(g.problem.code).toBe('VALIDATION_FAILED');
      // A move whose body needs a field, sent without args: refused every time (the channel
      // remembers only an input without args that validated).
      for (const id of ['a3', 'a4']) {
        const s = await ws.move({ id, gameId: game.id, command: 'score' });
        expect(s.problem).toMatchObject({
          code: 'VALIDATION_FAILED',
          errors: [expect.objectContaining({ field: 'box' })],
        });
      }
    });

    it("a move for another player's seat: NOT_YOUR_TURN", async () => {
      const bobWs = await ChannelClient.connect(port, bob.token);
      const current = (await view(game.id)).currentPlayerId;
      const other = current === ada.id ? bobWs : ws;
      const e = await other.move({ id: 'o1', gameId: game.id, command: 'roll' });
      expect(e.problem).toMatchObject({ code: 'NOT_YOUR_TURN', status: 409 });
      await bobWs.close();
    });

    it('too many in flight: TOO_MANY_IN_FLIGHT for the frame past WS_MAX_COMMANDS_IN_FLIGHT (2)', async () => {
      // Three frames in one write: the server reads them together, before any answer.
      const frames = ['i1', 'i2', 'i3'].map((id) => ({
        type: 'move',
        id,
        gameId: game.id,
        command: 'roll',
        expectedVersion: 0,
      }));
      ws.ws._socket.cork();
      for (const f of frames) ws.send(f);
      ws.ws._socket.uncork();
      const answers = await Promise.all(frames.map((f) => ws.answer(f.id)));
      expect(answers.map((a) => a.problem.code)).toEqual([
        'VERSION_CONFLICT',
        'VERSION_CONFLICT',
        'TOO_MANY_IN_FLIGHT',
      ]);
      expect(answers[2].problem).toMatchObject({ status: 429, limit: 2 });
    });
  });

  describe('authentication', () => {
    it('no authentication: a move as first frame is UNAUTHENTICATED and the socket closes with 4401', async () => {
      const game = await newGame();
      const before = await countEvents(t, game.id);
      const ws = new ChannelClient(port);
      await ws.opened;
      ws.send({ type: 'move', id: 'm', gameId: game.id, command: 'start' });
      expect((await ws.frame((f) => f.type === 'error')).problem.code).toBe('UNAUTHENTICATED');
      expect((await ws.closed).code).toBe(4401);
      expect(await countEvents(t, game.id)).toBe(before);
    });

    it('a token that fails (frame or subprotocol): UNAUTHENTICATED, closed with 4401', async () => {
      const ws = new ChannelClient(port);
      await ws.opened;
      ws.send({ type: 'auth', token: 'fd_' + 'x'.repeat(43) });
      expect((await ws.frame((f) => f.type === 'error')).problem.code).toBe('UNAUTHENTICATED');
      expect((await ws.closed).code).toBe(4401);
      const sub = new ChannelClient(port, ['fairdice.v1', 'fairdice.token.not-a-token']);
      expect((await sub.frame((f) => f.type === 'error')).problem.code).toBe('UNAUTHENTICATED');
      expect((await sub.closed).code).toBe(4401);
    });

    it('nothing within WS_CONNECTION_INIT_TIMEOUT_MS: closed with 4408', async () => {
      const ws = new ChannelClient(port);
      await ws.opened;
      expect((await ws.closed).code).toBe(4408);
      expect(ws.frames[0].problem.code).toBe('UNAUTHENTICATED');
    });

    it('the move of a player not seated, and following a private game of others, are refused as over REST', async () => {
      const game = await newGame();
      const ws = await ChannelClient.connect(port, bob.token);
      const e = await ws.move({ id: 'x', gameId: game.id, command: 'start' });
      expect(e.problem.code).toBe('NOT_SEATED');
      const priv = (
        await t
          .http()
          .post('/v1/games')
          .set(ada.auth)
          .send({ ruleSet: 'simple', seats: 1, visibility: 'private' })
          .expect(201)
      ).body;
      ws.send({ type: 'subscribe', id: 'sp', gameId: priv.id });
      expect((await ws.answer('sp')).problem.code).toBe('GAME_NOT_FOUND');
      await ws.close();
    });
  });
});

describe('WebSocket command channel: the rate limit of REST (player bucket)', () => {
  let t: TestApp;
  afterAll(() => t?.close());

  it('each move frame counts one request of the player; past the limit RATE_LIMITED, shared with REST', async () => {
    // Counters are shared through the database with the other suites running meanwhile: an address of our own.
    t = await createTestApp({
      listen: true,
      env: { RATE_LIMIT_ENABLED: 'true', RATE_LIMIT_PER_MINUTE: '4', TRUST_PROXY: 'true' },
    });
    const port = (t.app.getHttpServer().address() as AddressInfo).port;
    const ip = `10.29.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}`;
    const registered = await t
      .http()
      .post('/v1/players')
      .set('x-forwarded-for', ip)
      .send({ displayName: 'Ada' })
      .expect(201);
    const ada = { token: registered.body.token as string, auth: { authorization: `Bearer ${registered.body.token}` } };
    const game = (await t.http().post('/v1/games').set(ada.auth).send({ ruleSet: 'simple', seats: 1 }).expect(201))
      .body;
    const ws = await ChannelClient.connect(port, ada.token);
    const codes: string[] = [];
    for (let i = 0; i < 4; i++) {
      const a = await ws.move({ id: `q${i}`, gameId: game.id, command: i === 0 ? 'start' : 'roll' });
      codes.push(a.type === 'result' ? 'ok' : a.problem.code);
    }
    // 1 REST create + 3 frames are within 4; the 4th frame is the 5th request.
    expect(codes).toEqual(['ok', 'ok', 'ok', 'RATE_LIMITED']);
    const refused = ws.frames.find((f) => f.id === 'q3');
    expect(refused!.problem).toMatchObject({ status: 429, limit: 4 });
    expect(refused!.problem.retryAfterSeconds).toBeGreaterThan(0);
    await t.http().get(`/v1/games/${game.id}`).set(ada.auth).expect(429);
    await ws.close();
  });
});

describe('WebSocket command channel: the SDK (FairdiceChannel)', () => {
  let t: TestApp;
  afterAll(() => t?.close());

  it('moves, follows and refusals through the typed client', async () => {
    t = await createTestApp({ listen: true });
    const url = `ws://127.0.0.1:${(t.app.getHttpServer().address() as AddressInfo).port}/v1/ws`;
    const ada = await registerPlayer(t, 'Ada');
    const game = (await t.http().post('/v1/games').set(ada.auth).send({ ruleSet: 'simple', seats: 1 }).expect(201))
      .body;
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- ws ships no types here
    const channel = await FairdiceChannel.connect(url, ada.token, { webSocketImpl: require('ws') });
    expect(channel.playerId).toBe(ada.id);
    const seen: number[] = [];
    let ended: () => void = () => undefined;
    const end = new Promise<void>((resolve) => (ended = resolve));
    await channel.subscribe(game.id, {
      after: game.version,
      onEvent: (e) => seen.push(e.version),
      onEnd: () => ended(),
    });
    const started = await channel.move(game.id, 'start', {}, { expectedVersion: game.version });
    const rolled = await channel.move(
      game.id,
      'roll',
      {},
      { expectedVersion: started.version, idempotencyKey: 'sdk-1' },
    );
    expect(rolled).toMatchObject({ gameId: game.id, replayed: false, version: started.version + 1 });
    expect(
      (await channel.move(game.id, 'roll', {}, { expectedVersion: started.version, idempotencyKey: 'sdk-1' })).replayed,
    ).toBe(true);
    await expect(channel.move(game.id, 'roll', {}, { expectedVersion: started.version })).rejects.toMatchObject({
      code: 'VERSION_CONFLICT',
      status: 409,
    });
    const quit = await channel.move(game.id, 'quit');
    await end; // the game ended: the following ends with it
    expect(seen).toEqual(Array.from({ length: quit.version - game.version }, (_, i) => game.version + i + 1));
    channel.close();
  });
});
