/**
 * The per-player event stream (docs/async.md, *Player events*): yourTurn for three games on one
 * stream in order; a resume after a cut with nothing lost or repeated; seatTaken, gameStarted,
 * gameFinished (place), deadlineSoon at the player's share; NDJSON; retention and resync; a rotated
 * token ending the stream; bad cursors (400 INVALID_EVENT_CURSOR, nothing stored); a token only
 * ever opening its own stream; the GraphQL subscription myEvents.
 */
import { createClient } from 'graphql-ws';
import { createTestApp, gql, registerPlayer, type TestApp } from '../helpers/app';
import { chooseMove, poolOf, restClient } from '../helpers/games';
import { openPlayerStream, type PlayerStreamClient, type StreamMessage } from '../helpers/player-stream';
import { PlayerEventsService } from '../../src/player-events/player-events.service';
import { waitFor } from './helpers';

// eslint-disable-next-line @typescript-eslint/no-require-imports -- ws ships no types (as test/reliability/live-connection-limits)
const WebSocket: any = require('ws');

jest.setTimeout(60_000);

const ENV = { JOBS_POLL_INTERVAL_MS: '100' };

type P = Awaited<ReturnType<typeof registerPlayer>>;

describe('player events', () => {
  let t: TestApp;
  let base: string;
  const client = () => restClient(t);
  const streams: PlayerStreamClient[] = [];
  const open = (...args: Parameters<typeof openPlayerStream>) => {
    const s = openPlayerStream(...args);
    streams.push(s);
    return s;
  };

  beforeAll(async () => {
    t = await createTestApp({ env: ENV, listen: true });
    base = await t.app.getUrl();
    base = base.replace('[::1]', '127.0.0.1');
  });
  afterAll(async () => {
    for (const s of streams) s.close();
    await t?.close();
  });

  /** `host` creates a 2-seat game, `guest` joins, `host` starts: host moves first. */
  async function gameOf(host: P, guest: P, extra: Record<string, unknown> = {}) {
    const c = client();
    const v = await c.create(host.token, { ruleSet: 'simple', seats: 2, ...extra });
    await c.join(guest.token, v.id);
    return c.start(host.token, v.id);
  }

  /** Plays the current player's moves until the turn passes to someone else. */
  async function playTurn(view: any, tokenOf: Record<string, string>): Promise<any> {
    const c = client();
    const mover = view.currentPlayerId;
    let v = view;
    while (v.status === 'playing' && v.currentPlayerId === mover) v = await c.move(tokenOf[mover], v.id, chooseMove(v));
    return v;
  }

  const ofType = (ms: StreamMessage[], type: string) => ms.filter((m) => m.event === type);
  const countRows = async (playerId: string) =>
    Number(
      (await poolOf(t).query('SELECT count(*)::int AS n FROM player_events WHERE player_id = $1', [playerId])).rows[0]
        .n,
    );

  it('a player in three games gets yourTurn for each as opponents move, on one stream, in order', async () => {
    const me = await registerPlayer(t, 'Many');
    const opps = [await registerPlayer(t, 'O1'), await registerPlayer(t, 'O2'), await registerPlayer(t, 'O3')];
    const tokens: Record<string, string> = Object.fromEntries([me, ...opps].map((p) => [p.id, p.token]));
    const s = open(base, me.token);
    expect((await s.opened).contentType).toMatch(/^text\/event-stream/);

    const games: any[] = [];
    for (const o of opps) games.push(await gameOf(o, me));
    await s.waitFor((m) => ofType(m, 'gameStarted').length === 3, 'three gameStarted');
    expect(ofType(s.messages, 'gameStarted').map((m) => m.data.data.gameId)).toEqual(games.map((g) => g.id));

    // The opponents move in the order 2, 0, 1: yourTurn arrives in that order, one per game.
    const order = [2, 0, 1];
    for (const i of order) {
      const after = await playTurn(games[i], tokens);
      expect(after.currentPlayerId).toBe(me.id);
      await s.waitFor((m) => ofType(m, 'yourTurn').length === order.indexOf(i) + 1, `yourTurn of game ${i}`);
      const last = ofType(s.messages, 'yourTurn').at(-1)!;
      expect(last.data).toMatchObject({
        type: 'yourTurn',
        seq: last.id,
        data: { gameId: games[i].id, version: after.version, seat: 1, deadline: null, turnTimeLimitSeconds: null },
      });
    }
    expect(ofType(s.messages, 'yourTurn').map((m) => m.data.data.gameId)).toEqual(order.map((i) => games[i].id));
    const ids = s.messages.map((m) => m.id!);
    expect(ids).toEqual([...ids].sort((a, b) => a - b));
    expect(new Set(ids).size).toBe(ids.length);

    // The opponents were told of my seat: seatTaken, then gameStarted, in their own sequences (NDJSON).
    const o = open(base, opps[0].token, { after: 0, ndjson: true });
    expect((await o.opened).contentType).toMatch(/^application\/x-ndjson/);
    await o.waitFor((m) => m.length >= 2, "the opponent's backlog");
    expect(o.messages.slice(0, 2).map((m) => m.event)).toEqual(['seatTaken', 'gameStarted']);
    expect(o.messages[0].data).toMatchObject({
      seq: 1,
      data: { gameId: games[0].id, seat: 1, playerId: me.id, seatsTaken: 2, seatCount: 2 },
    });
    expect(o.messages[1].data.seq).toBe(2);
  });

  it('resumes after a cut (Last-Event-ID or after) with nothing lost or repeated', async () => {
    const me = await registerPlayer(t, 'Cut');
    const opp = await registerPlayer(t, 'Opp');
    const tokens = { [me.id]: me.token, [opp.id]: opp.token };
    const first = open(base, me.token, { after: 0 });
    let g = await gameOf(opp, me);
    g = await playTurn(g, tokens);
    await first.waitFor((m) => ofType(m, 'yourTurn').length === 1, 'the first yourTurn');
    const lastSeen = first.messages.at(-1)!.id!;
    first.close();
    await first.ended;

    // While cut off: three more turns pass to me (I move, the opponent moves).
    for (let i = 0; i < 3; i++) g = await playTurn(await playTurn(g, tokens), tokens);
    expect(g.currentPlayerId).toBe(me.id);
    // Three turns passed to me: three yourTurn stored (their job may still be running: wait for the rows).
    const stored = lastSeen + 3;
    await waitFor(async () => (await countRows(me.id)) === stored, 10_000, 'the three yourTurn stored');

    const resumed = open(base, me.token, { lastEventId: lastSeen });
    await resumed.waitFor((m) => m.length === stored - lastSeen, 'the missed events');
    const all = open(base, me.token, { after: 0, ndjson: true });
    await all.waitFor((m) => m.length === stored, 'the whole backlog');
    const union = [...first.messages, ...resumed.messages].map((m) => m.id);
    expect(union).toEqual(all.messages.map((m) => m.data.seq));
    expect(ofType(resumed.messages, 'yourTurn')).toHaveLength(3);
    // ?after= works as Last-Event-ID; Last-Event-ID wins over it.
    const viaQuery = open(base, me.token, { after: lastSeen });
    await viaQuery.waitFor((m) => m.length === stored - lastSeen, 'the missed events by ?after=');
    const both = open(base, me.token, { after: 0, lastEventId: stored - 1 });
    await both.waitFor((m) => m.length === 1, 'only the last event (Last-Event-ID first)');
    expect(both.messages[0].id).toBe(stored);

    // Live events keep coming on the resumed stream.
    g = await playTurn(await playTurn(g, tokens), tokens);
    await resumed.waitFor((m) => ofType(m, 'yourTurn').length === 4, 'a live yourTurn after the resume');
  });

  it('gameFinished says my place and total; deadlineSoon comes at my share of the time left', async () => {
    const me = await registerPlayer(t, 'Finisher');
    const opp = await registerPlayer(t, 'Winner');
    const bad = await t.http().put('/v1/players/me/event-settings').set(me.auth).send({ deadlineSoonShare: 1.5 });
    expect(bad.status).toBe(400);
    expect(bad.body.code).toBe('VALIDATION_FAILED');
    expect((await t.http().get('/v1/players/me/event-settings').set(me.auth).expect(200)).body).toEqual({
      deadlineSoonShare: 0.25,
      pushEvents: ['yourTurn', 'gameFinished'],
    });
    const set = await t.http().put('/v1/players/me/event-settings').set(me.auth).send({ deadlineSoonShare: 0.9 });
    expect(set.body).toEqual({ deadlineSoonShare: 0.9, pushEvents: ['yourTurn', 'gameFinished'] });

    const s = open(base, me.token);
    await s.opened;
    // 5 s per move, reminder when 90 % is left (0.5 s after the turn passed to me).
    let g = await gameOf(opp, me, { turnTimeLimitSeconds: 5 });
    g = await playTurn(g, { [me.id]: me.token, [opp.id]: opp.token });
    await s.waitFor((m) => ofType(m, 'deadlineSoon').length === 1, 'deadlineSoon');
    const turn = ofType(s.messages, 'yourTurn')[0];
    const soon = ofType(s.messages, 'deadlineSoon')[0];
    expect(soon.data.data).toMatchObject({
      gameId: g.id,
      version: g.version,
      seat: 1,
      deadline: turn.data.data.deadline,
    });
    expect(soon.data.data.secondsLeft).toBeLessThanOrEqual(5);
    expect(soon.id!).toBeGreaterThan(turn.id!);

    // We both quit (me first): the game ends, the opponent ranks first.
    await client().move(me.token, g.id, { action: 'quit', body: {} });
    await client().move(opp.token, g.id, { action: 'quit', body: {} });
    await s.waitFor((m) => ofType(m, 'gameFinished').length === 1, 'gameFinished');
    const fin = ofType(s.messages, 'gameFinished')[0].data.data;
    const view = await client().get(me.token, g.id);
    const mine = view.standings.find((r: any) => r.seat === 1);
    expect(fin).toMatchObject({
      gameId: g.id,
      status: 'finished',
      seat: 1,
      place: mine.rank,
      of: 2,
      total: mine.total,
    });
  });

  it('past the retention a resync comes first; a rotated token ends the stream', async () => {
    const me = await registerPlayer(t, 'Old');
    const opp = await registerPlayer(t, 'Opp2');
    const tokens = { [me.id]: me.token, [opp.id]: opp.token };
    let g = await gameOf(opp, me);
    g = await playTurn(g, tokens);
    const probe = open(base, me.token, { after: 0, ndjson: true });
    await probe.waitFor((m) => m.length === 2, 'gameStarted and yourTurn');
    const events = t.app.get(PlayerEventsService);
    // My two events become older than the retention (other files' events in the database stay recent).
    await poolOf(t).query("UPDATE player_events SET created_at = now() - interval '8 days' WHERE player_id = $1", [
      me.id,
    ]);
    expect(await events.prune(events.retentionHours * 3_600_000)).toBe(2);
    expect(await countRows(me.id)).toBe(0);

    const old = open(base, me.token, { lastEventId: 1 });
    await old.waitFor((m) => m.length === 1, 'the resync');
    expect(old.messages[0]).toMatchObject({
      id: 2,
      event: 'resync',
      data: { type: 'resync', seq: 2, reason: 'retention' },
    });
    const current = open(base, me.token, { after: 2 });
    await current.opened;

    g = await playTurn(await playTurn(g, tokens), tokens);
    await old.waitFor(
      (m) => m.length === 2 && m[1].event === 'yourTurn' && m[1].id === 3,
      'a live event after the resync',
    );
    await current.waitFor((m) => m.length === 1 && m[0].id === 3, 'the same event, without resync');

    const rotated = await t.http().post('/v1/players/me/token').set(me.auth).send({});
    expect(rotated.status).toBe(200);
    await playTurn(await playTurn(g, { ...tokens, [me.id]: rotated.body.token }), tokens);
    await current.waitFor((m) => m.at(-1)?.event === 'revoked', 'the revoked message');
    await current.ended;
    expect(current.messages.at(-1)!.data).toMatchObject({ code: 'UNAUTHENTICATED', status: 401 });
    expect(current.messages.map((m) => m.event)).toEqual(['yourTurn', 'revoked']);
    const refused = open(base, me.token);
    expect((await refused.opened).status).toBe(401);
  });

  it('bad cursors are 400 INVALID_EVENT_CURSOR; no token is 401; a token only ever opens its own stream', async () => {
    const me = await registerPlayer(t, 'Careful');
    const other = await registerPlayer(t, 'Other');
    const tokens = { [me.id]: me.token, [other.id]: other.token };
    await playTurn(await gameOf(other, me), tokens);
    const mine = open(base, me.token, { after: 0, ndjson: true });
    await mine.waitFor((m) => m.length === 2, 'my two events');
    const before = await countRows(me.id);
    for (const opts of [
      { lastEventId: 'abc' },
      { lastEventId: '-1' },
      { lastEventId: '1.5' },
      { after: 'x' },
      { after: -3 },
      { after: '9999999999999999999' },
      { after: 3 }, // beyond my last event (2)
    ]) {
      const r = open(base, me.token, opts);
      const { status, body } = await r.opened;
      expect([opts, status]).toEqual([opts, 400]);
      expect(JSON.parse(body!).code).toBe('INVALID_EVENT_CURSOR');
    }
    expect(await countRows(me.id)).toBe(before);
    const anon = open(base, null);
    const a = await anon.opened;
    expect(a.status).toBe(401);
    expect(JSON.parse(a.body!).code).toBe('UNAUTHENTICATED');

    // There is no parameter naming a player: whatever the query says, the token's own stream.
    const sneaky = open(base, me.token, { after: 0, ndjson: true, query: `playerId=${other.id}&player=${other.id}` });
    await sneaky.waitFor((m) => m.length === 2, 'my own two events');
    expect(sneaky.messages.map((m) => m.data)).toEqual(mine.messages.map((m) => m.data));
    const theirs = open(base, other.token, { after: 0, ndjson: true });
    await theirs.waitFor((m) => m.length === 3, 'their own events');
    // The host moves first: their yourTurn came with the start.
    expect(theirs.messages.map((m) => m.event)).toEqual(['seatTaken', 'gameStarted', 'yourTurn']);
  });

  it('GraphQL: myEvents streams the same events; settings query and mutation', async () => {
    const me = await registerPlayer(t, 'Gql');
    const opp = await registerPlayer(t, 'GqlOpp');
    const settings = await gql(
      t,
      'mutation { updateMyEventSettings(input: { pushEvents: [yourTurn, deadlineSoon] }) { deadlineSoonShare pushEvents } }',
      {},
      me.token,
    );
    expect(settings.data.updateMyEventSettings).toEqual({
      deadlineSoonShare: 0.25,
      pushEvents: ['yourTurn', 'deadlineSoon'],
    });
    const read = await gql(t, '{ myEventSettings { pushEvents } }', {}, me.token);
    expect(read.data.myEventSettings.pushEvents).toEqual(['yourTurn', 'deadlineSoon']);

    const ws = createClient({
      url: base.replace('http', 'ws') + '/graphql',
      webSocketImpl: WebSocket,
      connectionParams: { authorization: `Bearer ${me.token}` },
      retryAttempts: 0,
    });
    const got: any[] = [];
    let twoArrived!: () => void;
    let fail!: (e: unknown) => void;
    const arrived = new Promise<void>((resolve, reject) => {
      twoArrived = resolve;
      fail = reject;
    });
    const query = `subscription($after: Int) { myEvents(after: $after) {
      __typename
      ... on YourTurnPlayerEvent { seq type data { gameId version seat } }
      ... on GameStartedPlayerEvent { seq type data { gameId seats { seat playerId } } }
      ... on ResyncPlayerEvent { seq reason } } }`;
    const stop = ws.subscribe(
      { query, variables: { after: 0 } },
      {
        next: (v) => {
          got.push(v);
          if (got.length === 2) twoArrived();
        },
        error: (e) => fail(e),
        complete: () => undefined,
      },
    );
    let g = await gameOf(opp, me);
    g = await playTurn(g, { [me.id]: me.token, [opp.id]: opp.token });
    await arrived;
    stop();
    await ws.dispose();
    expect(got.map((r) => r.data.myEvents.__typename)).toEqual(['GameStartedPlayerEvent', 'YourTurnPlayerEvent']);
    expect(got[1].data.myEvents).toMatchObject({ seq: 2, type: 'yourTurn', data: { gameId: g.id, seat: 1 } });

    const bad = createClient({
      url: base.replace('http', 'ws') + '/graphql',
      webSocketImpl: WebSocket,
      connectionParams: { authorization: `Bearer ${me.token}` },
      retryAttempts: 0,
    });
    const err = await new Promise<any>((resolve) => {
      bad.subscribe(
        { query, variables: { after: 99 } },
        { next: (v) => v.errors && resolve(v.errors), error: resolve, complete: () => resolve(null) },
      );
    });
    await bad.dispose();
    expect(JSON.stringify(err)).toContain('INVALID_EVENT_CURSOR');
  });
});
