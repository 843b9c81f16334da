import { Field, ObjectType } from '@nestjs/graphql';

@ObjectType({ description: 'What this server is.' })
export class ServiceInfo {
  @Field({ description: 'Service name.' })
  name: string;

  @Field({ description: 'Service version (package.json).' })
  version: string;
}
