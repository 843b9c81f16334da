import { Module } from '@nestjs/common';
import { JobsModule } from '../async/jobs/jobs.module';
import { EventStoreModule } from '../event-store/event-store.module';
import { RatingsController } from './ratings.controller';
import { ProfileRatingsResolver, RatingsResolver } from './ratings.resolver';
import { RatingUpdatesService } from './rating-updates.service';
import { RatingsService } from './ratings.service';

/**
 * Ratings (docs/ratings.md): the update of a finished rated game, run by its job
 * (RatingUpdatesService), the reads (RatingsService), a thin REST controller and GraphQL resolver.
 */
@Module({
  imports: [EventStoreModule, JobsModule],
  controllers: [RatingsController],
  providers: [RatingUpdatesService, RatingsService, RatingsResolver, ProfileRatingsResolver],
  exports: [RatingsService],
})
export class RatingsModule {}
