/**
 * Async play (docs/async.md): turn deadlines, inactivity (abandon / expire), webhooks, the inbox, and (inside GamesModule, as
 * its GameEventBus) cross-instance push over PostgreSQL LISTEN/NOTIFY. All durable work goes
 * through the PostgreSQL job queue of src/async/jobs.
 */
import { Module } from '@nestjs/common';
import { DeadlinesModule } from './deadlines/deadlines.module';
import { InactivityModule } from './inactivity/inactivity.module';
import { InboxModule } from './inbox/inbox.module';
import { JobsModule } from './jobs/jobs.module';
import { WebhooksModule } from './webhooks/webhooks.module';

@Module({ imports: [JobsModule, DeadlinesModule, InactivityModule, WebhooksModule, InboxModule] })
export class AsyncModule {}
