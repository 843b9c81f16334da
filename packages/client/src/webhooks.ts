/**
 * Verifies a webhook delivery (Standard Webhooks, as the service signs them:
 * src/async/webhooks/webhooks.service.ts, docs/async.md):
 *
 *   webhook-id:        the delivery id (the same on every attempt: de-duplicate with it)
 *   webhook-timestamp: Unix seconds when this attempt was signed
 *   webhook-signature: space-separated `v1,<base64 HMAC-SHA256>` entries
 *   HMAC key:          base64-decoded part of the secret after `whsec_`
 *   signed content:    `${webhook-id}.${webhook-timestamp}.${raw body}`
 *
 * Uses Web Crypto (`crypto.subtle`): Node >= 19 (Node 18 with --experimental-global-webcrypto),
 * Deno, Bun, Cloudflare Workers and browsers. Pass the raw body exactly as received: a body
 * re-serialised from parsed JSON does not verify.
 */

/** The JSON body of a delivery. */
export interface WebhookPayload {
  type: 'turn.started' | 'game.started' | 'game.finished';
  /** ISO 8601 time of the notification. */
  timestamp: string;
  data: { gameId: string; version: number; [field: string]: unknown };
}

export class WebhookVerificationError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'WebhookVerificationError';
  }
}

type HeaderSource = Headers | Record<string, string | string[] | undefined>;

function header(headers: HeaderSource, name: string): string | undefined {
  if (typeof (headers as Headers).get === 'function') return (headers as Headers).get(name) ?? undefined;
  const record = headers as Record<string, string | string[] | undefined>;
  const key = Object.keys(record).find((k) => k.toLowerCase() === name);
  const value = key === undefined ? undefined : record[key];
  return Array.isArray(value) ? value[0] : value;
}

function base64ToBytes(base64: string): Uint8Array<ArrayBuffer> {
  const binary = atob(base64);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

function bytesToBase64(bytes: Uint8Array): string {
  let binary = '';
  for (const b of bytes) binary += String.fromCharCode(b);
  return btoa(binary);
}

/** Compares two strings without an early exit (no timing hint of how much matched). */
function constantTimeEqual(a: string, b: string): boolean {
  if (a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= a.charCodeAt(i) ^ b.charCodeAt(i);
  return diff === 0;
}

export interface VerifyWebhookOptions {
  /** Largest accepted distance between webhook-timestamp and now (default 300 s: replay protection). */
  toleranceSeconds?: number;
  /** The current time (default Date.now()). */
  now?: Date;
}

/**
 * Returns the parsed payload when the signature is valid and fresh; throws WebhookVerificationError
 * otherwise. `secret` is the `whsec_...` value `POST /v1/webhooks` returned.
 */
export async function verifyWebhook(
  secret: string,
  headers: HeaderSource,
  rawBody: string,
  options: VerifyWebhookOptions = {},
): Promise<WebhookPayload> {
  const id = header(headers, 'webhook-id');
  const timestamp = header(headers, 'webhook-timestamp');
  const signatures = header(headers, 'webhook-signature');
  if (!id || !timestamp || !signatures)
    throw new WebhookVerificationError('missing webhook-id, -timestamp or -signature');
  if (!/^\d+$/.test(timestamp)) throw new WebhookVerificationError('webhook-timestamp is not Unix seconds');
  const now = Math.floor((options.now ?? new Date()).getTime() / 1000);
  if (Math.abs(now - Number(timestamp)) > (options.toleranceSeconds ?? 300))
    throw new WebhookVerificationError('webhook-timestamp is too old or in the future');

  let keyBytes: Uint8Array<ArrayBuffer>;
  try {
    keyBytes = base64ToBytes(secret.startsWith('whsec_') ? secret.slice('whsec_'.length) : secret);
  } catch {
    throw new WebhookVerificationError('the secret is not whsec_<base64>');
  }
  const key = await globalThis.crypto.subtle.importKey('raw', keyBytes, { name: 'HMAC', hash: 'SHA-256' }, false, [
    'sign',
  ]);
  const mac = await globalThis.crypto.subtle.sign(
    'HMAC',
    key,
    new TextEncoder().encode(`${id}.${timestamp}.${rawBody}`),
  );
  const expected = bytesToBase64(new Uint8Array(mac));
  const valid = signatures
    .split(' ')
    .map((entry) => entry.split(','))
    .some(
      ([version, signature]) => version === 'v1' && signature !== undefined && constantTimeEqual(signature, expected),
    );
  if (!valid) throw new WebhookVerificationError('no valid v1 signature');
  return JSON.parse(rawBody) as WebhookPayload;
}
