import { Module } from '@nestjs/common';
import { JobsModule } from '../jobs/jobs.module';
import { WebhooksController } from './webhooks.controller';
import { WebhooksResolver } from './webhooks.resolver';
import { WebhooksService } from './webhooks.service';
import { WebhookTargets } from './webhook-targets';

@Module({
  imports: [JobsModule],
  controllers: [WebhooksController],
  providers: [WebhooksService, WebhooksResolver, WebhookTargets],
})
export class WebhooksModule {}
