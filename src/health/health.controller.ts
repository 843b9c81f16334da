import { Controller, Get } from '@nestjs/common';
import { ApiOkResponse, ApiServiceUnavailableResponse, ApiTags } from '@nestjs/swagger';
import { HealthCheck, HealthCheckService, HealthIndicatorService } from '@nestjs/terminus';
import { PrismaService } from '../database/prisma.service';

const PING_TIMEOUT_MS = 1500;

/** Liveness (/health) and readiness (/health/ready, database reachable). Outside /v1 on purpose. */
@ApiTags('health')
@Controller('health')
export class HealthController {
  constructor(
    private readonly health: HealthCheckService,
    private readonly indicators: HealthIndicatorService,
    private readonly prisma: PrismaService,
  ) {}

  @Get()
  @ApiOkResponse({ description: 'The process is alive.' })
  live() {
    return { status: 'ok' };
  }

  @Get('ready')
  @HealthCheck()
  @ApiOkResponse({ description: 'The database answers; the service can take traffic.' })
  @ApiServiceUnavailableResponse({ description: 'The database does not answer.' })
  ready() {
    return this.health.check([() => this.pingDatabase()]);
  }

  private async pingDatabase() {
    const session = this.indicators.check('database');
    const started = Date.now();
    try {
      await Promise.race([
        this.prisma.$queryRawUnsafe('SELECT 1'),
        new Promise((_, reject) => setTimeout(() => reject(new Error('timeout')), PING_TIMEOUT_MS).unref()),
      ]);
      return session.up({ responseTimeMs: Date.now() - started });
    } catch {
      // No driver text: it could name hosts or users.
      return session.down({ message: 'database unreachable' });
    }
  }
}
