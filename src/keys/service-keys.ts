/**
 * The service's two secrets (docs/operations.md, "Keys"; docs/decisions/0016, 0017):
 * - the Ed25519 key that signs the transparency log's tree heads (LOG_SIGNING_KEY);
 * - the AES-256 keys that encrypt server seeds at rest (SEED_ENCRYPTION_KEYS, newest first).
 *
 * Whenever DATABASE_URL is set both come from configuration (loadConfig refuses to start
 * without them): every instance must sign and decrypt with the same keys. Only the embedded
 * default (no DATABASE_URL) creates them itself, once, in its data directory
 * (<PGLITE_DATA_DIR>/fairdice-keys.json, mode 0600), or in memory when the database is in memory.
 */
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { AppConfig } from '../config/config';

export interface SeedKey {
  /** Stored with every sealed seed, so keys can rotate. */
  id: string;
  /** 32 bytes. */
  key: Buffer;
}

export interface ServiceKeys {
  /** Ed25519 private key (32-byte RFC 8032 seed). */
  logSigningKey: Uint8Array;
  /** The first encrypts; all decrypt. */
  seedKeys: SeedKey[];
  /**
   * The VAPID key pair (RFC 8292) that signs Web Push requests, base64url as the web-push library
   * and PushManager.subscribe's applicationServerKey take them. Absent only in hand-built keys
   * (tests): then Web Push is off.
   */
  vapid?: VapidKeys;
  /** Where they came from (logged at start; never the keys themselves). */
  source: 'configuration' | 'data directory' | 'memory';
}

/** A P-256 key pair: the public key 65 bytes uncompressed, the private key 32 bytes; both base64url. */
export interface VapidKeys {
  publicKey: string;
  privateKey: string;
}

