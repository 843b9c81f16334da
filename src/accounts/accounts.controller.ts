import { FULL_TOKEN, RequireScope } from '../players/require-scope';
import {
  Body,
  Controller,
  Delete,
  Get,
  HttpCode,
  Param,
  Patch,
  Post,
  Put,
  Query,
  Req,
  Res,
  UseGuards,
} from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import {
  ApiBearerAuth,
  ApiCreatedResponse,
  ApiNoContentResponse,
  ApiOkResponse,
  ApiOperation,
  ApiTags,
} from '@nestjs/swagger';
import { CursorQuery } from '../common/dto/pagination';
import { NoFieldsPipe } from '../common/dto/no-fields.pipe';
import { ApiNoFieldsBody, ApiProblems, BODY_PROBLEMS, PATH_PROBLEMS } from '../common/openapi/decorators';
import { NEXT_LINK_HEADER, setNextLink } from '../common/pagination/next-link';
import { pageRequest } from '../common/pagination/page-request';
import { AuthGuard, CurrentPlayer } from '../players/auth.guard';
import type { AuthenticatedPlayer } from '../players/players.types';
import { UuidPipe } from '../reliability/http/uuid.pipe';
import type { RequestOrigin } from './account-views';
import { AccountsService } from './accounts.service';
import {
  AddPasskeyInput,
  ClaimUsernameInput,
  CreateAccessTokenInput,
  PasskeySignInInput,
  PasswordSignInInput,
  RenamePasskeyInput,
  SetPasswordInput,
} from './dto/account.inputs';
import {
  AccessTokenPage,
  AccountModel,
  CreatedAccessTokenModel,
  SecurityLogPage,
  SessionPage,
  SignedInModel,
  SignedOutEverywhereModel,
} from './dto/account.models';
import { PasskeyCreationOptionsView, PasskeyRequestOptionsView } from './dto/webauthn.dto';

export const originOf = (req: FastifyRequest): RequestOrigin => ({
  address: req.ip,
  userAgent: typeof req.headers['user-agent'] === 'string' ? req.headers['user-agent'] : null,
});

const AUTHED = ['UNAUTHENTICATED', 'DATABASE_UNAVAILABLE'] as const;
const COMMAND = [...BODY_PROBLEMS, ...AUTHED, 'VERSION_CONFLICT'] as const;

/** Accounts (docs/accounts.md): username, password, passkeys, sign-in, sessions, security log. */
@ApiTags('accounts')
@Controller('accounts')
export class AccountsController {
  constructor(private readonly accounts: AccountsService) {}

  @Get('me')
  @UseGuards(AuthGuard)
  @ApiBearerAuth()
  @ApiOperation({ summary: 'My account: username, whether a password is set, passkeys' })
  @ApiOkResponse({ type: AccountModel })
  @ApiProblems(...AUTHED)
  @RequireScope('account:read')
  me(@CurrentPlayer() player: AuthenticatedPlayer): Promise<AccountModel> {
    return this.accounts.view(player.id);
  }

  @Put('me/username')
  @UseGuards(AuthGuard)
  @ApiBearerAuth()
  @ApiOperation({
    summary: 'Claim (or change) my username',
    description: '3 to 24 of a-z A-Z 0-9 _ -, unique without regard to case. The display name stays as it is.',
  })
  @ApiOkResponse({ type: AccountModel })
  @ApiProblems(...COMMAND, 'INVALID_USERNAME', 'USERNAME_TAKEN')
  @RequireScope(FULL_TOKEN)
  claimUsername(
    @CurrentPlayer() player: AuthenticatedPlayer,
    @Body() input: ClaimUsernameInput,
    @Req() req: FastifyRequest,
  ): Promise<AccountModel> {
    return this.accounts.claimUsername(player, input.username, originOf(req));
  }

  @Put('me/password')
  @UseGuards(AuthGuard)
  @ApiBearerAuth()
  @ApiOperation({
    summary: 'Set or replace my password',
    description:
      'Needs a claimed username. 8 to 128 characters, not a common password (WEAK_PASSWORD). Replacing a password needs `currentPassword` (INVALID_CREDENTIALS, counted like a sign-in).',
  })
  @ApiOkResponse({ type: AccountModel })
  @ApiProblems(...COMMAND, 'WEAK_PASSWORD', 'USERNAME_REQUIRED', 'INVALID_CREDENTIALS', 'SIGN_IN_LOCKED')
  @RequireScope(FULL_TOKEN)
  setPassword(
    @CurrentPlayer() player: AuthenticatedPlayer,
    @Body() input: SetPasswordInput,
    @Req() req: FastifyRequest,
  ): Promise<AccountModel> {
    return this.accounts.setPassword(player, input.password, input.currentPassword, originOf(req));
  }

