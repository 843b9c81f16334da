/**
 * The account aggregate as a decider (docs/accounts.md): `decideAccount(state, command)` returns
 * the events of a command or a coded RuleError; `evolveAccount` applies one event. Pure: what
 * needs I/O or a secret (hashing the password, verifying a WebAuthn response, the global
 * uniqueness of a username) is done by the service around it.
 */
import { ruleError, type RuleError } from '../core/errors';
import {
  ACCOUNT_LIMITS as L,
  USERNAME_PATTERN,
  type AccountCommand,
  type AccountEvent,
  type AccountState,
} from './types';

const CREDENTIAL_ID = /^[A-Za-z0-9_-]+$/;

export const emptyAccount = (id: string): AccountState => ({
  id,
  version: 0,
  username: null,
  hasPassword: false,
  passkeys: [],
});

/** A claimed account has a username; guests (no username) have no credentials to protect. */
export const isClaimed = (s: AccountState): boolean => s.username !== null;

/** How many ways to sign in the account has (its password and its passkeys). */
export const credentialCount = (s: AccountState): number => (s.hasPassword ? 1 : 0) + s.passkeys.length;

/** A passkey's name: 1–64 characters once trimmed, no control characters. */
export function checkPasskeyName(name: unknown): string | RuleError {
  if (typeof name !== 'string') return ruleError('INVALID_CREDENTIAL_NAME', 'name must be a string');
  const trimmed = name.trim();
  // eslint-disable-next-line no-control-regex
  if (trimmed.length < 1 || trimmed.length > L.passkeyNameMax || /[\u0000-\u001f\u007f]/.test(trimmed))
    return ruleError(
      'INVALID_CREDENTIAL_NAME',
      `name must be 1 to ${L.passkeyNameMax} characters without control characters`,
    );
  return trimmed;
}

export function checkUsername(username: unknown): RuleError | null {
  if (typeof username !== 'string' || !USERNAME_PATTERN.test(username))
    return ruleError(
      'INVALID_USERNAME',
      `username must be ${L.usernameMin} to ${L.usernameMax} characters of a-z, 0-9, _ and - (case is kept but not significant)`,
    );
  return null;
}

export function decideAccount(s: AccountState, c: AccountCommand): AccountEvent[] | RuleError {
  switch (c.type) {
    case 'claimUsername': {
      const bad = checkUsername(c.username);
      if (bad) return bad;
      return [{ type: 'usernameClaimed', data: { username: c.username } }];
    }
    case 'setPassword':
      if (!isClaimed(s))
        return ruleError('USERNAME_REQUIRED', 'Claim a username first: a password signs in with the username');
      return [{ type: 'passwordSet', data: { replaced: s.hasPassword } }];
    case 'removePassword':
      if (!s.hasPassword) return ruleError('CREDENTIAL_NOT_FOUND', 'The account has no password');
      if (credentialCount(s) === 1) return lastCredential();
      return [{ type: 'passwordRemoved', data: {} }];
    case 'addPasskey': {
      if (!isClaimed(s))
        return ruleError('USERNAME_REQUIRED', 'Claim a username first: a passkey is a credential of a claimed account');
      const id = c.passkey.credentialId;
      if (typeof id !== 'string' || !CREDENTIAL_ID.test(id) || id.length > L.credentialIdMax)
        return ruleError('INVALID_COMMAND', 'credentialId must be base64url');
      const name = checkPasskeyName(c.passkey.name);
      if (typeof name !== 'string') return name;
      if (s.passkeys.some((p) => p.credentialId === id || p.id === c.passkey.id))
        return ruleError('CREDENTIAL_ALREADY_REGISTERED', 'This passkey is already registered');
      if (s.passkeys.length >= L.passkeysMax)
        return ruleError(
          'PASSKEY_LIMIT_REACHED',
          `An account holds at most ${L.passkeysMax} passkeys; remove one first`,
        );
      return [{ type: 'passkeyAdded', data: { passkey: { ...c.passkey, name } } }];
    }
    case 'renamePasskey': {
      const passkey = s.passkeys.find((p) => p.id === c.passkeyId);
      if (!passkey) return ruleError('CREDENTIAL_NOT_FOUND', 'No such passkey on this account');
      const name = checkPasskeyName(c.name);
      if (typeof name !== 'string') return name;
      return [{ type: 'passkeyRenamed', data: { passkeyId: passkey.id, credentialId: passkey.credentialId, name } }];
    }
    case 'removePasskey': {
      const passkey = s.passkeys.find((p) => p.id === c.passkeyId);
      if (!passkey) return ruleError('CREDENTIAL_NOT_FOUND', 'No such passkey on this account');
      if (credentialCount(s) === 1) return lastCredential();
      return [{ type: 'passkeyRemoved', data: { passkeyId: passkey.id, credentialId: passkey.credentialId } }];
    }
    default:
      return ruleError('INVALID_COMMAND', 'Unknown account command');
  }
}

const lastCredential = () =>
  ruleError(
    'LAST_CREDENTIAL',
    'This is the last way to sign in to the account: add another passkey or a password before removing it',
  );

export function evolveAccount(s: AccountState, e: AccountEvent): AccountState {
  const next = { ...s, version: s.version + 1 };
  switch (e.type) {
    case 'usernameClaimed':
      return { ...next, username: e.data.username };
    case 'passwordSet':
      return { ...next, hasPassword: true };
    case 'passwordRemoved':
      return { ...next, hasPassword: false };
    case 'passkeyAdded':
      return { ...next, passkeys: [...s.passkeys, e.data.passkey] };
    case 'passkeyRenamed':
      return {
        ...next,
        passkeys: s.passkeys.map((p) => (p.id === e.data.passkeyId ? { ...p, name: e.data.name } : p)),
      };
    case 'passkeyRemoved':
      return { ...next, passkeys: s.passkeys.filter((p) => p.id !== e.data.passkeyId) };
  }
}
