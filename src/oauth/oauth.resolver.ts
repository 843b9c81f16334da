import { FULL_TOKEN, RequireScope } from '../players/require-scope';
import { UseGuards } from '@nestjs/common';
import { Args, ID, Mutation, Query, Resolver } from '@nestjs/graphql';
import { UUID_PATTERN_ANY_CASE as UUID } from '@fairdice/core/fairness/ids';
import { DomainException } from '../common/errors';
import { AuthGuard, CurrentPlayer } from '../players/auth.guard';
import type { AuthenticatedPlayer } from '../players/players.types';
import { OAuthClientModel, OAuthGrantModel, RegisterOAuthClientInput } from './dto/oauth.dto';
import { OAuthService } from './oauth.service';

/**
 * The app-management operations of /v1/oauth over GraphQL (docs/oauth.md). The consent itself
 * (the authorization request and its answer) is the web client's, over REST, and the token,
 * revocation and metadata endpoints are the RFCs'.
 */
@Resolver(() => OAuthClientModel)
export class OAuthResolver {
  constructor(private readonly oauth: OAuthService) {}

  @Query(() => [OAuthClientModel], { description: 'My OAuth apps (GET /v1/oauth/clients).' })
  @UseGuards(AuthGuard)
  @RequireScope(FULL_TOKEN)
  oauthClients(@CurrentPlayer() player: AuthenticatedPlayer): Promise<OAuthClientModel[]> {
    return this.oauth.listClients(player);
  }

  @Mutation(() => OAuthClientModel, { description: 'Register an OAuth app, a public client (POST /v1/oauth/clients).' })
  @UseGuards(AuthGuard)
  @RequireScope(FULL_TOKEN)
  registerOAuthClient(
    @CurrentPlayer() player: AuthenticatedPlayer,
    @Args('input') input: RegisterOAuthClientInput,
  ): Promise<OAuthClientModel> {
    return this.oauth.registerClient(player, input.name, input.redirectUris);
  }

  @Mutation(() => Boolean, {
    description: 'Delete an OAuth app of mine; its tokens stop working (DELETE /v1/oauth/clients/{clientId}).',
  })
  @UseGuards(AuthGuard)
  @RequireScope(FULL_TOKEN)
  async deleteOAuthClient(
    @CurrentPlayer() player: AuthenticatedPlayer,
    @Args('clientId', { type: () => ID }) clientId: string,
  ): Promise<boolean> {
    await this.oauth.deleteClient(player, clientId);
    return true;
  }

  @Query(() => [OAuthGrantModel], { description: 'The apps I connected (GET /v1/oauth/grants).' })
  @UseGuards(AuthGuard)
  @RequireScope(FULL_TOKEN)
  oauthGrants(@CurrentPlayer() player: AuthenticatedPlayer): Promise<OAuthGrantModel[]> {
    return this.oauth.listGrants(player);
  }

  @Mutation(() => Boolean, {
    description: "Disconnect an app: the grant's tokens stop working (DELETE /v1/oauth/grants/{grantId}).",
  })
  @UseGuards(AuthGuard)
  @RequireScope(FULL_TOKEN)
  async disconnectOAuthApp(
    @CurrentPlayer() player: AuthenticatedPlayer,
    @Args('grantId', { type: () => ID }) grantId: string,
  ): Promise<boolean> {
    if (!UUID.test(grantId)) throw new DomainException('VALIDATION_FAILED', 'grantId must be a UUID');
    await this.oauth.revokeGrantOf(player, grantId.toLowerCase());
    return true;
  }
}
