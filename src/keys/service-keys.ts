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
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
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
  /** Where they came from (logged at start; never the keys themselves). */
  source: 'configuration' | 'data directory' | 'memory';
}

export const SERVICE_KEYS = Symbol('SERVICE_KEYS');
export const KEYS_FILE_NAME = 'fairdice-keys.json';

interface KeysFile {
  logSigningKey: string;
  seedEncryptionKeys: Array<{ id: string; key: string }>;
}

export class KeysError extends Error {}

const fromConfig = (config: Pick<AppConfig, 'LOG_SIGNING_KEY' | 'SEED_ENCRYPTION_KEYS'>) => ({
  logSigningKey: config.LOG_SIGNING_KEY ? Buffer.from(config.LOG_SIGNING_KEY, 'hex') : undefined,
  seedKeys: config.SEED_ENCRYPTION_KEYS?.map((k) => ({ id: k.id, key: Buffer.from(k.key, 'hex') })),
});

/**
 * The keys to run with. `dataDir`: the embedded database's data directory (null = in memory);
 * ignored when the database is external, where configuration must hold both keys.
 */
export function resolveServiceKeys(
  config: Pick<AppConfig, 'LOG_SIGNING_KEY' | 'SEED_ENCRYPTION_KEYS' | 'embeddedDatabase'>,
  dataDir: string | null,
): ServiceKeys {
  const configured = fromConfig(config);
  if (configured.logSigningKey && configured.seedKeys) {
    return { logSigningKey: configured.logSigningKey, seedKeys: configured.seedKeys, source: 'configuration' };
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
  });
  if (dataDir) {
    source = 'data directory';
    const dir = resolve(dataDir);
    const file = join(dir, KEYS_FILE_NAME);
    if (existsSync(file)) {
      stored = parseKeysFile(readFileSync(file, 'utf8'), file);
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
  return parsed;
}
