import { RequireScope } from '../../players/require-scope';
import { UseGuards } from '@nestjs/common';
import { Args, Int, Query, Resolver } from '@nestjs/graphql';
import { AuthGuard, CurrentPlayer } from '../../players/auth.guard';
import type { AuthenticatedPlayer } from '../../players/players.types';
import { toConnection } from '../../common/graphql/connection';
import { pageRequest } from '../../common/pagination/page-request';
import { InboxConnection, InboxPage } from './dto/inbox.dto';
import { InboxService } from './inbox.service';

@Resolver(() => InboxPage)
@UseGuards(AuthGuard)
export class InboxResolver {
  constructor(private readonly service: InboxService) {}

  @Query(() => InboxConnection, {
    description:
      'My games awaiting my move, most urgent first (as GET /v1/inbox). Within one pass no game is shown twice; a game that changes during the pass is left out of its later pages (docs/api.md#pagination).',
  })
  @RequireScope('game:read')
  async inboxConnection(
    @CurrentPlayer() me: AuthenticatedPlayer,
    @Args('first', { type: () => Int, nullable: true, description: 'Page size, 1 to 100 (default 20).' })
    first?: number,
    @Args('after', { type: () => String, nullable: true, description: 'endCursor of the previous page.' })
    after?: string,
  ) {
    return toConnection(await this.service.inbox(me.id, pageRequest({ limit: first, cursor: after })), after);
  }

  @Query(() => InboxPage, {
    description: 'My games awaiting my move, the nearest deadline first.',
    deprecationReason: 'Offsets shift as games enter and leave the inbox; use inboxConnection(first, after).',
  })
  @RequireScope('game:read')
  async inbox(
    @CurrentPlayer() me: AuthenticatedPlayer,
    @Args('limit', { type: () => Int, nullable: true }) limit?: number,
    @Args('offset', { type: () => Int, nullable: true }) offset?: number,
  ): Promise<InboxPage> {
    const page = await this.service.inbox(me.id, pageRequest({ limit, offset: offset ?? 0 }));
    return { items: page.items, nextOffset: page.nextOffset, nextCursor: page.nextCursor };
  }
}
