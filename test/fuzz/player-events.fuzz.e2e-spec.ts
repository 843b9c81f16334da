/**
 * ===== Fuzz cases of the player-events operations (issue 27) =====
 * Kept in their own file, beside the generic suite (api.fuzz.e2e-spec.ts, which also reaches these
 * operations through openapi/openapi.json): explicit defects of the stream's cursor, the settings,
 * and the Web Push subscriptions, each answered 4xx with a stable code, never 5xx or success,
 * with the data tables' row counts unchanged.
 */
import { createECDH } from 'node:crypto';
import { ERROR_MAP } from '../../src/common/errors';
import { createTestApp, gql, registerPlayer, type TestApp } from '../helpers/app';
import { poolOf } from '../helpers/games';
import { rowCounts } from '../helpers/row-counts';

jest.setTimeout(60_000);

const KNOWN = new Set(Object.keys(ERROR_MAP));

describe('fuzz: player events and Web Push', () => {
  let t: TestApp;
  let auth: { authorization: string };
  let token: string;

  beforeAll(async () => {
    t = await createTestApp({ env: { JOBS_ENABLED: 'false', PUSH_ALLOW_PRIVATE_NETWORKS: 'false' } });
    const p = await registerPlayer(t, 'Fuzzed');
    auth = p.auth;
    token = p.token;
  });
  afterAll(() => t?.close());

  const ua = createECDH('prime256v1');
  ua.generateKeys();
  const p256dh = ua.getPublicKey().toString('base64url');
  const authKey = Buffer.alloc(16, 3).toString('base64url');

  it('every defect is a 4xx with a known code and stores nothing', async () => {
    const before = await rowCounts(poolOf(t));
    const failures: string[] = [];
    const check = (name: string, res: { status: number; body: any; text: string }) => {
      if (!(res.status >= 400 && res.status < 500 && KNOWN.has(res.body?.code)))
        failures.push(`${name} → ${res.status} ${res.text.slice(0, 160)}`);
    };
    for (const q of [
      'after=-1',
      'after=1.5',
      'after=1e308',
      'after=9007199254740993',
      'after=abc',
      'after=1&after=2',
      'after=%00',
      `after=${'9'.repeat(1000)}`,
      'after=5',
    ])
      check(`events ?${q}`, await t.http().get(`/v1/players/me/events?${q}`).set(auth).timeout({ response: 5000 }));
    for (const id of ['x', '-1', '<script>', '9'.repeat(100), 'Ｉ'])
      check(
        `events Last-Event-ID ${id}`,
        await t
          .http()
          .get('/v1/players/me/events')
          .set(auth)
          .set('last-event-id', encodeURIComponent(id))
          .timeout({ response: 5000 }),
      );
    check('events without a token', await t.http().get('/v1/players/me/events').timeout({ response: 5000 }));
    check(
      'events with a junk token',
      await t.http().get('/v1/players/me/events').set('authorization', 'Bearer junk').timeout({ response: 5000 }),
    );

    for (const body of [
      { deadlineSoonShare: -0.1 },
      { deadlineSoonShare: 0.95 },
      { deadlineSoonShare: 'half' },
      { deadlineSoonShare: null, zz: 1 },
      { pushEvents: ['yourTurn', 'explode'] },
      { pushEvents: 'yourTurn' },
      { pushEvents: Array(50).fill('yourTurn') },
      [],
    ])
      check(
        `settings ${JSON.stringify(body)}`,
        await t.http().put('/v1/players/me/event-settings').set(auth).send(body),
      );

    const sub = (endpoint: unknown, keys: unknown, extra: object = {}) => ({ endpoint, keys, ...extra });
    for (const [name, body] of [
      ['private endpoint', sub('https://192.168.1.1/p', { p256dh, auth: authKey })],
      ['metadata endpoint', sub('https://169.254.169.254/p', { p256dh, auth: authKey })],
      ['http endpoint', sub('http://8.8.8.8/p', { p256dh, auth: authKey })],
      ['credentials in the endpoint', sub('https://u:p@8.8.8.8/p', { p256dh, auth: authKey })],
      ['endpoint 3000 characters', sub(`https://8.8.8.8/${'a'.repeat(3000)}`, { p256dh, auth: authKey })],
      ['endpoint not a string', sub(12, { p256dh, auth: authKey })],
      ['no keys', { endpoint: 'https://8.8.8.8/p' }],
      ['keys null', sub('https://8.8.8.8/p', null)],
      ['keys an array', sub('https://8.8.8.8/p', [])],
      ['p256dh compressed', sub('https://8.8.8.8/p', { p256dh: p256dh.slice(0, 44), auth: authKey })],
      ['p256dh 1 MB', sub('https://8.8.8.8/p', { p256dh: 'B'.repeat(1 << 20), auth: authKey })],
      ['auth 15 bytes', sub('https://8.8.8.8/p', { p256dh, auth: Buffer.alloc(15).toString('base64url') })],
      ['an unknown key field', sub('https://8.8.8.8/p', { p256dh, auth: authKey, x: 1 })],
      ['expirationTime a string', sub('https://8.8.8.8/p', { p256dh, auth: authKey }, { expirationTime: 'soon' })],
    ] as const)
      check(`subscribe: ${name}`, await t.http().post('/v1/players/me/push-subscriptions').set(auth).send(body));
    for (const id of ['not-a-uuid', '00000000-0000-0000-0000-000000000000', '%00', 'z'.repeat(90)])
      check(`unsubscribe ${id}`, await t.http().delete(`/v1/players/me/push-subscriptions/${id}`).set(auth));

    for (const [name, query, variables] of [
      [
        'settings share 2',
        'mutation($i: UpdatePlayerEventSettingsInput!) { updateMyEventSettings(input: $i) { deadlineSoonShare } }',
        { i: { deadlineSoonShare: 2 } },
      ],
      [
        'subscribe private',
        'mutation($i: CreatePushSubscriptionInput!) { createPushSubscription(input: $i) { id } }',
        { i: { endpoint: 'https://10.0.0.1/x', keys: { p256dh, auth: authKey } } },
      ],
      ['delete unknown', 'mutation($id: ID!) { deletePushSubscription(id: $id) }', { id: 'nope' }],
    ] as const) {
      const r = await gql(t, query, variables, token);
      const code = r.errors?.[0]?.extensions?.code;
      if (!KNOWN.has(code) || r.data?.[Object.keys(r.data ?? {})[0]])
        failures.push(`graphql ${name} → ${JSON.stringify(r).slice(0, 160)}`);
    }
    expect(failures).toEqual([]);
    expect(await rowCounts(poolOf(t))).toEqual(before);
  });
});
