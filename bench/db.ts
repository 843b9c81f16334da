/**
 * The benchmark's database: a fresh `fairdice_bench_<ts>` on the server named by DATABASE_URL
 * (migrated with the project's own step, dropped afterwards), and ceiling (b): PostgreSQL's own
 * rate for inserting one row of game_events' shape with plain `pg`.
 */
import { randomUUID } from 'node:crypto';
import { Client, Pool } from 'pg';
import { migrate } from '../src/database/migrate';
import type { VirtualClient } from './load';
import { processCpuSeconds } from './server-process';

export const DEFAULT_DATABASE_URL = 'postgresql://postgres@127.0.0.1:5432/postgres';

export function withDatabase(url: string, database: string): string {
  const u = new URL(url);
  u.pathname = `/${database}`;
  return u.toString();
}

export async function adminQuery<T = any>(adminUrl: string, sql: string): Promise<T[]> {
  const client = new Client({ connectionString: adminUrl });
  await client.connect();
  try {
    return (await client.query(sql)).rows as T[];
  } finally {
    await client.end();
  }
}

export interface BenchDatabase {
  name: string;
  url: string;
  serverVersion: string;
  /** The server's `autovacuum` setting: off on some shared machines (this one's, 2026-12-04). */
  autovacuum: boolean;
  /**
   * Before each scenario that uses the database: with autovacuum off, VACUUM (ANALYZE) it, the
   * work autovacuum does in a default installation, so that a scenario does not pay for the dead
   * rows of the ones before it (every command updates its games row and replaces its jobs).
   * Nothing with autovacuum on. Not inside a measured window.
   */
  settle: () => Promise<void>;
  drop(): Promise<void>;
}

/** Creates and migrates fairdice_bench_<ts>; `drop()` removes it (WITH (FORCE): stray sessions too). */
export async function createBenchDatabase(adminUrl: string, log: (line: string) => void): Promise<BenchDatabase> {
  const ts = new Date().toISOString().replace(/\D/g, '').slice(0, 14);
  const name = `fairdice_bench_${ts}_${process.pid}`;
  await adminQuery(adminUrl, `CREATE DATABASE "${name}"`);
  const url = withDatabase(adminUrl, name);
  // Retried: the shared PostgreSQL may be restarting (other people's fault-injection tests).
  const drop = async () => {
    for (let attempt = 1; ; attempt++) {
      try {
        await adminQuery(adminUrl, `DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
        return;
      } catch (err) {
        if (attempt >= 5) throw err;
        await new Promise((r) => setTimeout(r, 2000));
      }
    }
  };
  try {
    await migrate(url, { log });
    const [{ server_version }] = await adminQuery<{ server_version: string }>(url, 'SHOW server_version');
    const [{ version }] = await adminQuery<{ version: string }>(url, 'SELECT version()');
    const [{ autovacuum }] = await adminQuery<{ autovacuum: string }>(url, 'SHOW autovacuum');
    const autovacuumOn = autovacuum === 'on';
    return {
      name,
      url,
      serverVersion: `${server_version} (${version.split(',')[0]})`,
      autovacuum: autovacuumOn,
      settle: async () => {
        if (!autovacuumOn) await adminQuery(url, 'VACUUM (ANALYZE)');
      },
      drop,
    };
  } catch (err) {
    await drop().catch(() => undefined);
    throw err;
  }
}

/**
 * Scratch table with game_events' columns, types and primary key (game_id, version). Not the
 * real table: no foreign key to games (no games row is needed) and no append-only trigger
 * (it fires on UPDATE/DELETE only, so it would not cost an INSERT anything anyway).
 */
export const SCRATCH_TABLE_DDL = `CREATE TABLE IF NOT EXISTS bench_event_insert (
    game_id UUID NOT NULL,
    version INTEGER NOT NULL,
    type TEXT NOT NULL,
    seat INTEGER,
    payload JSONB NOT NULL,
    prev_hash TEXT NOT NULL,
    hash TEXT NOT NULL,
    created_at TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT bench_event_insert_pkey PRIMARY KEY (game_id, version)
)`;

/** A payload the size and shape of a real 'rolled' event's (data + rollNumber + command). */
const SAMPLE_PAYLOAD = JSON.stringify({
  data: { seat: 0, dice: [3, 1, 6, 6, 2], held: [2, 3], rollInTurn: 2 },
  rollNumber: 41,
  command: { type: 'play', playerId: '6f1c2b8e-9a41-4c3e-8d0a-2b7f1e5c9d10', move: { type: 'roll', hold: [2, 3] } },
});
const SAMPLE_HASH = 'a'.repeat(64);

export async function prepareInsertCeiling(url: string): Promise<void> {
  await adminQuery(url, SCRATCH_TABLE_DDL);
  await adminQuery(url, 'TRUNCATE bench_event_insert');
}

/** One closed-loop client: INSERTs one event row per step (its own game id, version + 1). */
export function insertClient(pool: Pool): VirtualClient {
  const gameId = randomUUID();
  let version = 0;
  return {
    async step() {
      version++;
      await pool.query(
        'INSERT INTO bench_event_insert (game_id, version, type, seat, payload, prev_hash, hash) VALUES ($1, $2, $3, $4, $5::jsonb, $6, $7)',
        [gameId, version, 'rolled', 0, SAMPLE_PAYLOAD, SAMPLE_HASH, SAMPLE_HASH],
      );
    },
  };
}

export function insertPool(url: string, max: number): Pool {
  const pool = new Pool({ connectionString: url, max, application_name: 'fairdice-bench' });
  pool.on('error', () => undefined);
  return pool;
}

/**
 * PostgreSQL's own CPU spent for one database: the backends connected to it (pg_stat_activity),
 * read from /proc (the server runs on this machine; the shared cluster is never restarted to load
 * an extension). `sample()` at the start and the end of a window; `delta` sums the backends seen
 * at the end (a backend that started inside the window counts whole, one that ended is lost:
 * pools keep their connections, so neither happens in a steady window).
 */
export function postgresBackendCpu(pool: Pool, database: string) {
  const sample = async (): Promise<Map<number, number>> => {
    const { rows } = await pool.query<{ pid: number }>('SELECT pid FROM pg_stat_activity WHERE datname = $1', [
      database,
    ]);
    const out = new Map<number, number>();
    for (const { pid } of rows) {
      const s = processCpuSeconds(pid);
      if (s !== null) out.set(pid, s);
    }
    return out;
  };
  const delta = (start: Map<number, number>, end: Map<number, number>): number => {
    let sum = 0;
    for (const [pid, s] of end) sum += s - (start.get(pid) ?? 0);
    return sum;
  };
  return { sample, delta };
}
