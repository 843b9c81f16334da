import { FULL_TOKEN, RequireScope } from '../players/require-scope';
import { Body, Controller, Delete, Get, HttpCode, Param, Post, Query, UseGuards } from '@nestjs/common';
import {
  ApiBearerAuth,
  ApiCreatedResponse,
  ApiNoContentResponse,
  ApiOkResponse,
  ApiOperation,
  ApiTags,
} from '@nestjs/swagger';
import { ApiProblems, BODY_PROBLEMS, PATH_PROBLEMS } from '../common/openapi/decorators';
import { AuthGuard, CurrentPlayer } from '../players/auth.guard';
import type { AuthenticatedPlayer } from '../players/players.types';
import type { AuthorizationParams } from './authorization-request';
import {
  AuthorizationDecisionInput,
  AuthorizationModel,
  AuthorizationQuery,
  AuthorizationRedirectModel,
  OAuthClientList,
  OAuthClientModel,
  OAuthGrantList,
  RegisterOAuthClientInput,
} from './dto/oauth.dto';
import { UuidPipe } from '../reliability/http/uuid.pipe';
import { OAuthService } from './oauth.service';

const AUTHED = ['UNAUTHENTICATED', 'DATABASE_UNAVAILABLE'] as const;
const REQUEST_PROBLEMS = [
  'OAUTH_CLIENT_NOT_FOUND',
  'OAUTH_REDIRECT_URI_MISMATCH',
  'OAUTH_INVALID_REQUEST',
  'OAUTH_INVALID_SCOPE',
] as const;

const paramsOf = (q: AuthorizationQuery): AuthorizationParams => ({
  responseType: q.response_type,
  clientId: q.client_id,
  redirectUri: q.redirect_uri,
  scope: q.scope,
  state: q.state,
  codeChallenge: q.code_challenge,
  codeChallengeMethod: q.code_challenge_method,
});

/**
 * OAuth for third-party apps, the JSON part (docs/oauth.md): a player registers apps (public
 * clients and their exact redirect URIs), and the consent page reads an authorization request and
 * sends the player's answer. The token, revocation and metadata endpoints are RFC-shaped, outside
 * /v1 (src/oauth/oauth-endpoints.ts).
 */
@ApiTags('oauth')
@Controller('oauth')
export class OAuthController {
  constructor(private readonly oauth: OAuthService) {}

  @Post('clients')
  @UseGuards(AuthGuard)
  @RequireScope(FULL_TOKEN)
  @ApiBearerAuth()
  @ApiOperation({
    summary: 'Register an OAuth app (a public client)',
    description:
      'Like a GitHub OAuth app: a name and the exact redirect URIs. No secret: the app proves itself with PKCE (S256). At most 20 per player. Needs the player token or a signed-in session, not a scoped token.',
  })
  @ApiCreatedResponse({ type: OAuthClientModel })
  @ApiProblems(...BODY_PROBLEMS, ...AUTHED, 'INVALID_REDIRECT_URI', 'OAUTH_CLIENT_LIMIT_REACHED')
  register(
    @CurrentPlayer() player: AuthenticatedPlayer,
    @Body() input: RegisterOAuthClientInput,
  ): Promise<OAuthClientModel> {
    return this.oauth.registerClient(player, input.name, input.redirectUris);
  }

  @Get('clients')
  @UseGuards(AuthGuard)
  @RequireScope(FULL_TOKEN)
  @ApiBearerAuth()
  @ApiOperation({ summary: 'My OAuth apps' })
  @ApiOkResponse({ type: OAuthClientList })
  @ApiProblems(...AUTHED)
  async list(@CurrentPlayer() player: AuthenticatedPlayer): Promise<OAuthClientList> {
    return { items: await this.oauth.listClients(player) };
  }

  @Delete('clients/:clientId')
  @HttpCode(204)
  @UseGuards(AuthGuard)
  @RequireScope(FULL_TOKEN)
  @ApiBearerAuth()
  @ApiOperation({
    summary: 'Delete an OAuth app of mine',
    description: 'Every access and refresh token it was given stops working at once.',
  })
  @ApiNoContentResponse()
  @ApiProblems(...PATH_PROBLEMS, ...AUTHED, 'OAUTH_CLIENT_NOT_FOUND')
  async remove(@CurrentPlayer() player: AuthenticatedPlayer, @Param('clientId') clientId: string): Promise<void> {
    await this.oauth.deleteClient(player, clientId);
  }

  @Get('grants')
  @UseGuards(AuthGuard)
  @RequireScope(FULL_TOKEN)
  @ApiBearerAuth()
  @ApiOperation({
    summary: 'The apps I connected',
    description: 'Grants still in force: the app, the scopes I approved, when. Revoke one to disconnect the app.',
  })
  @ApiOkResponse({ type: OAuthGrantList })
  @ApiProblems(...AUTHED)
  async grants(@CurrentPlayer() player: AuthenticatedPlayer): Promise<OAuthGrantList> {
    return { items: await this.oauth.listGrants(player) };
  }

  @Delete('grants/:grantId')
  @HttpCode(204)
  @UseGuards(AuthGuard)
  @RequireScope(FULL_TOKEN)
  @ApiBearerAuth()
  @ApiOperation({
    summary: 'Disconnect an app',
    description: 'Every access and refresh token of this grant stops working at once.',
  })
  @ApiNoContentResponse()
  @ApiProblems(...PATH_PROBLEMS, ...AUTHED, 'OAUTH_GRANT_NOT_FOUND')
  async disconnect(
    @CurrentPlayer() player: AuthenticatedPlayer,
    @Param('grantId', UuidPipe) grantId: string,
  ): Promise<void> {
    await this.oauth.revokeGrantOf(player, grantId);
  }

  @Get('authorization')
  @ApiOperation({
    summary: 'Read an authorization request (for the consent page)',
    description:
      "The query of /oauth/authorize as received. Answers the app's name, the host it sends the player back to and the scopes asked with their descriptions. A wrong client or redirect URI is an error to show, never a redirect.",
  })
  @ApiOkResponse({ type: AuthorizationModel })
  @ApiProblems('VALIDATION_FAILED', 'DATABASE_UNAVAILABLE', ...REQUEST_PROBLEMS)
  describe(@Query() query: AuthorizationQuery): Promise<AuthorizationModel> {
    return this.oauth.describeAuthorization(paramsOf(query));
  }

  @Post('authorization')
  @HttpCode(200)
  @UseGuards(AuthGuard)
  @RequireScope(FULL_TOKEN)
  @ApiBearerAuth()
  @ApiOperation({
    summary: 'Approve or deny an authorization request',
    description:
      'The consent page sends the request it showed and the answer. Answers the URL to send the browser to: the redirect URI with `code` (single-use, valid 60 s) and `state`, or with `error=access_denied` and `state`. Needs the player token or a signed-in session.',
  })
  @ApiOkResponse({ type: AuthorizationRedirectModel })
  @ApiProblems(...BODY_PROBLEMS, ...AUTHED, ...REQUEST_PROBLEMS)
  async decide(
    @CurrentPlayer() player: AuthenticatedPlayer,
    @Body() input: AuthorizationDecisionInput,
  ): Promise<AuthorizationRedirectModel> {
    return { redirectTo: await this.oauth.decide(player, paramsOf(input), input.approved) };
  }
}
