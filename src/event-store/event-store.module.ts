import { Module } from '@nestjs/common';
import { EventStore } from './event-store.service';
import { TournamentStore } from './tournament-store.service';
import { AccountStore } from './account-store.service';
import { SeekStore } from './seek-store.service';

@Module({
  providers: [EventStore, TournamentStore, AccountStore, SeekStore],
  exports: [EventStore, TournamentStore, AccountStore, SeekStore],
})
export class EventStoreModule {}
