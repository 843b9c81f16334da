import { Args, ID, Int, Parent, Query, ResolveField, Resolver } from '@nestjs/graphql';
import { UUID_PATTERN_ANY_CASE as UUID } from '@fairdice/core/fairness/ids';
import { DomainException } from '../common/errors';
import { toConnection } from '../common/graphql/connection';
import { RuleSetNameEnum } from '../common/graphql/enums';
import { pageRequest } from '../common/pagination/page-request';
import { PlayerProfileView } from '../players/dto/player.model';
import {
  PlayerRatingView,
  RatedResultConnection,
  RatingHistoryConnection,
  RatingLeaderboardConnection,
} from './dto/rating.model';
import { RatingsService } from './ratings.service';

const FIRST = { type: () => Int, nullable: true, description: 'Lines per page, 1 to 100 (default 20).' };
const AFTER = { type: () => String, nullable: true, description: 'The endCursor of the previous page.' };

@Resolver()
export class RatingsResolver {
  constructor(private readonly ratings: RatingsService) {}

  @Query(() => RatedResultConnection, {
    description:
      'The public list of rated results of a pool, in the order they applied (GET /v1/ratings/{pool}/results; docs/ratings.md).',
  })
  async ratedResults(
    @Args('pool', { type: () => RuleSetNameEnum }) pool: string,
    @Args('first', FIRST) first?: number,
    @Args('after', AFTER) after?: string,
  ): Promise<RatedResultConnection> {
    return toConnection(await this.ratings.results(pool, pageRequest({ limit: first, cursor: after })), after);
  }

  @Query(() => RatingLeaderboardConnection, {
    description: "A pool's rating leaderboard (GET /v1/leaderboards/{pool}/ratings; docs/ratings.md §5).",
  })
  async ratingLeaderboard(
    @Args('pool', { type: () => RuleSetNameEnum }) pool: string,
    @Args('first', FIRST) first?: number,
    @Args('after', AFTER) after?: string,
  ): Promise<RatingLeaderboardConnection> {
    return toConnection(await this.ratings.leaderboard(pool, pageRequest({ limit: first, cursor: after })), after);
  }

  @Query(() => [PlayerRatingView], {
    description: "A player's rating in each pool they played rated games in (GET /v1/players/{id}/ratings).",
  })
  playerRatings(@Args('playerId', { type: () => ID }) playerId: string): Promise<PlayerRatingView[]> {
    return this.ratings.playerRatings(checkPlayerId(playerId));
  }

  @Query(() => RatingHistoryConnection, {
    description: "A player's rating history in a pool, newest first (GET /v1/players/{id}/ratings/{pool}/history).",
  })
  async ratingHistory(
    @Args('playerId', { type: () => ID }) playerId: string,
    @Args('pool', { type: () => RuleSetNameEnum }) pool: string,
    @Args('first', FIRST) first?: number,
    @Args('after', AFTER) after?: string,
  ): Promise<RatingHistoryConnection> {
    const page = await this.ratings.history(
      checkPlayerId(playerId),
      pool,
      pageRequest({ limit: first, cursor: after }),
    );
    return toConnection(page, after);
  }
}

/** `ratings` on a public profile (Query.player). */
@Resolver(() => PlayerProfileView)
export class ProfileRatingsResolver {
  constructor(private readonly service: RatingsService) {}

  @ResolveField(() => [PlayerRatingView], { description: "The player's ratings per pool (docs/ratings.md)." })
  ratings(@Parent() profile: PlayerProfileView): Promise<PlayerRatingView[]> {
    return this.service.playerRatings(profile.id);
  }
}

function checkPlayerId(id: string): string {
  if (!UUID.test(id)) throw new DomainException('VALIDATION_FAILED', 'playerId must be a UUID');
  return id.toLowerCase();
}
