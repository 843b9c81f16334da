import { RequireScope } from '../players/require-scope';
import { Body, Controller, Get, HttpCode, Param, Post, UseGuards } from '@nestjs/common';
import { ApiBearerAuth, ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { DeclineReason } from '@fairdice/core/rules/challenge';
import { ApiProblems, ApiRequestHeaders, BODY_PROBLEMS, PATH_PROBLEMS } from '../common/openapi/decorators';
import type { ErrorCode } from '../common/errors/error-codes';
import { AuthGuard, CurrentPlayer, OptionalAuth } from '../players/auth.guard';
import type { AuthenticatedPlayer } from '../players/players.types';
import { RestCommandOptions } from '../reliability/http/command-options';
import { UuidPipe } from '../reliability/http/uuid.pipe';
import type { CommandOptions } from '../commands/command-handler';
import { ChallengesService } from './challenges.service';
import { ChallengeView, CreateChallengeInput, DeclineChallengeInput, MyChallengesView } from './dto/challenge.dto';

/** What every answer to a challenge (accept, decline, cancel) may be refused with. */
const ANSWER_PROBLEMS: ErrorCode[] = [
  ...PATH_PROBLEMS,
  ...BODY_PROBLEMS,
  'UNAUTHENTICATED',
  'CHALLENGE_NOT_FOUND',
  'CHALLENGE_NOT_PENDING',
  'PRECONDITION_FAILED',
  'VERSION_CONFLICT',
  'IDEMPOTENCY_KEY_REUSED',
  'IDEMPOTENCY_IN_PROGRESS',
  'DATABASE_UNAVAILABLE',
];

@ApiTags('challenges')
@ApiBearerAuth()
@UseGuards(AuthGuard)
@Controller('challenges')
export class ChallengesController {
  constructor(private readonly challenges: ChallengesService) {}

  @RequireScope('game:create')
  @Post()
  @ApiOperation({
    summary: 'Challenge a player (or anyone, by link)',
    description:
      'A two-player game of the pool with its default options, rated or casual, with the time per move, and an optional message (docs/challenges.md). `opponent` is a player id or username; absent: an open challenge that the first player to accept its link (`url`) takes. The challenged player gets `challengeReceived` on their event stream. Expires unanswered after CHALLENGE_EXPIRY_SECONDS (1 day by default); at most CHALLENGE_MAX_PENDING (20) pending challenges per challenger.',
  })
  @ApiCreatedResponse({ type: ChallengeView })
  @ApiRequestHeaders('Idempotency-Key')
  @ApiProblems(
    ...BODY_PROBLEMS,
    'UNAUTHENTICATED',
    'PLAYER_NOT_FOUND',
    'CANNOT_CHALLENGE_SELF',
    'CHALLENGE_LIMIT_REACHED',
    'IDEMPOTENCY_KEY_REUSED',
    'IDEMPOTENCY_IN_PROGRESS',
    'DATABASE_UNAVAILABLE',
  )
  create(
    @CurrentPlayer() me: AuthenticatedPlayer,
    @Body() input: CreateChallengeInput,
    @RestCommandOptions() opts: CommandOptions,
  ): Promise<ChallengeView> {
    return this.challenges.create(me, input, opts);
  }

  @RequireScope('game:read')
  @Get()
  @ApiOperation({
    summary: 'My pending challenges',
    description:
      'Challenges to me (incoming) and made by me (outgoing, open ones included), pending only, newest first (at most 50 each).',
  })
  @ApiOkResponse({ type: MyChallengesView })
  @ApiProblems('UNAUTHENTICATED', 'DATABASE_UNAVAILABLE')
  list(@CurrentPlayer() me: AuthenticatedPlayer): Promise<MyChallengesView> {
    return this.challenges.list(me);
  }

  @RequireScope('game:read')
  @Get(':id')
  @OptionalAuth()
  @ApiOperation({
    summary: 'A challenge',
    description:
      'An open challenge is seen by anyone with its link (no token needed: the link page shows it); a direct one by its two players only (404 CHALLENGE_NOT_FOUND for anyone else).',
  })
  @ApiOkResponse({ type: ChallengeView })
  @ApiProblems(...PATH_PROBLEMS, 'CHALLENGE_NOT_FOUND', 'DATABASE_UNAVAILABLE')
  get(@CurrentPlayer() me: AuthenticatedPlayer | null, @Param('id', UuidPipe) id: string): Promise<ChallengeView> {
    return this.challenges.get(me ?? null, id);
  }

  @RequireScope('game:create')
  @Post(':id/accept')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Accept a challenge: its game is created and started',
    description:
      "The challenged player (or, for an open challenge, anyone but its challenger: the first taker) accepts; the game is created and started in the same transaction (seat order from the game's commitment, docs/challenges.md) and its id is `gameId`. Both players get `challengeAccepted` and `gameStarted`. A challenge is accepted once: a second acceptance is 409 CHALLENGE_NOT_PENDING.",
  })
  @ApiOkResponse({ type: ChallengeView })
  @ApiRequestHeaders('Idempotency-Key', 'If-Match')
  @ApiProblems(...ANSWER_PROBLEMS, 'NOT_CHALLENGE_RECIPIENT', 'CANNOT_CHALLENGE_SELF')
  accept(
    @CurrentPlayer() me: AuthenticatedPlayer,
    @Param('id', UuidPipe) id: string,
    @RestCommandOptions() opts: CommandOptions,
  ): Promise<ChallengeView> {
    return this.challenges.accept(me, id, opts);
  }

  @RequireScope('game:create')
  @Post(':id/decline')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Decline a challenge, with a reason',
    description:
      'The challenged player declines (an open challenge cannot be declined: its challenger cancels it). Both players get `challengeDeclined` with the reason.',
  })
  @ApiOkResponse({ type: ChallengeView })
  @ApiRequestHeaders('Idempotency-Key', 'If-Match')
  @ApiProblems(...ANSWER_PROBLEMS, 'NOT_CHALLENGE_RECIPIENT')
  decline(
    @CurrentPlayer() me: AuthenticatedPlayer,
    @Param('id', UuidPipe) id: string,
    @Body() input: DeclineChallengeInput,
    @RestCommandOptions() opts: CommandOptions,
  ): Promise<ChallengeView> {
    return this.challenges.decline(me, id, (input?.reason ?? 'generic') as DeclineReason, opts);
  }

  @RequireScope('game:create')
  @Post(':id/cancel')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Cancel my challenge',
    description: 'The challenger withdraws a pending challenge. Both players get `challengeCancelled`.',
  })
  @ApiOkResponse({ type: ChallengeView })
  @ApiRequestHeaders('Idempotency-Key', 'If-Match')
  @ApiProblems(...ANSWER_PROBLEMS, 'NOT_CHALLENGER')
  cancel(
    @CurrentPlayer() me: AuthenticatedPlayer,
    @Param('id', UuidPipe) id: string,
    @RestCommandOptions() opts: CommandOptions,
  ): Promise<ChallengeView> {
    return this.challenges.cancel(me, id, opts);
  }
}
