import { UseGuards } from '@nestjs/common';
import { Args, ID, Query, Resolver } from '@nestjs/graphql';
import { AuthGuard, CurrentPlayer, OptionalAuth } from '../players/auth.guard';
import { JSONScalar } from '../common/graphql/json.scalar';
import type { AuthenticatedPlayer } from '../players/players.types';
import { AuditService } from './audit.service';

@Resolver()
@UseGuards(AuthGuard)
export class AuditResolver {
  constructor(private readonly audit: AuditService) {}

  @Query(() => JSONScalar, {
    name: 'audit',
    description:
      "The game's audit bundle (docs/fairness.md §5), the same document as GET /v1/games/{id}/audit. Public games: anyone; private games: their seats only.",
  })
  @OptionalAuth()
  auditBundle(@CurrentPlayer() me: AuthenticatedPlayer | null, @Args('gameId', { type: () => ID }) gameId: string) {
    return this.audit.bundle(me, gameId);
  }
}
