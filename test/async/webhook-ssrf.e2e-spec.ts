/**
 * Webhook SSRF (issue 11, item 5), with WEBHOOK_ALLOW_PRIVATE_NETWORKS off (the other e2e tests
 * run with it on: their receivers listen on 127.0.0.1):
 * - registration of every non-public address form is refused (422 WEBHOOK_URL_NOT_ALLOWED), nothing stored;
 * - a host that resolved to a public address at registration and to 127.0.0.1 at delivery is not
 *   delivered to (the local receiver gets nothing; the owner sees `refused-address`);
 * - the delivery connects to the address it checked: a resolver that would answer 127.0.0.1 on a
 *   second lookup (DNS rebinding) is asked once per attempt, and the receiver gets nothing;
 * - failures are reported as categories, never raw error text (flag on: a 500 and a closed port).
 */
import type { Pool } from 'pg';
import { WebhookTargets } from '../../src/async/webhooks/webhook-targets';
import { NON_PUBLIC_URLS } from '../../src/async/webhooks/non-public-url-examples';
import { createTestApp, gql, registerPlayer, type TestApp } from '../helpers/app';
import { createTestPool } from '../helpers/database';
import { restClient } from '../helpers/games';
import { type Receiver, startReceiver, waitFor } from './helpers';

jest.setTimeout(60_000);

const ENV = {
  WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'false',
  JOBS_POLL_INTERVAL_MS: '100',
  WEBHOOK_BACKOFF_BASE_MS: '200',
  WEBHOOK_MAX_ATTEMPTS: '2',
  WEBHOOK_TIMEOUT_MS: '500',
};
const PUBLIC = '93.184.215.14';

describe('webhook destinations: public addresses only (flag off)', () => {
  let t: TestApp;
  let pool: Pool;
  let receiver: Receiver;
  /** The simulated DNS: host → addresses, and how often each host was looked up. */
  const dns = new Map<string, string[]>();
  const lookups = new Map<string, number>();

  beforeAll(async () => {
    t = await createTestApp({ env: ENV });
    pool = createTestPool();
    receiver = await startReceiver();
    t.app.get(WebhookTargets).resolve = (host) => {
      lookups.set(host, (lookups.get(host) ?? 0) + 1);
      const answer = dns.get(host);
      if (!answer)
        return Promise.reject(Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: 'ENOTFOUND' }));
      return Promise.resolve(typeof answer === 'function' ? (answer as () => string[])() : answer);
    };
  });
  afterAll(async () => {
    await receiver?.close();
    await pool.end();
    await t.close();
  });

  const webhooksOf = async (playerId: string) =>
    Number((await pool.query('SELECT count(*) FROM webhooks WHERE player_id = $1', [playerId])).rows[0].count);

  it('refuses to register every non-public address form (REST and GraphQL); nothing stored', async () => {
    const p = await registerPlayer(t, 'Scanner');
    dns.set('internal.example', ['10.0.0.8']);
    dns.set('mixed.example', [PUBLIC, '127.0.0.1']);
    const urls = [
      ...NON_PUBLIC_URLS,
      `http://127.0.0.1:${receiver.port}/hook`,
      'http://internal.example/hook',
      'http://mixed.example/hook',
      'http://unresolvable.example/hook',
    ];
    for (const url of urls) {
      const res = await t.http().post('/v1/webhooks').set(p.auth).send({ url });
      expect([url, res.status, res.body.code]).toEqual([url, 422, 'WEBHOOK_URL_NOT_ALLOWED']);
      expect(['non-public-address', 'unresolvable']).toContain(res.body.reason);
    }
    const viaGql = await gql(
      t,
      'mutation($input: CreateWebhookInput!) { createWebhook(input: $input) { secret } }',
      { input: { url: 'http://169.254.169.254/latest/meta-data/' } },
      p.token,
    );
    expect(viaGql.errors?.[0].extensions?.code).toBe('WEBHOOK_URL_NOT_ALLOWED');
    expect(await webhooksOf(p.id)).toBe(0);
    expect(receiver.received).toHaveLength(0);
    // A public host is accepted.
    dns.set('public.example', [PUBLIC]);
    await t.http().post('/v1/webhooks').set(p.auth).send({ url: 'https://public.example/hook' }).expect(201);
    expect(await webhooksOf(p.id)).toBe(1);
  });

  /** Registers `url`, runs `afterRegistration`, plays a game that starts, and waits for the delivery to fail. */
  async function deliveriesAfterAGame(url: string, afterRegistration: () => void = () => undefined) {
    const p = await registerPlayer(t, 'Owner');
    const reg = await t
      .http()
      .post('/v1/webhooks')
      .set(p.auth)
      .send({ url, events: ['game.started'] })
      .expect(201);
    afterRegistration();
    const client = restClient(t);
    const g = await client.create(p.token, { ruleSet: 'simple', seats: 1 });
    await client.start(p.token, g.id);
    const list = () => t.http().get(`/v1/webhooks/${reg.body.webhook.id}/deliveries`).set(p.auth).expect(200);
    return waitFor(
      async () => {
        const body = (await list()).body;
        return body.length === 1 && body[0].status === 'failed' ? body[0] : null;
      },
      20_000,
      'the delivery to fail',
    );
  }

  it('a host that turns private after registration is refused at delivery (owner sees refused-address)', async () => {
    dns.set('turncoat.example', [PUBLIC]);
    const url = `http://turncoat.example:${receiver.port}/hook`;
    // After registration it points at the receiver on loopback.
    const d = await deliveriesAfterAGame(url, () => dns.set('turncoat.example', ['127.0.0.1']));
    expect(d).toMatchObject({ status: 'failed', attempts: 2, lastError: 'refused-address', lastStatusCode: null });
    expect(receiver.received).toHaveLength(0);
  });

  it('the connection goes to the checked address: a second lookup answering 127.0.0.1 (rebinding) is never made', async () => {
    let calls = 0;
    dns.set('rebind.example', (() => (++calls % 2 === 1 ? [PUBLIC] : ['127.0.0.1'])) as unknown as string[]);
    const url = `http://rebind.example:${receiver.port}/hook`;
    const before = lookups.get('rebind.example') ?? 0;
    const d = await deliveriesAfterAGame(url); // registration (1 lookup) + 2 attempts
    expect(['timeout', 'unreachable']).toContain(d.lastError); // 93.184.215.14 is not reachable from here
    expect(receiver.received).toHaveLength(0);
    // One lookup at registration and one per attempt, each answered with the public address.
    expect((lookups.get('rebind.example') ?? 0) - before).toBe(3);
  });
});

