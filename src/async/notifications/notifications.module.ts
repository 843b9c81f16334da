import { Global, Module } from '@nestjs/common';
import { EventStoreModule } from '../../event-store/event-store.module';
import { GameEventBus } from '../../games/game-event-bus';
import { PostgresGameEventBus } from './postgres-game-event-bus';

/**
 * Binds the games module's port, GameEventBus (src/games/game-event-bus.ts), to the cross-instance
 * LISTEN/NOTIFY implementation. Global, so that GamesModule gets its bus without importing async:
 * the port is declared below (games), the adapter provided from above (async).
 */
@Global()
@Module({
  imports: [EventStoreModule],
  providers: [{ provide: GameEventBus, useClass: PostgresGameEventBus }],
  exports: [GameEventBus],
})
export class NotificationsModule {}
