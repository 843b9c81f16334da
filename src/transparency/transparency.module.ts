import { Module } from '@nestjs/common';
import { TransparencyController } from './transparency.controller';
import { TransparencyLogService } from './transparency-log.service';
import { TransparencyResolver } from './transparency.resolver';

/** The transparency log of commitments: sequencer, proofs, REST and GraphQL (docs/fairness.md §9). */
@Module({
  controllers: [TransparencyController],
  providers: [TransparencyLogService, TransparencyResolver],
  exports: [TransparencyLogService],
})
export class TransparencyModule {}
