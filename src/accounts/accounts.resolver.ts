import { FULL_TOKEN, RequireScope } from '../players/require-scope';
import { UseGuards } from '@nestjs/common';
import { Args, Context, ID, Int, Mutation, Query, Resolver } from '@nestjs/graphql';
import type { FastifyRequest } from 'fastify';
import { toConnection } from '../common/graphql/connection';
import { CreationOptionsModel, RequestOptionsModel } from './dto/webauthn.dto';
import { DomainException } from '../common/errors';
import { pageRequest } from '../common/pagination/page-request';
import { AuthGuard, CurrentPlayer } from '../players/auth.guard';
import type { AuthenticatedPlayer } from '../players/players.types';
import { UUID_PATTERN_ANY_CASE as UUID } from '@fairdice/core/fairness/ids';
import type { RequestOrigin } from './account-views';
import { AccountsService } from './accounts.service';
import { originOf } from './accounts.controller';
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
  AccessTokenConnection,
  AccountModel,
  CreatedAccessTokenModel,
  SecurityLogConnection,
  SessionConnection,
  SignedInModel,
  SignedOutEverywhereModel,
} from './dto/account.models';

/** The GraphQL request's origin (HTTP: its Fastify request; over graphql-ws no address is known). */
const gqlOrigin = (ctx: { req?: FastifyRequest } | undefined): RequestOrigin =>
  isFastifyRequest(ctx?.req) ? originOf(ctx.req) : { address: 'unknown', userAgent: null };

/** Over HTTP the context holds the Fastify request (with its client address); over graphql-ws it does not. */
const isFastifyRequest = (req: unknown): req is FastifyRequest =>
  typeof req === 'object' && req !== null && typeof (req as { ip?: unknown }).ip === 'string';

/**
 * Sign-in is limited per client address, which only an HTTP request carries: over graphql-ws it
 * is refused rather than counted under one shared unknown address.
 */
const httpOrigin = (ctx: { req?: FastifyRequest } | undefined): RequestOrigin => {
  if (!isFastifyRequest(ctx?.req))
    throw new DomainException(
      'UNSUPPORTED_OPERATION',
      'Sign in over HTTP (POST /graphql or /v1/accounts/sign-in/…), not over a WebSocket',
    );
  return originOf(ctx.req);
};

const uuid = (id: string, field = 'id'): string => {
  if (!UUID.test(id)) throw new DomainException('VALIDATION_FAILED', `${field} must be a UUID`);
  return id.toLowerCase();
};

const FIRST = { type: () => Int, nullable: true, description: 'Items per page, 1 to 100 (default 20).' } as const;
const AFTER = { type: () => String, nullable: true, description: 'The endCursor of the previous page.' } as const;

/** The same operations as /v1/accounts (docs/accounts.md). */
@Resolver(() => AccountModel)
export class AccountsResolver {
  constructor(private readonly accounts: AccountsService) {}

  @Query(() => AccountModel, { description: 'My account (GET /v1/accounts/me).' })
  @UseGuards(AuthGuard)
  @RequireScope('account:read')
  account(@CurrentPlayer() player: AuthenticatedPlayer): Promise<AccountModel> {
    return this.accounts.view(player.id);
  }

  @Mutation(() => AccountModel, { description: 'Claim or change my username (PUT /v1/accounts/me/username).' })
  @UseGuards(AuthGuard)
  @RequireScope(FULL_TOKEN)
  claimUsername(
    @CurrentPlayer() player: AuthenticatedPlayer,
    @Args('input') input: ClaimUsernameInput,
    @Context() ctx: { req?: FastifyRequest },
  ): Promise<AccountModel> {
    return this.accounts.claimUsername(player, input.username, gqlOrigin(ctx));
  }

  @Mutation(() => AccountModel, { description: 'Set or replace my password (PUT /v1/accounts/me/password).' })
  @UseGuards(AuthGuard)
  @RequireScope(FULL_TOKEN)
  setPassword(
    @CurrentPlayer() player: AuthenticatedPlayer,
    @Args('input') input: SetPasswordInput,
    @Context() ctx: { req?: FastifyRequest },
  ): Promise<AccountModel> {
    return this.accounts.setPassword(player, input.password, input.currentPassword, gqlOrigin(ctx));
  }

