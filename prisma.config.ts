// Prisma 7 configuration: schema and migrations paths, and the datasource URL.
// The URL only matters to CLI commands that talk to a database (migrate, db, studio);
// `prisma generate` does not need one, so an unset DATABASE_URL falls back to a
// placeholder instead of failing (Prisma's own `env()` throws when unset).
// At run time the app never reads this file: it passes a pg pool to @prisma/adapter-pg.
import { defineConfig } from 'prisma/config';

export default defineConfig({
  schema: 'prisma/schema.prisma',
  migrations: { path: 'prisma/migrations' },
  datasource: {
    url: process.env.DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/fairdice',
  },
});
