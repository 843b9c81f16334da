/**
 * Database helpers for e2e tests. The e2e global setup (global-setup.ts) prepares one
 * migrated database per Jest worker of the run; each worker finds its own in
 * process.env.DATABASE_URL (worker-database.ts), with process.env.FAIRDICE_TEST_DB =
 * 'postgres' | 'embedded'.
 *
 * Embedded (PGlite) caveat: every connection shares ONE PostgreSQL session, so keep one
 * connection per worker (testPoolMax() is 1 there) and do not rely on session state.
 */
import { spawn } from 'node:child_process';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { Pool } from 'pg';

export type TestDbKind = 'postgres' | 'embedded';

export function testDatabaseUrl(): string {
  const url = process.env.DATABASE_URL;
  if (!url) throw new Error('DATABASE_URL is not set: run e2e tests through jest --selectProjects e2e (global setup)');
  return url;
}

export function testDbKind(): TestDbKind {
  return process.env.FAIRDICE_TEST_DB === 'postgres' ? 'postgres' : 'embedded';
}

export function testPoolMax(): number {
  return testDbKind() === 'embedded' ? 1 : 5;
}

export function createTestPool(url: string = testDatabaseUrl(), max: number = testPoolMax()): Pool {
  return new Pool({ connectionString: url, max });
}

export interface FreshDatabase {
  url: string;
  kind: TestDbKind;
  /** Drops the database (PostgreSQL) or stops the PGlite instance (embedded). */
  drop(): Promise<void>;
}

/** Name for a throw-away database: fairdice_test_<timestamp>_<pid>[_suffix]. */
export function freshDatabaseName(suffix?: string): string {
  return ['fairdice_test', Date.now(), process.pid, suffix].filter((p) => p !== undefined).join('_');
}

/**
 * An EMPTY database: on the PostgreSQL server of `serverUrl` a new database is created
 * (CREATE DATABASE through a connection to serverUrl); without serverUrl an in-memory PGlite
 * server is started in a child process (see startEmbeddedInChild).
 */
export async function createFreshDatabase(serverUrl?: string, suffix?: string): Promise<FreshDatabase> {
  if (!serverUrl) {
    const pg = await startEmbeddedInChild();
    return { url: pg.url, kind: 'embedded', drop: () => pg.stop() };
  }
  const name = freshDatabaseName(suffix);
  const admin = new Pool({ connectionString: serverUrl, max: 1 });
  try {
    await admin.query(`CREATE DATABASE "${name}"`);
  } finally {
    await admin.end();
  }
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    kind: 'postgres',
    async drop() {
      const dropper = new Pool({ connectionString: serverUrl, max: 1 });
      try {
        await dropper.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      } finally {
        await dropper.end();
      }
    },
  };
}

const PROJECT_ROOT = resolve(__dirname, '..', '..');

/*
 * PGlite cannot start inside a Jest worker: it loads Node built-ins with dynamic import()
 * ("A dynamic import callback was invoked without --experimental-vm-modules"). The global
 * setup runs outside Jest's VM and calls startEmbeddedPostgres directly; tests that need a
 * second instance get one from a child process running the same startEmbeddedPostgres
 * (compiled on the fly by @swc/core). The child exits when stopped or when this process dies
 * (its stdin closes).
 */
const CHILD_SCRIPT = `
const Module = require('node:module');
const swc = require('@swc/core');
const file = process.argv[1];
const { code } = swc.transformFileSync(file, {
  jsc: { parser: { syntax: 'typescript' }, target: 'es2022' }, module: { type: 'commonjs' },
});
const m = new Module(file, module);
m.filename = file;
m.paths = Module._nodeModulePaths(require('node:path').dirname(file));
m._compile(code, file);
m.exports.startEmbeddedPostgres({ dataDir: null, port: 0 }).then((pg) => {
  process.stdout.write(JSON.stringify({ url: pg.url }) + '\\n');
  let stopping = false;
  const stop = () => { if (stopping) return; stopping = true; pg.stop().finally(() => process.exit(0)); };
  process.on('SIGTERM', stop);
  process.stdin.on('end', stop);
  process.stdin.resume();
}, (err) => { console.error(err); process.exit(1); });
`;

export async function startEmbeddedInChild(): Promise<{ url: string; stop(): Promise<void> }> {
  const child = spawn(process.execPath, ['-e', CHILD_SCRIPT, join(PROJECT_ROOT, 'src/database/embedded-postgres.ts')], {
    cwd: PROJECT_ROOT,
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const exited = new Promise<void>((r) => child.once('exit', () => r()));
  const url = await new Promise<string>((resolveUrl, reject) => {
    const lines = createInterface({ input: child.stdout });
    lines.once('line', (line) => resolveUrl(JSON.parse(line).url));
    child.once('exit', (code) => reject(new Error(`embedded PostgreSQL child exited with code ${code}`)));
  });
  return {
    url,
    async stop() {
      if (child.exitCode === null) {
        child.kill('SIGTERM');
        await exited;
      }
    },
  };
}
