import { RequireScope } from '../players/require-scope';
import { UseGuards } from '@nestjs/common';
import { Args, Int, Mutation, Query, Resolver, Subscription } from '@nestjs/graphql';
import { DomainException, toGraphQLError } from '../common/errors';
import { AuthGuard, CurrentPlayer, CurrentToken } from '../players/auth.guard';
import type { AuthenticatedPlayer } from '../players/players.types';
import {
  messageOf,
  PlayerEventSettingsModel,
  PlayerEventUnion,
  UpdatePlayerEventSettingsInput,
} from './dto/player-event.dto';
import { PlayerEventsService } from './player-events.service';
import { isRevoked, type PlayerStreamItem } from './player-events.types';

/** Same operations, semantics and error codes as the REST controller (one service). */
@Resolver()
@UseGuards(AuthGuard)
export class PlayerEventsResolver {
  constructor(private readonly events: PlayerEventsService) {}

  @Subscription(() => PlayerEventUnion, {
    name: 'myEvents',
    description:
      'My event stream (GET /v1/players/me/events): the events after `after` still kept, then live ones; without `after`, live ones only. A position older than the retention gets a ResyncEvent first; one beyond my last event is an error INVALID_EVENT_CURSOR. When the token is rotated, an error UNAUTHENTICATED ends it. Auth: connectionParams.authorization = "Bearer <token>".',
    resolve: (item: PlayerStreamItem) => {
      if (isRevoked(item))
        throw toGraphQLError(
          new DomainException('UNAUTHENTICATED', 'The token that opened this subscription no longer authenticates'),
        ).graphqlError;
      return messageOf(item);
    },
  })
  @RequireScope('game:read')
  async myEvents(
    @CurrentPlayer() me: AuthenticatedPlayer,
    @CurrentToken() token: string | null,
    @Args('after', {
      type: () => Int,
      nullable: true,
      description: 'Resume after this sequence number (the seq of the last event you got).',
    })
    after?: number,
  ) {
    return this.events.openFor(me, token, this.events.cursor(undefined, after));
  }

  @Query(() => PlayerEventSettingsModel, { description: 'My event settings (GET /v1/players/me/event-settings).' })
  @RequireScope('account:read')
  myEventSettings(@CurrentPlayer() me: AuthenticatedPlayer) {
    return this.events.settings(me.id);
  }

  @Mutation(() => PlayerEventSettingsModel, {
    description: 'Change my event settings (PUT /v1/players/me/event-settings); fields left out keep their value.',
  })
  @RequireScope('account:write')
  updateMyEventSettings(
    @CurrentPlayer() me: AuthenticatedPlayer,
    @Args('input') input: UpdatePlayerEventSettingsInput,
  ) {
    return this.events.updateSettings(me.id, input);
  }
}
