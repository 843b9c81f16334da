/** Webhook inputs and views, shared by REST (class-validator + OpenAPI) and GraphQL. */
import { Field, GraphQLISODateTime, ID, InputType, Int, ObjectType } from '@nestjs/graphql';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import {
  ArrayMaxSize,
  ArrayMinSize,
  IsArray,
  IsIn,
  IsOptional,
  IsString,
  MaxLength,
  registerDecorator,
} from 'class-validator';
import { Transform } from 'class-transformer';
import { CursorQuery } from '../../../common/dto/pagination';
import { connectionOf } from '../../../common/graphql/connection';
import { WEBHOOK_EVENT_TYPES } from '../../../event-store/async-effects';
import { enumOf, graphqlEnumName } from '../../../common/graphql/enums';
import { registerEnumType } from '@nestjs/graphql';

export const DELIVERY_STATUSES = ['pending', 'delivered', 'failed'] as const;
export const DELIVERY_ERRORS = [
  'timeout',
  'unreachable',
  'refused-address',
  'tls',
  'http-status',
  'interrupted',
] as const;
export const WebhookEventTypeEnum = enumOf(WEBHOOK_EVENT_TYPES);
export const WebhookDeliveryStatusEnum = enumOf(DELIVERY_STATUSES);
export const WebhookDeliveryErrorEnum = enumOf(DELIVERY_ERRORS);
registerEnumType(WebhookEventTypeEnum, {
  name: 'WebhookEventType',
  description:
    'A webhook notification type. One mapping (decision 0090): the GraphQL value is the REST and delivery name with "." written "_" (GraphQL names cannot hold "."): turn_started is "turn.started" in REST, in every delivery\'s `type` and webhook-id, and REST accepts either spelling.',
  valuesMap: Object.fromEntries(
    WEBHOOK_EVENT_TYPES.map((t) => [graphqlEnumName(t), { description: `REST and deliveries: "${t}".` }]),
  ),
});

/** REST input may name a webhook type by its GraphQL spelling (turn_started): it is stored as turn.started. */
const WEBHOOK_TYPE_OF_GRAPHQL_NAME = new Map<string, string>(WEBHOOK_EVENT_TYPES.map((t) => [graphqlEnumName(t), t]));
const webhookTypeOf = (v: unknown) => (typeof v === 'string' ? (WEBHOOK_TYPE_OF_GRAPHQL_NAME.get(v) ?? v) : v);
registerEnumType(WebhookDeliveryStatusEnum, {
  name: 'WebhookDeliveryStatus',
  description: 'pending (attempts remain), delivered, or failed (after the last attempt).',
});
registerEnumType(WebhookDeliveryErrorEnum, {
  name: 'WebhookDeliveryError',
  description:
    'Why the last attempt failed, as a category: timeout, unreachable, refused_address (REST: refused-address), tls, http_status (REST: http-status; see lastStatusCode) or interrupted.',
});

/** An absolute http:// or https:// URL with a host and no credentials, at most 2048 characters. */
export function isWebhookUrl(value: unknown): boolean {
  if (typeof value !== 'string' || value.length > 2048) return false;
  try {
    const u = new URL(value);
    return (u.protocol === 'http:' || u.protocol === 'https:') && u.hostname.length > 0 && !u.username && !u.password;
  } catch {
    return false;
  }
}

export function IsWebhookUrl() {
  return (object: object, propertyName: string) =>
    registerDecorator({
      name: 'isWebhookUrl',
      target: object.constructor,
      propertyName,
      validator: {
        validate: isWebhookUrl,
        defaultMessage: () =>
          `${propertyName} must be an http:// or https:// URL (at most 2048 characters, no credentials)`,
      },
    });
}

@InputType({ description: 'A URL to notify about my games.' })
export class CreateWebhookInput {
  @Field({
    description:
      'http:// or https:// URL that receives POSTs signed per Standard Webhooks. Its host must resolve to public addresses only (WEBHOOK_URL_NOT_ALLOWED otherwise); https:// may be required.',
  })
  @ApiProperty({ example: 'https://bot.example.com/fairdice', maxLength: 2048 })
  @IsWebhookUrl()
  url: string;

