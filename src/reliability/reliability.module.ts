import { Global, Module } from '@nestjs/common';
import { IdempotencyService } from './idempotency/idempotency.service';

/** Idempotency for every module's commands (HTTP hooks are registered in app.factory.ts). */
@Global()
@Module({ providers: [IdempotencyService], exports: [IdempotencyService] })
export class ReliabilityModule {}
