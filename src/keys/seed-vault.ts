/**
 * Server seeds at rest (docs/decisions/0017-server-seeds-encrypted-at-rest.md): games.server_seed
 * holds "enc:v1:<key id>:<iv>:<ciphertext>" — AES-256-GCM (node:crypto) with a fresh 12-byte IV,
 * the 16-byte tag appended to the ciphertext, both base64url; the additional authenticated data
 * binds the ciphertext to its game ("fairdice/server-seed/v1:<game id>"), so a sealed seed copied
 * to another game's row does not open.
 *
 * At start (sealAtRest) every row that is still plaintext (games created before this version) or
 * sealed under a key other than the first configured one is (re)sealed with the first key, in
 * batches, each row by compare-and-set (safe with several instances starting at once). A row
 * sealed under a key id that is not configured stops the start: its game could never roll again.
 */
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import type { Pool } from 'pg';
import { SeedKey, SERVICE_KEYS, ServiceKeys } from './service-keys';

export const SEALED_PREFIX = 'enc:v1:';
const SEALED = /^enc:v1:([A-Za-z0-9_-]{1,32}):([A-Za-z0-9_-]{16}):([A-Za-z0-9_-]+)$/;
const PLAIN_SEED = /^[0-9a-f]{64}$/;
const aad = (gameId: string) => Buffer.from(`fairdice/server-seed/v1:${gameId}`, 'utf8');

export class SeedVaultError extends Error {}

@Injectable()
export class SeedVault {
  private readonly active: SeedKey;
  private readonly byId: Map<string, SeedKey>;

  constructor(@Inject(SERVICE_KEYS) keys: ServiceKeys) {
    if (keys.seedKeys.length === 0) throw new SeedVaultError('no seed encryption key configured');
    for (const k of keys.seedKeys)
      if (k.key.length !== 32) throw new SeedVaultError(`seed encryption key ${k.id} must be 32 bytes`);
    this.active = keys.seedKeys[0];
    this.byId = new Map(keys.seedKeys.map((k) => [k.id, k]));
  }

  /** The id of the key new seeds are sealed with. */
  get activeKeyId(): string {
    return this.active.id;
  }

  /** Seals a server seed (64 lowercase hex) for the games row of `gameId`. */
  seal(gameId: string, seedHex: string): string {
    if (!PLAIN_SEED.test(seedHex)) throw new SeedVaultError('a server seed is 64 lowercase hex digits');
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.active.key, iv);
    cipher.setAAD(aad(gameId));
    const ct = Buffer.concat([cipher.update(Buffer.from(seedHex, 'hex')), cipher.final(), cipher.getAuthTag()]);
    return `${SEALED_PREFIX}${this.active.id}:${iv.toString('base64url')}:${ct.toString('base64url')}`;
  }

  /**
   * The seed (64 lowercase hex) of a stored value: sealed, or plaintext from before encryption
   * (until the start-up step has sealed it). Throws when the key is unknown or the value was altered.
   */
  open(gameId: string, stored: string): string {
    if (PLAIN_SEED.test(stored)) return stored;
    const m = SEALED.exec(stored);
    if (!m) throw new SeedVaultError(`game ${gameId}: server_seed is neither sealed nor a plaintext seed`);
    const key = this.byId.get(m[1]);
    if (!key) throw new SeedVaultError(`game ${gameId}: server seed sealed under unknown key id ${m[1]}`);
    const iv = Buffer.from(m[2], 'base64url');
    const data = Buffer.from(m[3], 'base64url');
    if (data.length !== 32 + 16) throw new SeedVaultError(`game ${gameId}: sealed server seed has a bad length`);
    const decipher = createDecipheriv('aes-256-gcm', key.key, iv);
    decipher.setAAD(aad(gameId));
    decipher.setAuthTag(data.subarray(32));
    try {
      return Buffer.concat([decipher.update(data.subarray(0, 32)), decipher.final()]).toString('hex');
    } catch {
      throw new SeedVaultError(`game ${gameId}: sealed server seed does not open (wrong key or altered)`);
    }
  }

  /** Is `stored` sealed under the active key? */
  isCurrent(stored: string): boolean {
    return stored.startsWith(`${SEALED_PREFIX}${this.active.id}:`);
  }

  /**
   * Seals every plaintext row and reseals every row under an older key with the active one.
   * Returns the number of rows changed. Refuses (throws) when a row's key id is not configured.
   */
  async sealAtRest(pool: Pool, batchSize = 500): Promise<{ sealed: number }> {
    const unknown = await pool.query<{ key_id: string; n: string }>(
      `SELECT split_part(server_seed, ':', 3) AS key_id, count(*) AS n FROM games
        WHERE server_seed LIKE 'enc:v1:%' AND NOT (split_part(server_seed, ':', 3) = ANY($1::text[]))
        GROUP BY 1`,
      [[...this.byId.keys()]],
    );
    if (unknown.rows.length > 0) {
      throw new SeedVaultError(
        `server seeds of ${unknown.rows.reduce((n, r) => n + Number(r.n), 0)} game(s) are sealed under key id(s) ` +
          `${unknown.rows.map((r) => r.key_id).join(', ')}, which SEED_ENCRYPTION_KEYS does not hold; add the key(s) back ` +
          `(after the new one) and start again`,
      );
    }
    // One pass in id order (keyset pagination): two instances started with different first keys
    // (a rotation half rolled out) cannot make each other loop.
    let sealed = 0;
    let after = '00000000-0000-0000-0000-000000000000';
    for (;;) {
      const { rows } = await pool.query<{ id: string; server_seed: string }>(
        `SELECT id, server_seed FROM games WHERE id > $1 AND server_seed NOT LIKE $2 ORDER BY id LIMIT $3`,
        [after, `${SEALED_PREFIX}${this.active.id}:%`, batchSize],
      );
      if (rows.length === 0) return { sealed };
      after = rows[rows.length - 1].id;
      const updates = rows.map((r) => ({
        id: r.id,
        old: r.server_seed,
        sealed: this.seal(r.id, this.open(r.id, r.server_seed)),
      }));
      const res = await pool.query(
        `UPDATE games g SET server_seed = x.sealed
           FROM jsonb_to_recordset($1::jsonb) AS x(id uuid, old text, sealed text)
          WHERE g.id = x.id AND g.server_seed = x.old`,
        [JSON.stringify(updates)],
      );
      sealed += res.rowCount ?? 0;
    }
  }
}
