import { UseGuards } from '@nestjs/common';
import { Args, Mutation, Query, Resolver } from '@nestjs/graphql';
import { AuthGuard, CurrentPlayer } from './auth.guard';
import { AuthenticatedPlayer } from './players.types';
import { PlayersService } from './players.service';
import { RegisterPlayerInput } from './dto/register-player.dto';
import { MeModel, RegisteredPlayerModel, TokenModel } from './dto/player.model';

@Resolver(() => MeModel)
export class PlayersResolver {
  constructor(private readonly players: PlayersService) {}

  @Mutation(() => RegisteredPlayerModel, { description: 'Register a player. The token is shown only once.' })
  registerPlayer(@Args('input') input: RegisterPlayerInput): Promise<RegisteredPlayerModel> {
    return this.players.register(input.displayName);
  }

  @Query(() => MeModel, { description: 'My profile and statistics per rule set.' })
  @UseGuards(AuthGuard)
  async me(@CurrentPlayer() player: AuthenticatedPlayer): Promise<MeModel> {
    const [profile, stats] = await Promise.all([this.players.profile(player.id), this.players.stats(player.id)]);
    return { ...profile, stats };
  }

  @Mutation(() => TokenModel, { description: 'Rotate my token; the old one stops working at once.' })
  @UseGuards(AuthGuard)
  rotateToken(@CurrentPlayer() player: AuthenticatedPlayer): Promise<TokenModel> {
    return this.players.rotateToken(player.id);
  }
}
