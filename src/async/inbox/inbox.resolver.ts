import { UseGuards } from '@nestjs/common';
import { Args, Int, Query, Resolver } from '@nestjs/graphql';
import { AuthGuard, CurrentPlayer } from '../../players/auth.guard';
import { DomainException } from '../../common/errors';
import type { AuthenticatedPlayer } from '../../players/players.types';
import { InboxPage } from './dto/inbox.dto';
import { InboxService } from './inbox.service';

@Resolver(() => InboxPage)
@UseGuards(AuthGuard)
export class InboxResolver {
  constructor(private readonly service: InboxService) {}

  @Query(() => InboxPage, { description: 'My games awaiting my move, the nearest deadline first.' })
  inbox(
    @CurrentPlayer() me: AuthenticatedPlayer,
    @Args('limit', { type: () => Int, nullable: true }) limit?: number,
    @Args('offset', { type: () => Int, nullable: true }) offset?: number,
  ) {
    const l = limit ?? 20;
    const o = offset ?? 0;
    if (!Number.isInteger(l) || l < 1 || l > 100)
      throw new DomainException('VALIDATION_FAILED', 'limit must be from 1 to 100');
    if (!Number.isInteger(o) || o < 0)
      throw new DomainException('VALIDATION_FAILED', 'offset must be a non-negative integer');
    return this.service.inbox(me.id, l, o);
  }
}
