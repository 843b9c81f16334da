import { Controller, Get, Query, UseGuards } from '@nestjs/common';
import { ApiBearerAuth, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { AuthGuard, CurrentPlayer } from '../../players/auth.guard';
import type { AuthenticatedPlayer } from '../../players/players.types';
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
  @ApiOperation({ summary: 'My games awaiting my move, the nearest deadline first (with the deadline of each)' })
  @ApiOkResponse({ type: InboxPage })
  @ApiProblems('VALIDATION_FAILED', 'DATABASE_UNAVAILABLE')
  get(@CurrentPlayer() me: AuthenticatedPlayer, @Query() q: InboxQuery) {
    return this.inbox.inbox(me.id, q.limit, q.offset);
  }
}
