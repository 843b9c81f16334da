/**
 * The PostgreSQL-backed job queue of async play (table async_jobs; decision record
 * docs/decisions/0007-postgres-job-queue.md).
 *
 * - A job is a row: queue, singleton `key` (unique), payload, due time `run_at`. Jobs are written
 *   by the event store in the same statement as the events that cause them (turn deadlines,
 *   webhook fan-out) or by a worker in one statement with the rows they belong to (deliveries).
 *   Writing a job under an existing key replaces it (revision + 1, attempts reset).
 * - Claiming: one statement selects due rows `FOR UPDATE SKIP LOCKED` and pushes their run_at
 *   forward by the lease (JOBS_LEASE_SECONDS). Of several workers (instances), exactly one gets a
 *   given job; the others skip it. The claimed job is invisible until the lease ends; a worker
 *   that crashed mid-job therefore leaves it to be claimed again after the lease (at-least-once).
 *   Handlers are idempotent (a deadline applies only at its version; a delivery is recorded by id),
 *   which makes the effect exactly-once.
 * - Done: the row is deleted (with the other jobs that ended at about the same time, in one
 *   statement), unless it was replaced meanwhile (revision changed): then the new job stays.
 * - Throughput: up to CONCURRENCY jobs run at once; each queue gets an equal share of a claim, so a
 *   backlog in one queue does not hold up another; a job that ends wakes the worker to claim the
 *   next one at once; an idle worker sleeps until the next job comes due or the poll interval,
 *   whichever is sooner (the poll catches jobs written later by other instances). A game command
 *   of this instance that schedules a job due at once (EventStore.onJobDue) wakes it on commit.
 *   Failed: run_at = now() + the handler's retry delay (or an exponential default).
 * - Works the same on the embedded PGlite (one session: statements are serialized) and on a
 *   real PostgreSQL shared by several instances.
 */
import { METRICS, type Metrics } from '../../metrics/metrics';
import { hostname } from 'node:os';
import { randomUUID } from 'node:crypto';
import { Inject, Injectable, Logger, OnApplicationBootstrap, OnModuleDestroy, Optional } from '@nestjs/common';
import { Pool } from 'pg';
import { APP_CONFIG, AppConfig } from '../../config/config';
import { PG_POOL } from '../../database/pg-pool';
import { EventStore } from '../../event-store/event-store.service';
import { namedStatement } from '../../database/prepared-statements';

export interface ClaimedJob {
  id: string;
  queue: string;
  key: string;
  payload: Record<string, unknown>;
  /** 1 on the first run. */
  attempts: number;
  revision: number;
}

/** What a handler returns: nothing = done (the job is deleted); retryInMs = run again later. */
export type JobOutcome = void | { retryInMs: number; error?: string };
export type JobHandler = (job: ClaimedJob, signal: AbortSignal) => Promise<JobOutcome>;

/** How many jobs one instance runs at once (handlers wait on I/O: webhook posts, the database). */
const CONCURRENCY = 32;
/** Default retry delay after a handler threw: 1 s doubling, at most 5 minutes. */
export const defaultRetryMs = (attempts: number) => Math.min(300_000, 1000 * 2 ** Math.max(0, attempts - 1));

// The queue's hot statements, prepared on connections that allow it (decision 0152).
const nextDueStatement = namedStatement(
  'fairdice_jobs_next_due',
  `SELECT (extract(epoch FROM min(run_at) - now()) * 1000)::float8 AS ms
     FROM async_jobs WHERE run_at > now() AND queue = ANY($1::text[])`,
);
const claimStatement = namedStatement(
  'fairdice_jobs_claim',
  `WITH due AS (
     SELECT j.id FROM unnest($4::text[]) AS q(name)
      CROSS JOIN LATERAL (
        SELECT id FROM async_jobs
         WHERE queue = q.name AND run_at <= now()
         ORDER BY run_at
         LIMIT $5
         FOR UPDATE SKIP LOCKED) j
      LIMIT $1)
   UPDATE async_jobs j
      SET run_at = now() + $2::int * interval '1 second', attempts = j.attempts + 1, locked_by = $3, updated_at = now()
     FROM due WHERE j.id = due.id
   RETURNING j.id::text AS id, j.queue, j.key, j.payload, j.attempts, j.revision`,
);
const deleteFinishedStatement = namedStatement(
  'fairdice_jobs_delete_finished',
  `DELETE FROM async_jobs j USING unnest($1::bigint[], $2::int[]) AS d(id, revision)
    WHERE j.id = d.id AND j.revision = d.revision`,
);

