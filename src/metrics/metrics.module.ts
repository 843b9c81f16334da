import { createServer, type Server } from 'node:http';
import {
  Global,
  Inject,
  Injectable,
  Logger,
  Module,
  type OnApplicationBootstrap,
  type OnModuleDestroy,
} from '@nestjs/common';
import type { Pool } from 'pg';
import { APP_CONFIG, type AppConfig } from '../config/config';
import { PG_POOL } from '../database/database.module';
import { type JobQueueStats, Metrics, METRICS } from './metrics';

/** Per-queue depth, due count and lag of async_jobs (one aggregate per scrape). */
export async function readJobQueueStats(pool: Pool): Promise<JobQueueStats[]> {
  const { rows } = await pool.query<{ queue: string; depth: number; due: number; lag: number }>(
    `SELECT queue, count(*)::int AS depth, count(*) FILTER (WHERE run_at <= now())::int AS due,
            coalesce(extract(epoch FROM now() - min(run_at) FILTER (WHERE run_at <= now())), 0)::float8 AS lag
       FROM async_jobs GROUP BY queue`,
  );
  return rows.map((r) => ({ queue: r.queue, depth: r.depth, due: r.due, lagSeconds: r.lag }));
}

/**
 * With METRICS_PORT set, /metrics is served by a listener of its own (METRICS_HOST, default
 * 127.0.0.1) instead of the public port, so an operator can keep it off the internet.
 */
@Injectable()
export class MetricsListener implements OnApplicationBootstrap, OnModuleDestroy {
  private server: Server | null = null;
  private readonly logger = new Logger('Metrics');

  constructor(
    @Inject(METRICS) private readonly metrics: Metrics,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    const { METRICS_ENABLED: enabled, METRICS_PORT: port, METRICS_HOST: host } = this.config;
    if (!enabled || port === undefined) return;
    const server = createServer((req, res) => {
      if (req.method !== 'GET' || req.url?.split('?')[0] !== '/metrics') {
        res.writeHead(404, { 'content-type': 'text/plain' }).end('not found\n');
        return;
      }
      this.metrics.scrape().then(
        ({ contentType, body }) => res.writeHead(200, { 'content-type': contentType }).end(body),
        () => res.writeHead(500, { 'content-type': 'text/plain' }).end('scrape failed\n'),
      );
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, host, () => resolve());
    });
    this.server = server;
    const address = server.address();
    this.logger.log(
      `metrics on http://${host}:${typeof address === 'object' && address ? address.port : port}/metrics`,
    );
  }

  /** The bound port (tests listen on port 0). */
  port(): number | null {
    const address = this.server?.address();
    return typeof address === 'object' && address ? address.port : null;
  }

  async onModuleDestroy(): Promise<void> {
    const server = this.server;
    this.server = null;
    if (server) await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}

@Global()
@Module({
  providers: [
    {
      provide: METRICS,
      inject: [PG_POOL],
      useFactory: (pool: Pool) =>
        new Metrics({
          pool: () => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount }),
          jobQueues: () => readJobQueueStats(pool),
        }),
    },
    MetricsListener,
  ],
  exports: [METRICS, MetricsListener],
})
export class MetricsModule {}
