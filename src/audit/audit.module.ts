import { Module } from '@nestjs/common';
import { EventStoreModule } from '../event-store/event-store.module';
import { TransparencyModule } from '../transparency/transparency.module';
import { AuditController } from './audit.controller';
import { AuditResolver } from './audit.resolver';
import { AuditService } from './audit.service';

/** Audit bundles of games (REST GET /v1/games/{id}/audit, GraphQL audit(gameId)). */
@Module({
  imports: [EventStoreModule, TransparencyModule],
  controllers: [AuditController],
  providers: [AuditService, AuditResolver],
  exports: [AuditService],
})
export class AuditModule {}
