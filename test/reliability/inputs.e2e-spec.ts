/**
 * Hostile input at the edges (issue 11, items 2, 3 and 7): bad numbers, deep JSON, wrong content
 * types, token rotation bodies, GraphQL over the wrong transport, oversized headers, request ids,
 * concurrent retries of a completed idempotency key. Every refusal is a 4xx with a stable code
 * and stores nothing.
 */
import { Writable } from 'node:stream';
import net, { type AddressInfo } from 'node:net';
import pino from 'pino';
import { createTestApp, gql, registerPlayer, type TestApp } from '../helpers/app';
import { poolOf } from '../helpers/games';
import { rowCounts } from '../helpers/row-counts';

jest.setTimeout(60_000);

type Player = Awaited<ReturnType<typeof registerPlayer>>;

describe('hostile input is refused with a code, and nothing is stored', () => {
  let t: TestApp;
  let port: number;
  let ann: Player;
  const logLines: Array<Record<string, unknown>> = [];

  beforeAll(async () => {
    const sink = new Writable({
      write(chunk, _enc, done) {
        for (const line of String(chunk).split('\n').filter(Boolean)) logLines.push(JSON.parse(line));
        done();
      },
    });
    // No job worker: its background work (webhook fan-out, deadlines) would move async_jobs during the row counts.
    t = await createTestApp({ listen: true, env: { JOBS_ENABLED: 'false' }, logger: pino({ level: 'warn' }, sink) });
    port = (t.app.getHttpServer().address() as AddressInfo).port;
    ann = await registerPlayer(t, 'Ann');
  });
  afterAll(() => t.close());

  /** Runs `fn` and checks that no data table changed. */
  async function storesNothing(fn: () => Promise<void>): Promise<void> {
    const before = await rowCounts(poolOf(t));
    await fn();
    expect(await rowCounts(poolOf(t))).toEqual(before);
  }

  const rawPost = (path: string, text: string, contentType = 'application/json', auth = ann.auth) =>
    t.http().post(path).set(auth).set('content-type', contentType).send(text);

  describe('item 2: numbers are validated before anything is hashed', () => {
    it.each([
      ['a non-integer option', '{"ruleSet":"farkle","seats":1,"options":{"target":1.5}}', 'INVALID_OPTIONS'],
      ['a huge option', '{"ruleSet":"farkle","seats":1,"options":{"target":1e308}}', 'VALIDATION_FAILED'],
      [
        'an option above 2^53',
        '{"ruleSet":"penta","seats":1,"options":{"upperBonusPoints":9007199254740993}}',
        'VALIDATION_FAILED',
      ],
      [
        'an unknown option holding a non-integer',
        '{"ruleSet":"penta","seats":1,"options":{"x":0.5}}',
        'INVALID_OPTIONS',
      ],
      ['seats above 2^53', '{"ruleSet":"penta","seats":9007199254740993}', 'VALIDATION_FAILED'],
      ['a non-finite number', '{"ruleSet":"penta","seats":1e400}', 'VALIDATION_FAILED'],
    ])('POST /v1/games with %s → 400 %s (with and without an Idempotency-Key)', async (_name, body, code) => {
      await storesNothing(async () => {
        for (const key of [undefined, `k-${Math.random()}`]) {
          const req = t.http().post('/v1/games').set(ann.auth).set('content-type', 'application/json');
          if (key) req.set('idempotency-key', key);
          const res = await req.send(body);
          expect(res.status).toBe(400);
          expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
          expect(res.body.code).toBe(code);
        }
      });
    });

    it('POST /v1/games/:id/roll {"hold":[1e308]}, [1.5], null → 400, nothing stored', async () => {
      const game = await t.http().post('/v1/games').set(ann.auth).send({ ruleSet: 'penta', seats: 1 }).expect(201);
      await t.http().post(`/v1/games/${game.body.id}/start`).set(ann.auth).send({}).expect(200);
      await storesNothing(async () => {
        // null once rolled: Nest's ValidationPipe does not validate a null body (the parser refuses it now).
        for (const body of ['{"hold":[1e308]}', '{"hold":[1.5]}', '{"hold":[9007199254740993]}', 'null', '[0]']) {
          const res = await rawPost(`/v1/games/${game.body.id}/roll`, body).set(
            'idempotency-key',
            `r-${Math.random()}`,
          );
          expect(res.status).toBe(400);
          expect(res.body.code).toBe('VALIDATION_FAILED');
        }
      });
    });

    it('GraphQL createGame with bad numbers in options (literal and variables) → an error with a code', async () => {
      await storesNothing(async () => {
        // options is a typed input (GameOptionsInput): a fraction is refused by GraphQL's Int...
        const literal = await gql(
          t,
          'mutation { createGame(idempotencyKey: "g1", input: { ruleSet: farkle, seats: 1, options: { target: 1.5 } }) { id } }',
          {},
          ann.token,
        );
        expect(literal.errors?.[0].extensions?.code).toBe('VALIDATION_FAILED');
        // ... an integer out of the family's range, or another family's member, by the family.
        for (const options of ['{ target: 75 }', '{ joker: free }']) {
          const family = await gql(
            t,
            `mutation { createGame(idempotencyKey: "g1", input: { ruleSet: farkle, seats: 1, options: ${options} }) { id } }`,
            {},
            ann.token,
          );
          expect([options, family.errors?.[0].extensions?.code]).toEqual([options, 'INVALID_OPTIONS']);
        }
        const huge = await gql(
          t,
          'mutation { createGame(input: { ruleSet: farkle, seats: 1, options: { target: 1e400 } }) { id } }',
          {},
          ann.token,
        );
        expect(huge.errors?.[0].extensions?.code).toBe('VALIDATION_FAILED');
        const beyond = await gql(
          t,
          'mutation { createGame(input: { ruleSet: penta, seats: 1, options: { upperBonusPoints: 9007199254740993 } }) { id } }',
          {},
          ann.token,
        );
        expect(beyond.errors?.[0].extensions?.code).toBe('VALIDATION_FAILED');
        const variables = await t
          .http()
          .post('/graphql')
          .set(ann.auth)
          .set('content-type', 'application/json')
          .send(
            '{"query":"mutation($i: CreateGameInput!) { createGame(idempotencyKey: \\"g2\\", input: $i) { id } }","variables":{"i":{"ruleSet":"farkle","seats":1,"options":{"target":1e308}}}}',
          );
        expect(variables.status).toBe(400);
        expect(variables.body.code).toBe('VALIDATION_FAILED');
        const fraction = await gql(
          t,
          'mutation($i: CreateGameInput!) { createGame(input: $i) { id } }',
          { i: { ruleSet: 'penta', seats: 1, options: { upperBonusPoints: 2.5 } } },
          ann.token,
        );
        expect(fraction.errors?.[0].extensions?.code).toBe('VALIDATION_FAILED');
      });
    });
  });

  describe('item 3: deeply nested JSON', () => {
    const deep = (levels: number) => '{"a":'.repeat(levels) + '1' + '}'.repeat(levels);

    it('10,000 levels → 400 JSON_TOO_DEEP on every POST with a body (REST and GraphQL); no error logged', async () => {
      const errorsBefore = logLines.filter((l) => Number(l.level) >= 50).length;
      await storesNothing(async () => {
        for (const path of ['/v1/games', '/v1/players', '/graphql', '/v1/scoring/farkle']) {
          const res = await rawPost(path, deep(10_000));
          expect(res.status).toBe(400);
          expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
          expect(res.body).toMatchObject({ code: 'JSON_TOO_DEEP', maxDepth: 32 });
        }
        const arrays = await rawPost('/v1/games', '['.repeat(5000) + ']'.repeat(5000));
        expect(arrays.body.code).toBe('JSON_TOO_DEEP');
      });
      expect(logLines.filter((l) => Number(l.level) >= 50).length).toBe(errorsBefore);
    });

    it('brackets inside strings do not count; 32 levels are still parsed (and refused by validation)', async () => {
      const res = await rawPost('/v1/players', JSON.stringify({ displayName: '{'.repeat(40) }));
      expect(res.status).toBe(201);
      const nested = await rawPost('/v1/games', `{"ruleSet":"penta","seats":1,"options":${deep(30)}}`);
      expect(nested.status).toBe(400);
      expect(nested.body.code).toBe('INVALID_OPTIONS');
    });

    it('GraphQL JSON literals nested deeper than 32 levels → an error with a code', async () => {
      const literal =
        'mutation { createGame(input: { ruleSet: penta, seats: 1, options: ' +
        '{a:'.repeat(40) +
        '1' +
        '}'.repeat(40) +
        ' }) { id } }';
      const body = await gql(t, literal, {}, ann.token);
      expect(body.errors?.[0].extensions?.code).toBe('VALIDATION_FAILED');
    });
  });

  describe('item 7: small ones', () => {
    it('token rotation: only no body or {} rotates; null, junk, fields and text/plain are refused and the token keeps working', async () => {
      const p = await registerPlayer(t, 'Rot');
      const cases: Array<[string, string, number, string]> = [
        ['application/json', 'null', 400, 'VALIDATION_FAILED'],
        ['application/json', '[]', 400, 'VALIDATION_FAILED'],
        ['application/json', '"x"', 400, 'VALIDATION_FAILED'],
        ['application/json', '{"a":1}', 400, 'VALIDATION_FAILED'],
        ['application/json', 'junk', 400, 'VALIDATION_FAILED'],
        ['text/plain', 'rotate please', 415, 'UNSUPPORTED_MEDIA_TYPE'],
        ['application/x-www-form-urlencoded', 'a=1', 415, 'UNSUPPORTED_MEDIA_TYPE'],
      ];
      for (const [type, body, status, code] of cases) {
        const res = await rawPost('/v1/players/me/token', body, type, p.auth);
        expect([type, body, res.status, res.body.code]).toEqual([type, body, status, code]);
      }
      await t.http().get('/v1/players/me').set(p.auth).expect(200);
      const empty = await t.http().post('/v1/players/me/token').set(p.auth).expect(200);
      await t.http().get('/v1/players/me').set(p.auth).expect(401);
      const auth = { authorization: `Bearer ${empty.body.token}` };
      const braces = await t.http().post('/v1/players/me/token').set(auth).send({}).expect(200);
      expect(braces.body.token).not.toBe(empty.body.token);
    });

    it('a text/plain or form body on a JSON endpoint → 415 UNSUPPORTED_MEDIA_TYPE, nothing stored', async () => {
      await storesNothing(async () => {
        for (const [path, type] of [
          ['/v1/games', 'text/plain'],
          ['/v1/players', 'text/plain'],
          ['/graphql', 'text/plain'],
          ['/v1/games', 'application/x-www-form-urlencoded'],
          ['/v1/games', 'application/xml'],
        ]) {
          const res = await rawPost(path, '{"ruleSet":"penta","seats":1,"displayName":"x"}', type);
          expect([path, type, res.status, res.body.code]).toEqual([path, type, 415, 'UNSUPPORTED_MEDIA_TYPE']);
        }
      });
    });

    it('a GraphQL subscription over HTTP POST and a bad persisted-query hash → 4xx codes, not INTERNAL', async () => {
      const sub = await t
        .http()
        .post('/graphql')
        .set('content-type', 'application/json')
        .send({ query: 'subscription { gameEvents(gameId: "00000000-0000-4000-8000-000000000000") { version } }' });
      expect(sub.status).toBe(400);
      expect(sub.body.errors?.[0]?.extensions?.code).toBe('UNSUPPORTED_OPERATION');

      const badHash = await t
        .http()
        .post('/graphql')
        .set('content-type', 'application/json')
        .send({
          query: '{ serviceInfo { name } }',
          extensions: { persistedQuery: { version: 1, sha256Hash: 'nope' } },
        });
      expect(badHash.status).toBe(400);
      expect(badHash.body.errors?.[0]?.extensions?.code).toBe('VALIDATION_FAILED');

      const unknownHash = await t
        .http()
        .post('/graphql')
        .set('content-type', 'application/json')
        .send({ extensions: { persistedQuery: { version: 1, sha256Hash: 'a'.repeat(64) } } });
      // Apollo clients recognise the message and resend the full query.
      expect(unknownHash.body.errors?.[0]).toMatchObject({
        message: 'PersistedQueryNotFound',
        extensions: { code: 'VALIDATION_FAILED', graphqlCode: 'PERSISTED_QUERY_NOT_FOUND' },
      });
      expect(unknownHash.status).toBeLessThan(500);

      const badVersion = await t
        .http()
        .post('/graphql')
        .set('content-type', 'application/json')
        .send({ query: '{ serviceInfo { name } }', extensions: { persistedQuery: { version: 2, sha256Hash: 'x' } } });
      expect(badVersion.status).toBe(400);
      expect(badVersion.body.errors?.[0]?.extensions?.code).toBe('VALIDATION_FAILED');
    });

    it('headers above 16 KiB → 431 with a problem+json body (socket level)', async () => {
      const raw = await new Promise<string>((resolve, reject) => {
        const socket = net.connect(port, '127.0.0.1', () => {
          socket.write(`GET /health HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`);
        });
        let text = '';
        socket.on('data', (d: Buffer) => (text += d.toString('latin1')));
        socket.on('close', () => resolve(text));
        socket.on('error', reject);
      });
      const [head, body] = raw.split('\r\n\r\n');
      expect(head).toMatch(/^HTTP\/1\.1 431 /);
      expect(head).toMatch(/content-type: application\/problem\+json/i);
      expect(JSON.parse(body)).toMatchObject({ status: 431, code: 'REQUEST_HEADERS_TOO_LARGE' });
    });

    it('x-request-id: a short safe id is echoed; a long or unsafe one is replaced by a generated UUID', async () => {
      const ok = await t.http().get('/health').set('x-request-id', 'req-1.2:3_x');
      expect(ok.headers['x-request-id']).toBe('req-1.2:3_x');
      for (const bad of ['a'.repeat(65), '<script>alert(1)</script>', 'a b', 'x'.repeat(4096)]) {
        const res = await t.http().post('/v1/games').set('x-request-id', bad).send({});
        expect(res.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
        expect(res.body.requestId).toBe(res.headers['x-request-id']);
      }
      expect(JSON.stringify(logLines)).not.toContain('<script>');
    });

    it('concurrent retries of an Idempotency-Key that already completed all get the stored replay (no 409)', async () => {
      const key = `done-${Math.random()}`;
      const first = await t
        .http()
        .post('/v1/games')
        .set(ann.auth)
        .set('idempotency-key', key)
        .send({ ruleSet: 'simple', seats: 2 })
        .expect(201);
      await storesNothing(async () => {
        const retries = await Promise.all(
          Array.from({ length: 12 }, () =>
            t.http().post('/v1/games').set(ann.auth).set('idempotency-key', key).send({ ruleSet: 'simple', seats: 2 }),
          ),
        );
        expect(retries.map((r) => r.status)).toEqual(retries.map(() => 201));
        expect(new Set(retries.map((r) => r.body.id))).toEqual(new Set([first.body.id]));
        expect(retries.every((r) => r.headers['idempotent-replayed'] === 'true')).toBe(true);
        // A different request under the same key is still refused, even while others hold the key.
        const other = await Promise.all([
          t.http().post('/v1/games').set(ann.auth).set('idempotency-key', key).send({ ruleSet: 'simple', seats: 2 }),
          t.http().post('/v1/games').set(ann.auth).set('idempotency-key', key).send({ ruleSet: 'penta', seats: 2 }),
        ]);
        expect(other.map((r) => r.status)).toEqual([201, 422]);
      });
    });
  });

  describe('issue 24, item 8: query numbers, charsets and duplicate headers', () => {
    /** Every value JavaScript's Number() would read as a number although it is not plain digits. */
    const NOT_DIGITS = ['1e3', '', '0x10', '1.0', '+1', '%201', '1_000'];

    it('every paged or numbered query parameter takes plain digits only → otherwise 400 VALIDATION_FAILED', async () => {
      const game = (await t.http().post('/v1/games').set(ann.auth).send({ ruleSet: 'simple', seats: 2 }).expect(201))
        .body.id as string;
      // Query validation comes before the lookup: an unknown webhook id is enough.
      const webhook = '00000000-0000-4000-8000-000000000000';
      const cases: Array<[string, string]> = [
        ['/v1/games', 'offset'],
        ['/v1/games', 'limit'],
        ['/v1/inbox', 'offset'],
        ['/v1/inbox', 'limit'],
        [`/v1/games/${game}/events`, 'after'],
        [`/v1/games/${game}/events`, 'limit'],
        ['/v1/tournaments', 'limit'],
        ['/v1/leaderboards/simple/solo', 'limit'],
        ['/v1/leaderboards/simple/tournaments', 'limit'],
        [`/v1/webhooks/${webhook}/deliveries`, 'limit'],
        [`/v1/games/${game}/log-proof`, 'treeSize'],
        ['/v1/transparency/consistency?second=1', 'first'],
      ];
      await storesNothing(async () => {
        for (const [path, name] of cases) {
          for (const value of NOT_DIGITS) {
            const url = `${path}${path.includes('?') ? '&' : '?'}${name}=${value}`;
            const res = await t.http().get(url).set(ann.auth);
            expect([url, res.status, res.body.code]).toEqual([url, 400, 'VALIDATION_FAILED']);
          }
          const twice = `${path}${path.includes('?') ? '&' : '?'}${name}=1&${name}=2`;
          const res = await t.http().get(twice).set(ann.auth);
          expect([twice, res.status, res.body.code]).toEqual([twice, 400, 'VALIDATION_FAILED']);
        }
        // The stream's ?after= is checked before any stream opens.
        for (const value of NOT_DIGITS) {
          const res = await t.http().get(`/v1/games/${game}/stream?after=${value}`).set(ann.auth);
          expect([value, res.status, res.body.code]).toEqual([value, 400, 'VALIDATION_FAILED']);
        }
      });
      // Plain digits still work.
      await t.http().get('/v1/games?offset=1000&limit=5').set(ann.auth).expect(200);
      await t.http().get('/v1/inbox?offset=0').set(ann.auth).expect(200);
      await t.http().get(`/v1/games/${game}/events?after=1`).set(ann.auth).expect(200);
    });

    it('GraphQL: the same arguments refuse floats, strings, negatives and out-of-range values with VALIDATION_FAILED', async () => {
      const game = (await t.http().post('/v1/games').set(ann.auth).send({ ruleSet: 'simple', seats: 2 }).expect(201))
        .body.id as string;
      const documents = [
        '{ myGames(offset: 1e3) { nextOffset } }',
        '{ myGames(offset: "") { nextOffset } }',
        '{ myGames(offset: -1) { nextOffset } }',
        '{ myGames(offset: 1000001) { nextOffset } }',
        '{ inbox(offset: 1.0) { nextOffset } }',
        '{ inbox(offset: -1) { nextOffset } }',
        `{ gameEvents(gameId: "${game}", after: 1e3) { nextAfter } }`,
        `{ gameEvents(gameId: "${game}", after: -1) { nextAfter } }`,
        '{ gamesConnection(first: 0) { pageInfo { hasNextPage } } }',
      ];
      for (const query of documents) {
        const res = await gql(t, query, {}, ann.token);
        expect([query, res.errors?.[0]?.extensions?.code]).toEqual([query, 'VALIDATION_FAILED']);
      }
      const viaVariable = await gql(t, 'query($o: Int) { myGames(offset: $o) { nextOffset } }', { o: 1.5 }, ann.token);
      expect(viaVariable.errors?.[0]?.extensions?.code).toBe('VALIDATION_FAILED');
    });

    it('a JSON body with a charset other than UTF-8 → 415 UNSUPPORTED_MEDIA_TYPE, nothing stored; utf-8 is fine', async () => {
      await storesNothing(async () => {
        for (const type of [
          'application/json; charset=utf-16',
          'application/json;charset=UTF-16LE',
          'application/json; charset="iso-8859-1"',
          'application/json; charset=',
        ]) {
          for (const path of ['/v1/games', '/graphql']) {
            const body =
              path === '/graphql' ? '{"query":"{ serviceInfo { name } }"}' : '{"ruleSet":"simple","seats":1}';
            const res = await rawPost(path, body, type);
            expect([type, path, res.status, res.body.code]).toEqual([type, path, 415, 'UNSUPPORTED_MEDIA_TYPE']);
          }
        }
      });
      for (const type of ['application/json; charset=utf-8', 'application/json; charset="UTF-8"', 'application/json']) {
        const res = await rawPost('/v1/games', '{"ruleSet":"simple","seats":1}', type);
        expect([type, res.status]).toEqual([type, 201]);
      }
    });

    it('two Authorization headers → 400 MALFORMED_REQUEST (neither is used), nothing stored', async () => {
      const bea = await registerPlayer(t, 'Bea');
      const send = (path: string, method: 'GET' | 'POST', body?: string) =>
        new Promise<{ status: number; body: any }>((resolve, reject) => {
          const socket = net.connect(port, '127.0.0.1', () => {
            socket.write(
              `${method} ${path} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n` +
                `Authorization: Bearer ${ann.token}\r\nAuthorization: Bearer ${bea.token}\r\n` +
                (body ? `Content-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n` : '') +
                `\r\n${body ?? ''}`,
            );
          });
          let text = '';
          socket.on('data', (d: Buffer) => (text += d.toString('utf8')));
          socket.on('close', () => {
            const [head, ...rest] = text.split('\r\n\r\n');
            resolve({ status: Number(head.split(' ')[1]), body: JSON.parse(rest.join('\r\n\r\n')) });
          });
          socket.on('error', reject);
        });
      await storesNothing(async () => {
        for (const [path, method, body] of [
          ['/v1/players/me', 'GET', undefined],
          ['/v1/games', 'POST', '{"ruleSet":"simple","seats":1}'],
          ['/graphql', 'POST', '{"query":"{ me { id } }"}'],
        ] as const) {
          const res = await send(path, method, body);
          expect([path, res.status, res.body.code]).toEqual([path, 400, 'MALFORMED_REQUEST']);
        }
      });
    });
  });
});
