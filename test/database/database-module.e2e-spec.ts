/**
 * DatabaseModule as the app uses it: the pg pool on the configured database, closed by
 * app.close(). The service loads no Prisma client (decision 0162): every query goes through it.
 */
import { Test } from '@nestjs/testing';
import { randomUUID } from 'node:crypto';
import type { Pool } from 'pg';
import { DATABASE_OPTIONS, DatabaseModule, PG_POOL } from '../../src/database/database.module';
import { sha256Hex } from '../../src/database/migrate';
import { dbOr, inTransaction } from '../../src/database/unit-of-work';
import { testDatabaseUrl, testPoolMax } from '../helpers/database';

jest.setTimeout(60_000);

describe('DatabaseModule', () => {
  it('provides PG_POOL on the configured database, and closes it', async () => {
    const moduleRef = await Test.createTestingModule({
      imports: [DatabaseModule.forRoot({ url: testDatabaseUrl(), poolMax: testPoolMax() })],
    }).compile();
    const app = await moduleRef.init(); // an application context; no HTTP adapter needed

    const pool = app.get<Pool>(PG_POOL);
    expect(app.get(DATABASE_OPTIONS)).toEqual({ url: testDatabaseUrl(), poolMax: testPoolMax() });
    expect(pool.options.max).toBe(testPoolMax());

    const id = randomUUID();
    await pool.query(`INSERT INTO players (id, display_name, token_hash, updated_at) VALUES ($1, $2, $3, now())`, [
      id,
      'module',
      sha256Hex(id),
    ]);
    const { rows } = await pool.query('SELECT display_name FROM players WHERE id = $1', [id]);
    expect(rows).toEqual([{ display_name: 'module' }]);

    // A transaction, then queries side by side, on a pool of poolMax connections.
    await inTransaction(pool, async () => {
      await dbOr(pool).query(`UPDATE players SET display_name = 'renamed' WHERE id = $1`, [id]);
    });
    const [a, b] = await Promise.all([
      pool.query<{ display_name: string }>('SELECT display_name FROM players WHERE id = $1', [id]),
      pool.query('SELECT count(*)::int AS n FROM players WHERE id = $1', [id]),
    ]);
    expect(a.rows[0].display_name).toBe('renamed');
    expect(b.rows[0].n).toBe(1);

    await app.close();
    expect(pool.ended).toBe(true);
  });

  it('forRootAsync takes its options from a factory', async () => {
    const moduleRef = await Test.createTestingModule({
      imports: [
        DatabaseModule.forRootAsync({ useFactory: () => Promise.resolve({ url: testDatabaseUrl(), poolMax: 1 }) }),
      ],
    }).compile();
    const app = await moduleRef.init();
    const pool = app.get<Pool>(PG_POOL);
    expect(pool.options.max).toBe(1);
    await expect(pool.query('SELECT 1 AS one')).resolves.toMatchObject({ rows: [{ one: 1 }] });
    await app.close();
  });
});
