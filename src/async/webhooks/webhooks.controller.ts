import { Body, Controller, Delete, Get, HttpCode, Param, Post, Query, UseGuards } from '@nestjs/common';
import {
  ApiBearerAuth,
  ApiCreatedResponse,
  ApiNoContentResponse,
  ApiOkResponse,
  ApiOperation,
  ApiTags,
} from '@nestjs/swagger';
import { AuthGuard, CurrentPlayer } from '../../players/auth.guard';
import type { AuthenticatedPlayer } from '../../players/players.types';
import {
  CreateWebhookInput,
  DeliveriesQuery,
  WebhookDeliveryView,
  WebhookRegistration,
  WebhookView,
} from './dto/webhook.dto';
import { WebhooksService } from './webhooks.service';
import { ApiProblems, BODY_PROBLEMS, PATH_PROBLEMS } from '../../common/openapi/decorators';

@ApiTags('webhooks')
@ApiBearerAuth()
@UseGuards(AuthGuard)
@Controller('webhooks')
export class WebhooksController {
  constructor(private readonly webhooks: WebhooksService) {}

  @Post()
  @ApiOperation({
    summary: 'Register a webhook',
    description:
      'POSTs turn.started, game.started and game.finished for my games, signed per Standard Webhooks (webhook-id, webhook-timestamp, webhook-signature: HMAC-SHA256). The secret is returned only here. Failed deliveries are retried with exponential backoff (1 s, 2 s, 4 s..., 8 attempts).',
  })
  @ApiCreatedResponse({ type: WebhookRegistration })
  @ApiProblems(...BODY_PROBLEMS, 'WEBHOOK_LIMIT_REACHED', 'WEBHOOK_URL_NOT_ALLOWED', 'DATABASE_UNAVAILABLE')
  create(@CurrentPlayer() me: AuthenticatedPlayer, @Body() input: CreateWebhookInput) {
    return this.webhooks.create(me.id, input);
  }

  @Get()
  @ApiOperation({ summary: 'My webhooks (without secrets)' })
  @ApiOkResponse({ type: [WebhookView] })
  @ApiProblems('DATABASE_UNAVAILABLE')
  list(@CurrentPlayer() me: AuthenticatedPlayer) {
    return this.webhooks.list(me.id);
  }

  @Delete(':id')
  @HttpCode(204)
  @ApiOperation({ summary: 'Delete a webhook (pending deliveries are dropped)' })
  @ApiNoContentResponse({ description: 'Deleted.' })
  @ApiProblems(...PATH_PROBLEMS, 'WEBHOOK_NOT_FOUND', 'DATABASE_UNAVAILABLE')
  async remove(@CurrentPlayer() me: AuthenticatedPlayer, @Param('id') id: string): Promise<void> {
    await this.webhooks.remove(me.id, id);
  }

  @Get(':id/deliveries')
  @ApiOperation({ summary: "A webhook's recent deliveries with their attempts and status, newest first" })
  @ApiOkResponse({ type: [WebhookDeliveryView] })
  @ApiProblems(...PATH_PROBLEMS, 'WEBHOOK_NOT_FOUND', 'DATABASE_UNAVAILABLE')
  deliveries(@CurrentPlayer() me: AuthenticatedPlayer, @Param('id') id: string, @Query() q: DeliveriesQuery) {
    return this.webhooks.deliveries(me.id, id, q.limit);
  }
}
