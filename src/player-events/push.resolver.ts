import { RequireScope } from '../players/require-scope';
import { UseGuards } from '@nestjs/common';
import { Args, ID, Mutation, Query, Resolver } from '@nestjs/graphql';
import { DomainException } from '../common/errors';
import { AuthGuard, CurrentPlayer, Public } from '../players/auth.guard';
import type { AuthenticatedPlayer } from '../players/players.types';
import { CreatePushSubscriptionInput, PushSubscriptionView, VapidKeyView } from './dto/push.dto';
import { PushService } from './push.service';

/** Same operations, semantics and error codes as PushController (one service). */
@Resolver()
@UseGuards(AuthGuard)
export class PushResolver {
  constructor(private readonly push: PushService) {}

  @Query(() => VapidKeyView, { description: 'GET /v1/push/vapid-public-key.' })
  @Public()
  pushVapidPublicKey(): VapidKeyView {
    const key = this.push.publicKey();
    if (!key) throw new DomainException('ROUTE_NOT_FOUND', 'Web Push is not configured on this service');
    return { vapidPublicKey: key };
  }

  @Query(() => [PushSubscriptionView], { description: 'GET /v1/players/me/push-subscriptions.' })
  @RequireScope('account:read')
  myPushSubscriptions(@CurrentPlayer() me: AuthenticatedPlayer) {
    return this.push.list(me.id);
  }

  @Mutation(() => PushSubscriptionView, { description: 'POST /v1/players/me/push-subscriptions.' })
  @RequireScope('account:write')
  createPushSubscription(@CurrentPlayer() me: AuthenticatedPlayer, @Args('input') input: CreatePushSubscriptionInput) {
    return this.push.create(me.id, input);
  }

  @Mutation(() => Boolean, { description: 'DELETE /v1/players/me/push-subscriptions/{id}.' })
  @RequireScope('account:write')
  async deletePushSubscription(@CurrentPlayer() me: AuthenticatedPlayer, @Args('id', { type: () => ID }) id: string) {
    await this.push.remove(me.id, id);
    return true;
  }
}
