/**
 * Upgrading a database from before the log and the encryption (docs/decisions/0016, 0017): the
 * migration logs every existing game (pending leaves: the commitment; the final head of ended
 * games); the first start seals every plaintext seed and integrates the leaves. Rotating the seed
 * key (new key first) reseals every seed at the next start; a start without the key of stored
 * seeds is refused with a one-line reason.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { cpSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';
import { findMigrationsDir, migrate } from '../../src/database/migrate';
import { SeedVault } from '../../src/keys/seed-vault';
import { encodeLeaf, fromHex, leafHash, verifyInclusion } from '@fairdice/core/fairness/transparency-log';
import { createTestApp } from '../helpers/app';
import { createFreshDatabase, type FreshDatabase, testDatabaseUrl, testDbKind } from '../helpers/database';

jest.setTimeout(180_000);

const LOG_MIGRATION = '20261203000000_transparency_log';

describe('upgrading a database from before the transparency log and sealed seeds', () => {
  let db: FreshDatabase;
  let dir: string;
  const open = { id: randomUUID(), seed: randomBytes(32).toString('hex'), commitment: 'aa'.repeat(32) };
  const ended = {
    id: randomUUID(),
    seed: randomBytes(32).toString('hex'),
    commitment: 'bb'.repeat(32),
    head: 'cc'.repeat(32),
  };
  const key = (id: string) => `${id}:${randomBytes(32).toString('hex')}`;
  const k1 = key('k1');
  const k2 = key('k2');

  async function sql<T = any>(text: string, params: unknown[] = []): Promise<T[]> {
    const c = new Client({ connectionString: db.url });
    await c.connect();
    try {
      return (await c.query(text, params)).rows as T[];
    } finally {
      await c.end();
    }
  }
  const app = (keys: string) =>
    createTestApp({
      databaseUrl: db.url,
      env: { SEED_ENCRYPTION_KEYS: keys, LOG_INTEGRATION_INTERVAL_MS: '3600000' },
    });

  beforeAll(async () => {
    db = await createFreshDatabase(testDbKind() === 'postgres' ? testDatabaseUrl() : undefined, 'upgrade');
    dir = mkdtempSync(join(tmpdir(), 'fairdice-upgrade-'));
    const all = findMigrationsDir();
    for (const name of readdirSync(all))
      if (name < LOG_MIGRATION || name === 'migration_lock.toml')
        cpSync(join(all, name), join(dir, name), { recursive: true });
    await migrate(db.url, { migrationsDir: dir });
    const player = randomUUID();
    await sql(`INSERT INTO players (id, display_name, token_hash, updated_at) VALUES ($1, 'Old', $2, now())`, [
      player,
      randomBytes(32).toString('hex'),
    ]);
    for (const g of [open, ended]) {
      await sql(
        `INSERT INTO games (id, rule_set, family, options, seat_count, visibility, creator_id, status, version, server_seed, server_seed_hash, updated_at, finished_at)
         VALUES ($1, 'simple', 'five-dice', '{}', 1, 'public', $2, $3, $4, $5, $6, now(), $7)`,
        [
          g.id,
          player,
          g === ended ? 'abandoned' : 'open',
          g === ended ? 1 : 0,
          g.seed,
          g.commitment,
          g === ended ? new Date() : null,
        ],
      );
    }
    await sql(
      `INSERT INTO game_events (game_id, version, type, payload, prev_hash, hash) VALUES ($1, 1, 'gameCreated', '{}', $2, $3)`,
      [ended.id, ended.commitment, ended.head],
    );
  });
  afterAll(async () => {
    rmSync(dir, { recursive: true, force: true });
    await db?.drop();
  });

  it('the migration logs existing games; the first start seals their seeds and integrates the leaves', async () => {
    await migrate(db.url);
    const leaves = await sql(
      `SELECT game_id, kind, event_version, value, leaf_index FROM transparency_log_leaves ORDER BY id`,
    );
    expect(leaves.map((l) => [l.game_id, l.kind, l.event_version, l.value, l.leaf_index])).toEqual(
      expect.arrayContaining([
        [open.id, 1, 0, open.commitment, null],
        [ended.id, 1, 0, ended.commitment, null],
        [ended.id, 2, 1, ended.head, null],
      ]),
    );
    expect(leaves).toHaveLength(3);

    const t = await app(k1);
    try {
      const rows = await sql<{ id: string; server_seed: string }>('SELECT id, server_seed FROM games');
      for (const r of rows) expect(r.server_seed).toMatch(/^enc:v1:k1:/);
      const vault = t.app.get(SeedVault);
      expect(vault.open(open.id, rows.find((r) => r.id === open.id)!.server_seed)).toBe(open.seed);
      expect(vault.open(ended.id, rows.find((r) => r.id === ended.id)!.server_seed)).toBe(ended.seed);
      const proof = (await t.http().get(`/v1/games/${ended.id}/log-proof`).expect(200)).body;
      expect(proof.entries.map((e: any) => [e.kind, e.value])).toEqual([
        ['created', ended.commitment],
        ['ended', ended.head],
      ]);
      for (const e of proof.entries) {
        const leaf = encodeLeaf({
          kind: e.kind,
          timestamp: e.timestamp,
          gameId: ended.id,
          eventVersion: e.eventVersion,
          value: e.value,
        });
        expect(
          verifyInclusion(
            e.leafIndex,
            proof.treeHead.treeSize,
            leafHash(leaf),
            e.inclusionProof.map(fromHex),
            fromHex(proof.treeHead.rootHash),
          ),
        ).toBe(true);
      }
    } finally {
      await t.close();
    }
  });

  it('rotation: with a new key first, the next start reseals every seed; without the old key, a start is refused', async () => {
    const t = await app(`${k2},${k1}`);
    try {
      const rows = await sql<{ id: string; server_seed: string }>('SELECT id, server_seed FROM games');
      for (const r of rows) expect(r.server_seed).toMatch(/^enc:v1:k2:/);
      expect(t.app.get(SeedVault).open(open.id, rows.find((r) => r.id === open.id)!.server_seed)).toBe(open.seed);
    } finally {
      await t.close();
    }
    // k1 is no longer needed
    const only2 = await app(k2);
    await only2.close();
    const before = await sql('SELECT id, server_seed FROM games ORDER BY id');
    await expect(app(key('k3'))).rejects.toThrow(
      /sealed under key id\(s\) k2, which SEED_ENCRYPTION_KEYS does not hold/,
    );
    expect(await sql('SELECT id, server_seed FROM games ORDER BY id')).toEqual(before);
  });
});
