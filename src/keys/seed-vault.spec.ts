import { createPrivateKey, createPublicKey, randomBytes, sign, verify } from 'node:crypto';
import { mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SeedVault } from './seed-vault';
import {
  generateVapidKeys,
  KEYS_FILE_NAME,
  resolveServiceKeys,
  VAPID_PRIVATE_KEY_PATTERN,
  VAPID_PUBLIC_KEY_PATTERN,
  type ServiceKeys,
} from './service-keys';

const keys = (...ids: string[]): ServiceKeys => ({
  logSigningKey: randomBytes(32),
  seedKeys: ids.map((id) => ({ id, key: randomBytes(32) })),
  source: 'configuration',
});
const game = '0f8fad5b-d9cb-469f-a165-70867728950e';
const seed = randomBytes(32).toString('hex');

describe('SeedVault (AES-256-GCM, key ids)', () => {
  it('seals a seed into a form that shows no trace of it, and opens it again', () => {
    const vault = new SeedVault(keys('k1'));
    const sealed = vault.seal(game, seed);
    expect(sealed).toMatch(/^enc:v1:k1:[A-Za-z0-9_-]{16}:[A-Za-z0-9_-]{64}$/);
    for (const form of [
      seed,
      Buffer.from(seed, 'hex').toString('base64'),
      Buffer.from(seed, 'hex').toString('base64url'),
    ])
      expect(sealed).not.toContain(form);
    expect(vault.open(game, sealed)).toBe(seed);
    expect(vault.seal(game, seed)).not.toBe(sealed); // a fresh IV each time
  });

  it('refuses a sealed seed moved to another game, altered, or under an unknown key', () => {
    const vault = new SeedVault(keys('k1'));
    const sealed = vault.seal(game, seed);
    expect(() => vault.open('7c9e6679-7425-40de-944b-e07fc1f90ae7', sealed)).toThrow(/does not open/);
    const last = sealed.at(-1) === 'A' ? 'B' : 'A';
    expect(() => vault.open(game, sealed.slice(0, -1) + last)).toThrow(/does not open|bad length/);
    expect(() => new SeedVault(keys('k2')).open(game, sealed)).toThrow(/unknown key id k1/);
    expect(() => vault.open(game, 'garbage')).toThrow(/neither sealed nor/);
  });

  it('rotates: the first key seals, every key opens; plaintext from before encryption still opens', () => {
    const old = keys('k1');
    const sealedOld = new SeedVault(old).seal(game, seed);
    const rotated = new SeedVault({ ...old, seedKeys: [{ id: 'k2', key: randomBytes(32) }, ...old.seedKeys] });
    expect(rotated.open(game, sealedOld)).toBe(seed);
    expect(rotated.isCurrent(sealedOld)).toBe(false);
    expect(rotated.seal(game, seed)).toMatch(/^enc:v1:k2:/);
    expect(rotated.open(game, seed)).toBe(seed);
  });
});

describe('resolveServiceKeys', () => {
  const hex = (n: number) => randomBytes(n).toString('hex');

  it('takes both keys from configuration whenever DATABASE_URL is set, and refuses without them', () => {
    const k = resolveServiceKeys(
      { embeddedDatabase: false, LOG_SIGNING_KEY: hex(32), SEED_ENCRYPTION_KEYS: [{ id: 'a', key: hex(32) }] },
      '/nonexistent',
    );
    expect(k.source).toBe('configuration');
    expect(() =>
      resolveServiceKeys(
        { embeddedDatabase: false, LOG_SIGNING_KEY: undefined, SEED_ENCRYPTION_KEYS: undefined },
        null,
      ),
    ).toThrow(/required when DATABASE_URL is set/);
  });

  it('embedded: generates keys once into the data directory (0600) and reuses them', () => {
    const dir = mkdtempSync(join(tmpdir(), 'fairdice-keys-'));
    const cfg = { embeddedDatabase: true, LOG_SIGNING_KEY: undefined, SEED_ENCRYPTION_KEYS: undefined };
    const first = resolveServiceKeys(cfg, dir);
    expect(first.source).toBe('data directory');
    const file = join(dir, KEYS_FILE_NAME);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(JSON.parse(readFileSync(file, 'utf8')).logSigningKey).toBe(Buffer.from(first.logSigningKey).toString('hex'));
    const again = resolveServiceKeys(cfg, dir);
    expect(Buffer.from(again.logSigningKey)).toEqual(Buffer.from(first.logSigningKey));
    expect(again.seedKeys).toEqual(first.seedKeys);
    // in memory: fresh keys every time, nothing written
    expect(resolveServiceKeys(cfg, null).source).toBe('memory');
  });

  it('embedded: a VAPID pair is generated with the keys, kept, and added once to a keys file from before Web Push', () => {
    const dir = mkdtempSync(join(tmpdir(), 'fairdice-keys-'));
    const cfg = { embeddedDatabase: true, LOG_SIGNING_KEY: undefined, SEED_ENCRYPTION_KEYS: undefined };
    const first = resolveServiceKeys(cfg, dir);
    expect(first.vapid?.publicKey).toMatch(VAPID_PUBLIC_KEY_PATTERN);
    expect(first.vapid?.privateKey).toMatch(VAPID_PRIVATE_KEY_PATTERN);
    expect(resolveServiceKeys(cfg, dir).vapid).toEqual(first.vapid);
    // A file written before Web Push: its keys are kept, a pair is added, and then reused.
    const file = join(dir, KEYS_FILE_NAME);
    const old = JSON.parse(readFileSync(file, 'utf8'));
    delete old.vapid;
    writeFileSync(file, JSON.stringify(old));
    const upgraded = resolveServiceKeys(cfg, dir);
    expect(Buffer.from(upgraded.logSigningKey).toString('hex')).toBe(old.logSigningKey);
    expect(upgraded.vapid).toBeDefined();
    expect(upgraded.vapid).not.toEqual(first.vapid);
    expect(JSON.parse(readFileSync(file, 'utf8')).vapid).toEqual(upgraded.vapid);
    expect(resolveServiceKeys(cfg, dir).vapid).toEqual(upgraded.vapid);
    // A corrupt pair is refused, not replaced.
    writeFileSync(file, JSON.stringify({ ...old, vapid: { publicKey: 'x', privateKey: 'y' } }));
    expect(() => resolveServiceKeys(cfg, dir)).toThrow(/vapid/);
  });

  it('the generated VAPID pair is a P-256 key pair that signs and verifies', () => {
    const { publicKey, privateKey } = generateVapidKeys();
    const point = Buffer.from(publicKey, 'base64url');
    const jwk = {
      kty: 'EC',
      crv: 'P-256',
      x: point.subarray(1, 33).toString('base64url'),
      y: point.subarray(33).toString('base64url'),
    };
    const signature = sign(
      'sha256',
      Buffer.from('m'),
      createPrivateKey({ key: { ...jwk, d: privateKey }, format: 'jwk' }),
    );
    expect(verify('sha256', Buffer.from('m'), createPublicKey({ key: jwk, format: 'jwk' }), signature)).toBe(true);
  });
});
