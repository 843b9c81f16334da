import { RequireScope } from '../players/require-scope';
import { UseGuards } from '@nestjs/common';
import { Args, ID, Query, Resolver } from '@nestjs/graphql';
import { AdviceObjectiveEnum, type AdviceObjective } from './dto/advice-enums';
import { AuthGuard, CurrentPlayer, OptionalAuth } from '../players/auth.guard';
import type { AuthenticatedPlayer } from '../players/players.types';
import { AdviceService } from './advice.service';
import {
  FarkleAdviceInput,
  FarkleAdviceView,
  FiveDiceAdviceInput,
  FiveDiceAdviceView,
  GameAdviceView,
  GameAnalysisView,
} from './dto/advice.dto';

/** Same operations, semantics and error codes as AdviceController (one service). */
@Resolver()
@UseGuards(AuthGuard)
export class AdviceResolver {
  constructor(private readonly advice: AdviceService) {}

  @Query(() => GameAdviceView, {
    description:
      'Optimal advice for the player to move in a game that allows advice (TABLE_BUILDING with extensions.retryAfter while the table is computed); objective winProbability: chances to win a two-seat Farkle game. Same as GET /v1/games/{id}/advice.',
  })
  @RequireScope('advice:read')
  gameAdvice(
    @CurrentPlayer() me: AuthenticatedPlayer,
    @Args('gameId', { type: () => ID }) gameId: string,
    @Args('objective', {
      type: () => AdviceObjectiveEnum,
      nullable: true,
      description:
        'expected (default) or winProbability (two-seat Farkle games; a five-dice game answers its one view, whose endgame fields carry the win chances).',
    })
    objective?: AdviceObjective | null,
  ) {
    return this.advice.gameAdvice(me, gameId, objective ?? undefined);
  }

  @Query(() => GameAnalysisView, {
    description:
      'Post-game analysis of a finished five-dice or two-seat Farkle game. Same as GET /v1/games/{id}/analysis.',
  })
  @OptionalAuth()
  @RequireScope('advice:read')
  gameAnalysis(@CurrentPlayer() me: AuthenticatedPlayer | null, @Args('gameId', { type: () => ID }) gameId: string) {
    return this.advice.analysis(me, gameId);
  }

  @Query(() => FiveDiceAdviceView, {
    description:
      'Optimal five-dice advice for a sheet, dice and rolls left (no game). Same as POST /v1/advice/five-dice (a new table for custom options needs a token and counts against a per-player budget: ADVICE_BUILD_LIMITED).',
  })
  @OptionalAuth()
  @RequireScope('advice:read')
  fiveDiceAdvice(@CurrentPlayer() me: AuthenticatedPlayer | null, @Args('input') input: FiveDiceAdviceInput) {
    return this.advice.fiveDiceAdvice(input, { playerId: me?.id ?? null });
  }

  @Query(() => FarkleAdviceView, {
    description: 'Farkle advice for a position (no game). Same as POST /v1/advice/farkle.',
  })
  @OptionalAuth()
  @RequireScope('advice:read')
  farkleAdvice(@CurrentPlayer() me: AuthenticatedPlayer | null, @Args('input') input: FarkleAdviceInput) {
    return this.advice.farkleAdvice(input, { playerId: me?.id ?? null });
  }
}