  @Delete('me/password')
  @UseGuards(AuthGuard)
  @ApiBearerAuth()
  @ApiOperation({
    summary: 'Remove my password',
    description: 'Refused when it is the last credential (LAST_CREDENTIAL).',
  })
  @ApiOkResponse({ type: AccountModel })
  @ApiProblems(...AUTHED, 'VERSION_CONFLICT', 'CREDENTIAL_NOT_FOUND', 'LAST_CREDENTIAL')
  @RequireScope(FULL_TOKEN)
  removePassword(@CurrentPlayer() player: AuthenticatedPlayer, @Req() req: FastifyRequest): Promise<AccountModel> {
    return this.accounts.removePassword(player, originOf(req));
  }

  @Post('me/passkeys/options')
  @HttpCode(200)
  @UseGuards(AuthGuard)
  @ApiBearerAuth()
  @ApiOperation({
    summary: 'Options to register a passkey',
    description:
      'PublicKeyCredentialCreationOptionsJSON for navigator.credentials.create() (discoverable credential, user verification preferred, attestation none). Its challenge is single-use and expires after 5 minutes. Needs a claimed username.',
  })
  @ApiOkResponse({ type: PasskeyCreationOptionsView })
  @ApiNoFieldsBody()
  @ApiProblems(...BODY_PROBLEMS, ...AUTHED, 'USERNAME_REQUIRED')
  @RequireScope(FULL_TOKEN)
  async registrationOptions(
    @CurrentPlayer() player: AuthenticatedPlayer,
    @Body(new NoFieldsPipe()) _body: Record<string, never>,
  ): Promise<PasskeyCreationOptionsView> {
    return { publicKey: await this.accounts.passkeyRegistrationOptions(player) };
  }

  @Post('me/passkeys')
  @UseGuards(AuthGuard)
  @ApiBearerAuth()
  @ApiOperation({
    summary: 'Register a passkey',
    description: "The authenticator's response to the registration options, and a name for the passkey.",
  })
  @ApiCreatedResponse({ type: AccountModel })
  @ApiProblems(
    ...COMMAND,
    'INVALID_CREDENTIAL_NAME',
    'WEBAUTHN_CHALLENGE_INVALID',
    'WEBAUTHN_VERIFICATION_FAILED',
    'CREDENTIAL_ALREADY_REGISTERED',
    'PASSKEY_LIMIT_REACHED',
    'USERNAME_REQUIRED',
  )
  @RequireScope(FULL_TOKEN)
  addPasskey(
    @CurrentPlayer() player: AuthenticatedPlayer,
    @Body() input: AddPasskeyInput,
    @Req() req: FastifyRequest,
  ): Promise<AccountModel> {
    return this.accounts.addPasskey(player, input.name, input.response, originOf(req));
  }

  @Patch('me/passkeys/:id')
  @UseGuards(AuthGuard)
  @ApiBearerAuth()
  @ApiOperation({ summary: 'Rename a passkey' })
  @ApiOkResponse({ type: AccountModel })
  @ApiProblems(...COMMAND, ...PATH_PROBLEMS, 'CREDENTIAL_NOT_FOUND', 'INVALID_CREDENTIAL_NAME')
  @RequireScope(FULL_TOKEN)
  renamePasskey(
    @CurrentPlayer() player: AuthenticatedPlayer,
    @Param('id', UuidPipe) id: string,
    @Body() input: RenamePasskeyInput,
    @Req() req: FastifyRequest,
  ): Promise<AccountModel> {
    return this.accounts.renamePasskey(player, id, input.name, originOf(req));
  }

  @Delete('me/passkeys/:id')
  @UseGuards(AuthGuard)
  @ApiBearerAuth()
  @ApiOperation({
    summary: 'Remove a passkey',
    description: 'Refused when it is the last credential (LAST_CREDENTIAL).',
  })
  @ApiOkResponse({ type: AccountModel })
  @ApiProblems(...AUTHED, ...PATH_PROBLEMS, 'VERSION_CONFLICT', 'CREDENTIAL_NOT_FOUND', 'LAST_CREDENTIAL')
  @RequireScope(FULL_TOKEN)
  removePasskey(
    @CurrentPlayer() player: AuthenticatedPlayer,
    @Param('id', UuidPipe) id: string,
    @Req() req: FastifyRequest,
  ): Promise<AccountModel> {
    return this.accounts.removePasskey(player, id, originOf(req));
  }