  @Mutation(() => AccountModel, { description: 'Remove my password (DELETE /v1/accounts/me/password).' })
  @UseGuards(AuthGuard)
  @RequireScope(FULL_TOKEN)
  removePassword(
    @CurrentPlayer() player: AuthenticatedPlayer,
    @Context() ctx: { req?: FastifyRequest },
  ): Promise<AccountModel> {
    return this.accounts.removePassword(player, gqlOrigin(ctx));
  }

  @Mutation(() => CreationOptionsModel, {
    description:
      'Options to register a passkey: PublicKeyCredentialCreationOptionsJSON (POST /v1/accounts/me/passkeys/options, its `publicKey`).',
  })
  @UseGuards(AuthGuard)
  @RequireScope(FULL_TOKEN)
  passkeyRegistrationOptions(@CurrentPlayer() player: AuthenticatedPlayer): Promise<CreationOptionsModel> {
    return this.accounts.passkeyRegistrationOptions(player);
  }

  @Mutation(() => AccountModel, { description: 'Register a passkey (POST /v1/accounts/me/passkeys).' })
  @UseGuards(AuthGuard)
  @RequireScope(FULL_TOKEN)
  addPasskey(
    @CurrentPlayer() player: AuthenticatedPlayer,
    @Args('input') input: AddPasskeyInput,
    @Context() ctx: { req?: FastifyRequest },
  ): Promise<AccountModel> {
    return this.accounts.addPasskey(player, input.name, input.response, gqlOrigin(ctx));
  }

  @Mutation(() => AccountModel, { description: 'Rename a passkey (PATCH /v1/accounts/me/passkeys/{id}).' })
  @UseGuards(AuthGuard)
  @RequireScope(FULL_TOKEN)
  renamePasskey(
    @CurrentPlayer() player: AuthenticatedPlayer,
    @Args('id', { type: () => ID }) id: string,
    @Args('input') input: RenamePasskeyInput,
    @Context() ctx: { req?: FastifyRequest },
  ): Promise<AccountModel> {
    return this.accounts.renamePasskey(player, uuid(id), input.name, gqlOrigin(ctx));
  }

  @Mutation(() => AccountModel, { description: 'Remove a passkey (DELETE /v1/accounts/me/passkeys/{id}).' })
  @UseGuards(AuthGuard)
  @RequireScope(FULL_TOKEN)
  removePasskey(
    @CurrentPlayer() player: AuthenticatedPlayer,
    @Args('id', { type: () => ID }) id: string,
    @Context() ctx: { req?: FastifyRequest },
  ): Promise<AccountModel> {
    return this.accounts.removePasskey(player, uuid(id), gqlOrigin(ctx));
  }

  @Mutation(() => SignedInModel, {
    description: 'Sign in with username and password (POST /v1/accounts/sign-in/password). The token is shown once.',
  })
  signInWithPassword(
    @Args('input') input: PasswordSignInInput,
    @Context() ctx: { req?: FastifyRequest },
  ): Promise<SignedInModel> {
    return this.accounts.signInWithPassword(input.username, input.password, input.deviceLabel, httpOrigin(ctx));
  }

  @Mutation(() => RequestOptionsModel, {
    description:
      'Options to sign in with a passkey: PublicKeyCredentialRequestOptionsJSON (POST /v1/accounts/sign-in/passkey/options, its `publicKey`).',
  })
  passkeySignInOptions(): Promise<RequestOptionsModel> {
    return this.accounts.passkeySignInOptions();
  }

  @Mutation(() => SignedInModel, {
    description: 'Sign in with a passkey (POST /v1/accounts/sign-in/passkey). The token is shown once.',
  })
  signInWithPasskey(
    @Args('input') input: PasskeySignInInput,
    @Context() ctx: { req?: FastifyRequest },
  ): Promise<SignedInModel> {
    return this.accounts.signInWithPasskey(input.response, input.deviceLabel, httpOrigin(ctx));
  }

