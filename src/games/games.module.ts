import { Module } from '@nestjs/common';
import { EventStoreModule } from '../event-store/event-store.module';
import { DiceService } from './dice.service';
import { GameEventBus, InProcessGameEventBus } from './game-event-bus';
import { GamesController } from './games.controller';
import { GamesResolver } from './games.resolver';
import { GamesService } from './games.service';

@Module({
  imports: [EventStoreModule],
  controllers: [GamesController],
  providers: [GamesService, GamesResolver, DiceService, { provide: GameEventBus, useClass: InProcessGameEventBus }],
  exports: [GamesService, GameEventBus],
})
export class GamesModule {}
