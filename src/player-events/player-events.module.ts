/**
 * The per-player event stream (REST SSE / NDJSON and the GraphQL subscription myEvents) and Web
 * Push (docs/async.md, *Player events*). Events are raised by commands through the job queue
 * (src/event-store/async-effects.ts) and stored by PlayerEventsService.
 */
import { Module } from '@nestjs/common';
import { JobsModule } from '../async/jobs/jobs.module';
import { PlayerEventsController } from './player-events.controller';
import { PlayerEventsResolver } from './player-events.resolver';
import { PlayerEventsService } from './player-events.service';
import { PushController } from './push.controller';
import { PushResolver } from './push.resolver';
import { PushService } from './push.service';

@Module({
  imports: [JobsModule],
  controllers: [PlayerEventsController, PushController],
  providers: [PlayerEventsService, PlayerEventsResolver, PushService, PushResolver],
  exports: [PlayerEventsService],
})
export class PlayerEventsModule {}
