import { RequireScope } from '../../players/require-scope';
import { UseGuards } from '@nestjs/common';
import { Args, ID, Int, Mutation, Query, Resolver } from '@nestjs/graphql';
import { AuthGuard, CurrentPlayer } from '../../players/auth.guard';
import { toConnection } from '../../common/graphql/connection';
import { pageRequest } from '../../common/pagination/page-request';
import type { AuthenticatedPlayer } from '../../players/players.types';
import {
  CreateWebhookInput,
  WebhookDeliveryConnection,
  WebhookDeliveryView,
  WebhookRegistration,
  WebhookView,
} from './dto/webhook.dto';
import { WebhooksService } from './webhooks.service';

/** Same operations and error codes as WebhooksController. */
@Resolver(() => WebhookView)
@UseGuards(AuthGuard)
export class WebhooksResolver {
  constructor(private readonly service: WebhooksService) {}

  @Query(() => [WebhookView], { description: 'My webhooks (without secrets).' })
  @RequireScope('webhook:write')
  webhooks(@CurrentPlayer() me: AuthenticatedPlayer) {
    return this.service.list(me.id);
  }

  @Query(() => WebhookDeliveryConnection, {
    description:
      "A webhook's deliveries, newest first (as GET /v1/webhooks/{id}/deliveries); stable while deliveries are attempted.",
  })
  @RequireScope('webhook:write')
  async webhookDeliveriesConnection(
    @CurrentPlayer() me: AuthenticatedPlayer,
    @Args('webhookId', { type: () => ID }) webhookId: string,
    @Args('first', { type: () => Int, nullable: true, description: 'Page size, 1 to 100 (default 20).' })
    first?: number,
    @Args('after', { type: () => String, nullable: true, description: 'endCursor of the previous page.' })
    after?: string,
  ) {
    const page = await this.service.deliveries(me.id, webhookId, pageRequest({ limit: first, cursor: after }));
    return toConnection(page, after);
  }

  @Query(() => [WebhookDeliveryView], {
    description: "A webhook's recent deliveries, newest first.",
    deprecationReason: 'Only the first page; use webhookDeliveriesConnection(webhookId, first, after).',
  })
  @RequireScope('webhook:write')
  async webhookDeliveries(
    @CurrentPlayer() me: AuthenticatedPlayer,
    @Args('webhookId', { type: () => ID }) webhookId: string,
    @Args('limit', { type: () => Int, nullable: true }) limit?: number,
  ) {
    return (await this.service.deliveries(me.id, webhookId, pageRequest({ limit }))).items;
  }

  @Mutation(() => WebhookRegistration, { description: 'Register a webhook; the signing secret is returned only here.' })
  @RequireScope('webhook:write')
  createWebhook(@CurrentPlayer() me: AuthenticatedPlayer, @Args('input') input: CreateWebhookInput) {
    return this.service.create(me.id, input);
  }

  @Mutation(() => Boolean, { description: 'Delete one of my webhooks.' })
  @RequireScope('webhook:write')
  async deleteWebhook(@CurrentPlayer() me: AuthenticatedPlayer, @Args('id', { type: () => ID }) id: string) {
    await this.service.remove(me.id, id);
    return true;
  }
}
