import { RequireScope } from '../players/require-scope';
import { UseGuards } from '@nestjs/common';
import { Args, ID, Int, Mutation, Query, Resolver } from '@nestjs/graphql';
import { UUID_PATTERN_ANY_CASE as UUID } from '@fairdice/core/fairness/ids';
import { DomainException } from '../common/errors';
import { toConnection } from '../common/graphql/connection';
import { pageRequest } from '../common/pagination/page-request';
import { AuthGuard, CurrentPlayer, OptionalAuth } from '../players/auth.guard';
import type { AuthenticatedPlayer } from '../players/players.types';
import { IDEMPOTENCY_KEY_ARG } from '../reliability';
import { CreateSeekInput, SeekConnection, SeekView } from './dto/seek.dto';
import { SeeksService } from './seeks.service';

/** Same operations, semantics and error codes as SeeksController (one service). */
@Resolver()
@UseGuards(AuthGuard)
export class SeeksResolver {
  constructor(private readonly service: SeeksService) {}

  @Query(() => SeekConnection, { description: 'The open seeks, oldest first (GET /v1/seeks).' })
  @OptionalAuth()
  @RequireScope('game:read')
  async seeks(
    @Args('first', { type: () => Int, nullable: true, description: 'Seeks per page, 1 to 100 (default 20).' })
    first?: number,
    @Args('after', { type: () => String, nullable: true, description: 'The endCursor of the previous page.' })
    after?: string,
  ): Promise<SeekConnection> {
    return toConnection(await this.service.list(pageRequest({ limit: first, cursor: after })), after);
  }

  @Query(() => SeekView, { description: 'One seek (GET /v1/seeks/{id}).' })
  @OptionalAuth()
  @RequireScope('game:read')
  seek(@Args('id', { type: () => ID }) id: string): Promise<SeekView> {
    return this.service.get(checkSeekId(id));
  }

  @RequireScope('game:create')
  @Mutation(() => SeekView, { description: 'Post a seek (POST /v1/seeks; docs/matchmaking.md).' })
  createSeek(
    @CurrentPlayer() me: AuthenticatedPlayer,
    @Args('input') input: CreateSeekInput,
    @Args('idempotencyKey', IDEMPOTENCY_KEY_ARG) idempotencyKey?: string,
  ): Promise<SeekView> {
    return this.service.create(me, input, { idempotencyKey });
  }

  @RequireScope('game:create')
  @Mutation(() => SeekView, { description: 'Cancel my open seek (DELETE /v1/seeks/{id}).' })
  cancelSeek(
    @CurrentPlayer() me: AuthenticatedPlayer,
    @Args('id', { type: () => ID }) id: string,
    @Args('idempotencyKey', IDEMPOTENCY_KEY_ARG) idempotencyKey?: string,
  ): Promise<SeekView> {
    return this.service.cancel(me, checkSeekId(id), { idempotencyKey });
  }
}

function checkSeekId(id: string): string {
  if (!UUID.test(id))
    throw new DomainException('VALIDATION_FAILED', 'id must be a UUID', {
      errors: [{ field: 'id', problems: ['id must be a UUID'] }],
    });
  return id.toLowerCase();
}
