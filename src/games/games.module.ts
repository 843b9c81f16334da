import { Module } from '@nestjs/common';
import { EventStoreModule } from '../event-store/event-store.module';
import { DiceService } from './dice.service';
import { GamesController } from './games.controller';
import { GamesResolver } from './games.resolver';
import { GamesService } from './games.service';

@Module({
  imports: [EventStoreModule],
  controllers: [GamesController],
  // GamesService also needs a GameEventBus (the port in ./game-event-bus.ts): provided globally by
  // src/async/notifications (LISTEN/NOTIFY across instances; in-process on the embedded database).
  providers: [GamesService, GamesResolver, DiceService],
  exports: [GamesService],
})
export class GamesModule {}
