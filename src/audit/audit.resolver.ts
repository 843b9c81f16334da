import { RequireScope } from '../players/require-scope';
import { UseGuards } from '@nestjs/common';
import { Args, ID, Query, Resolver } from '@nestjs/graphql';
import { AuthGuard, CurrentPlayer, OptionalAuth } from '../players/auth.guard';
import { JSONScalar } from '../common/graphql/json.scalar';
import type { AuthenticatedPlayer } from '../players/players.types';
import { AuditService } from './audit.service';
import { AuditBundleView, toAuditBundleView } from './dto/audit-bundle.types';

@Resolver()
@UseGuards(AuthGuard)
export class AuditResolver {
  constructor(private readonly audit: AuditService) {}

  @Query(() => JSONScalar, {
    name: 'audit',
    description:
      "The game's audit bundle (docs/fairness.md §5), the same document as GET /v1/games/{id}/audit. Public games: anyone; private games: their seats only.",
    deprecationReason:
      'Use auditBundle: the same members, typed. For the document itself (a verifier input), GET /v1/games/{id}/audit.',
  })
  @OptionalAuth()
  @RequireScope('game:read')
  auditDocument(@CurrentPlayer() me: AuthenticatedPlayer | null, @Args('gameId', { type: () => ID }) gameId: string) {
    return this.audit.bundle(me, gameId);
  }

  @Query(() => AuditBundleView, {
    name: 'auditBundle',
    description:
      "The game's audit bundle (docs/fairness.md §5), typed: the members of GET /v1/games/{id}/audit, events as GameEvent types. Public games: anyone; private games: their seats only.",
  })
  @OptionalAuth()
  @RequireScope('game:read')
  async typedAuditBundle(
    @CurrentPlayer() me: AuthenticatedPlayer | null,
    @Args('gameId', { type: () => ID }) gameId: string,
  ): Promise<AuditBundleView> {
    const { bundle, eventTimes } = await this.audit.bundleWithTimes(me, gameId);
    return toAuditBundleView(bundle, eventTimes);
  }
}
