/** What the accounts services return (docs/accounts.md); the DTOs in dto/ describe them on the wire. */

/** Where a request came from: the client address (request.ip, TRUST_PROXY) and its User-Agent. */
export interface RequestOrigin {
  address: string;
  userAgent?: string | null;
}

export interface PasskeyView {
  id: string;
  credentialId: string;
  name: string;
  deviceType: string;
  backedUp: boolean;
  createdAt: Date;
  lastUsedAt: Date | null;
}

export interface AccountView {
  playerId: string;
  username: string | null;
  claimed: boolean;
  hasPassword: boolean;
  passkeys: PasskeyView[];
}

export interface SessionView {
  id: string;
  label: string;
  createdAt: Date;
  lastUsedAt: Date;
  address: string | null;
  scopes: string[];
  current: boolean;
}

/** A personal access token (docs/accounts.md "Scoped tokens"); its secret is never shown again. */
export interface AccessTokenView {
  id: string;
  name: string;
  scopes: string[];
  createdAt: Date;
  lastUsedAt: Date;
  expiresAt: Date | null;
  current: boolean;
}

export interface CreatedAccessToken {
  token: string;
  accessToken: AccessTokenView;
}

export interface SignedIn {
  token: string;
  session: SessionView;
  player: { id: string; displayName: string; createdAt: Date };
}

export interface SecurityLogDetail {
  method: string | null;
  sessionId: string | null;
  label: string | null;
  passkeyId: string | null;
  credentialId: string | null;
  name: string | null;
  username: string | null;
  reason: string | null;
  replaced: boolean | null;
  revokedSessions: number | null;
  playerTokenRetired: boolean | null;
  tokenId: string | null;
  scopes: string[] | null;
  expiresAt: string | null;
}

export interface SecurityLogEntryView {
  id: string;
  type: string;
  createdAt: Date;
  address: string | null;
  detail: SecurityLogDetail;
}
