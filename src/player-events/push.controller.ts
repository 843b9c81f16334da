import { RequireScope } from '../players/require-scope';
import { Body, Controller, Delete, Get, HttpCode, Param, Post, UseGuards } from '@nestjs/common';
import {
  ApiBearerAuth,
  ApiCreatedResponse,
  ApiNoContentResponse,
  ApiOkResponse,
  ApiOperation,
  ApiTags,
} from '@nestjs/swagger';
import { DomainException } from '../common/errors';
import { ApiProblems, BODY_PROBLEMS, PATH_PROBLEMS } from '../common/openapi/decorators';
import { AuthGuard, CurrentPlayer, Public } from '../players/auth.guard';
import type { AuthenticatedPlayer } from '../players/players.types';
import { CreatePushSubscriptionInput, PushSubscriptionView, VapidKeyView } from './dto/push.dto';
import { PushService } from './push.service';

@ApiTags('player events')
@UseGuards(AuthGuard)
@Controller()
export class PushController {
  constructor(private readonly push: PushService) {}

  @Get('push/vapid-public-key')
  @Public()
  @ApiOperation({
    summary: "The service's VAPID public key, for PushManager.subscribe({ applicationServerKey })",
  })
  @ApiOkResponse({ type: VapidKeyView })
  @ApiProblems('ROUTE_NOT_FOUND')
  vapidKey(): VapidKeyView {
    const key = this.push.publicKey();
    if (!key) throw new DomainException('ROUTE_NOT_FOUND', 'Web Push is not configured on this service');
    return { vapidPublicKey: key };
  }

  @Post('players/me/push-subscriptions')
  @ApiBearerAuth()
  @ApiOperation({
    summary: "Subscribe a browser to my events by Web Push (the PushManager subscription's JSON)",
    description:
      'The endpoint must be https:// on a public address (422 PUSH_ENDPOINT_NOT_ALLOWED, `reason` https-required, non-public-address or unresolvable); the keys a P-256 public key and a 16-byte secret (400 INVALID_PUSH_KEYS). At most PUSH_MAX_SUBSCRIPTIONS_PER_PLAYER (10) per player (409 PUSH_SUBSCRIPTION_LIMIT_REACHED); the same endpoint again replaces its keys. Which events push: PUT /v1/players/me/event-settings (pushEvents; default yourTurn and gameFinished).',
  })
  @ApiCreatedResponse({ type: PushSubscriptionView })
  @ApiProblems(
    ...BODY_PROBLEMS,
    'INVALID_PUSH_KEYS',
    'PUSH_ENDPOINT_NOT_ALLOWED',
    'PUSH_SUBSCRIPTION_LIMIT_REACHED',
    'DATABASE_UNAVAILABLE',
  )
  @RequireScope('account:write')
  create(@CurrentPlayer() me: AuthenticatedPlayer, @Body() input: CreatePushSubscriptionInput) {
    return this.push.create(me.id, input);
  }

  @Get('players/me/push-subscriptions')
  @ApiBearerAuth()
  @ApiOperation({ summary: 'My push subscriptions (without their keys)' })
  @ApiOkResponse({ type: [PushSubscriptionView] })
  @ApiProblems('DATABASE_UNAVAILABLE')
  @RequireScope('account:read')
  list(@CurrentPlayer() me: AuthenticatedPlayer) {
    return this.push.list(me.id);
  }

  @Delete('players/me/push-subscriptions/:id')
  @ApiBearerAuth()
  @HttpCode(204)
  @ApiOperation({ summary: 'Delete a push subscription of mine (pending pushes to it are dropped)' })
  @ApiNoContentResponse({ description: 'Deleted.' })
  @ApiProblems(...PATH_PROBLEMS, 'PUSH_SUBSCRIPTION_NOT_FOUND', 'DATABASE_UNAVAILABLE')
  @RequireScope('account:write')
  async remove(@CurrentPlayer() me: AuthenticatedPlayer, @Param('id') id: string): Promise<void> {
    await this.push.remove(me.id, id);
  }
}
