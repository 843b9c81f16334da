import { RequireScope } from '../../players/require-scope';
import { Controller, Get, Query, Req, Res, UseGuards } from '@nestjs/common';
import { ApiBearerAuth, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { AuthGuard, CurrentPlayer } from '../../players/auth.guard';
import type { AuthenticatedPlayer } from '../../players/players.types';
import { pageRequest } from '../../common/pagination/page-request';
import { Deprecated } from '../../common/http/deprecation';
import { NEXT_LINK_HEADER, setNextLink } from '../../common/pagination/next-link';
import { InboxPage, InboxQuery } from './dto/inbox.dto';
import { InboxService } from './inbox.service';
import { ApiProblems } from '../../common/openapi/decorators';

@ApiTags('inbox')
@ApiBearerAuth()
@UseGuards(AuthGuard)
@Controller('inbox')
export class InboxController {
  constructor(private readonly inbox: InboxService) {}

  @Get()
  @ApiOperation({
    summary: 'My games awaiting my move, the nearest deadline first (with the deadline of each)',
    description:
      'Ordered by urgency: deadline ascending (games without a time limit last), then least recently changed, then id. Paging by cursor: within one pass no game is shown twice, and every game that waits on you unchanged for the whole pass is shown exactly once; a game that changes during the pass (a move, a timeout) is left out of its later pages: start a new pass to see it (docs/api.md#pagination).',
  })
  @ApiOkResponse({ type: InboxPage, headers: NEXT_LINK_HEADER })
  @Deprecated({ since: '2026-12-01', params: ['offset'] })
  @ApiProblems('VALIDATION_FAILED', 'INVALID_CURSOR', 'DATABASE_UNAVAILABLE')
  @RequireScope('game:read')
  async get(
    @CurrentPlayer() me: AuthenticatedPlayer,
    @Query() q: InboxQuery,
    @Req() req: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<InboxPage> {
    const page = await this.inbox.inbox(me.id, pageRequest(q));
    setNextLink(req, reply, page.nextCursor);
    return { items: page.items, nextCursor: page.nextCursor, nextOffset: page.nextOffset };
  }
}
