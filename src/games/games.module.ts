import { Module } from '@nestjs/common';
import { EventStoreModule } from '../event-store/event-store.module';
import { DiceService } from './dice.service';
import { PostgresGameEventBus } from '../async/notifications/postgres-game-event-bus';
import { GameEventBus } from './game-event-bus';
import { GamesController } from './games.controller';
import { GamesResolver } from './games.resolver';
import { GamesService } from './games.service';

@Module({
  imports: [EventStoreModule],
  controllers: [GamesController],
  // The bus pushes events made through any instance (LISTEN/NOTIFY; in-process on the embedded database).
  providers: [GamesService, GamesResolver, DiceService, { provide: GameEventBus, useClass: PostgresGameEventBus }],
  exports: [GamesService, GameEventBus],
})
export class GamesModule {}
