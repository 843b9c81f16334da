import { Module } from '@nestjs/common';
import { EventStore } from './event-store.service';
import { TournamentStore } from './tournament-store.service';

@Module({ providers: [EventStore, TournamentStore], exports: [EventStore, TournamentStore] })
export class EventStoreModule {}
