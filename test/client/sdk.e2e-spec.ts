/**
 * @fairdice/client against the real server: what the unit tests show with a fake server, shown
 * with the service's own answers.
 * - A command whose answer is lost is retried with the same Idempotency-Key: the server replays
 *   the first outcome (the same dice), the game moves once.
 * - The graphql-ws subscription, typed from schema.gql, resumes after the connection drops with
 *   no event lost or repeated; a GraphQL error arrives as a FairdiceError with its code.
 * - A real webhook delivery verifies with verifyWebhook (and a tampered one does not).
 */
import {
  createFairdiceClient,
  GAME_MOVE_ROUTES,
  gameEventStream,
  gameMoves,
  unwrap,
  verifyWebhook,
  WebhookVerificationError,
  type FairdiceRestClient,
  type FetchLike,
} from '../../packages/client/src';
import { createGraphqlWsClient, gameEventsSubscription } from '../../packages/client/src/graphql';
import { startReceiver, waitFor, type Receiver } from '../async/helpers';
import { createTestApp, type TestApp } from '../helpers/app';
import { GAME_MOVES } from '../../src/games/moves/game-moves';

// ws ships no types here; graphql-ws only needs the constructor (Node 20 has no global WebSocket).
// eslint-disable-next-line @typescript-eslint/no-require-imports -- untyped module, used as an opaque constructor
const WebSocket: unknown = require('ws');

jest.setTimeout(120_000);

