import { Module } from '@nestjs/common';
import { InboxController } from './inbox.controller';
import { InboxResolver } from './inbox.resolver';
import { InboxService } from './inbox.service';

@Module({ controllers: [InboxController], providers: [InboxService, InboxResolver] })
export class InboxModule {}
