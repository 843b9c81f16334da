import { RequireScope } from '../players/require-scope';
import { Controller, Get, Param, Query, UseGuards } from '@nestjs/common';
import { ApiBearerAuth, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { AuthGuard, CurrentPlayer, OptionalAuth, Public } from '../players/auth.guard';
import type { AuthenticatedPlayer } from '../players/players.types';
import { TransparencyLogService } from './transparency-log.service';
import {
  ConsistencyProofView,
  ConsistencyQuery,
  GameLogProofQuery,
  GameLogProofView,
  TreeHeadView,
} from './dto/transparency.dto';
import { ApiProblems, PATH_PROBLEMS } from '../common/openapi/decorators';

@ApiTags('transparency')
@UseGuards(AuthGuard)
@Controller()
export class TransparencyController {
  constructor(private readonly log: TransparencyLogService) {}

  @Get('transparency/tree-head')
  @Public()
  @ApiOperation({
    summary: 'The latest signed tree head of the transparency log, with the public key',
    description:
      'Archive it (docs/fairness.md §9.6): a later head must be consistent with it (GET /v1/transparency/consistency).',
  })
  @ApiOkResponse({ type: TreeHeadView })
  @ApiProblems('DATABASE_UNAVAILABLE')
  treeHead(): Promise<TreeHeadView> {
    return this.log.treeHead();
  }

  @Get('transparency/consistency')
  @Public()
  @ApiOperation({
    summary: 'RFC 9162 consistency proof between two tree sizes',
    description: '1 <= first <= second <= the latest signed size, else 400 LOG_SIZE_OUT_OF_RANGE.',
  })
  @ApiOkResponse({ type: ConsistencyProofView })
  @ApiProblems('VALIDATION_FAILED', 'LOG_SIZE_OUT_OF_RANGE', 'DATABASE_UNAVAILABLE')
  consistency(@Query() q: ConsistencyQuery): Promise<ConsistencyProofView> {
    return this.log.consistency(q.first, q.second);
  }

  @Get('games/:id/log-proof')
  @ApiBearerAuth() // optional: a private game's proof is for its seats only
  @OptionalAuth()
  @ApiOperation({
    summary: "The game's leaves in the transparency log with their inclusion proofs",
    description:
      'The commitment (leaf kind created) and, once the game has ended, the final chain head (kind ended), proved against ' +
      'the latest signed tree head or the one of `treeSize` (404 LOG_TREE_HEAD_NOT_FOUND if none was signed at that size). ' +
      'Public games: anyone; private games: their seats only.',
  })
  @ApiOkResponse({ type: GameLogProofView })
  @ApiProblems(...PATH_PROBLEMS, 'GAME_NOT_FOUND', 'LOG_TREE_HEAD_NOT_FOUND', 'DATABASE_UNAVAILABLE')
  @RequireScope('game:read')
  gameProof(
    @CurrentPlayer() me: AuthenticatedPlayer | null,
    @Param('id') id: string,
    @Query() q: GameLogProofQuery,
  ): Promise<GameLogProofView> {
    return this.log.proofForPlayer(me, id, q.treeSize);
  }
}
