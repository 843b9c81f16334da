/**
 * The job queue's own throughput (issue 17: "a queue that keeps up"), against a migrated
 * database: the real JobQueue worker (src/async/jobs) with no-op handlers, so the figure is the
 * queue's cost per job (claim, run, delete), not a handler's.
 *
 * - drain: N due jobs of one queue, time from the worker's start to an empty table → jobs/s.
 * - head-of-line: N due jobs of a "fan-out" queue, then one job of a "delivery" queue due a moment
 *   later; how long the delivery waits (a delivery must not queue behind unrelated fan-out).
 *
 *   node dist/bench/job-queue.bench.js [--jobs 5000] [--pool 10]   (DATABASE_URL: server to use)
 * Also run by `npm run bench` (bench/run.ts).
 */
import { performance } from 'node:perf_hooks';
import { Pool } from 'pg';
import { JobQueue } from '../src/async/jobs/job-queue.service';
import type { AppConfig } from '../src/config/config';
import { createBenchDatabase, DEFAULT_DATABASE_URL } from './db';

export interface JobQueueBenchResult {
  jobs: number;
  drainSeconds: number;
  jobsPerSecond: number;
  /** Time from the delivery job's due time to its handler running, behind `jobs` fan-out jobs. */
  deliveryWaitMs: number;
  /** Fan-out jobs still queued when the delivery ran. */
  fanoutLeftAtDelivery: number;
}

async function insertJobs(pool: Pool, queue: string, n: number, prefix: string): Promise<void> {
  await pool.query(
    `INSERT INTO async_jobs (queue, key, payload, run_at)
     SELECT $1, $2 || g, '{}'::jsonb, now() - interval '1 second' FROM generate_series(1, $3) g`,
    [queue, prefix, n],
  );
}

async function waitUntil(check: () => Promise<boolean> | boolean, timeoutMs: number): Promise<void> {
  const deadline = performance.now() + timeoutMs;
  while (!(await check())) {
    if (performance.now() > deadline) throw new Error('job queue bench: timed out');
    await new Promise((r) => setTimeout(r, 5));
  }
}

export async function runJobQueueBench(
  url: string,
  opts: { jobs: number; pool: number },
): Promise<JobQueueBenchResult> {
  const pool = new Pool({ connectionString: url, max: opts.pool });
  // An idle connection terminated from outside (another session's fault test, the final DROP)
  // must not crash the whole bench run: the query in flight fails and is reported instead.
  pool.on('error', () => undefined);
  const config = { JOBS_POLL_INTERVAL_MS: 1000, JOBS_LEASE_SECONDS: 60, JOBS_ENABLED: true } as AppConfig;
  try {
    // 1. drain
    await insertJobs(pool, 'bench-a', opts.jobs, 'a:');
    let done = 0;
    const q1 = new JobQueue(pool, config);
    q1.register('bench-a', () => {
      done++;
      return Promise.resolve();
    });
    const t0 = performance.now();
    q1.onApplicationBootstrap();
    await waitUntil(async () => {
      if (done < opts.jobs) return false;
      const { rows } = await pool.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM async_jobs WHERE queue = 'bench-a'`,
      );
      return rows[0].n === 0;
    }, 600_000);
    const drainSeconds = (performance.now() - t0) / 1000;
    await q1.onModuleDestroy();

    // 2. head-of-line: a delivery due just after a backlog of fan-out jobs
    await insertJobs(pool, 'bench-fanout', opts.jobs, 'f:');
    await pool.query(
      `INSERT INTO async_jobs (queue, key, payload, run_at) VALUES ('bench-delivery', 'd:1', '{}'::jsonb, now())`,
    );
    let deliveredAt = 0;
    let fanoutDone = 0;
    const q2 = new JobQueue(pool, config);
    q2.register('bench-fanout', () => {
      fanoutDone++;
      return Promise.resolve();
    });
    q2.register('bench-delivery', () => {
      deliveredAt = performance.now();
      return Promise.resolve();
    });
    const t1 = performance.now();
    q2.onApplicationBootstrap();
    await waitUntil(() => deliveredAt > 0, 600_000);
    const fanoutLeftAtDelivery = opts.jobs - fanoutDone;
    await q2.onModuleDestroy();
    await pool.query(`DELETE FROM async_jobs WHERE queue LIKE 'bench-%'`);
    return {
      jobs: opts.jobs,
      drainSeconds,
      jobsPerSecond: opts.jobs / drainSeconds,
      deliveryWaitMs: deliveredAt - t1,
      fanoutLeftAtDelivery,
    };
  } finally {
    await pool.end();
  }
}

if (require.main === module) {
  const arg = (name: string, fallback: number) => {
    const i = process.argv.indexOf(`--${name}`);
    return i >= 0 ? Number(process.argv[i + 1]) : fallback;
  };
  void (async () => {
    const db = await createBenchDatabase(process.env.DATABASE_URL ?? DEFAULT_DATABASE_URL, () => undefined);
    try {
      const r = await runJobQueueBench(db.url, { jobs: arg('jobs', 5000), pool: arg('pool', 10) });
      process.stdout.write(
        `job queue: ${r.jobs} jobs drained in ${r.drainSeconds.toFixed(2)} s = ${r.jobsPerSecond.toFixed(0)} jobs/s; ` +
          `a delivery behind ${r.jobs} fan-out jobs ran after ${r.deliveryWaitMs.toFixed(0)} ms ` +
          `(${r.fanoutLeftAtDelivery} fan-out jobs still queued)\n`,
      );
    } finally {
      await db.drop();
    }
  })();
}
