/**
 * @fairdice/client's playerEventStream against the real server: my events over all my games, typed
 * (PlayerStreamMessage), reopened after the connection drops with Last-Event-ID, nothing lost or
 * repeated; a bad position is a FairdiceError INVALID_EVENT_CURSOR.
 */
import { playerEventStream, type FetchLike } from '../../packages/client/src';
import { createTestApp, registerPlayer, type TestApp } from '../helpers/app';
import { chooseMove, restClient } from '../helpers/games';

jest.setTimeout(60_000);

describe('@fairdice/client playerEventStream', () => {
  let t: TestApp;
  let baseUrl: string;

  beforeAll(async () => {
    t = await createTestApp({ listen: true, env: { JOBS_POLL_INTERVAL_MS: '100' } });
    baseUrl = `http://127.0.0.1:${(t.app.getHttpServer().address() as { port: number }).port}`;
  });
  afterAll(() => t?.close());

  it('yields my events in seq order across a dropped connection', async () => {
    const me = await registerPlayer(t, 'SdkMe');
    const host = await registerPlayer(t, 'SdkHost');
    const c = restClient(t);
    // The first connection is cut after its first message: the SDK reopens with Last-Event-ID.
    let connections = 0;
    const cutting: FetchLike = async (request) => {
      connections++;
      const response = await fetch(request);
      if (connections > 1 || !response.body) return response;
      const reader = response.body.getReader();
      let sent = false;
      const body = new ReadableStream<Uint8Array>({
        async pull(controller) {
          const { done, value } = await reader.read();
          if (done || sent) {
            void reader.cancel();
            controller.close();
            return;
          }
          controller.enqueue(value);
          if (new TextDecoder().decode(value).includes('event: gameStarted')) sent = true;
        },
      });
      return new Response(body, { status: response.status, headers: response.headers });
    };
    const got: Array<[number, string]> = [];
    const stream = playerEventStream({ baseUrl, token: me.token, after: 0, fetch: cutting, reconnectDelayMs: 10 });
    const consumed = (async () => {
      for await (const e of stream) {
        got.push([e.seq, e.type]);
        if (e.type === 'yourTurn') return e;
      }
    })();
    let v = await c.create(host.token, { ruleSet: 'simple', seats: 2 });
    await c.join(me.token, v.id);
    v = await c.start(host.token, v.id);
    while (v.currentPlayerId === host.id) v = await c.move(host.token, v.id, chooseMove(v));
    const turn = await consumed;
    expect(turn).toMatchObject({ type: 'yourTurn', data: { gameId: v.id, version: v.version } });
    expect(got).toEqual([
      [1, 'gameStarted'],
      [2, 'yourTurn'],
    ]);
    expect(connections).toBe(2);

    const bad = playerEventStream({ baseUrl, token: me.token, after: 99 });
    await expect(bad.next()).rejects.toMatchObject({ code: 'INVALID_EVENT_CURSOR', status: 400 });
  });
});
