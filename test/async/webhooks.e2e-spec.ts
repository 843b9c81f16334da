/**
 * Webhooks: registration over REST and GraphQL (http(s) URLs only, secret shown once), signed
 * deliveries (Standard Webhooks, verified with the standardwebhooks library) of game.started,
 * turn.started and game.finished, retries with backoff (a receiver failing twice gets the third
 * attempt), and deliveries that survive an instance restart.
 */
import { Webhook } from 'standardwebhooks';
import { createTestApp, gql, registerPlayer, type TestApp } from '../helpers/app';
import { restClient } from '../helpers/games';
import { type Receiver, startReceiver, waitFor } from './helpers';
import { webhookViolations } from '../helpers/contract';

jest.setTimeout(30_000);

const ENV = { JOBS_POLL_INTERVAL_MS: '100', WEBHOOK_BACKOFF_BASE_MS: '200' };

function verifyAll(receiver: Receiver, secret: string) {
  const wh = new Webhook(secret);
  for (const r of receiver.received) {
    const headers = {
      'webhook-id': String(r.headers['webhook-id']),
      'webhook-timestamp': String(r.headers['webhook-timestamp']),
      'webhook-signature': String(r.headers['webhook-signature']),
    };
    expect(() => wh.verify(r.body, headers)).not.toThrow();
  }
  // A wrong secret does not verify.
  const other = new Webhook(`whsec_${Buffer.alloc(32, 7).toString('base64')}`);
  const r = receiver.received[0];
  expect(() =>
    other.verify(r.body, {
      'webhook-id': String(r.headers['webhook-id']),
      'webhook-timestamp': String(r.headers['webhook-timestamp']),
      'webhook-signature': String(r.headers['webhook-signature']),
    }),
  ).toThrow();
}

describe('webhooks', () => {
  let t: TestApp;
  let receiver: Receiver;

  beforeAll(async () => {
    t = await createTestApp({ env: ENV });
    receiver = await startReceiver();
  });
  afterAll(async () => {
    await t?.close();
    await receiver?.close();
  });

  it('registers, lists and deletes over REST and GraphQL; only http(s) URLs', async () => {
    const p = await registerPlayer(t, 'Hooked');
    const created = await t
      .http()
      .post('/v1/webhooks')
      .set(p.auth)
      .send({ url: 'https://bot.example.com/hook', events: ['turn.started'], description: 'my bot' })
      .expect(201);
    expect(created.body.secret).toMatch(/^whsec_[A-Za-z0-9+/]+=*$/);
    expect(created.body.webhook).toMatchObject({
      url: 'https://bot.example.com/hook',
      events: ['turn.started'],
      description: 'my bot',
    });
    for (const url of ['ftp://example.com/x', 'javascript:alert(1)', 'not a url', 'http://user:pw@example.com/', '']) {
      const bad = await t.http().post('/v1/webhooks').set(p.auth).send({ url }).expect(400);
      expect(bad.body.code).toBe('VALIDATION_FAILED');
    }
    await t
      .http()
      .post('/v1/webhooks')
      .set(p.auth)
      .send({ url: 'https://x.example.com', events: ['game.exploded'] })
      .expect(400);
    await t.http().post('/v1/webhooks').send({ url: 'https://x.example.com' }).expect(401);

    const list = await t.http().get('/v1/webhooks').set(p.auth).expect(200);
    expect(list.body).toHaveLength(1);
    expect(JSON.stringify(list.body)).not.toContain(created.body.secret);

    const g = await gql(
      t,
      'mutation($input: CreateWebhookInput!) { createWebhook(input: $input) { secret webhook { id url events } } }',
      { input: { url: 'http://127.0.0.1:9/x' } },
      p.token,
    );
    expect(g.errors).toBeUndefined();
    // GraphQL names cannot hold '.': WebhookEventType turn_started is REST's turn.started (docs/api.md).
    expect(g.data.createWebhook.webhook.events).toEqual(['turn_started', 'game_started', 'game_finished']);
    const badGql = await gql(
      t,
      'mutation($input: CreateWebhookInput!) { createWebhook(input: $input) { secret } }',
      { input: { url: 'file:///etc/passwd' } },
      p.token,
    );
    expect(badGql.errors?.[0].extensions?.code).toBe('VALIDATION_FAILED');
    const listed = await gql(t, '{ webhooks { id url } }', {}, p.token);
    expect(listed.data.webhooks).toHaveLength(2);

    // Someone else cannot see or delete them.
    const other = await registerPlayer(t, 'Other');
    await t.http().delete(`/v1/webhooks/${created.body.webhook.id}`).set(other.auth).expect(404);
    await t.http().delete(`/v1/webhooks/${created.body.webhook.id}`).set(p.auth).expect(204);
    await t.http().delete(`/v1/webhooks/${created.body.webhook.id}`).set(p.auth).expect(404);
    const del = await gql(
      t,
      'mutation($id: ID!) { deleteWebhook(id: $id) }',
      { id: g.data.createWebhook.webhook.id },
      p.token,
    );
    expect(del.data.deleteWebhook).toBe(true);
    expect((await t.http().get('/v1/webhooks').set(p.auth).expect(200)).body).toEqual([]);
  });

  it('REST takes the GraphQL spelling of a type too and stores the one name (turn_started is turn.started; decision 0090)', async () => {
    const p = await registerPlayer(t, 'Spelled');
    const created = await t
      .http()
      .post('/v1/webhooks')
      .set(p.auth)
      .send({ url: 'https://bot.example.com/spelled', events: ['turn_started', 'round.finished', 'round_finished'] })
      .expect(201);
    expect(created.body.webhook.events).toEqual(['turn.started', 'round.finished']);
    expect((await t.http().get('/v1/webhooks').set(p.auth).expect(200)).body[0].events).toEqual([
      'turn.started',
      'round.finished',
    ]);
    const g = await gql(t, '{ webhooks { events } }', {}, p.token);
    expect(g.data.webhooks[0].events).toEqual(['turn_started', 'round_finished']);
    const bad = await t
      .http()
      .post('/v1/webhooks')
      .set(p.auth)
      .send({ url: 'https://bot.example.com/spelled', events: ['turn-started'] })
      .expect(400);
    expect(bad.body.code).toBe('VALIDATION_FAILED');
    expect((await t.http().get('/v1/webhooks').set(p.auth).expect(200)).body).toHaveLength(1);
  });

  it('delivers signed game.started, turn.started and game.finished; a receiver failing twice gets the third attempt', async () => {
    const ada = await registerPlayer(t, 'Ada');
    const reg = await t.http().post('/v1/webhooks').set(ada.auth).send({ url: receiver.url }).expect(201);
    const secret: string = reg.body.secret;
    // Each delivery fails twice (HTTP 500), then succeeds.
    const seen = new Map<string, number>();
    receiver.respond = (r) => {
      const id = String(r.headers['webhook-id']);
      const n = (seen.get(id) ?? 0) + 1;
      seen.set(id, n);
      return n <= 2 ? 500 : 204;
    };
    const client = restClient(t);
    let view = await client.create(ada.token, { ruleSet: 'simple', seats: 1 });
    view = await client.start(ada.token, view.id);
    await client.move(ada.token, view.id, { action: 'quit', body: {} });

    const delivered = () => receiver.received.filter((r) => r.status === 204).map((r) => JSON.parse(r.body));
    await waitFor(() => delivered().length >= 3, 15_000, 'three delivered notifications');
    const types = delivered()
      .map((b) => b.type)
      .sort();
    expect(types).toEqual(['game.finished', 'game.started', 'turn.started']);
    // Each payload is what the OpenAPI document's webhooks section says (closed objects).
    expect(delivered().flatMap((b) => webhookViolations(b))).toEqual([]);
    const turn = delivered().find((b) => b.type === 'turn.started');
    expect(turn.data).toMatchObject({ gameId: view.id, playerId: ada.id, seat: 0, ruleSet: 'simple' });
    expect(delivered().find((b) => b.type === 'game.finished').data.standings).toHaveLength(1);

    // Every request carried a valid signature; each notification took exactly three attempts,
    // with the same webhook-id, the retries spaced by the backoff (200 ms, then 400 ms).
    verifyAll(receiver, secret);
    expect([...seen.values()]).toEqual([3, 3, 3]);
    for (const id of seen.keys()) {
      const times = receiver.received.filter((r) => r.headers['webhook-id'] === id).map((r) => r.at);
      expect(times[1] - times[0]).toBeGreaterThanOrEqual(150);
      expect(times[2] - times[1]).toBeGreaterThanOrEqual(350);
    }
    const deliveries = await t.http().get(`/v1/webhooks/${reg.body.webhook.id}/deliveries`).set(ada.auth).expect(200);
    expect(deliveries.body).toHaveLength(3);
    for (const d of deliveries.body)
      expect(d).toMatchObject({ status: 'delivered', attempts: 3, lastStatusCode: 204, gameId: view.id });
  });
});

