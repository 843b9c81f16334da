import { Query, Resolver } from '@nestjs/graphql';
import { ServiceInfo } from './service-info.model';
import { serviceInfo } from './service-info';

@Resolver(() => ServiceInfo)
export class ServiceInfoResolver {
  @Query(() => ServiceInfo, { description: 'Name and version of this server.' })
  serviceInfo(): ServiceInfo {
    return serviceInfo();
  }
}
