import { RequireScope } from '../../players/require-scope';
import { Body, Controller, Delete, Get, HttpCode, Param, Post, Query, Req, Res, UseGuards } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { pageRequest } from '../../common/pagination/page-request';
import { NEXT_LINK_HEADER, setNextLink } from '../../common/pagination/next-link';
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
      "POSTs turn.started, game.started and game.finished for my games (the default) and, when subscribed, tournament.started, round.started, round.finished and tournament.finished for tournaments I organize or entered (a tournament notice's delivery has the tournament id as gameId), signed per Standard Webhooks (webhook-id, webhook-timestamp, webhook-signature: HMAC-SHA256). The secret is returned only here. Failed deliveries are retried with exponential backoff (1 s, 2 s, 4 s..., 8 attempts).",
  })
  @ApiCreatedResponse({ type: WebhookRegistration })
  @ApiProblems(...BODY_PROBLEMS, 'WEBHOOK_LIMIT_REACHED', 'WEBHOOK_URL_NOT_ALLOWED', 'DATABASE_UNAVAILABLE')
  @RequireScope('webhook:write')
  create(@CurrentPlayer() me: AuthenticatedPlayer, @Body() input: CreateWebhookInput) {
    return this.webhooks.create(me.id, input);
  }

  @Get()
  @ApiOperation({ summary: 'My webhooks (without secrets)' })
  @ApiOkResponse({ type: [WebhookView] })
  @ApiProblems('DATABASE_UNAVAILABLE')
  @RequireScope('webhook:write')
  list(@CurrentPlayer() me: AuthenticatedPlayer) {
    return this.webhooks.list(me.id);
  }

  @Delete(':id')
  @HttpCode(204)
  @ApiOperation({ summary: 'Delete a webhook (pending deliveries are dropped)' })
  @ApiNoContentResponse({ description: 'Deleted.' })
  @ApiProblems(...PATH_PROBLEMS, 'WEBHOOK_NOT_FOUND', 'DATABASE_UNAVAILABLE')
  @RequireScope('webhook:write')
  async remove(@CurrentPlayer() me: AuthenticatedPlayer, @Param('id') id: string): Promise<void> {
    await this.webhooks.remove(me.id, id);
  }

  @Get(':id/deliveries')
  @ApiOperation({
    summary: "A webhook's deliveries with their attempts and status, newest first",
    description:
      'Newest first (created_at, then id, descending): a delivery keeps its place while it is attempted, so paging neither skips nor repeats (deliveries made meanwhile are not added to a pass under way). The body is the page\'s array; the next page is in the `Link: <…>; rel="next"` header (docs/api.md#pagination).',
  })
  @ApiOkResponse({ type: [WebhookDeliveryView], headers: NEXT_LINK_HEADER })
  @ApiProblems(...PATH_PROBLEMS, 'INVALID_CURSOR', 'WEBHOOK_NOT_FOUND', 'DATABASE_UNAVAILABLE')
  @RequireScope('webhook:write')
  async deliveries(
    @CurrentPlayer() me: AuthenticatedPlayer,
    @Param('id') id: string,
    @Query() q: DeliveriesQuery,
    @Req() req: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<WebhookDeliveryView[]> {
    const page = await this.webhooks.deliveries(me.id, id, pageRequest(q));
    setNextLink(req, reply, page.nextCursor);
    return page.items;
  }
}
