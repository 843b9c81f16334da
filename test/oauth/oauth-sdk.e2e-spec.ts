/**
 * The SDK's OAuth side against the real service (docs/oauth.md, packages/client/README.md): the
 * code exchange, and a token provider that refreshes transparently — before expiry, and after a
 * 401 through createFairdiceClient's onUnauthorized — keeping the rotated refresh token.
 */
import {
  createFairdiceClient,
  exchangeCode,
  oauthTokenProvider,
  OAuthError,
  unwrap,
  type OAuthTokens,
} from '../../packages/client/src';
import { createTestApp, registerPlayer, type TestApp } from '../helpers/app';
import { approvedCode, authorizationQuery, pkce, REDIRECT_URI, registerClient, revokeRequest } from './helpers';

jest.setTimeout(60_000);

describe('the SDK as an OAuth app', () => {
  let t: TestApp;
  let baseUrl: string;
  beforeAll(async () => {
    t = await createTestApp({ listen: true, env: { JOBS_ENABLED: 'false' } });
    baseUrl = `http://127.0.0.1:${(t.app.getHttpServer().address() as { port: number }).port}`;
  });
  afterAll(async () => t?.close());

  async function connected() {
    const player = await registerPlayer(t, 'Sdk');
    const clientId = await registerClient(t, player.token);
    const p = pkce();
    const code = await approvedCode(
      t,
      player.token,
      authorizationQuery(clientId, p, { scope: 'game:play account:read' }),
    );
    const tokens = await exchangeCode({ baseUrl, clientId, code, redirectUri: REDIRECT_URI, codeVerifier: p.verifier });
    return { player, clientId, tokens };
  }

  it('exchanges the code; the provider refreshes an expired token before the request', async () => {
    const { player, clientId, tokens } = await connected();
    expect(tokens.scope).toEqual(['game:play', 'account:read']);
    expect(tokens.expiresAt).toBeGreaterThan(Date.now() + 3_500_000);
    const saved: OAuthTokens[] = [];
    // As an app that kept its tokens past the access token's expiry.
    const provider = oauthTokenProvider({
      baseUrl,
      clientId,
      tokens: { ...tokens, expiresAt: Date.now() - 1 },
      onTokens: (next) => void saved.push(next),
    });
    const api = createFairdiceClient({ baseUrl, token: provider.token, onUnauthorized: provider.refresh });
    expect(unwrap(await api.GET('/v1/players/me')).id).toBe(player.id);
    expect(saved).toHaveLength(1);
    expect(saved[0].refreshToken).not.toBe(tokens.refreshToken);
    // The spent refresh token is the server's too: used again, it revokes the grant.
    const reused = await t
      .http()
      .post('/oauth/token')
      .type('form')
      .send({ grant_type: 'refresh_token', refresh_token: tokens.refreshToken, client_id: clientId })
      .expect(400);
    expect(reused.body.error).toBe('invalid_grant');
    // The app's next request: 401, the provider's refresh is refused, and the request rejects with it.
    await expect(api.GET('/v1/players/me')).rejects.toMatchObject({ name: 'OAuthError', error: 'invalid_grant' });
  });

  it('after a 401 (a revoked access token) the client refreshes and sends the request once more', async () => {
    const { player, clientId, tokens } = await connected();
    const provider = oauthTokenProvider({ baseUrl, clientId, tokens });
    const api = createFairdiceClient({ baseUrl, token: provider.token, onUnauthorized: provider.refresh });
    expect(unwrap(await api.GET('/v1/players/me')).id).toBe(player.id);
    await revokeRequest(t, { token: tokens.accessToken, client_id: clientId }).expect(200);
    expect(unwrap(await api.GET('/v1/players/me')).id).toBe(player.id);
    expect(await provider.token()).not.toBe(tokens.accessToken);
  });

  it('a revoked grant surfaces as OAuthError invalid_grant: the player must connect again', async () => {
    const { clientId, tokens } = await connected();
    await revokeRequest(t, { token: tokens.refreshToken, client_id: clientId }).expect(200);
    const provider = oauthTokenProvider({ baseUrl, clientId, tokens });
    const err = await provider.refresh().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(OAuthError);
    expect(err).toMatchObject({ status: 400, error: 'invalid_grant' });
  });
});
