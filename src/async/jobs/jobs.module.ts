import { Module } from '@nestjs/common';
import { JobQueue } from './job-queue.service';

/** The PostgreSQL-backed job queue (one worker per instance; see job-queue.service.ts). */
@Module({ providers: [JobQueue], exports: [JobQueue] })
export class JobsModule {}
