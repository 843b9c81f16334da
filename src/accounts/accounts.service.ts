/**
 * Accounts (docs/accounts.md): a guest (a registered player) claims a username and adds
 * credentials (a password, passkeys); signing in with one of them on another device opens a
 * session there: a bearer token of the same form as the player's own, stored hashed, accepted
 * by the AuthGuard beside it. Credential changes are commands of the account aggregate through
 * the one command handler; sessions, sign-in attempts and the security log are plain rows.
 *
 * The one service the controller and the resolver use; each job is done by its own piece:
 * AccountCredentials (the account, username, password, passkeys), SignIn (and its throttle),
 * AccountSessions, AccessTokens (personal access tokens), SecurityLog.
 */
import { Injectable } from '@nestjs/common';
import type { CursorPage } from '../common/pagination/cursor';
import type { PageRequest } from '../common/pagination/page-request';
import type { AuthenticatedPlayer } from '../players/players.types';
import { AccountCredentials } from './account-credentials.service';
import { AccountSessions } from './account-sessions.service';
import { AccessTokens, type CreateAccessToken } from './access-tokens.service';
import type {
  AccessTokenView,
  AccountView,
  CreatedAccessToken,
  RequestOrigin,
  SecurityLogEntryView,
  SessionView,
  SignedIn,
} from './account-views';
import type { CreationOptionsModel, RequestOptionsModel } from './dto/webauthn.dto';
import { SecurityLog } from './security-log.service';
import { SignIn } from './sign-in.service';

export type { RequestOrigin } from './account-views';

@Injectable()
export class AccountsService {
  constructor(
    private readonly credentials: AccountCredentials,
    private readonly signIn: SignIn,
    private readonly sessionList: AccountSessions,
    private readonly log: SecurityLog,
    private readonly accessTokens: AccessTokens,
  ) {}

  view(playerId: string): Promise<AccountView> {
    return this.credentials.view(playerId);
  }

  // --- credentials (commands of the account aggregate) ---

  claimUsername(player: AuthenticatedPlayer, username: string, origin: RequestOrigin): Promise<AccountView> {
    return this.credentials.claimUsername(player, username, origin);
  }

  setPassword(
    player: AuthenticatedPlayer,
    password: string,
    currentPassword: string | null | undefined,
    origin: RequestOrigin,
  ): Promise<AccountView> {
    return this.credentials.setPassword(player, password, currentPassword, origin);
  }

  removePassword(player: AuthenticatedPlayer, origin: RequestOrigin): Promise<AccountView> {
    return this.credentials.removePassword(player, origin);
  }

  passkeyRegistrationOptions(player: AuthenticatedPlayer): Promise<CreationOptionsModel> {
    return this.credentials.passkeyRegistrationOptions(player);
  }

  addPasskey(
    player: AuthenticatedPlayer,
    name: string,
    response: unknown,
    origin: RequestOrigin,
  ): Promise<AccountView> {
    return this.credentials.addPasskey(player, name, response, origin);
  }

  renamePasskey(
    player: AuthenticatedPlayer,
    passkeyId: string,
    name: string,
    origin: RequestOrigin,
  ): Promise<AccountView> {
    return this.credentials.renamePasskey(player, passkeyId, name, origin);
  }

  removePasskey(player: AuthenticatedPlayer, passkeyId: string, origin: RequestOrigin): Promise<AccountView> {
    return this.credentials.removePasskey(player, passkeyId, origin);
  }

  // --- sign-in ---

  signInWithPassword(
    username: string,
    password: string,
    deviceLabel: string | null | undefined,
    origin: RequestOrigin,
  ): Promise<SignedIn> {
    return this.signIn.withPassword(username, password, deviceLabel, origin);
  }

  passkeySignInOptions(): Promise<RequestOptionsModel> {
    return this.signIn.passkeyOptions();
  }

  signInWithPasskey(
    response: unknown,
    deviceLabel: string | null | undefined,
    origin: RequestOrigin,
  ): Promise<SignedIn> {
    return this.signIn.withPasskey(response, deviceLabel, origin);
  }

  // --- sessions ---

  sessions(player: AuthenticatedPlayer, page: PageRequest): Promise<CursorPage<SessionView>> {
    return this.sessionList.list(player, page);
  }

  revokeSession(player: AuthenticatedPlayer, sessionId: string, origin: RequestOrigin): Promise<void> {
    return this.sessionList.revoke(player, sessionId, origin);
  }

  signOutEverywhere(
    player: AuthenticatedPlayer,
    origin: RequestOrigin,
  ): Promise<{ revokedSessions: number; playerTokenRetired: boolean }> {
    return this.sessionList.signOutEverywhere(player, origin);
  }

  // --- personal access tokens ---

  createAccessToken(
    player: AuthenticatedPlayer,
    input: CreateAccessToken,
    origin: RequestOrigin,
  ): Promise<CreatedAccessToken> {
    return this.accessTokens.create(player, input, origin);
  }

  accessTokenList(player: AuthenticatedPlayer, page: PageRequest): Promise<CursorPage<AccessTokenView>> {
    return this.accessTokens.list(player, page);
  }

  revokeAccessToken(player: AuthenticatedPlayer, tokenId: string, origin: RequestOrigin): Promise<void> {
    return this.accessTokens.revoke(player, tokenId, origin);
  }

  // --- security log ---

  securityLog(player: AuthenticatedPlayer, page: PageRequest): Promise<CursorPage<SecurityLogEntryView>> {
    return this.log.list(player, page);
  }
}
