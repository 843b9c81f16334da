/**
 * The job queue worker (src/async/jobs) on the test database, with handlers of its own queues:
 * a backlog in one queue does not hold up another, a full worker refills as jobs end (not at
 * the next poll), and done jobs leave no row.
 */
import { Pool } from 'pg';
import { JobQueue } from '../../src/async/jobs/job-queue.service';
import type { AppConfig } from '../../src/config/config';

describe('job queue worker', () => {
  let pool: Pool;
  const tag = `jq${process.pid}${Date.now() % 100000}`;
  beforeAll(() => {
    pool = new Pool({
      connectionString: process.env.DATABASE_URL,
      max: process.env.FAIRDICE_TEST_DB === 'embedded' ? 1 : 5,
    });
  });
  afterAll(async () => {
    await pool.query(`DELETE FROM async_jobs WHERE queue LIKE $1`, [`${tag}-%`]);
    await pool.end();
  });

  const insert = (queue: string, n: number) =>
    pool.query(
      `INSERT INTO async_jobs (queue, key, payload, run_at)
       SELECT $1, $1 || ':' || g, jsonb_build_object('n', g), now() - interval '1 second' FROM generate_series(1, $2) g`,
      [queue, n],
    );
  const left = async (queue: string) =>
    (await pool.query<{ n: number }>(`SELECT count(*)::int AS n FROM async_jobs WHERE queue = $1`, [queue])).rows[0].n;

  it('runs a job of another queue ahead of a backlog, refills without waiting for the poll, and deletes done jobs', async () => {
    const backlog = `${tag}-fanout`;
    const urgent = `${tag}-delivery`;
    await insert(backlog, 300);
    await insert(urgent, 1);
    // A poll interval far longer than the test: only refilling on job end can drain the backlog in time.
    const queue = new JobQueue(pool, {
      JOBS_POLL_INTERVAL_MS: 60_000,
      JOBS_LEASE_SECONDS: 60,
      JOBS_ENABLED: true,
    } as AppConfig);
    let backlogDone = 0;
    let backlogDoneWhenUrgentRan = -1;
    queue.register(backlog, async () => {
      await new Promise((r) => setTimeout(r, 5));
      backlogDone++;
    });
    queue.register(urgent, () => {
      backlogDoneWhenUrgentRan = backlogDone;
      return Promise.resolve();
    });
    queue.onApplicationBootstrap();
    try {
      const deadline = Date.now() + 50_000;
      while ((backlogDone < 300 || (await left(backlog)) > 0) && Date.now() < deadline)
        await new Promise((r) => setTimeout(r, 50));
    } finally {
      await queue.onModuleDestroy();
    }
    expect(backlogDone).toBe(300);
    expect(await left(backlog)).toBe(0);
    expect(await left(urgent)).toBe(0);
    // The urgent job ran in the first claim, not after the 300 older ones.
    expect(backlogDoneWhenUrgentRan).toBeGreaterThanOrEqual(0);
    expect(backlogDoneWhenUrgentRan).toBeLessThan(50);
  }, 60_000);

  it('an idle worker wakes when the next job comes due, not at its next poll', async () => {
    const timed = `${tag}-deadline`;
    const queue = new JobQueue(pool, {
      JOBS_POLL_INTERVAL_MS: 60_000,
      JOBS_LEASE_SECONDS: 60,
      JOBS_ENABLED: true,
    } as AppConfig);
    let ranAt = 0;
    queue.register(timed, () => {
      ranAt = Date.now();
      return Promise.resolve();
    });
    await pool.query(
      `INSERT INTO async_jobs (queue, key, payload, run_at) VALUES ($1, $1 || ':1', '{}'::jsonb, now() + interval '1500 milliseconds')`,
      [timed],
    );
    const dueAt = Date.now() + 1500;
    queue.onApplicationBootstrap();
    try {
      const deadline = Date.now() + 30_000;
      while (ranAt === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    } finally {
      await queue.onModuleDestroy();
    }
    // Ran after it came due, and long before the 60 s poll would have found it.
    expect(ranAt).toBeGreaterThan(0);
    expect(ranAt).toBeGreaterThanOrEqual(dueAt - 200);
    expect(await left(timed)).toBe(0);
  }, 60_000);
});
