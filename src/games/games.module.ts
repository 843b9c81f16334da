import { Module } from '@nestjs/common';
import { EventStoreModule } from '../event-store/event-store.module';
import { DiceService } from './dice.service';
import { GamesController } from './games.controller';
import { GamesResolver } from './games.resolver';
import { GamesService } from './games.service';
import { GameAggregate } from './game-aggregate';
import { GameCommands } from './game-commands.service';
import { GameCreation } from './game-creation.service';
import { GameQueries } from './game-queries.service';
import { ServiceMoves } from './service-moves.service';

@Module({
  imports: [EventStoreModule],
  controllers: [GamesController],
  // GamesService also needs a GameEventBus (the port in ./game-event-bus.ts): provided globally by
  // src/async/notifications (LISTEN/NOTIFY across instances; in-process on the embedded database).
  // The command handler (src/commands) is global, as is idempotency (src/reliability).
  providers: [
    GamesService,
    GameAggregate,
    GameCommands,
    GameCreation,
    ServiceMoves,
    GameQueries,
    GamesResolver,
    DiceService,
  ],
  exports: [GamesService],
})
export class GamesModule {}
