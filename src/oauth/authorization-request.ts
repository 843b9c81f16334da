/**
 * The checks of an OAuth authorization request and of a client's registration (docs/oauth.md),
 * pure: no database, no clock. The service looks the client up and calls these.
 */
import { DomainException } from '../common/errors';
import { isTokenScope, type TokenScope } from '../players/scopes';

/** At most this many redirect URIs per client, each at most this long. */
export const MAX_REDIRECT_URIS = 10;
const MAX_REDIRECT_URI_LENGTH = 2000;
const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

/**
 * A redirect URI a client may register: absolute, https (http only for a loopback host, as RFC
 * 8252 allows native and development apps), no fragment (RFC 6749 §3.1.2), no user info. It is
 * matched later character for character, so it is kept exactly as sent.
 */
export function checkRedirectUri(uri: string): void {
  const refuse = (why: string) => {
    throw new DomainException('INVALID_REDIRECT_URI', `${why}: ${uri.slice(0, 100)}`);
  };
  if (uri.length > MAX_REDIRECT_URI_LENGTH) refuse('A redirect URI is at most 2000 characters');
  let url: URL;
  try {
    url = new URL(uri);
  } catch {
    return refuse('Not an absolute URI');
  }
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && LOOPBACK_HOSTS.has(url.hostname)))
    refuse('A redirect URI uses https (http only for localhost, 127.0.0.1 or [::1])');
  if (uri.includes('#')) refuse('A redirect URI has no fragment');
  if (url.username || url.password) refuse('A redirect URI has no user name or password');
  if (/\s/.test(uri)) refuse('A redirect URI has no white space');
}

/** What the consent page and the decision are asked with (the query of /oauth/authorize). */
export interface AuthorizationParams {
  responseType?: string;
  clientId?: string;
  redirectUri?: string;
  scope?: string;
  state?: string;
  codeChallenge?: string;
  codeChallengeMethod?: string;
}

export interface RegisteredClient {
  id: string;
  name: string;
  redirectUris: string[];
}

export interface CheckedAuthorization {
  client: RegisteredClient;
  redirectUri: string;
  scopes: TokenScope[];
  state: string;
  codeChallenge: string;
}

/** RFC 6749 Appendix A VSCHAR, 1 to 500 of them: what `state` may hold. */
const STATE_PATTERN = /^[\x20-\x7e]{1,500}$/;
/** An S256 challenge: base64url of a SHA-256, 43 characters (RFC 7636 §4.2). */
const S256_CHALLENGE_PATTERN = /^[A-Za-z0-9_-]{43}$/;

/** The requested scopes, space-separated (RFC 6749 §3.3), each one known; duplicates dropped. */
export function parseScopes(scope: string | undefined): TokenScope[] {
  const names = (scope ?? '').split(' ').filter(Boolean);
  if (names.length === 0) throw new DomainException('OAUTH_INVALID_SCOPE', 'Ask for at least one scope');
  const unknown = names.filter((n) => !isTokenScope(n));
  if (unknown.length > 0)
    throw new DomainException('OAUTH_INVALID_SCOPE', `Unknown scope: ${unknown.join(' ').slice(0, 200)}`);
  return [...new Set(names as TokenScope[])];
}

/**
 * Checks an authorization request against its client (null: unknown). The client and the
 * redirect URI are checked first: when either is wrong the consent page shows an error and never
 * redirects (RFC 6749 §4.1.2.1). State is required, PKCE with S256 only (OAuth 2.1; "plain" is
 * refused), and every scope must be known.
 */
export function checkAuthorization(params: AuthorizationParams, client: RegisteredClient | null): CheckedAuthorization {
  if (!client) throw new DomainException('OAUTH_CLIENT_NOT_FOUND', 'No such OAuth client');
  const redirectUri = params.redirectUri;
  if (!redirectUri || !client.redirectUris.includes(redirectUri))
    throw new DomainException(
      'OAUTH_REDIRECT_URI_MISMATCH',
      'redirect_uri must equal, character for character, one the client registered',
    );
  if (params.responseType !== 'code')
    throw new DomainException('OAUTH_INVALID_REQUEST', 'response_type must be "code"');
  if (params.codeChallengeMethod !== 'S256')
    throw new DomainException(
      'OAUTH_INVALID_REQUEST',
      'code_challenge_method must be "S256" (PKCE is required; "plain" is not accepted)',
    );
  if (!params.codeChallenge || !S256_CHALLENGE_PATTERN.test(params.codeChallenge))
    throw new DomainException('OAUTH_INVALID_REQUEST', 'code_challenge must be 43 base64url characters (S256)');
  if (!params.state || !STATE_PATTERN.test(params.state))
    throw new DomainException('OAUTH_INVALID_REQUEST', 'state is required: 1 to 500 printable ASCII characters');
  return {
    client,
    redirectUri,
    scopes: parseScopes(params.scope),
    state: params.state,
    codeChallenge: params.codeChallenge,
  };
}