describe('webhook deliveries survive an instance restart', () => {
  it('a delivery failing on instance 1 arrives from instance 2', async () => {
    const receiver = await startReceiver();
    let healthy = false;
    receiver.respond = () => (healthy ? 204 : 503);
    let t1: TestApp | null = await createTestApp({ env: { ...ENV, WEBHOOK_BACKOFF_BASE_MS: '1500' } });
    let t2: TestApp | null = null;
    try {
      const p = await registerPlayer(t1, 'Restarted');
      const reg = await t1
        .http()
        .post('/v1/webhooks')
        .set(p.auth)
        .send({ url: receiver.url, events: ['game.started'] })
        .expect(201);
      const client = restClient(t1);
      const view = await client.create(p.token, { ruleSet: 'simple', seats: 1 });
      await client.start(p.token, view.id);
      await waitFor(() => receiver.received.length >= 1, 10_000, 'the first (failing) attempt');
      await t1.close();
      t1 = null;
      const count = receiver.received.length;
      healthy = true;

      t2 = await createTestApp({ env: ENV });
      await waitFor(() => receiver.received.some((r) => r.status === 204), 15_000, 'the delivery from instance 2');
      expect(receiver.received.length).toBe(count + 1);
      const ok = receiver.received.find((r) => r.status === 204)!;
      expect(ok.headers['webhook-id']).toBe(receiver.received[0].headers['webhook-id']);
      const wh = new Webhook(reg.body.secret);
      expect(
        wh.verify(ok.body, {
          'webhook-id': String(ok.headers['webhook-id']),
          'webhook-timestamp': String(ok.headers['webhook-timestamp']),
          'webhook-signature': String(ok.headers['webhook-signature']),
        }),
      ).toMatchObject({ type: 'game.started' });
      const d = await t2.http().get(`/v1/webhooks/${reg.body.webhook.id}/deliveries`).set(p.auth).expect(200);
      expect(d.body[0]).toMatchObject({ status: 'delivered', attempts: count + 1 });
    } finally {
      await t1?.close();
      await t2?.close();
      await receiver.close();
    }
  });
});
