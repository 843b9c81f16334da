import { Module } from '@nestjs/common';
import { EventStoreModule } from '../event-store/event-store.module';
import { GamesModule } from '../games/games.module';
import { MatchmakerService } from './matchmaker.service';
import { SeekAggregate } from './seek-aggregate';
import { SeeksController } from './seeks.controller';
import { SeeksResolver } from './seeks.resolver';
import { SeeksService } from './seeks.service';

/**
 * Seeks and the matchmaker (docs/matchmaking.md): the seek aggregate's commands (SeeksService), the
 * matchmaker's passes (MatchmakerService), a thin REST controller and GraphQL resolver.
 */
@Module({
  imports: [EventStoreModule, GamesModule],
  controllers: [SeeksController],
  providers: [SeeksService, SeekAggregate, MatchmakerService, SeeksResolver],
})
export class MatchmakingModule {}