/** A new VAPID key pair (the embedded default generates one once into its keys file). */
export function generateVapidKeys(): VapidKeys {
  const { privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const jwk = privateKey.export({ format: 'jwk' });
  const raw = Buffer.concat([
    Buffer.from([4]),
    Buffer.from(jwk.x as string, 'base64url'),
    Buffer.from(jwk.y as string, 'base64url'),
  ]);
  return { publicKey: raw.toString('base64url'), privateKey: jwk.d as string };
}

export const SERVICE_KEYS = Symbol('SERVICE_KEYS');
export const KEYS_FILE_NAME = 'fairdice-keys.json';

interface KeysFile {
  logSigningKey: string;
  seedEncryptionKeys: Array<{ id: string; key: string }>;
  /** Added to files written before Web Push existed (the file is rewritten once with it). */
  vapid?: VapidKeys;
}

export class KeysError extends Error {}

/** base64url of a 65-byte uncompressed P-256 point, and of a 32-byte private scalar. */
export const VAPID_PUBLIC_KEY_PATTERN = /^B[A-Za-z0-9_-]{86}$/;
export const VAPID_PRIVATE_KEY_PATTERN = /^[A-Za-z0-9_-]{43}$/;

type KeyConfig = Pick<AppConfig, 'LOG_SIGNING_KEY' | 'SEED_ENCRYPTION_KEYS'> &
  Partial<Pick<AppConfig, 'VAPID_PUBLIC_KEY' | 'VAPID_PRIVATE_KEY'>>;

const fromConfig = (config: KeyConfig) => ({
  logSigningKey: config.LOG_SIGNING_KEY ? Buffer.from(config.LOG_SIGNING_KEY, 'hex') : undefined,
  seedKeys: config.SEED_ENCRYPTION_KEYS?.map((k) => ({ id: k.id, key: Buffer.from(k.key, 'hex') })),
  vapid:
    config.VAPID_PUBLIC_KEY && config.VAPID_PRIVATE_KEY
      ? { publicKey: config.VAPID_PUBLIC_KEY, privateKey: config.VAPID_PRIVATE_KEY }
      : undefined,
});

/**
 * The keys to run with. `dataDir`: the embedded database's data directory (null = in memory);
 * ignored when the database is external, where configuration must hold both keys.
 */
export function resolveServiceKeys(
  config: KeyConfig & Pick<AppConfig, 'embeddedDatabase'>,
  dataDir: string | null,
): ServiceKeys {
  const configured = fromConfig(config);
  if (configured.logSigningKey && configured.seedKeys && (configured.vapid || !config.embeddedDatabase)) {
    return {
      logSigningKey: configured.logSigningKey,
      seedKeys: configured.seedKeys,
      vapid: configured.vapid,
      source: 'configuration',
    };
  }
  if (!config.embeddedDatabase) {
    // loadConfig already refuses this; a second guard for callers that build the config by hand.
    throw new KeysError('LOG_SIGNING_KEY and SEED_ENCRYPTION_KEYS are required when DATABASE_URL is set');
  }
  let stored: KeysFile;
  let source: ServiceKeys['source'] = 'memory';
  const generate = (): KeysFile => ({
    logSigningKey: randomBytes(32).toString('hex'),
    seedEncryptionKeys: [{ id: `local-${randomBytes(4).toString('hex')}`, key: randomBytes(32).toString('hex') }],
    vapid: generateVapidKeys(),
  });
  if (dataDir) {
    source = 'data directory';
    const dir = resolve(dataDir);
    const file = join(dir, KEYS_FILE_NAME);
    if (existsSync(file)) {
      stored = parseKeysFile(readFileSync(file, 'utf8'), file);
      if (!stored.vapid) {
        // A file from before Web Push: add a VAPID pair once (written beside it, then renamed over it).
        stored = { ...stored, vapid: generateVapidKeys() };
        writeFileSync(`${file}.tmp`, JSON.stringify(stored, null, 2) + '\n', { mode: 0o600 });
        renameSync(`${file}.tmp`, file);
      }
    } else {
      mkdirSync(dir, { recursive: true });
      stored = generate();
      // 'wx': never overwrite keys that appeared meanwhile (they would orphan encrypted seeds).
      writeFileSync(file, JSON.stringify(stored, null, 2) + '\n', { mode: 0o600, flag: 'wx' });
    }
  } else {
    stored = generate();
  }
  return {
    logSigningKey: configured.logSigningKey ?? Buffer.from(stored.logSigningKey, 'hex'),
    seedKeys:
      configured.seedKeys ?? stored.seedEncryptionKeys.map((k) => ({ id: k.id, key: Buffer.from(k.key, 'hex') })),
    vapid: configured.vapid ?? stored.vapid,
    source: configured.logSigningKey || configured.seedKeys ? 'configuration' : source,
  };
}

function parseKeysFile(text: string, file: string): KeysFile {
  let parsed: KeysFile;
  try {
    parsed = JSON.parse(text) as KeysFile;
  } catch {
    throw new KeysError(`${file} is not JSON`);
  }
  const hex64 = /^[0-9a-f]{64}$/;
  if (
    typeof parsed?.logSigningKey !== 'string' ||
    !hex64.test(parsed.logSigningKey) ||
    !Array.isArray(parsed.seedEncryptionKeys) ||
    parsed.seedEncryptionKeys.length === 0 ||
    parsed.seedEncryptionKeys.some((k) => typeof k?.id !== 'string' || typeof k.key !== 'string' || !hex64.test(k.key))
  ) {
    throw new KeysError(`${file} does not hold { logSigningKey, seedEncryptionKeys: [{ id, key }] } as 64 hex digits`);
  }
  if (
    parsed.vapid !== undefined &&
    (!VAPID_PUBLIC_KEY_PATTERN.test(parsed.vapid?.publicKey ?? '') ||
      !VAPID_PRIVATE_KEY_PATTERN.test(parsed.vapid?.privateKey ?? ''))
  )
    throw new KeysError(`${file} holds a vapid entry that is not { publicKey, privateKey } in base64url`);
  return parsed;
}