  @Query(() => SessionConnection, { description: 'My signed-in devices, newest first (GET /v1/accounts/me/sessions).' })
  @UseGuards(AuthGuard)
  @RequireScope('account:read')
  async sessions(
    @CurrentPlayer() player: AuthenticatedPlayer,
    @Args('first', FIRST) first?: number,
    @Args('after', AFTER) after?: string,
  ): Promise<SessionConnection> {
    return toConnection(await this.accounts.sessions(player, pageRequest({ limit: first, cursor: after })), after);
  }

  @Mutation(() => Boolean, {
    description: 'Revoke a session (DELETE /v1/accounts/me/sessions/{id}); true when revoked.',
  })
  @UseGuards(AuthGuard)
  @RequireScope(FULL_TOKEN)
  async revokeSession(
    @CurrentPlayer() player: AuthenticatedPlayer,
    @Args('id', { type: () => ID }) id: string,
    @Context() ctx: { req?: FastifyRequest },
  ): Promise<boolean> {
    await this.accounts.revokeSession(player, uuid(id), gqlOrigin(ctx));
    return true;
  }

  @Mutation(() => SignedOutEverywhereModel, {
    description: 'Sign out everywhere (POST /v1/accounts/me/sign-out-everywhere).',
  })
  @UseGuards(AuthGuard)
  @RequireScope(FULL_TOKEN)
  signOutEverywhere(
    @CurrentPlayer() player: AuthenticatedPlayer,
    @Context() ctx: { req?: FastifyRequest },
  ): Promise<SignedOutEverywhereModel> {
    return this.accounts.signOutEverywhere(player, gqlOrigin(ctx));
  }

  @Mutation(() => CreatedAccessTokenModel, {
    description:
      'Create a personal access token (POST /v1/accounts/me/tokens): only the scopes named, within those of the token asking. The token is shown once.',
  })
  @UseGuards(AuthGuard)
  @RequireScope('account:write')
  createAccessToken(
    @CurrentPlayer() player: AuthenticatedPlayer,
    @Args('input') input: CreateAccessTokenInput,
    @Context() ctx: { req?: FastifyRequest },
  ): Promise<CreatedAccessTokenModel> {
    return this.accounts.createAccessToken(player, input, gqlOrigin(ctx));
  }

  @Query(() => AccessTokenConnection, {
    description: 'My personal access tokens, newest first (GET /v1/accounts/me/tokens).',
  })
  @UseGuards(AuthGuard)
  @RequireScope('account:read')
  async accessTokens(
    @CurrentPlayer() player: AuthenticatedPlayer,
    @Args('first', FIRST) first?: number,
    @Args('after', AFTER) after?: string,
  ): Promise<AccessTokenConnection> {
    return toConnection(
      await this.accounts.accessTokenList(player, pageRequest({ limit: first, cursor: after })),
      after,
    );
  }

  @Mutation(() => Boolean, {
    description: 'Revoke a personal access token (DELETE /v1/accounts/me/tokens/{id}); true when revoked.',
  })
  @UseGuards(AuthGuard)
  @RequireScope('account:write')
  async revokeAccessToken(
    @CurrentPlayer() player: AuthenticatedPlayer,
    @Args('id', { type: () => ID }) id: string,
    @Context() ctx: { req?: FastifyRequest },
  ): Promise<boolean> {
    await this.accounts.revokeAccessToken(player, uuid(id), gqlOrigin(ctx));
    return true;
  }

  @Query(() => SecurityLogConnection, {
    description: 'My security log, newest first (GET /v1/accounts/me/security-log).',
  })
  @UseGuards(AuthGuard)
  @RequireScope('account:read')
  async securityLog(
    @CurrentPlayer() player: AuthenticatedPlayer,
    @Args('first', FIRST) first?: number,
    @Args('after', AFTER) after?: string,
  ): Promise<SecurityLogConnection> {
    return toConnection(await this.accounts.securityLog(player, pageRequest({ limit: first, cursor: after })), after);
  }
}
