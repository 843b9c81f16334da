import { createFairdiceClient } from './rest';
import { isCommand, retryAfterMs } from './retry';
import { unwrap, FairdiceError } from './errors';

interface Sent {
  method: string;
  path: string;
  headers: Headers;
  body: string;
}

/** A fake server: answers from a script, records every request it receives. */
function fakeFetch(script: Array<Response | Error>) {
  const sent: Sent[] = [];
  const fetch = async (request: Request) => {
    sent.push({
      method: request.method,
      path: new URL(request.url).pathname,
      headers: request.headers,
      body: await request.text(),
    });
    const next = script.shift();
    if (!next) throw new Error('the fake server has no answer left');
    if (next instanceof Error) throw next;
    return next;
  };
  return { fetch, sent };
}

const json = (status: number, body: unknown, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), {
    status,
    headers: { 'content-type': status >= 400 ? 'application/problem+json' : 'application/json', ...headers },
  });

const game = { id: 'g1', version: 3 };

function client(script: Array<Response | Error>, attempts = 4) {
  const server = fakeFetch(script);
  const waits: number[] = [];
  const api = createFairdiceClient({
    baseUrl: 'http://fairdice.test/',
    token: 'fd_secret',
    fetch: server.fetch,
    retry: {
      attempts,
      sleep: (ms) => {
        waits.push(ms);
        return Promise.resolve();
      },
    },
  });
  return { api, sent: server.sent, waits };
}

const roll = { params: { path: { id: 'g1' } }, body: { hold: [] as number[] } };

