/**
 * Push for async clients: a GraphQL subscription (graphql-ws over ws) and Server-Sent Events
 * each receive every event of a game played by another client, in order, and resume from the
 * last version seen after reconnecting (backlog from the database, then live: no gap, no duplicate).
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { createClient, type Client as WsClient } from 'graphql-ws';
// eslint-disable-next-line @typescript-eslint/no-require-imports -- ws ships no types here (@types/ws is not installed)
const WebSocket: unknown = require('ws');
import { createTestApp, registerPlayer, storedServerSeed, type TestApp } from '../helpers/app';
import { chooseMove, poolOf, restClient } from '../helpers/games';
import { recordStreamMessage } from '../helpers/contract';
import { waitFor } from '../async/helpers';

jest.setTimeout(60_000);

interface SseMessage {
  id: number;
  event: string;
  data: any;
}

/** Opens the SSE stream; `onMessage` returning false closes it. Resolves when the stream ends or is closed. */
function sse(
  port: number,
  path: string,
  headers: Record<string, string>,
  onMessage: (m: SseMessage) => boolean | void,
): { done: Promise<{ status: number; comments: string[] }> } {
  const comments: string[] = [];
  const done = new Promise<{ status: number; comments: string[] }>((resolve, reject) => {
    const req = http.get({ host: '127.0.0.1', port, path, headers }, (res) => {
      if (res.statusCode !== 200) {
        let body = '';
        res.on('data', (c) => (body += c));
        res.on('end', () => resolve({ status: res.statusCode!, comments: [body] }));
        return;
      }
      let buffer = '';
      res.setEncoding('utf8');
      let stopped = false;
      res.on('data', (chunk: string) => {
        if (stopped) return;
        buffer += chunk;
        let idx: number;
        while ((idx = buffer.indexOf('\n\n')) >= 0) {
          const block = buffer.slice(0, idx);
          buffer = buffer.slice(idx + 2);
          if (block.startsWith(':')) {
            comments.push(block);
            continue;
          }
          const m: any = {};
          for (const line of block.split('\n')) {
            const k = line.slice(0, line.indexOf(':'));
            const v = line.slice(line.indexOf(':') + 2);
            if (k === 'id') m.id = Number(v);
            else if (k === 'event') m.event = v;
            else if (k === 'data') m.data = JSON.parse(v);
          }
          recordStreamMessage(m.event, m.data); // checked against openapi.json (GameEvent)
          if (onMessage(m) === false) {
            stopped = true;
            req.destroy();
            resolve({ status: 200, comments });
            return;
          }
        }
      });
      res.on('end', () => resolve({ status: 200, comments }));
      res.on('error', () => resolve({ status: 200, comments }));
    });
    req.on('error', (e) => ((e as any).code === 'ECONNRESET' ? resolve({ status: 200, comments }) : reject(e)));
  });
  return { done };
}

/** Subscribes with graphql-ws; `onEvent` returning false unsubscribes. Resolves on completion. */
function subscribe(
  client: WsClient,
  gameId: string,
  after: number,
  onEvent: (e: any) => boolean | void,
  // afterVersion: the argument's deprecated name (kept working for one version at least).
  argument: 'after' | 'afterVersion' = 'after',
): Promise<{ errors?: any[] }> {
  return new Promise((resolve) => {
    let stopped = false;
    let unsubscribe = () => {};
    unsubscribe = client.subscribe(
      {
        query: `subscription($id: ID!, $after: Int) { gameEvents(gameId: $id, ${argument}: $after) {
          __typename gameId version type seat data rollNumber prevHash hash
          ... on FarkleRolledEvent { dice reason }
          ... on FarkleSetAsideEvent { dice faces points turnPoints hotDice }
          ... on FarkleBankedEvent { points total }
          ... on GameFinishedEvent { standings { seat total rank quit } } } }`,
        variables: { id: gameId, after },
      },
      {
        next: (msg: any) => {
          if (stopped) return; // messages already in flight when we unsubscribed
          if (msg.errors) return resolve({ errors: msg.errors });
          if (onEvent(msg.data.gameEvents) === false) {
            stopped = true;
            unsubscribe();
            resolve({});
          }
        },
        error: (errors: any) => resolve({ errors: Array.isArray(errors) ? errors : [errors] }),
        complete: () => resolve({}),
      },
    );
  });
}

