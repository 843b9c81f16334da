/** Helpers of the OAuth e2e tests (docs/oauth.md): PKCE pairs, consent, the token endpoint. */
import { createHash, randomBytes } from 'node:crypto';
import type { TestApp } from '../helpers/app';

export interface Pkce {
  verifier: string;
  challenge: string;
}

/** A fresh PKCE pair (RFC 7636): 32 random bytes as the verifier, S256 as the challenge. */
export function pkce(): Pkce {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
}

export const REDIRECT_URI = 'https://app.example/callback';

/** Registers an OAuth client of `token`'s player; answers its client_id. */
export async function registerClient(t: TestApp, token: string, redirectUris = [REDIRECT_URI], name = 'Dice Stats') {
  const res = await t
    .http()
    .post('/v1/oauth/clients')
    .set('authorization', `Bearer ${token}`)
    .send({ name, redirectUris })
    .expect(201);
  return res.body.clientId as string;
}

/** The consent page's query: a complete, valid authorization request unless `over` changes it. */
export function authorizationQuery(clientId: string, p: Pkce, over: Record<string, string | undefined> = {}) {
  const query: Record<string, string | undefined> = {
    response_type: 'code',
    client_id: clientId,
    redirect_uri: REDIRECT_URI,
    scope: 'game:create game:play',
    state: 'st-123',
    code_challenge: p.challenge,
    code_challenge_method: 'S256',
    ...over,
  };
  return Object.fromEntries(Object.entries(query).filter(([, v]) => v !== undefined)) as Record<string, string>;
}

/** The player approves (or denies): answers the redirect URL the consent page would send the browser to. */
export function decide(t: TestApp, token: string, query: Record<string, string>, approved = true) {
  return t
    .http()
    .post('/v1/oauth/authorization')
    .set('authorization', `Bearer ${token}`)
    .send({ ...query, approved });
}

/** Approves and answers the code from the redirect. */
export async function approvedCode(t: TestApp, token: string, query: Record<string, string>): Promise<string> {
  const res = await decide(t, token, query);
  if (res.status !== 200) throw new Error(`consent refused: ${res.status} ${res.text}`);
  const code = new URL(res.body.redirectTo as string).searchParams.get('code');
  if (!code) throw new Error(`no code in ${res.body.redirectTo}`);
  return code;
}

/** POST /oauth/token with a form body. */
export function tokenRequest(t: TestApp, form: Record<string, string>) {
  return t
    .http()
    .post('/oauth/token')
    .set('content-type', 'application/x-www-form-urlencoded')
    .send(new URLSearchParams(form).toString());
}

export function revokeRequest(t: TestApp, form: Record<string, string>) {
  return t
    .http()
    .post('/oauth/revoke')
    .set('content-type', 'application/x-www-form-urlencoded')
    .send(new URLSearchParams(form).toString());
}

/** The whole flow: consent, code exchange. Answers the token response. */
export async function connect(t: TestApp, playerToken: string, clientId: string, scope = 'game:create game:play') {
  const p = pkce();
  const code = await approvedCode(t, playerToken, authorizationQuery(clientId, p, { scope }));
  const res = await tokenRequest(t, {
    grant_type: 'authorization_code',
    code,
    redirect_uri: REDIRECT_URI,
    client_id: clientId,
    code_verifier: p.verifier,
  });
  if (res.status !== 200) throw new Error(`token exchange refused: ${res.status} ${res.text}`);
  return res.body as {
    access_token: string;
    refresh_token: string;
    expires_in: number;
    scope: string;
    token_type: string;
  };
}
