import { RequireScope } from '../players/require-scope';
import { Body, Controller, Delete, Get, Param, Post, Query, Req, Res, UseGuards } from '@nestjs/common';
import { ApiBearerAuth, ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { SEEK_LIMITS, TIME_CONTROLS } from '@fairdice/core/rules/seek';
import { CursorQuery } from '../common/dto/pagination';
import { ApiProblems, ApiRequestHeaders, BODY_PROBLEMS, PATH_PROBLEMS } from '../common/openapi/decorators';
import { NEXT_LINK_HEADER, setNextLink } from '../common/pagination/next-link';
import { pageRequest } from '../common/pagination/page-request';
import { AuthGuard, CurrentPlayer, OptionalAuth } from '../players/auth.guard';
import type { AuthenticatedPlayer } from '../players/players.types';
import { RestCommandOptions, UuidPipe } from '../reliability';
import type { CommandOptions } from '../commands/command-handler';
import { CreateSeekInput, SeekPage, SeekView } from './dto/seek.dto';
import { SeeksService } from './seeks.service';

@ApiTags('seeks')
@UseGuards(AuthGuard)
@Controller('seeks')
export class SeeksController {
  constructor(private readonly seeks: SeeksService) {}

  @RequireScope('game:create')
  @Post()
  @ApiBearerAuth()
  @ApiOperation({
    summary: 'Post a seek: be paired with a stranger into a game',
    description: `The matchmaker pairs compatible seeks (same pool, seats, rated flag and time per move; each player's rating inside the other's window, which widens while the seek waits) and creates and starts the game; each player gets gameStarted on their event stream (docs/matchmaking.md). At most ${SEEK_LIMITS.openPerPlayer} open seeks per player (409 SEEK_LIMIT_REACHED). Time per move: one of ${TIME_CONTROLS.join(', ')} s, required for a rated seek (400 INVALID_TIME_CONTROL).`,
  })
  @ApiCreatedResponse({ type: SeekView })
  @ApiRequestHeaders('Idempotency-Key')
  @ApiProblems(
    ...BODY_PROBLEMS,
    'UNAUTHENTICATED',
    'UNKNOWN_POOL',
    'INVALID_RATING_RANGE',
    'INVALID_TIME_CONTROL',
    'INVALID_COMMAND',
    'SEEK_LIMIT_REACHED',
    'IDEMPOTENCY_KEY_REUSED',
    'IDEMPOTENCY_IN_PROGRESS',
    'DATABASE_UNAVAILABLE',
  )
  create(
    @CurrentPlayer() me: AuthenticatedPlayer,
    @Body() input: CreateSeekInput,
    @RestCommandOptions() opts: CommandOptions,
  ): Promise<SeekView> {
    return this.seeks.create(me, input, opts);
  }

  @Get()
  @OptionalAuth()
  @RequireScope('game:read')
  @ApiOperation({
    summary: 'The lobby: the open seeks, oldest first',
    description: 'Oldest first, the order the matchmaker serves them in. Paged by cursor. No token needed.',
  })
  @ApiOkResponse({ type: SeekPage, headers: { ...NEXT_LINK_HEADER } })
  @ApiProblems('VALIDATION_FAILED', 'INVALID_CURSOR', 'DATABASE_UNAVAILABLE')
  async list(
    @Query() q: CursorQuery,
    @Req() req: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<SeekPage> {
    const page = await this.seeks.list(pageRequest(q));
    setNextLink(req, reply, page.nextCursor);
    return { items: page.items, nextCursor: page.nextCursor };
  }

  @Get(':id')
  @OptionalAuth()
  @RequireScope('game:read')
  @ApiOperation({
    summary: 'One seek: open, paired (with its game) or cancelled',
    description: 'No token needed.',
  })
  @ApiOkResponse({ type: SeekView })
  @ApiProblems(...PATH_PROBLEMS, 'SEEK_NOT_FOUND', 'DATABASE_UNAVAILABLE')
  get(@Param('id', UuidPipe) id: string): Promise<SeekView> {
    return this.seeks.get(id);
  }

  @RequireScope('game:create')
  @Delete(':id')
  @ApiBearerAuth()
  @ApiOperation({
    summary: 'Cancel my open seek',
    description:
      "Answers the cancelled seek. Another player's seek: 403 NOT_YOUR_SEEK; a seek already paired or cancelled: 409 SEEK_NOT_OPEN.",
  })
  @ApiOkResponse({ type: SeekView })
  @ApiRequestHeaders('Idempotency-Key')
  @ApiProblems(
    ...PATH_PROBLEMS,
    'UNAUTHENTICATED',
    'SEEK_NOT_FOUND',
    'NOT_YOUR_SEEK',
    'SEEK_NOT_OPEN',
    'VERSION_CONFLICT',
    'IDEMPOTENCY_KEY_REUSED',
    'IDEMPOTENCY_IN_PROGRESS',
    'DATABASE_UNAVAILABLE',
  )
  cancel(
    @CurrentPlayer() me: AuthenticatedPlayer,
    @Param('id', UuidPipe) id: string,
    @RestCommandOptions() opts: CommandOptions,
  ): Promise<SeekView> {
    return this.seeks.cancel(me, id, opts);
  }
}
