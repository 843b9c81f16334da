/** Web Push subscription inputs and views, shared by REST (class-validator + OpenAPI) and GraphQL. */
import { Field, Float, GraphQLISODateTime, ID, InputType, ObjectType } from '@nestjs/graphql';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsDefined, IsNumber, IsObject, IsOptional, IsString, MaxLength, ValidateNested } from 'class-validator';
import { isWebhookUrl } from '../../async/webhooks/dto/webhook.dto';
import { registerDecorator } from 'class-validator';

/** An absolute http(s) URL without credentials, at most 2048 characters (as webhook URLs). */
function IsPushEndpoint(): PropertyDecorator {
  return (target, propertyName) =>
    registerDecorator({
      name: 'isPushEndpoint',
      target: target.constructor,
      propertyName: propertyName as string,
      options: { message: 'endpoint must be an absolute https:// URL without credentials (at most 2048 characters)' },
      validator: { validate: (v: unknown) => isWebhookUrl(v) },
    });
}

@InputType('PushSubscriptionKeysInput')
export class PushSubscriptionKeys {
  @Field({ description: "The browser's P-256 public key (base64url, 65 bytes uncompressed): getKey('p256dh')." })
  @ApiProperty({ description: 'base64url P-256 public key, PushSubscription.toJSON().keys.p256dh', maxLength: 200 })
  @IsString()
  @MaxLength(200)
  p256dh: string;

  @Field({ description: "The authentication secret (base64url, 16 bytes): getKey('auth')." })
  @ApiProperty({ description: 'base64url 16-byte secret, PushSubscription.toJSON().keys.auth', maxLength: 100 })
  @IsString()
  @MaxLength(100)
  auth: string;
}

@InputType({ description: "A browser's push subscription: PushSubscription.toJSON() (expirationTime is ignored)." })
export class CreatePushSubscriptionInput {
  @Field({ description: "The push service's URL for this browser (https; public addresses only)." })
  @ApiProperty({ format: 'uri', maxLength: 2048 })
  @IsPushEndpoint()
  endpoint: string;

  @Field(() => PushSubscriptionKeys)
  @ApiProperty({ type: PushSubscriptionKeys })
  @IsDefined()
  @IsObject()
  @ValidateNested()
  @Type(() => PushSubscriptionKeys)
  keys: PushSubscriptionKeys;

  @Field(() => Float, { nullable: true, description: 'Sent by browsers; ignored.' })
  @ApiPropertyOptional({ type: 'number', format: 'double', nullable: true, description: 'Sent by browsers; ignored.' })
  @IsOptional()
  @IsNumber()
  expirationTime?: number | null;
}

@ObjectType({ description: 'A push subscription of mine (its keys are not shown again).' })
export class PushSubscriptionView {
  @Field(() => ID) @ApiProperty({ format: 'uuid' }) id: string;
  @Field() @ApiProperty({ format: 'uri' }) endpoint: string;
  @Field(() => GraphQLISODateTime) @ApiProperty() createdAt: Date;
}

@ObjectType({ description: "The service's VAPID public key: PushManager.subscribe({ applicationServerKey })." })
export class VapidKeyView {
  @Field({ description: 'base64url, 65 bytes uncompressed P-256.' })
  @ApiProperty({ description: 'base64url, 65 bytes uncompressed P-256' })
  vapidPublicKey: string;
}
