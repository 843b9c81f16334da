/**
 * Live connections are bounded (issue 24, item 7): GraphQL WebSockets per client address and per
 * player, subscriptions per WebSocket, connection_init within a time, SSE streams per client
 * address. Over a cap a WebSocket closes with 4429, a subscription gets TOO_MANY_STREAMS, an SSE
 * request 429 TOO_MANY_STREAMS with Retry-After; /metrics counts what is open and what was
 * refused, and every count returns to 0 once the clients are gone. Small caps via configuration.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { createClient, type Client } from 'graphql-ws';
import { createTestApp, registerPlayer, type TestApp } from '../helpers/app';
import { restClient } from '../helpers/games';
import { STREAM_LIMITS, type StreamLimits } from '../../src/reliability/streams/stream-limits';
// eslint-disable-next-line @typescript-eslint/no-require-imports -- ws ships no types here
const WebSocket: any = require('ws');

jest.setTimeout(60_000);

const PROTOCOL = 'graphql-transport-ws';

/** A raw graphql-ws socket: resolves `opened` on connection_ack, `closed` with the close code. */
function rawSocket(port: number, connectionParams?: Record<string, unknown>, init = true) {
  const ws = new WebSocket(`ws://127.0.0.1:${port}/graphql`, PROTOCOL);
  const closed = new Promise<{ code: number; reason: string }>((resolve) =>
    ws.on('close', (code: number, reason: Buffer) => resolve({ code, reason: String(reason) })),
  );
  const acked = new Promise<boolean>((resolve) => {
    ws.on('message', (data: Buffer) => {
      if (JSON.parse(String(data)).type === 'connection_ack') resolve(true);
    });
    void closed.then(() => resolve(false));
  });
  if (init) ws.on('open', () => ws.send(JSON.stringify({ type: 'connection_init', payload: connectionParams ?? {} })));
  return { ws, acked, closed, close: () => ws.close(1000) };
}

/** Opens an SSE stream; `status` resolves with the answer's status (200: the stream is open). */
function openSse(port: number, path: string) {
  let res: http.IncomingMessage | null = null;
  const req = http.get({ host: '127.0.0.1', port, path });
  const answer = new Promise<{ status: number; headers: http.IncomingHttpHeaders; body: string }>((resolve, reject) => {
    req.on('response', (r) => {
      res = r;
      r.setEncoding('utf8');
      let body = '';
      r.on('data', (chunk: string) => {
        body += chunk;
        // An open stream answers ': connected' at once; an error body ends.
        if (r.statusCode === 200 && body.includes(': connected')) resolve({ status: 200, headers: r.headers, body });
      });
      r.on('end', () => resolve({ status: r.statusCode ?? 0, headers: r.headers, body }));
    });
    req.on('error', reject);
  });
  return { answer, close: () => (res ? res.destroy() : req.destroy()) };
}