describe('push: GraphQL subscription and SSE', () => {
  let t: TestApp;
  let port: number;
  let ada: { id: string; token: string };
  let bob: { id: string; token: string };
  const clients: WsClient[] = [];
  const wsClient = (token?: string) => {
    const c = createClient({
      url: `ws://127.0.0.1:${port}/graphql`,
      webSocketImpl: WebSocket,
      connectionParams: token ? { authorization: `Bearer ${token}` } : {},
      retryAttempts: 0,
    });
    clients.push(c);
    return c;
  };

  beforeAll(async () => {
    t = await createTestApp({ listen: true });
    port = (t.app.getHttpServer().address() as AddressInfo).port;
    ada = await registerPlayer(t, 'Ada');
    bob = await registerPlayer(t, 'Bob');
  });
  afterAll(async () => {
    for (const c of clients) await c.dispose();
    await t.close();
  });

  async function storedVersions(gameId: string): Promise<Array<{ version: number; type: string; hash: string }>> {
    const { rows } = await poolOf(t).query(
      'SELECT version, type, hash FROM game_events WHERE game_id = $1 ORDER BY version',
      [gameId],
    );
    return rows;
  }

  /** Plays `moves` moves (or to the end) with the strategy, as the current player. */
  async function play(gameId: string, moves = Infinity) {
    const client = restClient(t);
    let v = await client.get(ada.token, gameId);
    for (let i = 0; i < moves && v.status === 'playing'; i++) {
      v = await client.move(v.currentPlayerId === ada.id ? ada.token : bob.token, gameId, chooseMove(v));
    }
    return v;
  }

  async function twoSeatGame(visibility = 'public'): Promise<string> {
    const client = restClient(t);
    const g = await client.create(ada.token, {
      ruleSet: 'farkle',
      seats: 2,
      visibility,
      options: { target: 1500, entryThreshold: 0 },
    });
    await client.join(bob.token, g.id, {});
    return g.id;
  }

  it('both receive every event of a game played by another client, in order, and then complete', async () => {
    const id = await twoSeatGame();
    const viaGql: any[] = [];
    const viaSse: SseMessage[] = [];
    const gqlDone = subscribe(wsClient(bob.token), id, 0, (e) => void viaGql.push(e));
    const sseDone = sse(port, `/v1/games/${id}/stream`, {}, (m) => void viaSse.push(m)).done;
    // Both are subscribed once they have delivered the backlog (the game's events so far).
    const backlog = (await storedVersions(id)).length;
    await waitFor(() => viaGql.length >= backlog && viaSse.length >= backlog, 10_000, 'the backlog on both streams');
    await restClient(t).start(ada.token, id);
    const end = await play(id);
    expect(end.status).toBe('finished');
    await Promise.all([gqlDone, sseDone]);
    const stored = await storedVersions(id);
    expect(viaGql.map((e) => [e.version, e.type, e.hash])).toEqual(stored.map((e) => [e.version, e.type, e.hash]));
    expect(viaSse.map((m) => [m.id, m.event, m.data.hash])).toEqual(stored.map((e) => [e.version, e.type, e.hash]));
    expect(viaSse.every((m) => m.data.version === m.id && m.data.gameId === id)).toBe(true);
    // Typed: each event's object type follows its type and the family; its fields are its payload's.
    const typeName = (type: string) =>
      type.startsWith('game') || ['seatTaken', 'seatLeft', 'seedSet'].includes(type)
        ? `${type[0].toUpperCase()}${type.slice(1)}Event`
        : `Farkle${type[0].toUpperCase()}${type.slice(1)}Event`;
    expect(viaGql.map((e) => e.__typename)).toEqual(viaGql.map((e) => typeName(e.type)));
    const typed = viaGql.filter((e) => ['rolled', 'setAside', 'banked', 'gameFinished'].includes(e.type));
    expect(typed.length).toBeGreaterThan(3);
    for (const e of typed) {
      const { __typename, gameId, version, type, seat, data, rollNumber, prevHash, hash, ...fields } = e;
      const expected = Object.fromEntries(Object.keys(fields).map((k) => [k, data[k] ?? null]));
      expect(fields).toEqual(expected);
    }
    // The pushed events never carry the server seed.
    expect(JSON.stringify(viaGql) + JSON.stringify(viaSse)).not.toContain(await storedServerSeed(t, id));
  });

  it('SSE resumes from Last-Event-ID (or ?after=) without gaps or duplicates', async () => {
    const id = await twoSeatGame();
    await restClient(t).start(ada.token, id);
    await play(id, 4);
    const first: SseMessage[] = [];
    await sse(port, `/v1/games/${id}/stream`, {}, (m) => {
      first.push(m);
      return m.id < 5 ? undefined : false;
    }).done;
    expect(first.map((m) => m.id)).toEqual([1, 2, 3, 4, 5]);
    const second: SseMessage[] = [];
    const resumed = sse(port, `/v1/games/${id}/stream`, { 'last-event-id': '5' }, (m) => void second.push(m)).done;
    await play(id);
    await resumed;
    const stored = await storedVersions(id);
    expect([...first, ...second].map((m) => m.id)).toEqual(stored.map((e) => e.version));
    const viaQuery: SseMessage[] = [];
    await sse(port, `/v1/games/${id}/stream?after=${stored.length - 2}`, {}, (m) => void viaQuery.push(m)).done;
    expect(viaQuery.map((m) => m.id)).toEqual([stored.length - 1, stored.length]);
  });

  it('the subscription resumes from `after` (or its deprecated name afterVersion) without gaps or duplicates', async () => {
    const id = await twoSeatGame();
    await restClient(t).start(ada.token, id);
    const first: any[] = [];
    await subscribe(wsClient(), id, 0, (e) => {
      first.push(e);
      return e.version < 6 ? undefined : false;
    });
    await play(id, 6);
    const second: any[] = [];
    const resumed = subscribe(wsClient(), id, 6, (e) => void second.push(e), 'afterVersion');
    await play(id);
    await resumed;
    const stored = await storedVersions(id);
    expect([...first, ...second].map((e) => e.version)).toEqual(stored.map((e) => e.version));
    const both = await new Promise<any[]>((resolve) => {
      wsClient().subscribe(
        {
          query: `subscription($id: ID!) { gameEvents(gameId: $id, after: 1, afterVersion: 1) { version } }`,
          variables: { id },
        },
        {
          next: (m: any) => m.errors && resolve(m.errors),
          error: (e: any) => resolve([e].flat()),
          complete: () => resolve([]),
        },
      );
    });
    expect(both[0]?.extensions?.code).toBe('VALIDATION_FAILED');
  });

  it('a private game streams only to its seats', async () => {
    const id = await twoSeatGame('private');
    const eve = await registerPlayer(t, 'Eve');
    const denied = await subscribe(wsClient(eve.token), id, 0, () => false);
    expect(denied.errors?.[0]?.extensions?.code ?? denied.errors?.[0]?.message).toMatch(/GAME_NOT_FOUND|No such game/);
    const anon = await sse(port, `/v1/games/${id}/stream`, {}, () => false).done;
    expect(anon.status).toBe(404);
    const seated: any[] = [];
    await subscribe(wsClient(bob.token), id, 0, (e) => {
      seated.push(e);
      return seated.length < 3 ? undefined : false;
    });
    expect(seated.map((e) => e.version)).toEqual([1, 2, 3]);
    const bad = await sse(port, `/v1/games/${id}/stream`, { 'last-event-id': 'x' }, () => false).done;
    expect(bad.status).toBe(400);
  });
});
