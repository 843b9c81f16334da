import { Module } from '@nestjs/common';
import { JobsModule } from '../async/jobs/jobs.module';
import { EventStoreModule } from '../event-store/event-store.module';
import { GamesModule } from '../games/games.module';
import { ChallengeAggregate } from './challenge-aggregate';
import { ChallengesController } from './challenges.controller';
import { ChallengesResolver } from './challenges.resolver';
import { ChallengesService } from './challenges.service';

/**
 * Challenges (docs/challenges.md): the challenge aggregate on the one command handler, its
 * expiry sweep (a job per challenge), the game an acceptance starts (start-challenge-game.ts),
 * a thin REST controller and GraphQL resolver.
 */
@Module({
  imports: [EventStoreModule, JobsModule, GamesModule],
  controllers: [ChallengesController],
  providers: [ChallengeAggregate, ChallengesService, ChallengesResolver],
})
export class ChallengesModule {}