describe('REST client: auth, Idempotency-Key and retries', () => {
  it('sends the bearer token and an Idempotency-Key (a UUID) on a command', async () => {
    const { api, sent } = client([json(200, game)]);
    const result = await api.POST('/v1/games/{id}/roll', roll);
    expect(result.data).toEqual(game);
    expect(sent).toHaveLength(1);
    expect(sent[0].path).toBe('/v1/games/g1/roll');
    expect(sent[0].headers.get('authorization')).toBe('Bearer fd_secret');
    expect(sent[0].headers.get('idempotency-key')).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('a new key per call, the same key and body on every retry of one call (503, lost answer, IN_PROGRESS)', async () => {
    const { api, sent, waits } = client([
      json(503, { code: 'DATABASE_UNAVAILABLE', status: 503 }, { 'retry-after': '2' }),
      new TypeError('fetch failed'),
      json(409, { code: 'IDEMPOTENCY_IN_PROGRESS', status: 409 }, { 'retry-after': '1' }),
      json(200, game),
      json(200, game),
    ]);
    expect(unwrap(await api.POST('/v1/games/{id}/roll', { ...roll, body: { hold: [1, 2] } }))).toEqual(game);
    expect(sent).toHaveLength(4);
    const keys = new Set(sent.map((s) => s.headers.get('idempotency-key')));
    expect(keys.size).toBe(1);
    expect(sent.map((s) => s.body)).toEqual(Array(4).fill('{"hold":[1,2]}'));
    expect(waits).toEqual([2000, 500, 1000]); // Retry-After 2 s, back-off 250 × 2, Retry-After 1 s

    await api.POST('/v1/games/{id}/roll', roll);
    expect(sent[4].headers.get('idempotency-key')).not.toBe(sent[0].headers.get('idempotency-key'));
  });

  it("keeps the caller's own Idempotency-Key", async () => {
    const { api, sent } = client([json(200, game)]);
    await api.POST('/v1/games/{id}/roll', { ...roll, headers: { 'Idempotency-Key': 'my-key-1' } });
    expect(sent[0].headers.get('idempotency-key')).toBe('my-key-1');
  });

  it('gives up after the configured attempts and returns the last answer', async () => {
    const { api, sent } = client(
      [json(503, { code: 'NOT_READY', status: 503 }), json(503, { code: 'NOT_READY', status: 503 })],
      2,
    );
    const result = await api.POST('/v1/games/{id}/roll', roll);
    expect(sent).toHaveLength(2);
    expect(result.response.status).toBe(503);
    expect(() => unwrap(result)).toThrow(FairdiceError);
  });

  it('never retries a client error: the problem comes back once, typed', async () => {
    const { api, sent } = client([json(409, { code: 'NOT_YOUR_TURN', status: 409, detail: "It is seat 1's turn" })]);
    const result = await api.POST('/v1/games/{id}/roll', roll);
    expect(sent).toHaveLength(1);
    let thrown: unknown;
    try {
      unwrap(result);
    } catch (err) {
      thrown = err;
    }
    expect(thrown).toBeInstanceOf(FairdiceError);
    expect((thrown as FairdiceError).code).toBe('NOT_YOUR_TURN');
    expect((thrown as FairdiceError).status).toBe(409);
  });

  it('a request without idempotency (registration) is retried on 429 only, never after a 503 or a lost answer', async () => {
    const registered = { player: { id: 'p1' }, token: 'fd_x' };
    const limited = client([
      json(429, { code: 'RATE_LIMITED', status: 429 }, { 'retry-after': '3' }),
      json(201, registered),
    ]);
    expect(unwrap(await limited.api.POST('/v1/players', { body: { displayName: 'Ada' } }))).toEqual(registered);
    expect(limited.sent).toHaveLength(2);
    expect(limited.waits).toEqual([3000]);
    expect(limited.sent[0].headers.get('idempotency-key')).toBeNull();

    const unavailable = client([json(503, { code: 'DATABASE_UNAVAILABLE', status: 503 })]);
    const result = await unavailable.api.POST('/v1/players', { body: { displayName: 'Ada' } });
    expect(result.response.status).toBe(503);
    expect(unavailable.sent).toHaveLength(1);

    const lost = client([new TypeError('fetch failed')]);
    await expect(lost.api.POST('/v1/players', { body: { displayName: 'Ada' } })).rejects.toThrow('fetch failed');
    expect(lost.sent).toHaveLength(1);
  });

  it('reads are retried after a lost answer and carry no Idempotency-Key', async () => {
    const { api, sent } = client([new TypeError('socket hang up'), json(200, game)]);
    expect(unwrap(await api.GET('/v1/games/{id}', { params: { path: { id: 'g1' } } }))).toEqual(game);
    expect(sent).toHaveLength(2);
    expect(sent.every((s) => s.headers.get('idempotency-key') === null)).toBe(true);
  });

  it('retry: false sends once', async () => {
    const server = fakeFetch([json(503, { code: 'NOT_READY', status: 503 })]);
    const api = createFairdiceClient({ baseUrl: 'http://fairdice.test', fetch: server.fetch, retry: false });
    expect((await api.POST('/v1/games/{id}/roll', roll)).response.status).toBe(503);
    expect(server.sent).toHaveLength(1);
    expect(server.sent[0].headers.get('idempotency-key')).toBeNull();
  });
});

describe('isCommand: the operations that take an Idempotency-Key', () => {
  it.each([
    ['POST', '/v1/games', true],
    ['POST', '/v1/games/3b0e/roll', true],
    ['POST', '/v1/games/3b0e/set-aside', true],
    ['PUT', '/v1/games/3b0e/seeds', true],
    ['POST', '/v1/tournaments', true],
    ['POST', '/v1/tournaments/7c1d/entrants', true],
    ['PUT', '/v1/tournaments/7c1d/organizer-seed', true],
    ['POST', '/v1/tournaments/7c1d/entrants/9f2a/withdraw', true],
    ['GET', '/v1/tournaments/7c1d/standings', false],
    ['GET', '/v1/games/3b0e', false],
    ['POST', '/v1/players', false],
    ['POST', '/v1/players/me/token', false],
    ['POST', '/v1/webhooks', false],
    ['DELETE', '/v1/webhooks/w1', false],
    ['POST', '/v1/challenges', true],
    ['POST', '/v1/challenges/c1/accept', true],
    ['GET', '/v1/challenges/c1', false],
    ['POST', '/v1/seeks', true],
    ['DELETE', '/v1/seeks/s1', true],
    ['GET', '/v1/seeks', false],
  ])('%s %s → %p', (method, path, expected) => {
    expect(isCommand(method, `http://fairdice.test${path}`)).toBe(expected);
  });

  it('is exactly the set of operations openapi.json declares with an Idempotency-Key header', () => {
    type Parameter = { in?: string; name?: string; $ref?: string };
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- the committed contract, read as data
    const spec = require('../../../openapi/openapi.json') as {
      paths: Record<string, Record<string, { parameters?: Parameter[] }>>;
      components?: { parameters?: Record<string, Parameter> };
    };
    const resolve = (p: Parameter) =>
      p.$ref ? (spec.components?.parameters?.[p.$ref.replace('#/components/parameters/', '')] ?? {}) : p;
    const operations = Object.entries(spec.paths).flatMap(([path, item]) =>
      Object.entries(item)
        .filter(([method]) => ['get', 'put', 'post', 'delete', 'patch'].includes(method))
        .map(([method, op]) => ({
          op: `${method.toUpperCase()} ${path}`,
          parameters: (op.parameters ?? []).map(resolve),
        })),
    );
    const declared = operations
      .filter(({ parameters }) =>
        parameters.some((p) => p.in === 'header' && p.name?.toLowerCase() === 'idempotency-key'),
      )
      .map(({ op }) => op);
    const keyedBySdk = operations
      .filter(({ op }) => {
        const [method, path] = op.split(' ');
        return isCommand(method, `http://fairdice.test${path.replace('{id}', 'g1')}`);
      })
      .map(({ op }) => op);
    // Games: create, join, leave, seeds, start, cancel, rematch, roll, score, set-aside, bank, quit;
    // tournaments: create, entrants, organizer-seed, close, start, cancel, withdraw, disqualify;
    // challenges: create, accept, decline, cancel; seeks: create, cancel (DELETE).
    expect(keyedBySdk).toHaveLength(26);
    expect(declared).toEqual(keyedBySdk);
  });
});

describe('retryAfterMs', () => {
  it('reads seconds and HTTP dates; ignores junk', () => {
    expect(retryAfterMs('3')).toBe(3000);
    expect(retryAfterMs('Wed, 21 Oct 2026 07:28:05 GMT', Date.parse('Wed, 21 Oct 2026 07:28:00 GMT'))).toBe(5000);
    expect(retryAfterMs('soon')).toBeUndefined();
    expect(retryAfterMs(null)).toBeUndefined();
  });
});
