/**
 * Async play (docs/async.md): turn deadlines, computer seats and auto-score, inactivity (abandon / expire), webhooks, the inbox, and (as the
 * games module's GameEventBus, bound globally) cross-instance push over PostgreSQL LISTEN/NOTIFY. All durable work goes
 * through the PostgreSQL job queue of src/async/jobs.
 */
import { Module } from '@nestjs/common';
import { ComputerModule } from './computer/computer.module';
import { DeadlinesModule } from './deadlines/deadlines.module';
import { InactivityModule } from './inactivity/inactivity.module';
import { InboxModule } from './inbox/inbox.module';
import { JobsModule } from './jobs/jobs.module';
import { NotificationsModule } from './notifications/notifications.module';
import { WebhooksModule } from './webhooks/webhooks.module';

@Module({
  imports: [
    JobsModule,
    NotificationsModule,
    DeadlinesModule,
    ComputerModule,
    InactivityModule,
    WebhooksModule,
    InboxModule,
  ],
})
export class AsyncModule {}