  @Field(() => [WebhookEventTypeEnum], {
    nullable: true,
    description: 'Event types to receive (default: all).',
  })
  @ApiPropertyOptional({
    type: [String],
    enum: [...WEBHOOK_EVENT_TYPES, ...WEBHOOK_EVENT_TYPES.map(graphqlEnumName)],
    example: ['turn.started'],
    description:
      'Event types to receive (default: the game notices). The GraphQL spelling (turn_started) is accepted too and stored, listed and delivered as turn.started.',
  })
  @Transform(({ value }: { value: unknown }) => (Array.isArray(value) ? value.map(webhookTypeOf) : value))
  @IsOptional()
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(WEBHOOK_EVENT_TYPES.length)
  @IsIn(WEBHOOK_EVENT_TYPES, { each: true })
  events?: string[];

  @Field({ nullable: true, description: 'A note for yourself (at most 200 characters).' })
  @ApiPropertyOptional({ maxLength: 200 })
  @IsOptional()
  @IsString()
  @MaxLength(200)
  description?: string;
}

export class DeliveriesQuery extends CursorQuery {}

@ObjectType('Webhook', { description: 'A registered webhook (the secret is shown only at registration).' })
export class WebhookView {
  @Field(() => ID) @ApiProperty({ format: 'uuid' }) id: string;
  @Field() @ApiProperty() url: string;
  @Field(() => [WebhookEventTypeEnum]) @ApiProperty({ type: [String], enum: WEBHOOK_EVENT_TYPES }) events: string[];
  @Field(() => String, { nullable: true }) @ApiProperty({ type: String, nullable: true }) description: string | null;
  @Field(() => GraphQLISODateTime) @ApiProperty() createdAt: Date;
}

@ObjectType({ description: 'A new webhook and its signing secret, shown this once.' })
export class WebhookRegistration {
  @Field(() => WebhookView) @ApiProperty({ type: WebhookView }) webhook: WebhookView;
  @Field({
    description:
      'Standard Webhooks secret (whsec_<base64>): verify the webhook-signature header with it. Shown only once.',
  })
  @ApiProperty({ example: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw' })
  secret: string;
}

@ObjectType({ description: 'One notification to a webhook and its delivery attempts.' })
export class WebhookDeliveryView {
  @Field(() => ID, { description: 'Also the webhook-id header (the same on every attempt).' })
  @ApiProperty({ format: 'uuid' })
  id: string;
  @Field(() => WebhookEventTypeEnum) @ApiProperty({ enum: WEBHOOK_EVENT_TYPES }) eventType: string;
  @Field(() => ID) @ApiProperty({ format: 'uuid' }) gameId: string;
  @Field(() => Int) @ApiProperty() gameVersion: number;
  @Field(() => WebhookDeliveryStatusEnum, { description: 'pending, delivered or failed (after the last attempt).' })
  @ApiProperty({ enum: ['pending', 'delivered', 'failed'] })
  status: string;
  @Field(() => Int) @ApiProperty() attempts: number;
  @Field(() => Int, { nullable: true }) @ApiProperty({ type: Number, nullable: true }) lastStatusCode: number | null;
  @Field(() => WebhookDeliveryErrorEnum, {
    nullable: true,
    description: 'Why the last attempt failed, as a category (see lastStatusCode for http_status).',
  })
  @ApiProperty({
    type: String,
    nullable: true,
    enum: ['timeout', 'unreachable', 'refused-address', 'tls', 'http-status', 'interrupted'],
    description: 'Why the last attempt failed, as a category (never the raw error).',
  })
  lastError: string | null;
  @Field(() => GraphQLISODateTime, { nullable: true })
  @ApiProperty({ type: Date, nullable: true })
  nextAttemptAt: Date | null;
  @Field(() => GraphQLISODateTime) @ApiProperty() createdAt: Date;
  @Field(() => GraphQLISODateTime, { nullable: true })
  @ApiProperty({ type: Date, nullable: true })
  deliveredAt: Date | null;
}

@ObjectType('WebhookDeliveryConnection', {
  description: "A webhook's deliveries, newest first (Relay connection; stable while deliveries are attempted).",
})
export class WebhookDeliveryConnection extends connectionOf(WebhookDeliveryView, 'WebhookDelivery', 'delivery') {}
