/**
 * A software WebAuthn authenticator for e2e tests without a browser: it answers the options the
 * service issues with real registration (fmt "none") and authentication responses, built with
 * node:crypto (an ES256 key pair per credential), a minimal CBOR encoder (attestation object and
 * COSE key), authenticatorData with its flags and signature counter, and clientDataJSON. The
 * responses are the JSON a browser's PublicKeyCredential.toJSON() gives, so the service checks them
 * exactly as it checks a browser's.
 */
import { createHash, generateKeyPairSync, randomBytes, sign, type KeyObject } from 'node:crypto';

type Cbor = number | string | Buffer | Cbor[] | Map<Cbor, Cbor> | { [k: string]: Cbor };

function head(major: number, n: number): Buffer {
  if (n < 24) return Buffer.from([(major << 5) | n]);
  if (n < 0x100) return Buffer.from([(major << 5) | 24, n]);
  if (n < 0x10000) return Buffer.from([(major << 5) | 25, n >> 8, n & 0xff]);
  const b = Buffer.alloc(5);
  b[0] = (major << 5) | 26;
  b.writeUInt32BE(n, 1);
  return b;
}

/** CBOR (RFC 8949) for what WebAuthn needs: integers, byte and text strings, arrays, maps. */
export function cbor(value: Cbor): Buffer {
  if (typeof value === 'number') return value >= 0 ? head(0, value) : head(1, -1 - value);
  if (typeof value === 'string') {
    const b = Buffer.from(value, 'utf8');
    return Buffer.concat([head(3, b.length), b]);
  }
  if (Buffer.isBuffer(value)) return Buffer.concat([head(2, value.length), value]);
  if (Array.isArray(value)) return Buffer.concat([head(4, value.length), ...value.map(cbor)]);
  const entries = value instanceof Map ? [...value.entries()] : Object.entries(value);
  return Buffer.concat([head(5, entries.length), ...entries.flatMap(([k, v]) => [cbor(k), cbor(v)])]);
}

const b64u = (b: Buffer) => b.toString('base64url');
const sha256 = (b: Buffer | string) => createHash('sha256').update(b).digest();

export const FLAGS = { UP: 0x01, UV: 0x04, BE: 0x08, BS: 0x10, AT: 0x40 } as const;

export interface StoredCredential {
  id: Buffer;
  privateKey: KeyObject;
  publicKey: KeyObject;
  userHandle: string;
  counter: number;
}

export class SoftwareAuthenticator {
  readonly credentials: StoredCredential[] = [];

  constructor(
    readonly origin: string,
    /** Counter step per use; 0 for an authenticator that keeps no counter (synced passkeys). */
    readonly counterStep = 1,
  ) {}

  /** Answers PublicKeyCredentialCreationOptionsJSON (a new resident ES256 credential). */
  register(
    options: { challenge: string; rp: { id?: string }; user: { id: string } },
    overrides: { origin?: string; type?: string; flags?: number; rpId?: string } = {},
  ): Record<string, unknown> {
    const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    const jwk = publicKey.export({ format: 'jwk' });
    const cose = cbor(
      new Map<Cbor, Cbor>([
        [1, 2], // kty: EC2
        [3, -7], // alg: ES256
        [-1, 1], // crv: P-256
        [-2, Buffer.from(jwk.x!, 'base64url')],
        [-3, Buffer.from(jwk.y!, 'base64url')],
      ]),
    );
    const id = randomBytes(16);
    const rpId = overrides.rpId ?? options.rp.id ?? 'localhost';
    const credLen = Buffer.alloc(2);
    credLen.writeUInt16BE(id.length);
    const authData = Buffer.concat([
      sha256(rpId),
      Buffer.from([overrides.flags ?? FLAGS.UP | FLAGS.UV | FLAGS.AT]),
      Buffer.alloc(4), // counter 0 at registration
      Buffer.alloc(16), // aaguid: none
      credLen,
      id,
      cose,
    ]);
    const clientDataJSON = Buffer.from(
      JSON.stringify({
        type: overrides.type ?? 'webauthn.create',
        challenge: options.challenge,
        origin: overrides.origin ?? this.origin,
        crossOrigin: false,
      }),
    );
    this.credentials.push({ id, privateKey, publicKey, userHandle: options.user.id, counter: 0 });
    return {
      id: b64u(id),
      rawId: b64u(id),
      type: 'public-key',
      response: {
        clientDataJSON: b64u(clientDataJSON),
        attestationObject: b64u(cbor({ fmt: 'none', attStmt: {}, authData })),
        transports: ['internal'],
      },
      clientExtensionResults: {},
      authenticatorAttachment: 'platform',
    };
  }

  /** Answers PublicKeyCredentialRequestOptionsJSON with `credential` (default: the last registered). */
  authenticate(
    options: { challenge: string; rpId?: string },
    overrides: { credential?: StoredCredential; origin?: string; counter?: number; tamper?: boolean } = {},
  ): Record<string, unknown> {
    const credential = overrides.credential ?? this.credentials[this.credentials.length - 1];
    if (!credential) throw new Error('no credential registered');
    credential.counter = overrides.counter ?? credential.counter + this.counterStep;
    const counter = Buffer.alloc(4);
    counter.writeUInt32BE(credential.counter);
    const authData = Buffer.concat([sha256(options.rpId ?? 'localhost'), Buffer.from([FLAGS.UP | FLAGS.UV]), counter]);
    const clientDataJSON = Buffer.from(
      JSON.stringify({
        type: 'webauthn.get',
        challenge: options.challenge,
        origin: overrides.origin ?? this.origin,
        crossOrigin: false,
      }),
    );
    const signature = sign('sha256', Buffer.concat([authData, sha256(clientDataJSON)]), credential.privateKey);
    if (overrides.tamper) signature[signature.length - 1] ^= 0xff;
    return {
      id: b64u(credential.id),
      rawId: b64u(credential.id),
      type: 'public-key',
      response: {
        clientDataJSON: b64u(clientDataJSON),
        authenticatorData: b64u(authData),
        signature: b64u(signature),
        userHandle: credential.userHandle,
      },
      clientExtensionResults: {},
      authenticatorAttachment: 'platform',
    };
  }
}
