import { Controller, Get, Inject, Injectable, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import { ApiOkResponse, ApiServiceUnavailableResponse, ApiTags } from '@nestjs/swagger';
import { HealthCheck, HealthCheckService, HealthIndicatorService } from '@nestjs/terminus';
import type { Pool } from 'pg';
import { APP_CONFIG, AppConfig } from '../config/config';
import { DomainException } from '../common/errors';
import { ApiProblems } from '../common/openapi/decorators';
import { PG_POOL } from '../database/pg-pool';
import { EventLoopMonitor, monitorPoolWaits, PoolWaitMonitor } from './load-monitor';

/** The process's load signals (one per application instance). */
@Injectable()
export class LoadSignals implements OnApplicationBootstrap, OnModuleDestroy {
  readonly eventLoop = new EventLoopMonitor();
  readonly poolWaits: PoolWaitMonitor;
  constructor(@Inject(PG_POOL) pool: Pool) {
    this.poolWaits = monitorPoolWaits(pool);
  }
  onApplicationBootstrap(): void {
    this.eventLoop.start();
  }
  onModuleDestroy(): void {
    this.eventLoop.stop();
  }
}

/**
 * Liveness (/health) and readiness (/health/ready: the database answers within READY_TIMEOUT_MS,
 * no connection was awaited longer than READY_MAX_POOL_WAIT_MS and the event loop was not blocked
 * longer than READY_MAX_EVENT_LOOP_DELAY_MS in the last seconds). Outside /v1 on purpose.
 */
@ApiTags('health')
@Controller('health')
export class HealthController {
  constructor(
    private readonly health: HealthCheckService,
    private readonly indicators: HealthIndicatorService,
    @Inject(PG_POOL) private readonly pool: Pool,
    private readonly load: LoadSignals,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  @Get()
  @ApiOkResponse({
    description: 'The process is alive.',
    schema: {
      type: 'object',
      properties: { status: { type: 'string', enum: ['ok'] } },
      required: ['status'],
      additionalProperties: false,
    },
  })
  live() {
    return { status: 'ok' };
  }

  @Get('ready')
  @HealthCheck({ swaggerDocumentation: false })
  @ApiOkResponse({
    schema: {
      type: 'object',
      properties: {
        status: { type: 'string', enum: ['ok'] },
        info: { type: 'object', additionalProperties: { $ref: '#/components/schemas/HealthCheckResult' } },
        error: { type: 'object', additionalProperties: { $ref: '#/components/schemas/HealthCheckResult' } },
        details: { type: 'object', additionalProperties: { $ref: '#/components/schemas/HealthCheckResult' } },
      },
      required: ['status', 'info', 'error', 'details'],
      additionalProperties: false,
    },
    description:
      'The instance can take traffic: the database answers within READY_TIMEOUT_MS, no pool connection waited longer than READY_MAX_POOL_WAIT_MS and the event loop was not blocked longer than READY_MAX_EVENT_LOOP_DELAY_MS recently. Body: `{ status: "ok", info, error, details }` with each check.',
  })
  @ApiServiceUnavailableResponse({
    description:
      'Not ready: application/problem+json with code NOT_READY, Retry-After: 2, and `checks` (each check with its status and figures).',
  })
  @ApiProblems('NOT_READY')
  async ready() {
    try {
      return await this.health.check([() => this.checkEventLoop(), () => this.checkPoolThenDatabase()]);
    } catch (error) {
      // Terminus throws 503 with every check's details: answer it as our problem+json, details kept.
      const response = (error as { getResponse?: () => unknown }).getResponse?.() as
        { details?: Record<string, { status?: string }> } | undefined;
      if (!response?.details) throw error;
      const failed = Object.entries(response.details)
        .filter(([, check]) => check.status !== 'up')
        .map(([name]) => name);
      throw new DomainException(
        'NOT_READY',
        `Not ready: ${failed.join(', ')}`,
        { checks: response.details },
        {
          'retry-after': '2',
        },
      );
    }
  }

  private checkEventLoop() {
    const session = this.indicators.check('eventLoop');
    const delayMs = this.load.eventLoop.worstDelayMs();
    const limitMs = this.config.READY_MAX_EVENT_LOOP_DELAY_MS;
    return delayMs > limitMs ? session.down({ delayMs, limitMs }) : session.up({ delayMs, limitMs });
  }

  /** With an exhausted pool the ping would only queue behind the stalled commands: report the pool instead. */
  private async checkPoolThenDatabase() {
    const waitMs = this.load.poolWaits.worstWaitMs();
    const limitMs = this.config.READY_MAX_POOL_WAIT_MS;
    if (waitMs > limitMs)
      return this.indicators
        .check('database')
        .down({ message: 'connection pool saturated', poolWaitMs: waitMs, limitMs });
    return this.pingDatabase(waitMs);
  }

  /**
   * The ping is bounded by READY_TIMEOUT_MS however the database behaves (accepts and never
   * answers, a pool slot that never frees): readiness is for a balancer, which must get a prompt
   * 503, not a hanging request.
   */
  private async pingDatabase(poolWaitMs: number) {
    const session = this.indicators.check('database');
    const timeoutMs = this.config.READY_TIMEOUT_MS;
    const started = Date.now();
    let timer: NodeJS.Timeout | undefined;
    const timedOut = new Promise<'timeout'>((resolve) => {
      timer = setTimeout(() => resolve('timeout'), timeoutMs);
      timer.unref();
    });
    try {
      const outcome = await Promise.race([this.pool.query('SELECT 1'), timedOut]);
      if (outcome === 'timeout')
        return session.down({ message: 'database did not answer within READY_TIMEOUT_MS', timeoutMs, poolWaitMs });
      return session.up({ responseTimeMs: Date.now() - started, poolWaitMs });
    } catch {
      // No driver text: it could name hosts or users.
      return session.down({ message: 'database unreachable' });
    } finally {
      clearTimeout(timer);
    }
  }
}
