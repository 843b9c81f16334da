/**
 * DatabaseModule as the app uses it: PrismaService and the raw pg pool on the same
 * database, connected on init, closed by app.close().
 */
import { Test } from '@nestjs/testing';
import { randomUUID } from 'node:crypto';
import type { Pool } from 'pg';
import { DATABASE_OPTIONS, DatabaseModule, PG_POOL, PrismaService } from '../../src/database/database.module';
import { sha256Hex } from '../../src/database/migrate';
import { testDatabaseUrl, testPoolMax } from '../helpers/database';

jest.setTimeout(60_000);

describe('DatabaseModule', () => {
  it('provides PrismaService and PG_POOL on the configured database, and closes both', async () => {
    const moduleRef = await Test.createTestingModule({
      imports: [DatabaseModule.forRoot({ url: testDatabaseUrl(), poolMax: testPoolMax() })],
    }).compile();
    const app = await moduleRef.init(); // an application context; no HTTP adapter needed

    const prisma = app.get(PrismaService);
    const pool = app.get<Pool>(PG_POOL);
    expect(prisma.pool).toBe(pool);
    expect(app.get(DATABASE_OPTIONS)).toEqual({ url: testDatabaseUrl(), poolMax: testPoolMax() });
    expect(pool.options.max).toBe(testPoolMax());

    const id = randomUUID();
    await prisma.player.create({ data: { id, displayName: 'module', tokenHash: sha256Hex(id) } });
    const { rows } = await pool.query('SELECT display_name FROM players WHERE id = $1', [id]);
    expect(rows).toEqual([{ display_name: 'module' }]);

    // Interactive transaction and raw queries interleaved on a pool of poolMax connections.
    await prisma.$transaction(async (tx) => {
      await tx.player.update({ where: { id }, data: { displayName: 'renamed' } });
    });
    const [a, b] = await Promise.all([
      prisma.player.findUniqueOrThrow({ where: { id } }),
      pool.query('SELECT count(*)::int AS n FROM players WHERE id = $1', [id]),
    ]);
    expect(a.displayName).toBe('renamed');
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
    await expect(app.get(PrismaService).$queryRawUnsafe('SELECT 1 AS one')).resolves.toEqual([{ one: 1 }]);
    await app.close();
  });
});
