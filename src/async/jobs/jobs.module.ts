import { Module } from '@nestjs/common';
import { EventStoreModule } from '../../event-store/event-store.module';
import { JobQueue } from './job-queue.service';

/** The PostgreSQL-backed job queue (one worker per instance; see job-queue.service.ts). */
@Module({ imports: [EventStoreModule], providers: [JobQueue], exports: [JobQueue] })
export class JobsModule {}
