/**
 * Prometheus metrics (prom-client), one registry per application instance so that several apps in
 * one process (tests) never share or double-register series. What each series means and how to
 * read it: docs/operations.md "Metrics". Recording is cheap (in-memory counters); the job-queue
 * and pool figures are read when /metrics is scraped.
 */
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

/** Latency buckets (seconds) for requests and appends: 0.5 ms to 5 s. */
const LATENCY_BUCKETS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5];

/** Per queue: jobs stored, jobs due, age in seconds of the oldest due job (0 when none is due). */
export interface JobQueueStats {
  queue: string;
  depth: number;
  due: number;
  lagSeconds: number;
}

/** What a scrape reads from outside this class (the pool and the job table). */
export interface MetricsSources {
  pool?: () => { total: number; idle: number; waiting: number };
  jobQueues?: () => Promise<JobQueueStats[]>;
}

export class Metrics {
  readonly registry = new Registry();

  readonly httpDuration = new Histogram({
    name: 'fairdice_http_request_duration_seconds',
    help: 'HTTP request latency from the first byte read to the response sent, by route template, method and status',
    labelNames: ['method', 'route', 'status'] as const,
    buckets: LATENCY_BUCKETS,
    registers: [this.registry],
  });

  readonly commands = new Counter({
    name: 'fairdice_commands_total',
    help: 'Commands (REST and GraphQL; tournament ones prefixed tournament.) by command type and outcome: ok, replayed (idempotent retry) or the error code',
    labelNames: ['type', 'outcome'] as const,
    registers: [this.registry],
  });

  readonly appendDuration = new Histogram({
    name: 'fairdice_event_append_duration_seconds',
    help: 'Event-store write time: kind=create (one statement), append (one command, from submit to commit incl. waiting for its batch), batch (one group-commit statement)',
    labelNames: ['kind'] as const,
    buckets: LATENCY_BUCKETS,
    registers: [this.registry],
  });

  readonly appendBatchSize = new Histogram({
    name: 'fairdice_event_append_batch_size',
    help: 'Commands whose appends one event-store statement wrote (group commit)',
    buckets: [1, 2, 4, 8, 16, 32, 64, 128, 256, 512],
    registers: [this.registry],
  });

  readonly appendedEvents = new Counter({
    name: 'fairdice_events_appended_total',
    help: 'Events appended to game streams',
    registers: [this.registry],
  });

  readonly gameReads = new Counter({
    name: 'fairdice_game_reads_total',
    help: "Reads of a game's current state (GET /v1/games/{id}, GraphQL game) by where they were answered from: cache (known current, decision 0150) or database",
    labelNames: ['served_by'] as const,
    registers: [this.registry],
  });

  readonly jobs = new Counter({
    name: 'fairdice_jobs_total',
    help: 'Jobs run by this instance by queue and outcome: done, retry or error (the handler threw; retried)',
    labelNames: ['queue', 'outcome'] as const,
    registers: [this.registry],
  });

  readonly webhookDeliveries = new Counter({
    name: 'fairdice_webhook_delivery_attempts_total',
    help: 'Webhook delivery attempts by outcome: delivered, retry (will be tried again) or failed (gave up)',
    labelNames: ['outcome', 'reason'] as const,
    registers: [this.registry],
  });

  readonly streamRefusals = new Counter({
    name: 'fairdice_live_connections_refused_total',
    help: 'Live connections refused over a cap, by kind (websocket, subscription, sse) and reason (per_address, per_player, per_connection)',
    labelNames: ['kind', 'reason'] as const,
    registers: [this.registry],
  });

  readonly sseDropped = new Counter({
    name: 'fairdice_sse_readers_dropped_total',
    help: 'SSE readers (event and standings streams) closed because their pending bytes passed SSE_MAX_BUFFERED_BYTES: they stopped reading',
    registers: [this.registry],
  });

