import { Webhook } from 'standardwebhooks';
import { verifyWebhook, WebhookVerificationError } from './webhooks';

// The service signs with the standardwebhooks library (src/async/webhooks/webhooks.service.ts):
// it is the oracle here.
const secret = 'whsec_' + Buffer.from('0123456789abcdef0123456789abcdef').toString('base64');
const body = JSON.stringify({
  type: 'turn.started',
  timestamp: '2026-12-01T04:00:00.000Z',
  data: { gameId: 'g1', version: 5, seat: 1 },
});
const now = new Date('2026-12-01T04:00:10Z');

function signed(at = now, payload = body, key = secret) {
  return {
    'webhook-id': 'msg_d1',
    'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
    'webhook-signature': new Webhook(key).sign('msg_d1', at, payload),
  };
}

describe('verifyWebhook (Standard Webhooks with Web Crypto)', () => {
  it('accepts what the service signs and returns the payload (plain record or Headers)', async () => {
    await expect(verifyWebhook(secret, signed(), body, { now })).resolves.toEqual(JSON.parse(body));
    await expect(verifyWebhook(secret, new Headers(signed()), body, { now })).resolves.toMatchObject({
      type: 'turn.started',
    });
    const upper = Object.fromEntries(Object.entries(signed()).map(([k, v]) => [k.toUpperCase(), [v]]));
    await expect(verifyWebhook(secret, upper, body, { now })).resolves.toMatchObject({ data: { version: 5 } });
  });

  it('accepts when one of several signatures is valid (secret rotation)', async () => {
    const headers = signed();
    headers['webhook-signature'] = `v1,AAAA${headers['webhook-signature'].slice(7)} ${headers['webhook-signature']}`;
    await expect(verifyWebhook(secret, headers, body, { now })).resolves.toBeDefined();
  });

  it.each([
    ['a changed body', () => [secret, signed(), body.replace('"seat":1', '"seat":0')]],
    [
      'another secret',
      () => ['whsec_' + Buffer.from('another secret of 32 bytes......').toString('base64'), signed(), body],
    ],
    ['a changed id', () => [secret, { ...signed(), 'webhook-id': 'msg_d2' }, body]],
    [
      'a signature of another version',
      () => [secret, { ...signed(), 'webhook-signature': signed()['webhook-signature'].replace('v1,', 'v2,') }, body],
    ],
    ['no signature header', () => [secret, { ...signed(), 'webhook-signature': '' }, body]],
    ['a timestamp that is not a number', () => [secret, { ...signed(), 'webhook-timestamp': 'soon' }, body]],
  ] as Array<[string, () => [string, Record<string, string>, string]]>)('refuses %s', async (_name, args) => {
    const [key, headers, payload] = args();
    await expect(verifyWebhook(key, headers, payload, { now })).rejects.toBeInstanceOf(WebhookVerificationError);
  });

  it('refuses a delivery signed more than the tolerance ago or ahead (replays)', async () => {
    const old = signed(new Date(now.getTime() - 301_000));
    await expect(verifyWebhook(secret, old, body, { now })).rejects.toThrow('too old');
    await expect(verifyWebhook(secret, old, body, { now, toleranceSeconds: 600 })).resolves.toBeDefined();
    await expect(verifyWebhook(secret, signed(new Date(now.getTime() + 301_000)), body, { now })).rejects.toThrow(
      WebhookVerificationError,
    );
  });
});
