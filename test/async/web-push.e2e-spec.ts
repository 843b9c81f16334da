/**
 * Web Push (docs/async.md, *Web Push*): a player with no open page gets yourTurn from a local push
 * service written for the test (test/helpers/push-service.ts: it checks the VAPID JWT and decrypts
 * the aes128gcm payload with node:crypto, independently of the web-push library); a 410 answer
 * deletes the subscription; subscriptions over REST and GraphQL; bad input (a private-address or
 * http endpoint, malformed keys, too many subscriptions) gets a clear code and stores nothing.
 */
import { createECDH } from 'node:crypto';
import { createTestApp, gql, registerPlayer, type TestApp } from '../helpers/app';
import { chooseMove, poolOf, restClient } from '../helpers/games';
import { checkVapid, startPushService, type TestPushService } from '../helpers/push-service';
import { waitFor } from './helpers';

jest.setTimeout(60_000);

type P = Awaited<ReturnType<typeof registerPlayer>>;

describe('web push', () => {
  let t: TestApp;
  let strict: TestApp;
  let push: TestPushService;

  beforeAll(async () => {
    t = await createTestApp({ env: { JOBS_POLL_INTERVAL_MS: '100', PUSH_BACKOFF_BASE_MS: '100' } });
    // The same database, with the production destination rules and a small limit.
    strict = await createTestApp({
      env: { PUSH_ALLOW_PRIVATE_NETWORKS: 'false', PUSH_MAX_SUBSCRIPTIONS_PER_PLAYER: '2', JOBS_ENABLED: 'false' },
    });
    push = await startPushService();
  });
  afterAll(async () => {
    await strict?.close();
    await t?.close();
    await push?.close();
  });

  const subscriptions = async (p: P) =>
    Number(
      (await poolOf(t).query('SELECT count(*)::int AS n FROM push_subscriptions WHERE player_id = $1', [p.id])).rows[0]
        .n,
    );

  async function opponentTurn(host: P, me: P) {
    const c = restClient(t);
    let v = await c.create(host.token, { ruleSet: 'simple', seats: 2 });
    await c.join(me.token, v.id);
    v = await c.start(host.token, v.id);
    while (v.currentPlayerId === host.id) v = await c.move(host.token, v.id, chooseMove(v));
    return v;
  }

  it('pushes yourTurn to a player with no open page (VAPID checked, payload decrypted); a 410 deletes the subscription', async () => {
    const key = (await t.http().get('/v1/push/vapid-public-key').expect(200)).body.vapidPublicKey;
    expect(key).toBe(process.env.VAPID_PUBLIC_KEY);
    const me = await registerPlayer(t, 'Pushed');
    const host = await registerPlayer(t, 'Host');
    const created = await t
      .http()
      .post('/v1/players/me/push-subscriptions')
      .set(me.auth)
      .send({ ...push.subscription('me'), expirationTime: null })
      .expect(201);
    expect(created.body).toMatchObject({ endpoint: `${push.base}/push/me` });
    expect(JSON.stringify(created.body)).not.toContain(push.subscription().keys.auth);

    const arrived = push.next();
    const view = await opponentTurn(host, me);
    await arrived;
    expect(push.rejected).toEqual([]);
    expect(push.received).toHaveLength(1); // gameStarted is not among the default push events
    const got = push.received[0];
    expect(got.vapidKey).toBe(key);
    expect(got.claims.aud).toBe(push.base);
    expect(got.headers.urgency).toBe('high');
    // The checker is not a rubber stamp: a tampered signature or another origin fails it.
    const authz = String(got.headers.authorization);
    const tampered = authz.replace(
      /t=([^,]+)/,
      (_m, jwt: string) => `t=${jwt.slice(0, -2)}${jwt.endsWith('AA') ? 'BB' : 'AA'}`,
    );
    expect(() => checkVapid(tampered, push.base)).toThrow(/does not verify/);
    expect(() => checkVapid(authz, 'https://elsewhere.example')).toThrow(/aud/);
    const payload = JSON.parse(got.plaintext);
    expect(payload).toMatchObject({
      type: 'yourTurn',
      data: { gameId: view.id, version: view.version, seat: 1 },
      notification: { title: 'Your turn', url: `/games/${view.id}` },
    });

    // The push service says the subscription is gone: it is deleted.
    push.answer = 410;
    const gone = push.next();
    const c = restClient(t);
    let v = view;
    while (v.currentPlayerId === me.id) v = await c.move(me.token, v.id, chooseMove(v));
    while (v.currentPlayerId === host.id) v = await c.move(host.token, v.id, chooseMove(v));
    await gone;
    expect(push.received.at(-1)!.status).toBe(410);
    expect(JSON.parse(push.received.at(-1)!.plaintext).type).toBe('yourTurn');
    // The job deletes the row right after the 410 answer.
    await waitFor(async () => (await subscriptions(me)) === 0, 10_000, 'the subscription to be deleted');
    expect((await t.http().get('/v1/players/me/push-subscriptions').set(me.auth).expect(200)).body).toEqual([]);
    push.answer = 201;
  });

  it('lists and deletes over REST and GraphQL; only the owner', async () => {
    const me = await registerPlayer(t, 'Lister');
    const other = await registerPlayer(t, 'NotMine');
    const made = await gql(
      t,
      'mutation($input: CreatePushSubscriptionInput!) { createPushSubscription(input: $input) { id endpoint } }',
      { input: push.subscription('gql') },
      me.token,
    );
    expect(made.errors).toBeUndefined();
    const id = made.data.createPushSubscription.id;
    // The same endpoint again replaces its keys: still one.
    await t.http().post('/v1/players/me/push-subscriptions').set(me.auth).send(push.subscription('gql')).expect(201);
    const listed = await gql(t, '{ myPushSubscriptions { id endpoint } }', {}, me.token);
    expect(listed.data.myPushSubscriptions).toEqual([{ id, endpoint: `${push.base}/push/gql` }]);
    expect((await t.http().get('/v1/players/me/push-subscriptions').set(other.auth).expect(200)).body).toEqual([]);
    await t.http().delete(`/v1/players/me/push-subscriptions/${id}`).set(other.auth).expect(404);
    await t.http().delete(`/v1/players/me/push-subscriptions/not-a-uuid`).set(me.auth).expect(404);
    const del = await gql(t, 'mutation($id: ID!) { deletePushSubscription(id: $id) }', { id }, me.token);
    expect(del.data.deletePushSubscription).toBe(true);
    const again = await t.http().delete(`/v1/players/me/push-subscriptions/${id}`).set(me.auth).expect(404);
    expect(again.body.code).toBe('PUSH_SUBSCRIPTION_NOT_FOUND');
    await t.http().get('/v1/players/me/push-subscriptions').expect(401);
  });

  it('refuses private addresses, http, malformed keys and too many subscriptions, storing nothing', async () => {
    const me = await registerPlayer(strict, 'Strict');
    const ua = createECDH('prime256v1');
    ua.generateKeys();
    const keys = { p256dh: ua.getPublicKey().toString('base64url'), auth: Buffer.alloc(16, 1).toString('base64url') };
    const post = (body: object) => strict.http().post('/v1/players/me/push-subscriptions').set(me.auth).send(body);

    for (const [endpoint, reason] of [
      ['https://127.0.0.1/push/x', 'non-public-address'],
      ['https://10.1.2.3/push/x', 'non-public-address'],
      ['https://[::1]/push/x', 'non-public-address'],
      ['https://169.254.169.254/latest', 'non-public-address'],
      ['http://8.8.8.8/push/x', 'https-required'],
    ]) {
      const r = await post({ endpoint, keys });
      expect([endpoint, r.status, r.body.code, r.body.reason]).toEqual([
        endpoint,
        422,
        'PUSH_ENDPOINT_NOT_ALLOWED',
        reason,
      ]);
    }
    const bad = [
      { p256dh: 'not base64!', auth: keys.auth },
      { p256dh: keys.p256dh.slice(0, 40), auth: keys.auth },
      { p256dh: Buffer.concat([Buffer.from([4]), Buffer.alloc(64, 7)]).toString('base64url'), auth: keys.auth }, // not on the curve
      { p256dh: keys.p256dh, auth: Buffer.alloc(8).toString('base64url') },
    ];
    for (const k of bad) {
      const r = await post({ endpoint: 'https://8.8.8.8/push/x', keys: k });
      expect([k, r.status, r.body.code]).toEqual([k, 400, 'INVALID_PUSH_KEYS']);
    }
    for (const body of [
      { endpoint: 'not a url', keys },
      { endpoint: 'https://8.8.8.8/x' },
      { endpoint: 'https://8.8.8.8/x', keys, extra: 1 },
    ]) {
      const r = await post(body);
      expect([body, r.status, r.body.code]).toEqual([body, 400, 'VALIDATION_FAILED']);
    }
    expect(await subscriptions(me)).toBe(0);

    await post({ endpoint: 'https://8.8.8.8/push/1', keys }).expect(201);
    await post({ endpoint: 'https://8.8.8.8/push/2', keys }).expect(201);
    const over = await post({ endpoint: 'https://8.8.8.8/push/3', keys });
    expect([over.status, over.body.code]).toEqual([409, 'PUSH_SUBSCRIPTION_LIMIT_REACHED']);
    expect(await subscriptions(me)).toBe(2);
  });
});