  constructor(sources: MetricsSources = {}) {
    // Process CPU, memory, GC, event-loop lag (nodejs_eventloop_lag_*), handles.
    collectDefaultMetrics({ register: this.registry, eventLoopMonitoringPrecision: 20 });
    const pool = sources.pool;
    if (pool) {
      new Gauge({
        name: 'fairdice_db_pool_connections',
        help: 'Database pool connections by state: in_use, idle, and waiting (callers queued for a connection)',
        labelNames: ['state'] as const,
        registers: [this.registry],
        collect() {
          const p = pool();
          this.set({ state: 'in_use' }, p.total - p.idle);
          this.set({ state: 'idle' }, p.idle);
          this.set({ state: 'waiting' }, p.waiting);
        },
      });
    }
    const jobQueues = sources.jobQueues;
    if (jobQueues) {
      // One read per scrape feeds the three job gauges.
      let pending: Promise<JobQueueStats[]> | null = null;
      const read = () => (pending ??= jobQueues().finally(() => setTimeout(() => (pending = null), 0)));
      const gauge = (name: string, help: string, pick: (q: JobQueueStats) => number) =>
        new Gauge({
          name,
          help,
          labelNames: ['queue'] as const,
          registers: [this.registry],
          async collect() {
            this.reset();
            for (const q of await read().catch(() => [])) this.set({ queue: q.queue }, pick(q));
          },
        });
      gauge('fairdice_job_queue_depth', 'Jobs stored per queue (due now or later, running included)', (q) => q.depth);
      gauge(
        'fairdice_job_queue_due',
        'Jobs per queue whose run time has come (waiting for a worker or running)',
        (q) => q.due,
      );
      gauge(
        'fairdice_job_queue_lag_seconds',
        'Per queue: how long the oldest due job has been due (0 = nothing waiting)',
        (q) => q.lagSeconds,
      );
    }
  }

  /** Reports the live connections open now (src/reliability/streams; wired by app.factory). */
  observeLiveConnections(read: () => { websockets: number; subscriptions: number; sse: number }): void {
    new Gauge({
      name: 'fairdice_live_connections',
      help: 'Live connections open on this instance by kind: websocket (GraphQL), subscription (on those sockets), sse (event and standings streams)',
      labelNames: ['kind'] as const,
      registers: [this.registry],
      collect() {
        const n = read();
        this.set({ kind: 'websocket' }, n.websockets);
        this.set({ kind: 'subscription' }, n.subscriptions);
        this.set({ kind: 'sse' }, n.sse);
      },
    });
  }

  /**
   * Reports the read routing of DATABASE_READ_URL (src/database/read-routing.ts; wired by
   * app.factory only when a standby is configured): public reads by the side that answered and
   * why, and how stale the standby may be now.
   */
  observeReadRouting(router: {
    readCounts(): Record<string, number>;
    staleness(): number | null;
    reachable(): boolean;
  }): void {
    new Counter({
      name: 'fairdice_db_public_reads_total',
      help: 'Public, staleness-tolerant reads (leaderboards, public profiles, open games, finished audits) by the side that answered (standby or primary) and why: replica, lag (the standby was too far behind), unreachable (the last lag check failed), missing (the standby lacked the row), error (the read failed on the standby)',
      labelNames: ['served_by', 'reason'] as const,
      registers: [this.registry],
      collect() {
        this.reset();
        for (const [reason, n] of Object.entries(router.readCounts()))
          this.inc({ served_by: reason === 'replica' ? 'standby' : 'primary', reason }, n);
      },
    });
    new Gauge({
      name: 'fairdice_db_standby_staleness_seconds',
      help: 'How far the standby may lag the primary: the time since a lag check last found it caught up (-1: never found caught up)',
      registers: [this.registry],
      collect() {
        const ms = router.staleness();
        this.set(ms === null ? -1 : ms / 1000);
      },
    });
    new Gauge({
      name: 'fairdice_db_standby_up',
      help: '1 when the last lag check reached the standby (and the primary), else 0',
      registers: [this.registry],
      collect() {
        this.set(router.reachable() ? 1 : 0);
      },
    });
  }

  /** Text exposition format for a scrape. */
  async scrape(): Promise<{ contentType: string; body: string }> {
    return { contentType: this.registry.contentType, body: await this.registry.metrics() };
  }
}

/** Nest injection token of the instance's Metrics. */
export const METRICS = Symbol('METRICS');
