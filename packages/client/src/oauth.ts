/**
 * OAuth 2.1 for third-party apps (docs/oauth.md): PKCE (S256), the authorization URL, the code
 * exchange, refresh and revocation, and a token provider that refreshes by itself. Give the
 * provider to the REST client so that an app never handles expiry:
 *
 *   const tokens = oauthTokenProvider({ baseUrl, clientId, tokens: await exchangeCode(...), onTokens: save });
 *   const api = createFairdiceClient({ baseUrl, token: tokens.token, onUnauthorized: tokens.refresh });
 *
 * Works in browsers and Node 20+ (fetch and WebCrypto).
 */
import type { FetchLike } from './retry';

/** The tokens of one grant, as an app keeps them (the refresh token rotates on every refresh). */
export interface OAuthTokens {
  accessToken: string;
  refreshToken: string;
  /** When the access token expires (ms since the epoch). */
  expiresAt: number;
  scope: string[];
}

/** An RFC 6749 §5.2 error of the token or revocation endpoint: `error` is e.g. invalid_grant. */
export class OAuthError extends Error {
  constructor(
    readonly status: number,
    readonly error: string,
    readonly description?: string,
  ) {
    super(`${status} ${error}${description ? `: ${description}` : ''}`);
    this.name = 'OAuthError';
  }
}

interface EndpointOptions {
  /** Where the service runs, e.g. `https://fairdice.example`. */
  baseUrl: string;
  clientId: string;
  fetch?: FetchLike;
}

/** A PKCE pair (RFC 7636): keep `verifier` secret until the code exchange, send `challenge`. */
export async function createPkce(): Promise<{ verifier: string; challenge: string }> {
  const verifier = base64url(globalThis.crypto.getRandomValues(new Uint8Array(32)));
  const digest = await globalThis.crypto.subtle.digest('SHA-256', new TextEncoder().encode(verifier));
  return { verifier, challenge: base64url(new Uint8Array(digest)) };
}

/** A random `state` for the authorization request (check it on the callback). */
export const createState = (): string => base64url(globalThis.crypto.getRandomValues(new Uint8Array(16)));

/** The consent page's URL to send the player to. */
export function authorizationUrl(
  options: Omit<EndpointOptions, 'fetch'> & {
    redirectUri: string;
    scope: string[];
    state: string;
    codeChallenge: string;
  },
): string {
  const url = new URL('/oauth/authorize', options.baseUrl);
  url.search = new URLSearchParams({
    response_type: 'code',
    client_id: options.clientId,
    redirect_uri: options.redirectUri,
    scope: options.scope.join(' '),
    state: options.state,
    code_challenge: options.codeChallenge,
    code_challenge_method: 'S256',
  }).toString();
  return url.toString();
}

/** Exchanges the code of the callback for tokens (POST /oauth/token, grant authorization_code). */
export function exchangeCode(
  options: EndpointOptions & { code: string; redirectUri: string; codeVerifier: string },
): Promise<OAuthTokens> {
  return tokenRequest(options, {
    grant_type: 'authorization_code',
    code: options.code,
    redirect_uri: options.redirectUri,
    code_verifier: options.codeVerifier,
  });
}

/**
 * New tokens for a refresh token (which is then spent: keep the new one). `scope` may narrow the
 * grant, never widen it. A reused refresh token revokes the whole grant (invalid_grant).
 */
export function refreshTokens(
  options: EndpointOptions & { refreshToken: string; scope?: string[] },
): Promise<OAuthTokens> {
  return tokenRequest(options, {
    grant_type: 'refresh_token',
    refresh_token: options.refreshToken,
    ...(options.scope ? { scope: options.scope.join(' ') } : {}),
  });
}

/** RFC 7009: a refresh token ends its whole grant, an access token itself. */
export async function revokeToken(options: EndpointOptions & { token: string }): Promise<void> {
  const response = await post(options, '/oauth/revoke', { token: options.token });
  if (!response.ok) throw await oauthErrorOf(response);
}

export interface OAuthTokenProvider {
  /** The current access token, refreshed first when it expires within `skewMs`. */
  token: () => Promise<string>;
  /** Refreshes now (one refresh at a time); answers the new access token. */
  refresh: () => Promise<string>;
}

/**
 * A token provider for createFairdiceClient's `token` and `onUnauthorized`: refreshes before
 * expiry and after a 401, one refresh at a time, and hands every new pair to `onTokens` (store
 * it: the old refresh token is spent). An invalid_grant (revoked, reused) is thrown as OAuthError:
 * the player must connect again.
 */
export function oauthTokenProvider(
  options: EndpointOptions & {
    tokens: OAuthTokens;
    onTokens?: (tokens: OAuthTokens) => void | Promise<void>;
    /** Refresh this long before expiry (default 30 s). */
    skewMs?: number;
  },
): OAuthTokenProvider {
  let current = options.tokens;
  let refreshing: Promise<string> | null = null;
  const skew = options.skewMs ?? 30_000;
  const refresh = (): Promise<string> => {
    refreshing ??= (async () => {
      try {
        current = await refreshTokens({ ...options, refreshToken: current.refreshToken });
        await options.onTokens?.(current);
        return current.accessToken;
      } finally {
        refreshing = null;
      }
    })();
    return refreshing;
  };
  return {
    token: async () => (current.expiresAt - skew <= Date.now() ? refresh() : current.accessToken),
    refresh,
  };
}

async function tokenRequest(options: EndpointOptions, form: Record<string, string>): Promise<OAuthTokens> {
  const response = await post(options, '/oauth/token', form);
  if (!response.ok) throw await oauthErrorOf(response);
  const body = (await response.json()) as {
    access_token: string;
    refresh_token: string;
    expires_in: number;
    scope?: string;
  };
  return {
    accessToken: body.access_token,
    refreshToken: body.refresh_token,
    expiresAt: Date.now() + body.expires_in * 1000,
    scope: (body.scope ?? '').split(' ').filter(Boolean),
  };
}

function post(options: EndpointOptions, path: string, form: Record<string, string>): Promise<Response> {
  const request = new Request(new URL(path, options.baseUrl), {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
    body: new URLSearchParams({ ...form, client_id: options.clientId }).toString(),
  });
  return (options.fetch ?? ((r: Request) => globalThis.fetch(r)))(request);
}

async function oauthErrorOf(response: Response): Promise<OAuthError> {
  const body = (await response.json().catch(() => ({}))) as { error?: string; error_description?: string };
  return new OAuthError(response.status, body.error ?? 'server_error', body.error_description);
}

function base64url(bytes: Uint8Array): string {
  let binary = '';
  for (const b of bytes) binary += String.fromCharCode(b);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}
