/**
 * Applies the SQL migrations in prisma/migrations, recording them in `_prisma_migrations`
 * exactly as `prisma migrate deploy` does.
 *
 * Why this exists: Prisma 7's migrate commands need the native schema engine, which the CLI
 * downloads on first use; the build/CI machines have no access to binaries.prisma.sh, so
 * `prisma migrate deploy` cannot run there. Migrations are therefore hand-written SQL kept in
 * Prisma's layout (`prisma/migrations/<timestamp>_<name>/migration.sql` + migration_lock.toml)
 * and applied by this step. The bookkeeping is Prisma's own (same table DDL, same checksum =
 * sha256 hex of migration.sql, same advisory lock key), so on a machine that has the engine,
 * `npx prisma migrate deploy` / `prisma migrate status` work on the same database, and vice
 * versa.
 *
 * Differences from `prisma migrate deploy`, all on the safe side:
 * - Each pending migration runs in ONE transaction together with its `_prisma_migrations` row.
 *   A failing migration is rolled back and leaves no row (Prisma would leave a "failed" row to
 *   be resolved by hand); fix the SQL and run again. Consequence: a migration must not contain
 *   statements that cannot run inside a transaction block (CREATE INDEX CONCURRENTLY, VACUUM,
 *   CREATE DATABASE).
 * - An applied migration whose file changed (checksum mismatch) is refused with an error
 *   (Prisma's deploy does not check); a row left "failed" by Prisma is refused as well.
 * - Concurrency: a session advisory lock (key 72707369, the one Prisma's schema engine takes)
 *   serializes concurrent migrators, including a concurrent `prisma migrate deploy`.
 */
import { createHash, randomUUID } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { Client } from 'pg';

/** The advisory lock key Prisma's schema engine uses for migrate commands. */
export const PRISMA_MIGRATE_ADVISORY_LOCK_KEY = 72707369;

/** Prisma's DDL for the bookkeeping table (PostgreSQL connector, schema engine 7.x). */
export const PRISMA_MIGRATIONS_TABLE_DDL = `CREATE TABLE IF NOT EXISTS _prisma_migrations (
    id                      VARCHAR(36) PRIMARY KEY NOT NULL,
    checksum                VARCHAR(64) NOT NULL,
    finished_at             TIMESTAMPTZ,
    migration_name          VARCHAR(255) NOT NULL,
    logs                    TEXT,
    rolled_back_at          TIMESTAMPTZ,
    started_at              TIMESTAMPTZ NOT NULL DEFAULT now(),
    applied_steps_count     INTEGER NOT NULL DEFAULT 0
)`;

export interface MigrateOptions {
  log?: (line: string) => void;
  /** Defaults to <project root>/prisma/migrations (see findMigrationsDir). */
  migrationsDir?: string;
}

export interface MigrationFile {
  name: string;
  path: string;
  sql: string;
  /** sha256 hex of the file's bytes, as Prisma computes it. */
  checksum: string;
}

export class MigrationError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'MigrationError';
  }
}

export function sha256Hex(data: string | Buffer): string {
  return createHash('sha256').update(data).digest('hex');
}

/**
 * Finds prisma/migrations by walking up from this file: works from src/database (ts-node,
 * jest) and from dist/src/database (compiled), and from the current directory as a fallback.
 */
export function findMigrationsDir(): string {
  const candidates: string[] = [];
  let dir = __dirname;
  for (let i = 0; i < 6; i++) {
    candidates.push(join(dir, 'prisma', 'migrations'));
    const parent = dirname(dir);
    if (parent === dir) break;
    dir = parent;
  }
  candidates.push(resolve('prisma', 'migrations'));
  const found = candidates.find((c) => existsSync(join(c, 'migration_lock.toml')));
  if (!found) {
    throw new MigrationError(`prisma/migrations not found (looked in ${candidates.join(', ')})`);
  }
  return found;
}

/** The migrations on disk, in the order Prisma applies them (directory name order). */
export function readMigrations(migrationsDir: string = findMigrationsDir()): MigrationFile[] {
  return readdirSync(migrationsDir)
    .filter((name) => statSync(join(migrationsDir, name)).isDirectory())
    .filter((name) => existsSync(join(migrationsDir, name, 'migration.sql')))
    .sort()
    .map((name) => {
      const path = join(migrationsDir, name, 'migration.sql');
      const bytes = readFileSync(path);
      return { name, path, sql: bytes.toString('utf8'), checksum: sha256Hex(bytes) };
    });
}

