/**
 * GraphQL documents cannot freeze the process (issue 11, item 1): validation is linear in the
 * document's size, so the 13-level nested-fragment document and any other document of up to the
 * token limit is rejected or answered while other requests (/health) go on being served.
 *
 * "Does not wait" is asserted as an ORDER of events in this process (server and client share one
 * event loop): the document's answer and a concurrent /health answer both arrive before a
 * watchdog timer armed when they were sent. A synchronous validation that holds the event loop
 * (the old rules walked all 4^13 fragment paths, ~5 s) lets the overdue watchdog run first:
 * timers run before the client's socket reads the answers. Speed itself is in bench/ (ratio).
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { createClient } from 'graphql-ws';
// eslint-disable-next-line @typescript-eslint/no-require-imports -- ws ships no types here
const WebSocket: unknown = require('ws');
import { GRAPHQL_MAX_TOKENS } from '../../src/reliability/graphql/limits';
import { createTestApp, type TestApp } from '../helpers/app';
import { createTestPool } from '../helpers/database';

jest.setTimeout(60_000);

/** The issue's document: `levels` fragments, each spreading the next `fanout` times. */
export function nestedFragments(
  levels: number,
  fanout = 4,
  root = 'query',
  type = 'Query',
  leaf = 'serviceInfo { name }',
) {
  const parts = [`${root} { ...F0 }`];
  for (let i = 0; i < levels; i++)
    parts.push(
      `fragment F${i} on ${type} { ${Array(fanout)
        .fill(`...F${i + 1}`)
        .join(' ')} }`,
    );
  parts.push(`fragment F${levels} on ${type} { ${leaf} }`);
  return parts.join('\n');
}

/** Documents of up to the token limit that stress the parser or a validation rule. */
function hostileDocuments(): Record<string, string> {
  const fill = (unit: string, tokensPerUnit: number, overhead = 2) =>
    unit.repeat(Math.floor((GRAPHQL_MAX_TOKENS - overhead) / tokensPerUnit));
  return {
    'nested fragments 13 × 4': nestedFragments(13),
    'nested fragments 20 × 2': nestedFragments(20, 2),
    'nested fragments 7 × 10': nestedFragments(7, 10),
    'nested fragments 13 × 4 (mutation)': nestedFragments(
      13,
      4,
      'mutation',
      'Mutation',
      'registerPlayer(input: { displayName: "Nested" }) { token }',
    ),
    'repeated identical fields': `{ ${fill('serviceInfo { name } ', 4)} }`,
    'repeated field': `{ ${fill('me ', 1)} }`,
    'one fragment spread many times': `{ ${fill('...S ', 2, 12)} } fragment S on Query { serviceInfo { name } }`,
    'many distinct fragments': `{ ${Array.from({ length: 900 }, (_, i) => `...S${i}`).join(' ')} } ${Array.from({ length: 900 }, (_, i) => `fragment S${i} on Query { serviceInfo { name } }`).join(' ')}`,
    'deep selection sets': `{ ${'serviceInfo { '.repeat(3000)} name ${'} '.repeat(3000)} }`,
    'deep inline fragments': `{ ${'... on Query { '.repeat(2400)} __typename ${'} '.repeat(2400)} }`,
    'deep list argument': `{ game(id: ${'['.repeat(4900)}1${']'.repeat(4900)}) { id } }`,
    'deep object argument': `mutation { registerPlayer(input: ${'{ a: '.repeat(3000)}1${' }'.repeat(3000)}) { token } }`,
    'many directives': `{ serviceInfo ${fill('@skip(if: false) ', 6, 6)} { name } }`,
    'many aliases': `{ ${Array.from({ length: 3000 }, (_, i) => `a${i}: __typename`).join(' ')} }`,
    'many operations': Array.from({ length: 2000 }, (_, i) => `query Q${i} { __typename }`).join(' '),
    'many variables': `query(${Array.from({ length: 2400 }, (_, i) => `$v${i}: Int`).join(' ')}) { __typename }`,
    'over the token limit': `{ ${'a '.repeat(GRAPHQL_MAX_TOKENS + 10)} }`,
  };
}

