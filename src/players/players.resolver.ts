import { FULL_TOKEN, RequireScope } from './require-scope';
import { UseGuards } from '@nestjs/common';
import { DomainException } from '../common/errors';
import { Args, ID, Int, Mutation, Query, Resolver } from '@nestjs/graphql';
import { RuleSetNameEnum } from '../common/graphql/enums';
import { toConnection } from '../common/graphql/connection';
import { pageRequest } from '../common/pagination/page-request';
import { AuthGuard, CurrentPlayer } from './auth.guard';
import { AuthenticatedPlayer } from './players.types';
import { PlayersService } from './players.service';
import { RegisterPlayerInput } from './dto/register-player.dto';
import {
  MeModel,
  PlayerProfileView,
  RegisteredPlayerModel,
  SoloLeaderboardConnection,
  TournamentLeaderboardConnection,
  TokenModel,
} from './dto/player.model';
import { UUID_PATTERN_ANY_CASE as UUID } from '@fairdice/core/fairness/ids';

@Resolver(() => MeModel)
export class PlayersResolver {
  constructor(private readonly players: PlayersService) {}

  @Mutation(() => RegisteredPlayerModel, { description: 'Register a player. The token is shown only once.' })
  registerPlayer(@Args('input') input: RegisterPlayerInput): Promise<RegisteredPlayerModel> {
    return this.players.register(input.displayName);
  }

  @Query(() => MeModel, { description: 'My profile and statistics per rule set.' })
  @UseGuards(AuthGuard)
  @RequireScope('account:read')
  async me(@CurrentPlayer() player: AuthenticatedPlayer): Promise<MeModel> {
    const [profile, stats] = await Promise.all([this.players.profile(player.id), this.players.stats(player.id)]);
    return { ...profile, stats };
  }

  @Mutation(() => TokenModel, { description: 'Rotate my token; the old one stops working at once.' })
  @UseGuards(AuthGuard)
  @RequireScope(FULL_TOKEN)
  rotateToken(@CurrentPlayer() player: AuthenticatedPlayer): Promise<TokenModel> {
    return this.players.rotateToken(player.id);
  }

  @Query(() => PlayerProfileView, {
    description: "A player's public profile with statistics per rule set (GET /v1/players/{id}); no token needed.",
  })
  player(@Args('id', { type: () => ID }) id: string): Promise<PlayerProfileView> {
    return this.players.publicProfile(checkPlayerId(id));
  }

  @Query(() => SoloLeaderboardConnection, {
    description:
      'Best solo scores of a rule set, one line per player: public one-seat games finished with advice forbidden and no computer move (GET /v1/leaderboards/{ruleSet}/solo).',
  })
  async soloLeaderboard(
    @Args('ruleSet', { type: () => RuleSetNameEnum }) ruleSet: string,
    @Args('first', { type: () => Int, nullable: true, description: 'Lines per page, 1 to 100 (default 20).' })
    first?: number,
    @Args('after', { type: () => String, nullable: true, description: 'The endCursor of the previous page.' })
    after?: string,
  ): Promise<SoloLeaderboardConnection> {
    const page = await this.players.soloLeaderboard(ruleSet, pageRequest({ limit: first, cursor: after }));
    return toConnection(page, after);
  }

  @Query(() => TournamentLeaderboardConnection, {
    description:
      "Players' records in a rule set's finished public tournaments: wins, podiums, tournaments played (GET /v1/leaderboards/{ruleSet}/tournaments).",
  })
  async tournamentLeaderboard(
    @Args('ruleSet', { type: () => RuleSetNameEnum }) ruleSet: string,
    @Args('first', { type: () => Int, nullable: true, description: 'Lines per page, 1 to 100 (default 20).' })
    first?: number,
    @Args('after', { type: () => String, nullable: true, description: 'The endCursor of the previous page.' })
    after?: string,
  ): Promise<TournamentLeaderboardConnection> {
    const page = await this.players.tournamentLeaderboard(ruleSet, pageRequest({ limit: first, cursor: after }));
    return toConnection(page, after);
  }
}

/** The id must be a UUID (VALIDATION_FAILED, as REST's UuidPipe answers). */
function checkPlayerId(id: string): string {
  if (!UUID.test(id)) throw new DomainException('VALIDATION_FAILED', 'id must be a UUID');
  return id.toLowerCase();
}
