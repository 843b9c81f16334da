import { Module } from '@nestjs/common';
import { EventStore } from './event-store.service';
import { TournamentStore } from './tournament-store.service';
import { AccountStore } from './account-store.service';
import { ChallengeStore } from './challenge-store.service';
import { SeekStore } from './seek-store.service';

@Module({
  providers: [EventStore, TournamentStore, AccountStore, ChallengeStore, SeekStore],
  exports: [EventStore, TournamentStore, AccountStore, ChallengeStore, SeekStore],
})
export class EventStoreModule {}
