import { Module } from '@nestjs/common';
import { JobsModule } from '../jobs/jobs.module';
import { WebhooksController } from './webhooks.controller';
import { WebhooksResolver } from './webhooks.resolver';
import { WebhooksService } from './webhooks.service';

@Module({ imports: [JobsModule], controllers: [WebhooksController], providers: [WebhooksService, WebhooksResolver] })
export class WebhooksModule {}