describe('@fairdice/client against the server', () => {
  let t: TestApp;
  let baseUrl: string;
  let receiver: Receiver;

  beforeAll(async () => {
    t = await createTestApp({ listen: true, env: { JOBS_POLL_INTERVAL_MS: '100' } });
    baseUrl = `http://127.0.0.1:${(t.app.getHttpServer().address() as { port: number }).port}`;
    receiver = await startReceiver();
  });
  afterAll(async () => {
    await receiver?.close();
    await t?.close();
  });

  async function player(name: string, fetch?: FetchLike) {
    const registered = unwrap(
      await createFairdiceClient({ baseUrl }).POST('/v1/players', { body: { displayName: name } }),
    );
    return {
      id: registered.player.id,
      token: registered.token,
      api: createFairdiceClient({ baseUrl, token: registered.token, fetch, retry: { baseDelayMs: 10 } }),
    };
  }

  async function startedSoloGame(api: FairdiceRestClient) {
    const game = unwrap(await api.POST('/v1/games', { body: { ruleSet: 'simple', seats: 1 } }));
    unwrap(await api.POST('/v1/games/{id}/start', { params: { path: { id: game.id } } }));
    return game.id;
  }

  it('a lost answer is retried with the same Idempotency-Key: the first roll is replayed, the game moves once', async () => {
    const sent: Array<{ key: string | null; replayed: string | null }> = [];
    let loseNext = false;
    // Delivers the request to the server, then loses the answer once (as a dropped connection would).
    const lossy: FetchLike = async (request) => {
      const response = await fetch(request);
      sent.push({ key: request.headers.get('idempotency-key'), replayed: response.headers.get('idempotent-replayed') });
      if (loseNext) {
        loseNext = false;
        throw new TypeError('fetch failed: connection reset');
      }
      return response;
    };
    const ada = await player('Ada', lossy);
    const id = await startedSoloGame(ada.api);
    const before = unwrap(await ada.api.GET('/v1/games/{id}', { params: { path: { id } } })).version;

    sent.length = 0;
    loseNext = true;
    const rolled = unwrap(await ada.api.POST('/v1/games/{id}/roll', { params: { path: { id } }, body: { hold: [] } }));

    expect(sent).toHaveLength(2);
    expect(sent[0].key).toMatch(/^[0-9a-f-]{36}$/);
    expect(sent[1].key).toBe(sent[0].key);
    expect(sent[1].replayed).toBe('true');
    const after = unwrap(await ada.api.GET('/v1/games/{id}', { params: { path: { id } } }));
    expect(after.version).toBe(rolled.version);
    expect(after.dice).toEqual(rolled.dice);
    const events = unwrap(
      await ada.api.GET('/v1/games/{id}/events', { params: { path: { id }, query: { after: before } } }),
    );
    expect(events.items.filter((e) => e.type === 'rolled')).toHaveLength(1);
  });

  it("gameMoves: one method per move of the server's tables, each the typed REST call with its body and errors", async () => {
    // The SDK's moves are read from the contract the server's move tables make (src/games/moves).
    expect(Object.keys(GAME_MOVE_ROUTES)).toEqual(GAME_MOVES.map((m) => m.name));
    const ada = await player('Ada');
    const moves = gameMoves(ada.api);
    const id = await startedSoloGame(ada.api);
    const rolled = unwrap(await moves.roll(id, { hold: [] }));
    const scored = unwrap(await moves.score(id, { box: 'chance' }));
    expect(scored.version).toBeGreaterThan(rolled.version);
    const events = unwrap(
      await ada.api.GET('/v1/games/{id}/events', { params: { path: { id }, query: { after: rolled.version - 1 } } }),
    );
    expect(events.items.map((e) => e.type).slice(0, 2)).toEqual(['rolled', 'scored']);
    // A move of the other family: the rules' coded refusal, returned as the problem.
    const { error, response } = await moves.bank(id);
    expect(response.status).toBe(400);
    expect(error).toMatchObject({ code: 'INVALID_COMMAND' });
    // If-Match through the per-request headers: a stale version is refused, nothing applied.
    const stale = await moves.quit(id, undefined, { headers: { 'if-match': `"${rolled.version}"` } });
    expect(stale.response.status).toBe(412);
  });

  it('SSE: gameEventStream resumes with Last-Event-ID after the connection drops mid-game, nothing lost or repeated', async () => {
    const ada = await player('Ada');
    const id = await startedSoloGame(ada.api);
    const path = { params: { path: { id } } };
    const lastEventIds: Array<string | null> = [];
    // The first connection is cut after its third message, as a proxy or a network change would.
    const cutting: FetchLike = async (request) => {
      lastEventIds.push(request.headers.get('last-event-id'));
      const response = await fetch(request);
      if (lastEventIds.length > 1 || !response.body) return response;
      const reader = response.body.getReader();
      let seen = '';
      const body = new ReadableStream<Uint8Array>({
        async pull(controller) {
          const { done, value } = await reader.read();
          if (done) return controller.close();
          controller.enqueue(value);
          seen += new TextDecoder().decode(value);
          if ((seen.match(/^id: /gm) ?? []).length >= 3) {
            await reader.cancel();
            controller.close();
          }
        },
      });
      return new Response(body, { status: response.status, headers: response.headers });
    };
    const versions: number[] = [];
    const following = (async () => {
      for await (const event of gameEventStream({
        baseUrl,
        gameId: id,
        token: ada.token,
        fetch: cutting,
        reconnectDelayMs: 50,
      }))
        versions.push(event.version);
    })();

    let game = unwrap(await ada.api.GET('/v1/games/{id}', path));
    while (game.status === 'playing') {
      game = unwrap(await ada.api.POST('/v1/games/{id}/roll', { ...path, body: { hold: [] } }));
      const box = game.fiveDice!.scoreOptions!.boxes.find((b) => b.allowed)!.box;
      game = unwrap(await ada.api.POST('/v1/games/{id}/score', { ...path, body: { box } }));
    }
    await following;

    expect(lastEventIds.length).toBeGreaterThanOrEqual(2);
    expect(lastEventIds[0]).toBeNull();
    expect(Number(lastEventIds[1])).toBeGreaterThanOrEqual(3);
    expect(versions).toEqual(Array.from({ length: game.version }, (_, i) => i + 1));
  });

  it('graphql-ws: the typed gameEvents subscription resumes after a dropped connection, nothing lost or repeated', async () => {
    const ada = await player('Ada');
    const id = await startedSoloGame(ada.api);
    const path = { params: { path: { id } } };
    const url = `${baseUrl.replace('http', 'ws')}/graphql`;
    const clients: Array<ReturnType<typeof createGraphqlWsClient>> = [];
    const connect = () => {
      const client = createGraphqlWsClient({ url, token: ada.token, webSocketImpl: WebSocket });
      clients.push(client);
      return client;
    };

    const versions: number[] = [];
    const types: string[] = [];
    let dropped = false;
    const following = (async () => {
      for await (const event of gameEventsSubscription({ connect, gameId: id, reconnectDelayMs: 50 })) {
        versions.push(event.version);
        types.push(event.type);
        if (event.type === 'scored' && !dropped) {
          dropped = true;
          clients[0].terminate(); // the connection drops mid-game
        }
      }
    })();

    let game = unwrap(await ada.api.GET('/v1/games/{id}', path));
    while (game.status === 'playing') {
      game = unwrap(await ada.api.POST('/v1/games/{id}/roll', { ...path, body: { hold: [] } }));
      const box = game.fiveDice!.scoreOptions!.boxes.find((b) => b.allowed)!.box;
      game = unwrap(await ada.api.POST('/v1/games/{id}/score', { ...path, body: { box } }));
    }
    await following;

    expect(dropped).toBe(true);
    expect(clients.length).toBeGreaterThanOrEqual(2);
    expect(versions).toEqual(Array.from({ length: game.version }, (_, i) => i + 1));
    expect(types[types.length - 1]).toBe('gameFinished');
  });

  it('graphql-ws: a GraphQL error ends the subscription with a FairdiceError carrying its code', async () => {
    const ada = await player('Ada');
    const url = `${baseUrl.replace('http', 'ws')}/graphql`;
    const run = (async () => {
      for await (const _ of gameEventsSubscription({
        connect: () => createGraphqlWsClient({ url, token: ada.token, webSocketImpl: WebSocket }),
        gameId: '00000000-0000-4000-8000-000000000000',
      }))
        throw new Error('no event expected');
    })();
    await expect(run).rejects.toMatchObject({ name: 'FairdiceError', code: 'GAME_NOT_FOUND' });
  });

  it('webhooks: a real delivery verifies with verifyWebhook; a tampered body does not', async () => {
    const ada = await player('Ada');
    const registration = unwrap(await ada.api.POST('/v1/webhooks', { body: { url: receiver.url } }));
    await startedSoloGame(ada.api);
    const delivery = await waitFor(
      () => receiver.received.find((r) => r.body.includes('"game.started"')),
      15_000,
      'a delivery',
    );

    const payload = await verifyWebhook(registration.secret, delivery.headers, delivery.body);
    expect(payload.type).toBe('game.started');
    expect(typeof payload.data.gameId).toBe('string');
    await expect(
      verifyWebhook(registration.secret, delivery.headers, delivery.body.replace('game.started', 'game.finished')),
    ).rejects.toBeInstanceOf(WebhookVerificationError);
  });
});
