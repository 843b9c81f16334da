/**
 * An account and its credentials (docs/accounts.md): the username, the password, the passkeys.
 * Every change is a command of the account aggregate through the one command handler; each
 * answers with the account as it now is.
 */
import { randomUUID } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import type { Pool } from 'pg';
import { checkPasskeyName, checkUsername, isClaimed, type AccountCommand } from '@fairdice/core/rules/account';
import { CommandHandler } from '../commands/command-handler';
import { DomainException } from '../common/errors';
import { PG_POOL } from '../database/pg-pool';
import { AccountStore } from '../event-store/account-store.service';
import type { AuthenticatedPlayer } from '../players/players.types';
import { AccountAggregate } from './account-aggregate';
import type { AccountView, RequestOrigin } from './account-views';
import type { CreationOptionsModel } from './dto/webauthn.dto';
import { checkPassword, hashPassword } from './password';
import { SignIn } from './sign-in.service';
import { WebAuthn } from './webauthn';

@Injectable()
export class AccountCredentials {
  constructor(
    @Inject(PG_POOL) private readonly pool: Pool,
    private readonly handler: CommandHandler,
    private readonly aggregate: AccountAggregate,
    private readonly store: AccountStore,
    private readonly signIn: SignIn,
    private readonly webauthn: WebAuthn,
  ) {}

  async view(playerId: string): Promise<AccountView> {
    const { state } = await this.store.load(playerId);
    const { rows } = await this.pool.query<{ credential_id: string; created_at: Date; last_used_at: Date | null }>(
      'SELECT credential_id, created_at, last_used_at FROM account_passkeys WHERE account_id = $1',
      [playerId],
    );
    const times = new Map(rows.map((r) => [r.credential_id, r]));
    return {
      playerId,
      username: state.username,
      claimed: isClaimed(state),
      hasPassword: state.hasPassword,
      passkeys: state.passkeys.map((p) => ({
        id: p.id,
        credentialId: p.credentialId,
        name: p.name,
        deviceType: p.deviceType,
        backedUp: p.backedUp,
        createdAt: times.get(p.credentialId)?.created_at ?? new Date(0),
        lastUsedAt: times.get(p.credentialId)?.last_used_at ?? null,
      })),
    };
  }

  claimUsername(player: AuthenticatedPlayer, username: string, origin: RequestOrigin): Promise<AccountView> {
    const bad = checkUsername(username);
    if (bad) throw DomainException.fromRule(bad);
    return this.command(player, { command: { type: 'claimUsername', username }, address: origin.address });
  }

  /**
   * Sets the password (WEAK_PASSWORD first: nothing is hashed or stored). Replacing a password
   * needs the current one, checked and counted like a sign-in (a stolen token alone cannot lock
   * the owner out by changing it).
   */
  async setPassword(
    player: AuthenticatedPlayer,
    password: string,
    currentPassword: string | null | undefined,
    origin: RequestOrigin,
  ): Promise<AccountView> {
    checkPassword(password);
    const loaded = await this.store.load(player.id);
    if (!isClaimed(loaded.state))
      throw new DomainException('USERNAME_REQUIRED', 'Claim a username first: a password signs in with the username');
    if (loaded.state.hasPassword) {
      if (typeof currentPassword !== 'string' || currentPassword.length === 0)
        throw new DomainException('VALIDATION_FAILED', 'currentPassword is required to replace a password');
      await this.signIn.checkCurrentPassword(loaded, currentPassword, origin);
    }
    const passwordHash = await hashPassword(password);
    return this.command(player, { command: { type: 'setPassword' }, passwordHash, address: origin.address });
  }

  removePassword(player: AuthenticatedPlayer, origin: RequestOrigin): Promise<AccountView> {
    return this.command(player, { command: { type: 'removePassword' }, address: origin.address });
  }

  async passkeyRegistrationOptions(player: AuthenticatedPlayer): Promise<CreationOptionsModel> {
    const { state } = await this.store.load(player.id);
    if (!isClaimed(state) || state.username === null)
      throw new DomainException(
        'USERNAME_REQUIRED',
        'Claim a username first: a passkey is a credential of a claimed account',
      );
    return this.webauthn.registrationOptions(
      { id: player.id, username: state.username, displayName: player.displayName },
      state.passkeys,
    );
  }

  /** Verifies the authenticator's registration response (its challenge used once) and adds the passkey. */
  async addPasskey(
    player: AuthenticatedPlayer,
    name: string,
    response: unknown,
    origin: RequestOrigin,
  ): Promise<AccountView> {
    const checked = checkPasskeyName(name);
    if (typeof checked !== 'string') throw DomainException.fromRule(checked);
    const credential = await this.webauthn.verifyRegistration(player.id, response);
    const { counter, ...passkey } = credential;
    return this.command(player, {
      command: { type: 'addPasskey', passkey: { ...passkey, id: randomUUID(), name: checked } },
      passkeyCounter: counter,
      address: origin.address,
    });
  }

  renamePasskey(
    player: AuthenticatedPlayer,
    passkeyId: string,
    name: string,
    origin: RequestOrigin,
  ): Promise<AccountView> {
    return this.command(player, { command: { type: 'renamePasskey', passkeyId, name }, address: origin.address });
  }

  removePasskey(player: AuthenticatedPlayer, passkeyId: string, origin: RequestOrigin): Promise<AccountView> {
    return this.command(player, { command: { type: 'removePasskey', passkeyId }, address: origin.address });
  }

  private async command(
    player: AuthenticatedPlayer,
    request: { command: AccountCommand; passwordHash?: string; passkeyCounter?: number; address: string | null },
  ): Promise<AccountView> {
    await this.handler.run(this.aggregate, {
      operation: request.command.type,
      id: player.id,
      args: null,
      actor: player,
      opts: {},
      build: () => request,
      respond: () => undefined,
    });
    return this.view(player.id);
  }
}
