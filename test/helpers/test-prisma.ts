/**
 * A Prisma client on a test database, for the tests that hold the schema (prisma/schema.prisma)
 * against the migrations. The service loads no Prisma client (decision 0162); kept apart from
 * database.ts so that the suites importing that helper do not load one either.
 */
import { PrismaPg } from '@prisma/adapter-pg';
import type { Pool } from 'pg';
import { PrismaClient } from '../../src/generated/prisma/client';
import { createTestPool, testDatabaseUrl, testPoolMax } from './database';

export interface TestPrisma {
  prisma: PrismaClient;
  pool: Pool;
  close(): Promise<void>;
}

/** A Prisma client (and its pg pool) on the test database, or on `url`. */
export function createTestPrisma(url: string = testDatabaseUrl(), max: number = testPoolMax()): TestPrisma {
  const pool = createTestPool(url, max);
  const prisma = new PrismaClient({ adapter: new PrismaPg(pool) });
  return {
    prisma,
    pool,
    async close() {
      await prisma.$disconnect();
      await pool.end();
    },
  };
}