describe('webhook delivery failures are categories, never raw errors', () => {
  it('a receiver answering 500 → http-status; a closed port → unreachable', async () => {
    const t = await createTestApp({
      env: { JOBS_POLL_INTERVAL_MS: '100', WEBHOOK_BACKOFF_BASE_MS: '100', WEBHOOK_MAX_ATTEMPTS: '1' },
    });
    const receiver = await startReceiver();
    receiver.respond = () => 500;
    const closed = await startReceiver();
    const closedUrl = closed.url;
    await closed.close();
    try {
      const p = await registerPlayer(t, 'Categories');
      const failing = await t.http().post('/v1/webhooks').set(p.auth).send({ url: receiver.url }).expect(201);
      const refused = await t.http().post('/v1/webhooks').set(p.auth).send({ url: closedUrl }).expect(201);
      const client = restClient(t);
      const g = await client.create(p.token, { ruleSet: 'simple', seats: 1 });
      await client.start(p.token, g.id);
      const settled = async (id: string) =>
        waitFor(async () => {
          const body = (await t.http().get(`/v1/webhooks/${id}/deliveries`).set(p.auth).expect(200)).body;
          return body.length > 0 && body.every((d: any) => d.status === 'failed') ? body : null;
        }, 15_000);
      for (const d of await settled(failing.body.webhook.id))
        expect(d).toMatchObject({ lastError: 'http-status', lastStatusCode: 500 });
      const unreachable = await settled(refused.body.webhook.id);
      for (const d of unreachable) expect(d).toMatchObject({ lastError: 'unreachable', lastStatusCode: null });
      expect(JSON.stringify(unreachable)).not.toMatch(/ECONN|connect|127\.0\.0\.1/);
    } finally {
      await receiver.close();
      await t.close();
    }
  });

  it('WEBHOOK_REQUIRE_HTTPS refuses http:// URLs at registration', async () => {
    const t = await createTestApp({ env: { WEBHOOK_REQUIRE_HTTPS: 'true' } });
    try {
      const p = await registerPlayer(t, 'Plain');
      const res = await t.http().post('/v1/webhooks').set(p.auth).send({ url: 'http://127.0.0.1:9/x' }).expect(422);
      expect(res.body).toMatchObject({ code: 'WEBHOOK_URL_NOT_ALLOWED', reason: 'https-required' });
    } finally {
      await t.close();
    }
  });
});