/** Prisma tolerates line-ending changes (e.g. a git checkout with autocrlf); so do we. */
function checksumMatches(file: MigrationFile, recorded: string): boolean {
  if (file.checksum === recorded) return true;
  const lf = file.sql.replace(/\r\n/g, '\n');
  return sha256Hex(lf) === recorded || sha256Hex(lf.replace(/\n/g, '\r\n')) === recorded;
}

interface MigrationRow {
  id: string;
  checksum: string;
  finished_at: Date | null;
  migration_name: string;
  rolled_back_at: Date | null;
}

export async function migrate(databaseUrl: string, opts: MigrateOptions = {}): Promise<{ applied: string[] }> {
  const log = opts.log ?? (() => undefined);
  const files = readMigrations(opts.migrationsDir ?? findMigrationsDir());
  // One connection for everything (also what the embedded PGlite server wants).
  const client = new Client({ connectionString: databaseUrl, application_name: 'fairdice-migrate' });
  await client.connect();
  const applied: string[] = [];
  let locked = false;
  try {
    await client.query('SELECT pg_advisory_lock($1)', [PRISMA_MIGRATE_ADVISORY_LOCK_KEY]);
    locked = true;
    await client.query(PRISMA_MIGRATIONS_TABLE_DDL);

    const { rows } = await client.query<MigrationRow>(
      `SELECT id, checksum, finished_at, migration_name, rolled_back_at
         FROM _prisma_migrations ORDER BY started_at ASC`,
    );
    const failed = rows.filter((r) => r.finished_at === null && r.rolled_back_at === null);
    if (failed.length > 0) {
      throw new MigrationError(
        `migration(s) ${failed.map((r) => r.migration_name).join(', ')} failed earlier and are not ` +
          `resolved; fix the database, then mark them with \`prisma migrate resolve\` or update ` +
          `_prisma_migrations (rolled_back_at) before migrating again`,
      );
    }
    const done = new Map<string, MigrationRow>();
    for (const r of rows) if (r.finished_at !== null && r.rolled_back_at === null) done.set(r.migration_name, r);

    const byName = new Map(files.map((f) => [f.name, f]));
    for (const name of done.keys()) {
      if (!byName.has(name))
        log(`warning: migration ${name} is applied but missing from ${opts.migrationsDir ?? 'prisma/migrations'}`);
    }
    const changed = files.filter((f) => done.has(f.name) && !checksumMatches(f, done.get(f.name)!.checksum));
    if (changed.length > 0) {
      throw new MigrationError(
        `applied migration(s) were modified after being applied: ` +
          changed.map((f) => `${f.name} (database ${done.get(f.name)!.checksum}, file ${f.checksum})`).join('; ') +
          `. Never edit an applied migration; add a new one instead.`,
      );
    }

    const pending = files.filter((f) => !done.has(f.name));
    if (pending.length === 0) log(`database is up to date (${files.length} migration(s))`);
    for (const file of pending) {
      log(`applying migration ${file.name}`);
      const id = randomUUID();
      await client.query('BEGIN');
      try {
        await client.query(
          `INSERT INTO _prisma_migrations (id, checksum, migration_name, started_at, applied_steps_count)
           VALUES ($1, $2, $3, now(), 0)`,
          [id, file.checksum, file.name],
        );
        // No parameters: sent as a simple query, so the file may hold many statements.
        await client.query(file.sql);
        await client.query(
          `UPDATE _prisma_migrations SET finished_at = clock_timestamp(), applied_steps_count = 1 WHERE id = $1`,
          [id],
        );
        await client.query('COMMIT');
      } catch (err) {
        await client.query('ROLLBACK').catch(() => undefined);
        throw new MigrationError(`migration ${file.name} failed and was rolled back: ${(err as Error).message}`, {
          cause: err,
        });
      }
      applied.push(file.name);
    }
    if (applied.length > 0) log(`applied ${applied.length} migration(s)`);
    return { applied };
  } finally {
    if (locked) {
      await client.query('SELECT pg_advisory_unlock($1)', [PRISMA_MIGRATE_ADVISORY_LOCK_KEY]).catch(() => undefined);
    }
    await client.end().catch(() => undefined);
  }
}
