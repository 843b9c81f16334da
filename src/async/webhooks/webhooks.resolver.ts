import { UseGuards } from '@nestjs/common';
import { Args, ID, Int, Mutation, Query, Resolver } from '@nestjs/graphql';
import { AuthGuard, CurrentPlayer } from '../../players/auth.guard';
import { DomainException } from '../../common/errors';
import type { AuthenticatedPlayer } from '../../players/players.types';
import { CreateWebhookInput, WebhookDeliveryView, WebhookRegistration, WebhookView } from './dto/webhook.dto';
import { WebhooksService } from './webhooks.service';

/** Same operations and error codes as WebhooksController. */
@Resolver(() => WebhookView)
@UseGuards(AuthGuard)
export class WebhooksResolver {
  constructor(private readonly service: WebhooksService) {}

  @Query(() => [WebhookView], { description: 'My webhooks (without secrets).' })
  webhooks(@CurrentPlayer() me: AuthenticatedPlayer) {
    return this.service.list(me.id);
  }

  @Query(() => [WebhookDeliveryView], { description: "A webhook's recent deliveries, newest first." })
  webhookDeliveries(
    @CurrentPlayer() me: AuthenticatedPlayer,
    @Args('webhookId', { type: () => ID }) webhookId: string,
    @Args('limit', { type: () => Int, nullable: true }) limit?: number,
  ) {
    const l = limit ?? 20;
    if (!Number.isInteger(l) || l < 1 || l > 100)
      throw new DomainException('VALIDATION_FAILED', 'limit must be from 1 to 100');
    return this.service.deliveries(me.id, webhookId, l);
  }

  @Mutation(() => WebhookRegistration, { description: 'Register a webhook; the signing secret is returned only here.' })
  createWebhook(@CurrentPlayer() me: AuthenticatedPlayer, @Args('input') input: CreateWebhookInput) {
    return this.service.create(me.id, input);
  }

  @Mutation(() => Boolean, { description: 'Delete one of my webhooks.' })
  async deleteWebhook(@CurrentPlayer() me: AuthenticatedPlayer, @Args('id', { type: () => ID }) id: string) {
    await this.service.remove(me.id, id);
    return true;
  }
}