function post(port: number, path: string, body: string): Promise<{ status: number; body: any }> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      { host: '127.0.0.1', port, path, method: 'POST', headers: { 'content-type': 'application/json' } },
      (res) => {
        let data = '';
        res.setEncoding('utf8');
        res.on('data', (c) => (data += c));
        res.on('end', () => resolve({ status: res.statusCode!, body: data ? JSON.parse(data) : null }));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

function get(port: number, path: string): Promise<{ status: number }> {
  return new Promise((resolve, reject) => {
    http
      .get({ host: '127.0.0.1', port, path }, (res) => {
        res.resume();
        res.on('end', () => resolve({ status: res.statusCode! }));
      })
      .on('error', reject);
  });
}

/** A generous watchdog: it only fires first when the event loop was held for seconds. */
const WATCHDOG_MS = 3_000;

describe('GraphQL validation does not hold the event loop', () => {
  let t: TestApp;
  let port: number;
  beforeAll(async () => {
    t = await createTestApp({ listen: true });
    port = (t.app.getHttpServer().address() as AddressInfo).port;
  });
  afterAll(async () => {
    await t.close();
  });

  /** Sends the document and then /health; returns the order in which things happened. */
  async function documentThenHealth(query: string) {
    const order: string[] = [];
    const watchdog = setTimeout(() => order.push('watchdog'), WATCHDOG_MS);
    const [doc, health] = await Promise.all([
      post(port, '/graphql', JSON.stringify({ query })).then((r) => (order.push('graphql'), r)),
      get(port, '/health').then((r) => (order.push('health'), r)),
    ]);
    clearTimeout(watchdog);
    return { order, doc, health };
  }

  it('the 13-level nested-fragment document is refused and /health is answered, both before the watchdog', async () => {
    const { order, doc, health } = await documentThenHealth(nestedFragments(13));
    expect(health.status).toBe(200);
    expect(doc.status).toBe(400);
    expect(doc.body.errors[0].extensions).toMatchObject({ code: 'QUERY_TOO_COMPLEX', limit: 'cost' });
    expect(order).not.toContain('watchdog');
    expect([...order].sort()).toEqual(['graphql', 'health']);
  });

  it('every hostile document of up to the token limit is rejected with a stable code or answered; nothing stored', async () => {
    const pool = createTestPool();
    const players = async () => Number((await pool.query('SELECT count(*) FROM players')).rows[0].count);
    const before = await players();
    const outcomes: Record<string, string> = {};
    for (const [name, query] of Object.entries(hostileDocuments())) {
      expect([name, JSON.stringify({ query }).length < 64 * 1024]).toEqual([name, true]);
      const { order, doc, health } = await documentThenHealth(query);
      expect(health.status).toBe(200);
      expect(order).not.toContain('watchdog');
      if (doc.status === 200) {
        expect(doc.body.errors).toBeUndefined();
        outcomes[name] = 'answered';
      } else {
        expect(doc.status).toBe(400);
        const code = doc.body.errors?.[0]?.extensions?.code;
        expect(['QUERY_TOO_COMPLEX', 'VALIDATION_FAILED']).toContain(code);
        outcomes[name] = code;
        if (name === 'repeated identical fields')
          expect(doc.body.errors[0].extensions).toMatchObject({ code: 'QUERY_TOO_COMPLEX', limit: 'validation' });
      }
    }
    expect(await players()).toBe(before);
    await pool.end();
    // The ones that exist to overflow the parser's recursion or a limit are refused as too complex.
    for (const name of [
      'deep selection sets',
      'deep inline fragments',
      'deep list argument',
      'deep object argument',
      'over the token limit',
      'nested fragments 13 × 4 (mutation)',
      'many aliases',
    ])
      expect([name, outcomes[name]]).toEqual([name, 'QUERY_TOO_COMPLEX']);
  });

  it('subscriptions over graphql-ws get the same limits (nesting, cost)', async () => {
    const client = createClient({ url: `ws://127.0.0.1:${port}/graphql`, webSocketImpl: WebSocket, retryAttempts: 0 });
    const codeOf = (query: string) =>
      new Promise<unknown>((resolve) => {
        client.subscribe(
          { query },
          {
            next: (m: any) => resolve(m.errors?.[0]?.extensions?.code ?? 'next'),
            error: (e: any) => resolve((Array.isArray(e) ? e[0] : e)?.extensions?.code ?? String(e)),
            complete: () => resolve('complete'),
          },
        );
      });
    try {
      const deep = `subscription { gameEvents(gameId: ${'['.repeat(3000)}"x"${']'.repeat(3000)}) { version } }`;
      expect(await codeOf(deep)).toBe('QUERY_TOO_COMPLEX');
      const nested = nestedFragments(
        13,
        4,
        'subscription',
        'Subscription',
        'gameEvents(gameId: "00000000-0000-4000-8000-000000000000") { version type }',
      );
      expect(await codeOf(nested)).toBe('QUERY_TOO_COMPLEX');
    } finally {
      await client.dispose();
    }
  });
});