  @Post('sign-in/password')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Sign in with username and password',
    description:
      'Returns a session token for this device (shown once). An unknown username and a wrong password get the same 401 INVALID_CREDENTIALS; attempts are limited per username and per address (429 SIGN_IN_LOCKED with Retry-After).',
  })
  @ApiOkResponse({ type: SignedInModel })
  @ApiProblems(...BODY_PROBLEMS, 'INVALID_USERNAME', 'INVALID_CREDENTIALS', 'SIGN_IN_LOCKED', 'DATABASE_UNAVAILABLE')
  signInWithPassword(@Body() input: PasswordSignInInput, @Req() req: FastifyRequest): Promise<SignedInModel> {
    return this.accounts.signInWithPassword(input.username, input.password, input.deviceLabel, originOf(req));
  }

  @Post('sign-in/passkey/options')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Options to sign in with a passkey',
    description:
      'PublicKeyCredentialRequestOptionsJSON for navigator.credentials.get() (no allowCredentials: discoverable credentials). The challenge is single-use and expires after 5 minutes.',
  })
  @ApiOkResponse({ type: PasskeyRequestOptionsView })
  @ApiNoFieldsBody()
  @ApiProblems(...BODY_PROBLEMS, 'DATABASE_UNAVAILABLE')
  async passkeySignInOptions(
    @Body(new NoFieldsPipe()) _body: Record<string, never>,
  ): Promise<PasskeyRequestOptionsView> {
    return { publicKey: await this.accounts.passkeySignInOptions() };
  }

  @Post('sign-in/passkey')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Sign in with a passkey',
    description: 'Returns a session token for this device (shown once).',
  })
  @ApiOkResponse({ type: SignedInModel })
  @ApiProblems(...BODY_PROBLEMS, 'WEBAUTHN_CHALLENGE_INVALID', 'WEBAUTHN_VERIFICATION_FAILED', 'DATABASE_UNAVAILABLE')
  signInWithPasskey(@Body() input: PasskeySignInInput, @Req() req: FastifyRequest): Promise<SignedInModel> {
    return this.accounts.signInWithPasskey(input.response, input.deviceLabel, originOf(req));
  }

  @Get('me/sessions')
  @UseGuards(AuthGuard)
  @ApiBearerAuth()
  @ApiOperation({ summary: 'My signed-in devices', description: 'Live sessions, newest first. Paged by cursor.' })
  @ApiOkResponse({ type: SessionPage, headers: NEXT_LINK_HEADER })
  @ApiProblems(...AUTHED, 'VALIDATION_FAILED', 'INVALID_CURSOR')
  @RequireScope('account:read')
  async sessions(
    @CurrentPlayer() player: AuthenticatedPlayer,
    @Query() q: CursorQuery,
    @Req() req: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<SessionPage> {
    const page = await this.accounts.sessions(player, pageRequest(q));
    setNextLink(req, reply, page.nextCursor);
    return { items: page.items, nextCursor: page.nextCursor };
  }

  @Delete('me/sessions/:id')
  @HttpCode(204)
  @UseGuards(AuthGuard)
  @ApiBearerAuth()
  @ApiOperation({
    summary: 'Revoke a session',
    description: 'Its token stops working at once on this instance (within 5 s on others).',
  })
  @ApiNoContentResponse()
  @ApiProblems(...AUTHED, ...PATH_PROBLEMS, 'SESSION_NOT_FOUND')
  @RequireScope(FULL_TOKEN)
  revokeSession(
    @CurrentPlayer() player: AuthenticatedPlayer,
    @Param('id', UuidPipe) id: string,
    @Req() req: FastifyRequest,
  ): Promise<void> {
    return this.accounts.revokeSession(player, id, originOf(req));
  }

  @Post('me/sign-out-everywhere')
  @HttpCode(200)
  @UseGuards(AuthGuard)
  @ApiBearerAuth()
  @ApiOperation({
    summary: 'Sign out everywhere',
    description:
      "Revokes every session (this one too). When the account has a credential to sign back in with, the player's own token is retired as well.",
  })
  @ApiOkResponse({ type: SignedOutEverywhereModel })
  @ApiNoFieldsBody()
  @ApiProblems(...BODY_PROBLEMS, ...AUTHED)
  @RequireScope(FULL_TOKEN)
  signOutEverywhere(
    @CurrentPlayer() player: AuthenticatedPlayer,
    @Body(new NoFieldsPipe()) _body: Record<string, never>,
    @Req() req: FastifyRequest,
  ): Promise<SignedOutEverywhereModel> {
    return this.accounts.signOutEverywhere(player, originOf(req));
  }

  @Post('me/tokens')
  @UseGuards(AuthGuard)
  @ApiBearerAuth()
  @ApiOperation({
    summary: 'Create a personal access token',
    description:
      'A bearer token with only the scopes named (docs/accounts.md "Scoped tokens"), optionally expiring after `expiresInDays`. The token is shown once, here. A scoped token creates only tokens within its own scopes (INSUFFICIENT_SCOPE naming the one it lacks) that expire no later than it does. At most 50 live tokens per player (ACCESS_TOKEN_LIMIT_REACHED).',
  })
  @ApiCreatedResponse({ type: CreatedAccessTokenModel })
  @ApiProblems(...BODY_PROBLEMS, ...AUTHED, 'UNKNOWN_SCOPE', 'ACCESS_TOKEN_LIMIT_REACHED')
  @RequireScope('account:write')
  createAccessToken(
    @CurrentPlayer() player: AuthenticatedPlayer,
    @Body() input: CreateAccessTokenInput,
    @Req() req: FastifyRequest,
  ): Promise<CreatedAccessTokenModel> {
    return this.accounts.createAccessToken(player, input, originOf(req));
  }

  @Get('me/tokens')
  @UseGuards(AuthGuard)
  @ApiBearerAuth()
  @ApiOperation({
    summary: 'My personal access tokens',
    description: 'Live (not revoked, not expired) tokens, newest first, without their secrets. Paged by cursor.',
  })
  @ApiOkResponse({ type: AccessTokenPage, headers: NEXT_LINK_HEADER })
  @ApiProblems(...AUTHED, 'VALIDATION_FAILED', 'INVALID_CURSOR')
  @RequireScope('account:read')
  async accessTokens(
    @CurrentPlayer() player: AuthenticatedPlayer,
    @Query() q: CursorQuery,
    @Req() req: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<AccessTokenPage> {
    const page = await this.accounts.accessTokenList(player, pageRequest(q));
    setNextLink(req, reply, page.nextCursor);
    return { items: page.items, nextCursor: page.nextCursor };
  }

  @Delete('me/tokens/:id')
  @HttpCode(204)
  @UseGuards(AuthGuard)
  @ApiBearerAuth()
  @ApiOperation({
    summary: 'Revoke a personal access token',
    description:
      'It stops working at once on this instance (within 5 s on others); the streams it opened end (at once here, within 35 s on other instances).',
  })
  @ApiNoContentResponse()
  @ApiProblems(...AUTHED, ...PATH_PROBLEMS, 'ACCESS_TOKEN_NOT_FOUND')
  @RequireScope('account:write')
  revokeAccessToken(
    @CurrentPlayer() player: AuthenticatedPlayer,
    @Param('id', UuidPipe) id: string,
    @Req() req: FastifyRequest,
  ): Promise<void> {
    return this.accounts.revokeAccessToken(player, id, originOf(req));
  }

  @Get('me/security-log')
  @UseGuards(AuthGuard)
  @ApiBearerAuth()
  @ApiOperation({
    summary: 'My security log',
    description: 'Sign-ins, failed sign-ins, credential and session changes; newest first. Paged by cursor.',
  })
  @ApiOkResponse({ type: SecurityLogPage, headers: NEXT_LINK_HEADER })
  @ApiProblems(...AUTHED, 'VALIDATION_FAILED', 'INVALID_CURSOR')
  @RequireScope('account:read')
  async securityLog(
    @CurrentPlayer() player: AuthenticatedPlayer,
    @Query() q: CursorQuery,
    @Req() req: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<SecurityLogPage> {
    const page = await this.accounts.securityLog(player, pageRequest(q));
    setNextLink(req, reply, page.nextCursor);
    return { items: page.items, nextCursor: page.nextCursor };
  }
}
