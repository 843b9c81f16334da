/**
 * Live streams lose their permission with the seat (issue 11, item 6): a player who joined a
 * private game and opened its stream (SSE and a GraphQL subscription), then left, receives no
 * event after the leave: the event that removed them is not sent, a final message with the code
 * GAME_ACCESS_REVOKED is, and both streams end, before the game goes on (joins, start, dice).
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { createClient } from 'graphql-ws';
// eslint-disable-next-line @typescript-eslint/no-require-imports -- ws ships no types here
const WebSocket: unknown = require('ws');
import { createTestApp, registerPlayer, type TestApp } from '../helpers/app';
import { restClient } from '../helpers/games';

jest.setTimeout(60_000);

interface Message {
  event: string;
  id?: number;
  data: any;
}

/** Opens an SSE stream; collects messages until the server ends the response. */
function openSse(port: number, path: string, token: string) {
  const messages: Message[] = [];
  let onMessage = () => {};
  const ended = new Promise<void>((resolve, reject) => {
    http
      .get({ host: '127.0.0.1', port, path, headers: { authorization: `Bearer ${token}` } }, (res) => {
        expect(res.statusCode).toBe(200);
        let buffer = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => {
          buffer += chunk;
          let i: number;
          while ((i = buffer.indexOf('\n\n')) >= 0) {
            const block = buffer.slice(0, i);
            buffer = buffer.slice(i + 2);
            if (block.startsWith(':')) continue;
            const m: any = {};
            for (const line of block.split('\n')) {
              const k = line.slice(0, line.indexOf(':'));
              const v = line.slice(line.indexOf(':') + 2);
              if (k === 'id') m.id = Number(v);
              else if (k === 'event') m.event = v;
              else if (k === 'data') m.data = JSON.parse(v);
            }
            messages.push(m);
            onMessage();
          }
        });
        res.on('end', () => resolve());
      })
      .on('error', reject);
  });
  const until = (pred: () => boolean) =>
    new Promise<void>((resolve) => {
      if (pred()) return resolve();
      onMessage = () => pred() && resolve();
    });
  return { messages, ended, until };
}

describe('streams re-check access on every event', () => {
  let t: TestApp;
  let port: number;
  beforeAll(async () => {
    t = await createTestApp({ listen: true });
    port = (t.app.getHttpServer().address() as AddressInfo).port;
  });
  afterAll(async () => {
    await t.close();
  });

  it('a player who leaves a private game gets no event after the leave on SSE or GraphQL, and a final GAME_ACCESS_REVOKED', async () => {
    const ada = await registerPlayer(t, 'Ada');
    const bob = await registerPlayer(t, 'Bob');
    const cy = await registerPlayer(t, 'Cy');
    const client = restClient(t);
    const g = await client.create(ada.token, {
      ruleSet: 'farkle',
      seats: 2,
      visibility: 'private',
      options: { target: 1500, entryThreshold: 0 },
    });
    await client.join(bob.token, g.id, {});
    const joinedAt = (await client.get(ada.token, g.id)).version;

    // Bob opens both streams and reads the backlog (so both are live).
    const sse = openSse(port, `/v1/games/${g.id}/stream`, bob.token);
    await sse.until(() => sse.messages.length >= joinedAt);
    const ws = createClient({
      url: `ws://127.0.0.1:${port}/graphql`,
      webSocketImpl: WebSocket,
      connectionParams: { authorization: `Bearer ${bob.token}` },
      retryAttempts: 0,
    });
    const viaGql: any[] = [];
    const gqlErrors: any[] = [];
    let live: () => void = () => {};
    const gqlLive = new Promise<void>((r) => (live = r));
    const gqlDone = new Promise<void>((resolve) => {
      ws.subscribe(
        {
          query: 'subscription($id: ID!) { gameEvents(gameId: $id) { version type } }',
          variables: { id: g.id },
        },
        {
          next: (msg: any) => {
            if (msg.errors) gqlErrors.push(...msg.errors);
            else viaGql.push(msg.data.gameEvents);
            if (viaGql.length >= joinedAt) live();
          },
          error: (e: any) => {
            gqlErrors.push(...(Array.isArray(e) ? e : [e]));
            resolve();
          },
          complete: () => resolve(),
        },
      );
    });
    await gqlLive;

    // Bob leaves; Cy takes the seat, Ada starts and rolls: dice Bob must not see.
    const left = await t.http().post(`/v1/games/${g.id}/leave`).set(bob.auth).send({}).expect(200);
    const leaveVersion: number = left.body.version;
    // Both streams end on their own (no client-side close), with the final message.
    await sse.ended;
    await gqlDone;
    await client.join(cy.token, g.id, {});
    await client.start(ada.token, g.id);
    const afterStart = await client.get(ada.token, g.id);
    expect(afterStart.status).toBe('playing');

    const sseEvents = sse.messages.filter((m) => m.event !== 'access-revoked');
    expect(sseEvents.map((m) => m.id)).toEqual(Array.from({ length: leaveVersion - 1 }, (_, i) => i + 1));
    expect(sse.messages[sse.messages.length - 1]).toMatchObject({
      event: 'access-revoked',
      data: { code: 'GAME_ACCESS_REVOKED', gameId: g.id },
    });
    expect(viaGql.map((e) => e.version)).toEqual(Array.from({ length: leaveVersion - 1 }, (_, i) => i + 1));
    expect(gqlErrors.map((e) => e.extensions?.code)).toEqual(['GAME_ACCESS_REVOKED']);
    expect(sse.messages.some((m) => m.event === 'seatLeft' || m.event === 'rolled')).toBe(false);
    await ws.dispose();
  });

  it('the creator keeps her stream while others leave and join; it ends with the game, not with a revocation', async () => {
    const ada = await registerPlayer(t, 'Ada2');
    const bob = await registerPlayer(t, 'Bob2');
    const cy = await registerPlayer(t, 'Cy2');
    const client = restClient(t);
    const g = await client.create(ada.token, {
      ruleSet: 'farkle',
      seats: 3,
      visibility: 'private',
      options: { target: 1500, entryThreshold: 0 },
    });
    await client.join(bob.token, g.id, {});
    const sse = openSse(port, `/v1/games/${g.id}/stream`, ada.token);
    const taken = () => sse.messages.filter((m) => m.event === 'seatTaken').length;
    await sse.until(() => taken() >= 2);
    await t.http().post(`/v1/games/${g.id}/leave`).set(bob.auth).send({}).expect(200);
    await client.join(cy.token, g.id, {});
    await sse.until(() => taken() >= 3);
    expect(sse.messages.map((m) => m.event)).toEqual([
      'gameCreated',
      'seatTaken',
      'seatTaken',
      'seatLeft',
      'seatTaken',
    ]);
    await t.http().post(`/v1/games/${g.id}/cancel`).set(ada.auth).send({}).expect(200);
    await sse.ended; // ends with the game (abandoned), not with a revocation
    expect(sse.messages.some((m) => m.event === 'access-revoked')).toBe(false);
  });
});
