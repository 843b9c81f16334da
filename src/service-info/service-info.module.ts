import { Module } from '@nestjs/common';
import { ServiceInfoResolver } from './service-info.resolver';

@Module({ providers: [ServiceInfoResolver] })
export class ServiceInfoModule {}
