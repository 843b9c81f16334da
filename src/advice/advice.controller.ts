import { RequireScope } from '../players/require-scope';
import { Body, Controller, Get, HttpCode, Param, Post, Query, UseGuards } from '@nestjs/common';
import { ApiBearerAuth, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { AuthGuard, CurrentPlayer, OptionalAuth } from '../players/auth.guard';
import type { AuthenticatedPlayer } from '../players/players.types';
import { ApiProblems, BODY_PROBLEMS, PATH_PROBLEMS } from '../common/openapi/decorators';
import { UuidPipe } from '../reliability';
import { AdviceService } from './advice.service';
import {
  FarkleAdviceInput,
  FarkleAdviceView,
  FiveDiceAdviceInput,
  FiveDiceAdviceView,
  GameAdviceQuery,
  GameAdviceView,
  GameAnalysisView,
} from './dto/advice.dto';

/** Advice and analysis over REST; the same service as AdviceResolver (GraphQL). */
@ApiTags('advice')
@ApiBearerAuth()
@UseGuards(AuthGuard)
@Controller()
export class AdviceController {
  constructor(private readonly advice: AdviceService) {}

  @Get('games/:id/advice')
  @ApiOperation({
    summary: 'Optimal advice for the player to move',
    description:
      'For the current state of the game, for the player to move (the creator for hot seats), in a game that allows advice. Five dice: every hold and box with its expected final score; Farkle: every set-aside with bank-or-roll values (last round, trailing: chances to beat the leader), and the chance to get on the board this turn. Five dice, once every other seat has finished: each hold and box also with its chance to win (a tie counts half), whatever the objective. objective=winProbability (two-seat Farkle games): every set-aside with its chance to win the game against the other player (a tie counts half); other Farkle games 422 WIN_PROBABILITY_UNSUPPORTED. 503 TABLE_BUILDING with Retry-After while the table for the game’s rules is computed.',
  })
  @ApiOkResponse({ type: GameAdviceView })
  @ApiProblems(
    ...PATH_PROBLEMS,
    'UNAUTHENTICATED',
    'GAME_NOT_FOUND',
    'NOT_SEATED',
    'ADVICE_FORBIDDEN',
    'GAME_NOT_STARTED',
    'GAME_FINISHED',
    'NOT_YOUR_TURN',
    'VALIDATION_FAILED',
    'ADVICE_UNSUPPORTED',
    'WIN_PROBABILITY_UNSUPPORTED',
    'TABLE_BUILDING',
    'ADVICE_BUSY',
    'DATABASE_UNAVAILABLE',
  )
  @RequireScope('advice:read')
  gameAdvice(
    @CurrentPlayer() me: AuthenticatedPlayer,
    @Param('id', UuidPipe) id: string,
    @Query() query: GameAdviceQuery,
  ): Promise<GameAdviceView> {
    return this.advice.gameAdvice(me, id, query.objective);
  }

  @Get('games/:id/analysis')
  @OptionalAuth()
  @ApiOperation({
    summary: 'Post-game analysis of a finished five-dice or two-seat Farkle game',
    description:
      'Every decision of every seat (five dice: holds after each roll with rolls left, and the box, by expected-value loss; two-seat Farkle: each set-aside with its bank-or-roll, by win-chance loss) against optimal play, labels, and each seat’s total loss and accuracy. Computed from the event log alone. Who may read the game may read its analysis. Farkle games with other seat counts or rules: 422 ADVICE_UNSUPPORTED.',
  })
  @ApiOkResponse({ type: GameAnalysisView })
  @ApiProblems(
    ...PATH_PROBLEMS,
    'UNAUTHENTICATED',
    'GAME_NOT_FOUND',
    'GAME_NOT_FINISHED',
    'ADVICE_UNSUPPORTED',
    'TABLE_BUILDING',
    'ADVICE_BUSY',
    'DATABASE_UNAVAILABLE',
  )
  @RequireScope('advice:read')
  analysis(@CurrentPlayer() me: AuthenticatedPlayer | null, @Param('id', UuidPipe) id: string) {
    return this.advice.analysis(me, id);
  }

  @Post('advice/five-dice')
  @OptionalAuth()
  @HttpCode(200)
  @ApiOperation({
    summary: 'Optimal five-dice advice for a sheet, dice and rolls left (no game)',
    description:
      'The stateless advisor: the sheet (filled boxes and extra bonus), the dice and the rolls left, under a rule set and its option overrides. Options outside the presets whose table is not built yet: the build needs a bearer token (401 UNAUTHENTICATED without) and counts against ADVICE_CUSTOM_BUILDS_PER_HOUR (429 ADVICE_BUILD_LIMITED with Retry-After).',
  })
  @ApiOkResponse({ type: FiveDiceAdviceView })
  @ApiProblems(
    ...BODY_PROBLEMS,
    'UNAUTHENTICATED',
    'INVALID_OPTIONS',
    'INVALID_SHEET',
    'UNKNOWN_BOX',
    'ADVICE_BUILD_LIMITED',
    'TABLE_BUILDING',
    'ADVICE_BUSY',
  )
  @RequireScope('advice:read')
  fiveDice(@CurrentPlayer() me: AuthenticatedPlayer | null, @Body() input: FiveDiceAdviceInput): FiveDiceAdviceView {
    return this.advice.fiveDiceAdvice(input, { playerId: me?.id ?? null });
  }

  @Post('advice/farkle')
  @OptionalAuth()
  @HttpCode(200)
  @ApiOperation({
    summary: 'Farkle advice for a banked total, turn points and a roll or the dice left (no game)',
    description:
      'With dice: which scoring dice to set aside, then bank or roll. Without dice (after a set-aside): bank or roll the dice left. With lastRound: the end-game adjustment (maximise the chance to finish above the leader). With objective winProbability and opponent: the chance to win a two-player game (options the two-player solver does not model: 422 WIN_PROBABILITY_UNSUPPORTED). Custom options whose table is not built yet: as POST /v1/advice/five-dice (token required, per-player budget).',
  })
  @ApiOkResponse({ type: FarkleAdviceView })
  @ApiProblems(
    ...BODY_PROBLEMS,
    'UNAUTHENTICATED',
    'INVALID_OPTIONS',
    'INVALID_POSITION',
    'ADVICE_UNSUPPORTED',
    'WIN_PROBABILITY_UNSUPPORTED',
    'ADVICE_BUILD_LIMITED',
    'TABLE_BUILDING',
    'ADVICE_BUSY',
  )
  @RequireScope('advice:read')
  farkle(@CurrentPlayer() me: AuthenticatedPlayer | null, @Body() input: FarkleAdviceInput): FarkleAdviceView {
    return this.advice.farkleAdvice(input, { playerId: me?.id ?? null });
  }
}
