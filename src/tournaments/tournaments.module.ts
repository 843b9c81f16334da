import { Module } from '@nestjs/common';
import { EventStoreModule } from '../event-store/event-store.module';
import { GamesModule } from '../games/games.module';
import { JobsModule } from '../async/jobs/jobs.module';
import { AuditModule } from '../audit/audit.module';
import { TournamentAggregate } from './tournament-aggregate';
import { TournamentAuditService } from './tournament-audit.service';
import { TournamentBus } from './tournament-bus';
import { TournamentsController } from './tournaments.controller';
import { TournamentAuditBundleResolver, TournamentsResolver } from './tournaments.resolver';
import { TournamentRounds } from './tournament-rounds.service';
import { TournamentsService } from './tournaments.service';

/**
 * Tournaments (docs/tournaments.md): one application service (commands through the one command
 * handler, reads), the rounds it runs by itself, a thin REST controller and GraphQL resolver.
 */
@Module({
  imports: [EventStoreModule, GamesModule, JobsModule, AuditModule],
  controllers: [TournamentsController],
  providers: [
    TournamentAggregate,
    TournamentRounds,
    TournamentsService,
    TournamentsResolver,
    TournamentAuditBundleResolver,
    TournamentBus,
    TournamentAuditService,
  ],
  exports: [TournamentsService],
})
export class TournamentsModule {}