@Injectable()
export class JobQueue implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger('JobQueue');
  private readonly handlers = new Map<string, JobHandler>();
  private readonly running = new Set<Promise<void>>();
  private readonly abort = new AbortController();
  private timer: NodeJS.Timeout | null = null;
  private ticking: Promise<void> | null = null;
  /** A job ended while a claim was in flight: claim again right after it. */
  private wakeAfterTick = false;
  /** Finished jobs whose rows are deleted together (see finish). */
  private finished: { id: string; revision: number }[] = [];
  private flushing: Promise<void> | null = null;
  private stopped = true;
  readonly workerId = `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
  readonly pollIntervalMs: number;
  private readonly leaseSeconds: number;
  private readonly enabled: boolean;

  constructor(
    @Inject(PG_POOL) private readonly pool: Pool,
    @Optional() @Inject(APP_CONFIG) config?: AppConfig,
    @Optional() @Inject(METRICS) private readonly metrics?: Metrics,
    @Optional() events?: EventStore,
  ) {
    this.pollIntervalMs = config?.JOBS_POLL_INTERVAL_MS ?? 1000;
    this.leaseSeconds = config?.JOBS_LEASE_SECONDS ?? 60;
    this.enabled = config?.JOBS_ENABLED ?? true;
    // A command that scheduled a job due now (a tournament round's progress when its last game
    // ends, a computer's turn) wakes the worker on its commit: no wait for the next poll.
    events?.onJobDue(() => this.wake());
  }

  /** Registers the handler of a queue (call in onModuleInit; the worker starts after). */
  register(queue: string, handler: JobHandler): void {
    this.handlers.set(queue, handler);
  }

  onApplicationBootstrap(): void {
    if (!this.enabled) return;
    this.stopped = false;
    this.schedule(0);
  }

  async onModuleDestroy(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.abort.abort();
    await this.ticking?.catch(() => undefined);
    await Promise.allSettled([...this.running]);
  }

  /** Looks for due jobs now (instead of at the next poll). */
  wake(): void {
    if (this.stopped) return;
    if (this.ticking) this.wakeAfterTick = true;
    else this.schedule(0);
  }

  private schedule(ms: number): void {
    if (this.stopped) return;
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.timer = null;
      this.ticking = this.tick().finally(() => {
        this.ticking = null;
        if (this.wakeAfterTick) {
          this.wakeAfterTick = false;
          this.schedule(0);
        }
      });
    }, ms);
    this.timer.unref?.();
  }

  private async tick(): Promise<void> {
    let again = false;
    try {
      const free = CONCURRENCY - this.running.size;
      if (free > 0 && this.handlers.size > 0) {
        const jobs = await this.claim(free);
        for (const job of jobs) this.run(job);
        // Some queue had more than its share: look again at once (the shares shift to it).
        again = jobs.length > 0;
      }
    } catch (err) {
      // Database unreachable and the like: try again at the next poll.
      this.logger.warn(`claiming jobs failed: ${(err as Error).message}`);
    }
    // A full worker is woken by each job that ends; an idle one polls, or wakes when the next
    // job comes due if that is sooner (a turn deadline fires on time, not up to a poll late).
    if (again && this.running.size < CONCURRENCY) this.schedule(0);
    else if (this.running.size < CONCURRENCY) this.schedule(await this.nextWakeMs());
  }

  /** Milliseconds until the next registered job comes due, at most the poll interval. */
  private async nextWakeMs(): Promise<number> {
    try {
      const { rows } = await this.pool.query<{ ms: number | null }>(
        nextDueStatement(this.pool, [[...this.handlers.keys()]]),
      );
      const ms = rows[0]?.ms;
      return ms === null || ms === undefined
        ? this.pollIntervalMs
        : Math.min(this.pollIntervalMs, Math.max(0, Math.ceil(ms)));
    } catch {
      return this.pollIntervalMs;
    }
  }

  /**
   * Claims up to `limit` due jobs of the registered queues in one statement (see the file
   * comment), each queue getting at most an equal share of `limit`, oldest due first within a
   * queue: a backlog in one queue (fan-out after a load peak) never holds up another (a webhook
   * delivery, a turn deadline).
   */
  async claim(limit: number): Promise<ClaimedJob[]> {
    const queues = [...this.handlers.keys()];
    const share = Math.max(1, Math.ceil(limit / queues.length));
    const { rows } = await this.pool.query(
      claimStatement(this.pool, [limit, this.leaseSeconds, this.workerId, queues, share]),
    );
    return rows as ClaimedJob[];
  }

  private run(job: ClaimedJob): void {
    const p = this.execute(job).finally(() => {
      this.running.delete(p);
      // A slot freed up while jobs may be waiting.
      this.wake();
    });
    this.running.add(p);
  }

  private async execute(job: ClaimedJob): Promise<void> {
    const handler = this.handlers.get(job.queue);
    let outcome: JobOutcome;
    try {
      if (!handler) throw new Error(`no handler for queue ${job.queue}`);
      outcome = await handler(job, this.abort.signal);
      this.metrics?.jobs.inc({ queue: job.queue, outcome: typeof outcome?.retryInMs === 'number' ? 'retry' : 'done' });
    } catch (err) {
      this.metrics?.jobs.inc({ queue: job.queue, outcome: 'error' });
      const message = (err as Error)?.message ?? String(err);
      this.logger.warn(`job ${job.queue} ${job.key} failed (attempt ${job.attempts}): ${message}`);
      outcome = { retryInMs: defaultRetryMs(job.attempts), error: message };
    }
    try {
      if (outcome && typeof outcome.retryInMs === 'number') {
        await this.pool.query(
          `UPDATE async_jobs SET run_at = now() + $3::float8 * interval '1 millisecond', last_error = $4, locked_by = NULL, updated_at = now()
            WHERE id = $1 AND revision = $2`,
          [job.id, job.revision, outcome.retryInMs, outcome.error ?? null],
        );
      } else {
        await this.finish(job);
      }
    } catch (err) {
      // The lease runs out and the job is claimed again; handlers are idempotent.
      this.logger.warn(`recording job ${job.key} failed: ${(err as Error).message}`);
    }
  }

  /**
   * Deletes a done job's row, together with those of the jobs that end at about the same time
   * (one statement per batch instead of one per job); resolves once its row is gone.
   */
  private async finish(job: ClaimedJob): Promise<void> {
    const entry = { id: job.id, revision: job.revision };
    this.finished.push(entry);
    while (this.finished.includes(entry)) {
      this.flushing ??= this.flushFinished().finally(() => (this.flushing = null));
      await this.flushing;
    }
  }

  private async flushFinished(): Promise<void> {
    await new Promise((r) => setImmediate(r)); // let the jobs ending in this turn join the batch
    while (this.finished.length > 0) {
      const batch = this.finished.splice(0);
      try {
        await this.pool.query(
          deleteFinishedStatement(this.pool, [batch.map((b) => b.id), batch.map((b) => b.revision)]),
        );
      } catch (err) {
        // The lease runs out and the jobs are claimed again; handlers are idempotent.
        this.logger.warn(`deleting ${batch.length} finished job(s) failed: ${(err as Error).message}`);
      }
    }
  }
}
