import { Module } from '@nestjs/common';
import { EventStore } from './event-store.service';
import { TournamentStore } from './tournament-store.service';
import { AccountStore } from './account-store.service';

@Module({
  providers: [EventStore, TournamentStore, AccountStore],
  exports: [EventStore, TournamentStore, AccountStore],
})
export class EventStoreModule {}
