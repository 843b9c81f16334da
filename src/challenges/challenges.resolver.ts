import { RequireScope } from '../players/require-scope';
import { UseGuards } from '@nestjs/common';
import { Args, ID, Mutation, Query, Resolver } from '@nestjs/graphql';
import { UUID_PATTERN_ANY_CASE as UUID } from '@fairdice/core/fairness/ids';
import type { DeclineReason } from '@fairdice/core/rules/challenge';
import { DomainException } from '../common/errors';
import { AuthGuard, CurrentPlayer, OptionalAuth } from '../players/auth.guard';
import type { AuthenticatedPlayer } from '../players/players.types';
import { IDEMPOTENCY_KEY_ARG } from '../reliability';
import { ChallengesService } from './challenges.service';
import { ChallengeView, CreateChallengeInput, DeclineChallengeInput, MyChallengesView } from './dto/challenge.dto';

const ID_ARG = { type: () => ID, description: 'The challenge id.' };

/** Same operations, rules and error codes as ChallengesController (docs/challenges.md). */
@Resolver(() => ChallengeView)
@UseGuards(AuthGuard)
export class ChallengesResolver {
  constructor(private readonly service: ChallengesService) {}

  @RequireScope('game:read')
  @Query(() => MyChallengesView, { description: 'My pending challenges, incoming and outgoing (GET /v1/challenges).' })
  challenges(@CurrentPlayer() me: AuthenticatedPlayer): Promise<MyChallengesView> {
    return this.service.list(me);
  }

  @RequireScope('game:read')
  @Query(() => ChallengeView, {
    description:
      'A challenge: an open one for anyone with its link, a direct one for its two players (GET /v1/challenges/{id}).',
  })
  @OptionalAuth()
  challenge(@CurrentPlayer() me: AuthenticatedPlayer | null, @Args('id', ID_ARG) id: string): Promise<ChallengeView> {
    return this.service.get(me ?? null, checkId(id));
  }

  @RequireScope('game:create')
  @Mutation(() => ChallengeView, { description: 'Challenge a player, or anyone by link (POST /v1/challenges).' })
  createChallenge(
    @CurrentPlayer() me: AuthenticatedPlayer,
    @Args('input') input: CreateChallengeInput,
    @Args('idempotencyKey', IDEMPOTENCY_KEY_ARG) idempotencyKey?: string,
  ): Promise<ChallengeView> {
    return this.service.create(me, input, { idempotencyKey });
  }

  @RequireScope('game:create')
  @Mutation(() => ChallengeView, {
    description: 'Accept a challenge: its game is created and started (gameId) (POST /v1/challenges/{id}/accept).',
  })
  acceptChallenge(
    @CurrentPlayer() me: AuthenticatedPlayer,
    @Args('id', ID_ARG) id: string,
    @Args('idempotencyKey', IDEMPOTENCY_KEY_ARG) idempotencyKey?: string,
  ): Promise<ChallengeView> {
    return this.service.accept(me, checkId(id), { idempotencyKey });
  }

  @RequireScope('game:create')
  @Mutation(() => ChallengeView, {
    description: 'Decline a challenge with a reason (POST /v1/challenges/{id}/decline).',
  })
  declineChallenge(
    @CurrentPlayer() me: AuthenticatedPlayer,
    @Args('id', ID_ARG) id: string,
    @Args('input', { type: () => DeclineChallengeInput, nullable: true }) input?: DeclineChallengeInput,
    @Args('idempotencyKey', IDEMPOTENCY_KEY_ARG) idempotencyKey?: string,
  ): Promise<ChallengeView> {
    return this.service.decline(me, checkId(id), (input?.reason ?? 'generic') as DeclineReason, { idempotencyKey });
  }

  @RequireScope('game:create')
  @Mutation(() => ChallengeView, { description: 'Cancel my challenge (POST /v1/challenges/{id}/cancel).' })
  cancelChallenge(
    @CurrentPlayer() me: AuthenticatedPlayer,
    @Args('id', ID_ARG) id: string,
    @Args('idempotencyKey', IDEMPOTENCY_KEY_ARG) idempotencyKey?: string,
  ): Promise<ChallengeView> {
    return this.service.cancel(me, checkId(id), { idempotencyKey });
  }
}

function checkId(id: string): string {
  if (!UUID.test(id))
    throw new DomainException('VALIDATION_FAILED', 'id must be a UUID', {
      errors: [{ field: 'id', problems: ['id must be a UUID'] }],
    });
  return id.toLowerCase();
}
