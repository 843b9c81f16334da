/**
 * A local Web Push service for the tests, written independently of the `web-push` library with
 * node:crypto only. It plays both sides a browser would rely on:
 * - the subscriber: an ECDH P-256 key pair and a 16-byte auth secret (what PushManager makes);
 * - the push service: it accepts POST /push/<id>, checks the VAPID authorization (RFC 8292:
 *   `vapid t=<JWT>, k=<public key>`, an ES256 JWT whose `aud` is the endpoint's origin, `exp` in
 *   the next 24 hours, `sub` a mailto: or https: URL), then decrypts the aes128gcm body
 *   (RFC 8188 record, keys derived per RFC 8291) and records the plaintext.
 * `answer` sets the status it replies with (201 by default; 410 = the subscription is gone).
 */
import { createECDH, createPublicKey, createDecipheriv, hkdfSync, randomBytes, verify } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ReceivedPush {
  path: string;
  headers: Record<string, string | string[] | undefined>;
  /** The VAPID public key the request was signed with (k=). */
  vapidKey: string;
  claims: { aud: string; exp: number; sub: string };
  /** The decrypted payload. */
  plaintext: string;
  status: number;
}

export interface TestPushService {
  base: string;
  /** A subscription for this service: PushSubscription.toJSON() as a browser would send it. */
  subscription(id?: string): { endpoint: string; keys: { p256dh: string; auth: string } };
  received: ReceivedPush[];
  /** Requests that failed a check (VAPID or decryption), with why. */
  rejected: string[];
  answer: number;
  /** Resolves at the next request handled (accepted or not). */
  next(): Promise<void>;
  close(): Promise<void>;
}

const b64u = (b: Buffer) => b.toString('base64url');

/** Verifies `vapid t=..., k=...` for `origin`; returns the key and the claims, or throws with why. */
export function checkVapid(header: string | undefined, origin: string) {
  const m = /^vapid t=([A-Za-z0-9_.-]+),\s*k=([A-Za-z0-9_-]+)$/.exec(header ?? '');
  if (!m) throw new Error(`Authorization is not "vapid t=..., k=...": ${header}`);
  const [, jwt, k] = m;
  const [h, p, s] = jwt.split('.');
  const head = JSON.parse(Buffer.from(h, 'base64url').toString());
  if (head.alg !== 'ES256' || head.typ !== 'JWT') throw new Error(`JWT header ${JSON.stringify(head)}`);
  const point = Buffer.from(k, 'base64url');
  if (point.length !== 65 || point[0] !== 4) throw new Error('k is not an uncompressed P-256 point');
  const key = createPublicKey({
    key: { kty: 'EC', crv: 'P-256', x: b64u(point.subarray(1, 33)), y: b64u(point.subarray(33)) },
    format: 'jwk',
  });
  const ok = verify(
    'sha256',
    Buffer.from(`${h}.${p}`),
    { key, dsaEncoding: 'ieee-p1363' },
    Buffer.from(s, 'base64url'),
  );
  if (!ok) throw new Error('the JWT signature does not verify with k');
  const claims = JSON.parse(Buffer.from(p, 'base64url').toString());
  const now = Math.floor(Date.now() / 1000);
  if (claims.aud !== origin) throw new Error(`aud ${claims.aud} is not ${origin}`);
  if (!(claims.exp > now && claims.exp <= now + 24 * 3600)) throw new Error(`exp ${claims.exp} not within 24 h`);
  if (!/^(mailto:|https:)/.test(claims.sub)) throw new Error(`sub ${claims.sub}`);
  return { vapidKey: k, claims };
}

/** Decrypts an aes128gcm Web Push body (RFC 8291 keys, one RFC 8188 record). */
export function decryptAes128gcm(body: Buffer, uaPrivate: ReturnType<typeof createECDH>, auth: Buffer): string {
  const salt = body.subarray(0, 16);
  const rs = body.readUInt32BE(16);
  const idlen = body[20];
  const asPublic = body.subarray(21, 21 + idlen);
  const record = body.subarray(21 + idlen);
  if (idlen !== 65 || record.length > rs) throw new Error(`bad header: idlen ${idlen}, rs ${rs}`);
  const uaPublic = uaPrivate.getPublicKey();
  const ecdhSecret = uaPrivate.computeSecret(asPublic);
  const keyInfo = Buffer.concat([Buffer.from('WebPush: info\0'), uaPublic, asPublic]);
  const ikm = Buffer.from(hkdfSync('sha256', ecdhSecret, auth, keyInfo, 32));
  const cek = Buffer.from(hkdfSync('sha256', ikm, salt, Buffer.from('Content-Encoding: aes128gcm\0'), 16));
  const nonce = Buffer.from(hkdfSync('sha256', ikm, salt, Buffer.from('Content-Encoding: nonce\0'), 12));
  const decipher = createDecipheriv('aes-128-gcm', cek, nonce);
  decipher.setAuthTag(record.subarray(record.length - 16));
  const padded = Buffer.concat([decipher.update(record.subarray(0, record.length - 16)), decipher.final()]);
  // The last record: the data, then the delimiter 0x02, then zero padding.
  let end = padded.length - 1;
  while (end >= 0 && padded[end] === 0) end--;
  if (padded[end] !== 2) throw new Error('no last-record delimiter');
  return padded.subarray(0, end).toString('utf8');
}

export async function startPushService(): Promise<TestPushService> {
  const ua = createECDH('prime256v1');
  ua.generateKeys();
  const auth = randomBytes(16);
  const waiters: Array<() => void> = [];
  const svc: TestPushService = {
    base: '',
    received: [],
    rejected: [],
    answer: 201,
    subscription: (id = 'sub1') => ({
      endpoint: `${svc.base}/push/${id}`,
      keys: { p256dh: b64u(ua.getPublicKey()), auth: b64u(auth) },
    }),
    next: () => new Promise((r) => waiters.push(r)),
    close: () => new Promise((r) => server.close(() => r())),
  };
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      try {
        if (req.method !== 'POST' || !req.url?.startsWith('/push/')) throw new Error(`${req.method} ${req.url}`);
        if (req.headers['content-encoding'] !== 'aes128gcm') throw new Error('Content-Encoding is not aes128gcm');
        if (!req.headers.ttl) throw new Error('no TTL header');
        const { vapidKey, claims } = checkVapid(req.headers.authorization, svc.base);
        const plaintext = decryptAes128gcm(Buffer.concat(chunks), ua, auth);
        svc.received.push({ path: req.url, headers: req.headers, vapidKey, claims, plaintext, status: svc.answer });
        res.writeHead(svc.answer).end();
      } catch (err) {
        svc.rejected.push((err as Error).message);
        res.writeHead(400).end();
      }
      for (const w of waiters.splice(0)) w();
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  svc.base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return svc;
}
