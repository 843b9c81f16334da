/**
 * The account aggregate (docs/accounts.md): a player's username and sign-in credentials. The
 * aggregate id is the player id. Secrets never enter an event: the password's argon2id hash is
 * kept beside the stream (accounts.password_hash) so that a changed password leaves nothing
 * behind in the append-only log; a passkey's public key is not a secret and travels in its event.
 */

export const ACCOUNT_LIMITS = {
  usernameMin: 3,
  usernameMax: 24,
  /** Passkeys per account. */
  passkeysMax: 20,
  passkeyNameMax: 64,
  /** Longest credential id accepted (WebAuthn allows up to 1023 bytes: 1364 base64url characters). */
  credentialIdMax: 1364,
} as const;

/** 3–24 of a-z A-Z 0-9 _ -; compared without regard to case (usernameKey). */
export const USERNAME_PATTERN = /^[A-Za-z0-9_-]{3,24}$/;

/** The form usernames are compared (and kept unique) in. */
export const usernameKey = (username: string): string => username.toLowerCase();

export interface Passkey {
  /** The service's id of the passkey (a UUID, short enough for a URL path). */
  id: string;
  /** base64url credential id, as the authenticator made it. */
  credentialId: string;
  name: string;
  /** base64url COSE public key. */
  publicKey: string;
  transports: string[];
  /** 'singleDevice' | 'multiDevice' (WebAuthn backup eligibility). */
  deviceType: string;
  backedUp: boolean;
}

export interface AccountState {
  id: string;
  version: number;
  /** Null for a guest (a registered player who claimed no username). */
  username: string | null;
  hasPassword: boolean;
  passkeys: Passkey[];
}

export type AccountCommand =
  | { type: 'claimUsername'; username: string }
  /** The password itself was checked and hashed by the service before this command. */
  | { type: 'setPassword' }
  | { type: 'removePassword' }
  | { type: 'addPasskey'; passkey: Passkey }
  | { type: 'renamePasskey'; passkeyId: string; name: string }
  | { type: 'removePasskey'; passkeyId: string };

export type AccountEvent =
  | { type: 'usernameClaimed'; data: { username: string } }
  | { type: 'passwordSet'; data: { replaced: boolean } }
  | { type: 'passwordRemoved'; data: Record<string, never> }
  | { type: 'passkeyAdded'; data: { passkey: Passkey } }
  | { type: 'passkeyRenamed'; data: { passkeyId: string; credentialId: string; name: string } }
  | { type: 'passkeyRemoved'; data: { passkeyId: string; credentialId: string } };

export type AccountEventType = AccountEvent['type'];
