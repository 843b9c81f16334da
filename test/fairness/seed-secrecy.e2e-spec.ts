/**
 * The server seed stays secret until the game ends: a full game over REST, with a GraphQL
 * subscription and an SSE stream open, plus reads of every endpoint that shows a game (state,
 * events, versions, lists, audit bundle, REST and GraphQL) and a few errors, and every log line
 * (pino at trace level into memory): none contains the seed (games.server_seed, opened with the app's key) before
 * the end, in hex or base64. After the end it is readable (game state and audit bundle).
 */
import { createHash } from 'node:crypto';
import { get as httpGet } from 'node:http';
import { Writable } from 'node:stream';
import pino from 'pino';
import { createClient } from 'graphql-ws';
import { createTestApp, gql, registerPlayer, storedServerSeed, type TestApp } from '../helpers/app';
import { chooseMove, GAME_VIEW_FIELDS, OPTIONS_FRAGMENT, restClient } from '../helpers/games';

// eslint-disable-next-line @typescript-eslint/no-require-imports -- ws ships no types here
const WebSocket: unknown = require('ws');

jest.setTimeout(180_000);

describe('server seed secrecy', () => {
  let t: TestApp;
  const logLines: string[] = [];
  let base: string;

  beforeAll(async () => {
    const sink = new Writable({
      write(chunk, _enc, cb) {
        logLines.push(String(chunk));
        cb();
      },
    });
    t = await createTestApp({ listen: true, logger: pino({ level: 'trace' }, sink) });
    const addr = t.app.getHttpServer().address() as { port: number };
    base = `127.0.0.1:${addr.port}`;
  });
  afterAll(() => t.close());

  function sse(path: string): { messages: string[]; done: Promise<void>; close: () => void } {
    const messages: string[] = [];
    let close = () => undefined as void;
    const done = new Promise<void>((resolve, reject) => {
      const req = httpGet(`http://${base}${path}`, { agent: false }, (res) => {
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => messages.push(chunk));
        res.on('end', () => resolve());
        res.on('error', reject);
      });
      req.on('error', reject);
      close = () => void req.destroy();
    });
    return { messages, done, close: () => close() };
  }

  it.each([['penta'], ['farkle']])(
    '%s: no response, message or log line holds the seed before the end',
    async (ruleSet) => {
      const texts: string[] = [];
      const a = await registerPlayer(t, 'Alice');
      const b = await registerPlayer(t, 'Bob');
      const tokenOf = (id: string) => (id === a.id ? a.token : b.token);
      const client = restClient(t);
      const options = ruleSet === 'farkle' ? { options: { target: 1500, entryThreshold: 0 } } : {};
      let view = await client.create(a.token, { ruleSet, seats: 2, ...options });
      const id: string = view.id;
      const seed = await storedServerSeed(t, id);
      expect(seed).toMatch(/^[0-9a-f]{64}$/);
      const forms = [
        seed,
        seed.toUpperCase(),
        Buffer.from(seed, 'hex').toString('base64'),
        Buffer.from(seed, 'hex').toString('base64url'),
      ];
      const leaks = (s: string) => forms.some((f) => s.includes(f));
      const logStart = logLines.length;

      // live channels: SSE and a GraphQL subscription, opened before the start
      const stream = sse(`/v1/games/${id}/stream`);
      const subMessages: string[] = [];
      const ws = createClient({
        url: `ws://${base}/graphql`,
        webSocketImpl: WebSocket,
        connectionParams: { authorization: `Bearer ${a.token}` },
      });
      const subDone = new Promise<void>((resolve, reject) => {
        ws.subscribe(
          {
            query: `subscription($id: ID!) { gameEvents(gameId: $id) { gameId version type seat data rollNumber command prevHash hash createdAt } }`,
            variables: { id },
          },
          {
            next: (m) => void subMessages.push(JSON.stringify(m)),
            error: (e) => reject(e instanceof Error ? e : new Error(JSON.stringify(e))),
            complete: () => resolve(),
          },
        );
      });

      view = await client.join(b.token, id, {});
      view = await client.start(a.token, id);
      const readAll = async () => {
        for (const path of [
          `/v1/games/${id}`,
          `/v1/games/${id}/events?limit=100`,
          `/v1/games/${id}/versions/1`,
          `/v1/games/${id}/versions/${view.version}`,
          `/v1/games?scope=open`,
          `/v1/games?scope=mine`,
          `/v1/games/${id}/audit`,
          `/v1/games/${id}/audit?download=1`,
        ]) {
          const r = await t
            .http()
            .get(path)
            .set({ authorization: `Bearer ${a.token}` });
          texts.push(r.text, JSON.stringify(r.headers));
        }
        for (const q of [
          [`query($id: ID!) { game(id: $id) { ${GAME_VIEW_FIELDS} } } ${OPTIONS_FRAGMENT}`, { id }],
          [`query($id: ID!) { audit(gameId: $id) }`, { id }],
          [
            `query($id: ID!) { auditBundle(gameId: $id) { serverSeed clientSeeds events { type data command hash } } }`,
            { id },
          ],
          [
            `query($id: ID!) { gameEvents(gameId: $id, limit: 100) { items { data command hash ... on GameCreatedEvent { commitment organizerSeed } } nextAfter } }`,
            { id },
          ],
          [`query($id: ID!) { gameAtVersion(gameId: $id, version: 1) { serverSeed commitment } }`, { id }],
        ] as const) {
          const r = await gql(t, q[0], q[1], a.token);
          expect(r.errors).toBeUndefined();
          texts.push(JSON.stringify(r));
        }
        // errors: wrong turn, bad input
        const other = view.currentPlayerId === a.id ? b : a;
        if (view.status === 'playing')
          texts.push(
            (
              await t
                .http()
                .post(`/v1/games/${id}/roll`)
                .set({ authorization: `Bearer ${other.token}` })
                .send({})
            ).text,
          );
        texts.push(
          (
            await t
              .http()
              .post(`/v1/games/${id}/score`)
              .set({ authorization: `Bearer ${a.token}` })
              .send({ box: 'nope' })
          ).text,
        );
      };
      await readAll();
      let moves = 0;
      while (view.status === 'playing') {
        const res = await t
          .http()
          .post(`/v1/games/${id}/${chooseMove(view).action}`)
          .set({ authorization: `Bearer ${tokenOf(view.currentPlayerId)}` })
          .send(chooseMove(view).body);
        if (res.status !== 200) throw new Error(res.text);
        view = res.body;
        if (view.status === 'playing') texts.push(res.text);
        if (++moves % 15 === 0 && view.status === 'playing') await readAll();
      }
      expect(view.status).toBe('finished');
      const logEnd = logLines.length;
      await Promise.race([stream.done, new Promise((r) => setTimeout(r, 5000))]);
      await Promise.race([subDone, new Promise((r) => setTimeout(r, 5000))]);
      stream.close();
      await ws.dispose();

      // before the end: nowhere
      expect(texts.length).toBeGreaterThan(20);
      expect(texts.filter(leaks)).toEqual([]);
      const beforeEndLogs = logLines.slice(logStart, logEnd);
      expect(beforeEndLogs.length).toBeGreaterThan(10);
      expect(beforeEndLogs.filter(leaks)).toEqual([]);
      // the live channels carried every event, and never the seed (they end with the game, before any reveal)
      const sseText = stream.messages.join('');
      expect(sseText).toContain('event: gameFinished');
      expect(leaks(sseText)).toBe(false);
      expect(subMessages.length).toBe(view.version);
      expect(subMessages.filter(leaks)).toEqual([]);

      // after the end: readable, and it matches the commitment
      expect(view.serverSeed).toBe(seed);
      const bundle = (await t.http().get(`/v1/games/${id}/audit`).expect(200)).body;
      expect(bundle.serverSeed).toBe(seed);
      expect(createHash('sha256').update(Buffer.from(seed, 'hex')).digest('hex')).toBe(bundle.commitment);
      expect((await gql(t, `query($id: ID!) { game(id: $id) { serverSeed } }`, { id })).data.game.serverSeed).toBe(
        seed,
      );
    },
  );
});
