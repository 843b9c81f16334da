import { RequireScope } from '../players/require-scope';
import { UseGuards } from '@nestjs/common';
import { Args, ID, Int, Query, Resolver } from '@nestjs/graphql';
import { AuthGuard, CurrentPlayer, OptionalAuth, Public } from '../players/auth.guard';
import type { AuthenticatedPlayer } from '../players/players.types';
import { TransparencyLogService } from './transparency-log.service';
import { ConsistencyProofView, GameLogProofView, TreeHeadView } from './dto/transparency.dto';

@Resolver()
@UseGuards(AuthGuard)
export class TransparencyResolver {
  constructor(private readonly log: TransparencyLogService) {}

  @Query(() => TreeHeadView, {
    name: 'transparencyTreeHead',
    description:
      'The latest signed tree head of the transparency log (docs/fairness.md §9), as GET /v1/transparency/tree-head.',
  })
  @Public()
  treeHead(): Promise<TreeHeadView> {
    return this.log.treeHead();
  }

  @Query(() => ConsistencyProofView, {
    name: 'transparencyConsistency',
    description:
      'RFC 9162 consistency proof, 1 <= first <= second <= the latest signed size (else LOG_SIZE_OUT_OF_RANGE).',
  })
  @Public()
  consistency(
    @Args('first', { type: () => Int }) first: number,
    @Args('second', { type: () => Int }) second: number,
  ): Promise<ConsistencyProofView> {
    return this.log.consistency(first, second);
  }

  @Query(() => GameLogProofView, {
    name: 'gameLogProof',
    description: "The game's leaves in the log with inclusion proofs, as GET /v1/games/{id}/log-proof.",
  })
  @OptionalAuth()
  @RequireScope('game:read')
  gameProof(
    @CurrentPlayer() me: AuthenticatedPlayer | null,
    @Args('gameId', { type: () => ID }) gameId: string,
    @Args('treeSize', { type: () => Int, nullable: true }) treeSize?: number | null,
  ): Promise<GameLogProofView> {
    return this.log.proofForPlayer(me, gameId, treeSize ?? undefined);
  }
}