describe('live connection limits', () => {
  let t: TestApp;
  let port: number;

  beforeAll(async () => {
    t = await createTestApp({
      listen: true,
      env: {
        WS_MAX_CONNECTIONS_PER_ADDRESS: '3',
        WS_MAX_CONNECTIONS_PER_PLAYER: '2',
        WS_MAX_SUBSCRIPTIONS_PER_CONNECTION: '2',
        WS_CONNECTION_INIT_TIMEOUT_MS: '1500',
        SSE_MAX_STREAMS_PER_ADDRESS: '2',
      },
    });
    port = (t.app.getHttpServer().address() as AddressInfo).port;
  });
  afterAll(async () => {
    await t.close();
  });

  /** Addresses and players the limits still track: none once every client is gone. */
  const trackedKeys = () => t.app.get<StreamLimits>(STREAM_LIMITS).trackedKeys();

  /** One series of /metrics, e.g. fairdice_live_connections{kind="websocket"}. */
  async function metric(series: string): Promise<number> {
    const res = await t.http().get('/metrics').expect(200);
    const line = res.text.split('\n').find((l) => l.startsWith(series + ' '));
    return line ? Number(line.slice(series.length + 1)) : 0;
  }

  /** Waits until every live-connection gauge reads 0 (the server saw the sockets close). */
  async function allClosed(): Promise<void> {
    for (;;) {
      const open = await Promise.all(
        ['websocket', 'subscription', 'sse'].map((k) => metric(`fairdice_live_connections{kind="${k}"}`)),
      );
      if (open.every((n) => n === 0)) return;
      await new Promise((r) => setImmediate(r));
    }
  }

  it('caps WebSockets per client address: the next one closes with 4429; a closed one frees its slot', async () => {
    const held = [rawSocket(port), rawSocket(port), rawSocket(port)];
    expect(await Promise.all(held.map((s) => s.acked))).toEqual([true, true, true]);
    expect(await metric('fairdice_live_connections{kind="websocket"}')).toBe(3);

    const refused = rawSocket(port);
    expect(await refused.closed).toEqual({ code: 4429, reason: 'Too many connections from this address' });
    expect(await refused.acked).toBe(false);
    expect(await metric('fairdice_live_connections_refused_total{kind="websocket",reason="per_address"}')).toBe(1);
    expect(await metric('fairdice_live_connections{kind="websocket"}')).toBe(3);

    held[0].close();
    await held[0].closed;
    for (;;) {
      if ((await metric('fairdice_live_connections{kind="websocket"}')) === 2) break;
      await new Promise((r) => setImmediate(r));
    }
    const again = rawSocket(port);
    expect(await again.acked).toBe(true);

    for (const s of [...held.slice(1), again]) s.close();
    await allClosed();
    expect(trackedKeys()).toBe(0);
  });

  it('caps WebSockets per player (token in connectionParams): the third closes with 4429', async () => {
    const ada = await registerPlayer(t, 'Ada');
    const params = { authorization: `Bearer ${ada.token}` };
    const held = [rawSocket(port, params), rawSocket(port, params)];
    expect(await Promise.all(held.map((s) => s.acked))).toEqual([true, true]);

    const third = rawSocket(port, params);
    expect(await third.closed).toEqual({ code: 4429, reason: 'Too many connections for this player' });
    expect(await metric('fairdice_live_connections_refused_total{kind="websocket",reason="per_player"}')).toBe(1);

    // Another player from the same address still gets in (the address cap is 3: two are held).
    const bob = await registerPlayer(t, 'Bob');
    const other = rawSocket(port, { authorization: `Bearer ${bob.token}` });
    expect(await other.acked).toBe(true);

    for (const s of [...held, other]) s.close();
    await allClosed();
    expect(trackedKeys()).toBe(0);
  });

  it('closes a WebSocket that sends no connection_init in time with 4408', async () => {
    const silent = rawSocket(port, undefined, false);
    expect(await silent.closed).toEqual({ code: 4408, reason: 'Connection initialisation timeout' });
    await allClosed();
  });

  it('caps subscriptions per connection: the third gets TOO_MANY_STREAMS; completing one frees its slot', async () => {
    const ada = await registerPlayer(t, 'Cy');
    const game = await restClient(t).create(ada.token, { ruleSet: 'farkle', seats: 2 });
    const client: Client = createClient({
      url: `ws://127.0.0.1:${port}/graphql`,
      webSocketImpl: WebSocket,
      connectionParams: { authorization: `Bearer ${ada.token}` },
      retryAttempts: 0,
    });
    const subscribe = () => {
      const got: { first: Promise<unknown>; errors: Promise<any[]>; stop: () => void } = {} as any;
      let first!: (v: unknown) => void;
      let failed!: (e: any[]) => void;
      got.first = new Promise((r) => (first = r));
      got.errors = new Promise((r) => (failed = r));
      got.stop = client.subscribe(
        { query: 'subscription($id: ID!) { gameEvents(gameId: $id) { version } }', variables: { id: game.id } },
        {
          next: (m) => first(m),
          error: (e) => failed(Array.isArray(e) ? e : [e]),
          complete: () => undefined,
        },
      );
      return got;
    };
    const a = subscribe();
    const b = subscribe();
    await Promise.all([a.first, b.first]); // both live (the backlog's first event arrived)
    expect(await metric('fairdice_live_connections{kind="subscription"}')).toBe(2);

    const c = subscribe();
    const errors = await c.errors;
    expect(errors.map((e) => e.extensions?.code)).toEqual(['TOO_MANY_STREAMS']);
    expect(errors[0].extensions).toMatchObject({ status: 429, limit: 2 });
    expect(await metric('fairdice_live_connections_refused_total{kind="subscription",reason="per_connection"}')).toBe(
      1,
    );
    expect(await metric('fairdice_live_connections{kind="subscription"}')).toBe(2);

    a.stop();
    for (;;) {
      if ((await metric('fairdice_live_connections{kind="subscription"}')) === 1) break;
      await new Promise((r) => setImmediate(r));
    }
    const d = subscribe();
    await d.first;

    await client.dispose();
    await allClosed();
    expect(trackedKeys()).toBe(0);
  });

  it('caps SSE streams per client address across game and standings streams: 429 TOO_MANY_STREAMS with Retry-After', async () => {
    const ada = await registerPlayer(t, 'Dee');
    const game = await restClient(t).create(ada.token, { ruleSet: 'farkle', seats: 2 });
    const tournament = await t
      .http()
      .post('/v1/tournaments')
      .set(ada.auth)
      .send({ name: 'Cup', ruleSet: 'simple', format: 'duplicate', maxEntrants: 4, rounds: 1 })
      .expect(201);

    const held = [openSse(port, `/v1/games/${game.id}/stream`), openSse(port, `/v1/games/${game.id}/stream`)];
    expect((await Promise.all(held.map((s) => s.answer))).map((a) => a.status)).toEqual([200, 200]);
    expect(await metric('fairdice_live_connections{kind="sse"}')).toBe(2);

    for (const path of [`/v1/games/${game.id}/stream`, `/v1/tournaments/${tournament.body.id}/standings/stream`]) {
      const refused = await openSse(port, path).answer;
      expect(refused.status).toBe(429);
      expect(refused.headers['retry-after']).toBe('5');
      expect(refused.headers['content-type']).toMatch(/^application\/problem\+json/);
      expect(JSON.parse(refused.body)).toMatchObject({ code: 'TOO_MANY_STREAMS', status: 429, limit: 2 });
    }
    expect(await metric('fairdice_live_connections_refused_total{kind="sse",reason="per_address"}')).toBe(2);

    held[0].close();
    for (;;) {
      if ((await metric('fairdice_live_connections{kind="sse"}')) === 1) break;
      await new Promise((r) => setImmediate(r));
    }
    const standings = openSse(port, `/v1/tournaments/${tournament.body.id}/standings/stream`);
    expect((await standings.answer).status).toBe(200);

    held[1].close();
    standings.close();
    await allClosed();
    expect(trackedKeys()).toBe(0);
  });
});
