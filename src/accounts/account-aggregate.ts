/**
 * An account as the one command handler (src/commands) sees it: loaded from the account store,
 * authorized (only its own player acts on it), decided by the pure account decider
 * (@fairdice/core/rules/account), appended by the account store with the password hash and the
 * client address a command carries beside it (docs/accounts.md).
 */
import { Injectable } from '@nestjs/common';
import { isRuleError } from '@fairdice/core/rules/core/errors';
import { decideAccount, type AccountCommand, type AccountEvent } from '@fairdice/core/rules/account';
import type { Actor, CommandTarget } from '../commands/command-handler';
import { DomainException } from '../common/errors';
import { AccountStore, type LoadedAccount } from '../event-store/account-store.service';

/** A command with what the service adds outside the pure decider. */
export interface AccountRequest {
  command: AccountCommand;
  /** The new argon2id hash (setPassword). */
  passwordHash?: string;
  /** A new passkey's signature counter (addPasskey). */
  passkeyCounter?: number;
  address: string | null;
}

@Injectable()
export class AccountAggregate implements CommandTarget<LoadedAccount, AccountRequest, AccountEvent, LoadedAccount> {
  readonly kind = 'account';

  constructor(private readonly store: AccountStore) {}

  /** Every player has an account (a guest's is empty, version 0): never null. */
  load(id: string): Promise<LoadedAccount> {
    return this.store.load(id);
  }

  fromCache(): boolean {
    return false;
  }

  forget(): void {}

  version(a: LoadedAccount): number {
    return a.state.version;
  }

  notFound(): DomainException {
    return new DomainException('PLAYER_NOT_FOUND', 'No such player');
  }

  /** Only the player acts on their account (the routes take the id from the token: never another). */
  authorize(a: LoadedAccount, actor: Actor): void {
    if (a.state.id !== actor.id) throw new DomainException('FORBIDDEN', 'Only its player may change an account');
  }

  decide(a: LoadedAccount, request: AccountRequest): readonly AccountEvent[] {
    const events = decideAccount(a.state, request.command);
    if (isRuleError(events)) throw DomainException.fromRule(events);
    return events;
  }

  append(a: LoadedAccount, events: readonly AccountEvent[], request: AccountRequest): Promise<LoadedAccount> {
    return this.store.append(a, events, request.command, {
      passwordHash: request.passwordHash,
      passkeyCounter: request.passkeyCounter,
      address: request.address,
    });
  }

  /** Nobody watches accounts live. */
  publish(): void {}
}
