/**
 * OAuth 2.1 for third-party apps (docs/oauth.md): client registration, consent, the code
 * exchange with PKCE S256, refresh-token rotation and reuse detection, RFC 7009 revocation,
 * RFC 8414 metadata, and the bad inputs: each gets its error and stores nothing.
 */
import type { Pool } from 'pg';
import { PG_POOL } from '../../src/database/pg-pool';
import { createTestApp, gql, registerPlayer, type TestApp } from '../helpers/app';
import { rowCounts } from '../helpers/row-counts';
import { hashToken } from '../../src/players/tokens';
import {
  approvedCode,
  authorizationQuery,
  connect,
  decide,
  pkce,
  REDIRECT_URI,
  registerClient,
  revokeRequest,
  tokenRequest,
} from './helpers';

jest.setTimeout(60_000);

describe('OAuth 2.1 for third-party apps', () => {
  let t: TestApp;
  let pool: Pool;

  beforeAll(async () => {
    t = await createTestApp({ env: { JOBS_ENABLED: 'false', OAUTH_ISSUER: 'https://dice.example' } });
    pool = t.app.get<Pool>(PG_POOL);
  });
  afterAll(async () => t?.close());

  /** Runs `act` and expects every data table to hold as many rows afterwards. */
  async function storesNothing(act: () => Promise<unknown>) {
    const before = await rowCounts(pool);
    await act();
    expect(await rowCounts(pool)).toEqual(before);
  }

  const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
  /**
   * Whether the token authenticates: GET /v1/players/me answers 200 (a token with `account:read`),
   * 403 INSUFFICIENT_SCOPE (a live token without it, as most tokens here) or 401 (revoked,
   * expired). `me(token).expect(200)` asserts a live token, `.expect(401)` a dead one.
   */
  const me = (token: string) => ({
    async expect(status: 200 | 401) {
      const res = await t.http().get('/v1/players/me').set(bearer(token));
      const live = res.status === 200 || (res.status === 403 && res.body.code === 'INSUFFICIENT_SCOPE');
      expect({ status: live ? 200 : res.status, body: res.body }).toMatchObject({ status });
      return res;
    },
  });

  /** A solo game created and started with `token`; answers its id. */
  async function soloGame(token: string): Promise<string> {
    const created = await t.http().post('/v1/games').set(bearer(token)).send({ ruleSet: 'simple', seats: 1 });
    expect(created.status).toBe(201);
    if (created.body.status === 'open')
      await t.http().post(`/v1/games/${created.body.id}/start`).set(bearer(token)).send({}).expect(200);
    return created.body.id as string;
  }

  describe('the authorization-code flow', () => {
    it('an approved consent gives a code; its exchange gives tokens that play a move', async () => {
      const player = await registerPlayer(t, 'Ada');
      const clientId = await registerClient(t, player.token);
      const p = pkce();
      const query = authorizationQuery(clientId, p);

      // The consent page reads the request: the app, where it sends the player back, the scopes.
      const shown = await t.http().get('/v1/oauth/authorization').query(query).expect(200);
      expect(shown.body).toEqual({
        clientId,
        clientName: 'Dice Stats',
        redirectUri: REDIRECT_URI,
        redirectHost: 'app.example',
        scopes: [
          { name: 'game:create', description: expect.stringContaining('Create games') },
          { name: 'game:play', description: expect.stringContaining('Make moves') },
        ],
        state: 'st-123',
      });

      const res = await decide(t, player.token, query).expect(200);
      const redirect = new URL(res.body.redirectTo);
      expect(redirect.origin + redirect.pathname).toBe(REDIRECT_URI);
      expect(redirect.searchParams.get('state')).toBe('st-123');
      const code = redirect.searchParams.get('code') as string;
      // Stored hashed only.
      const stored = await pool.query('SELECT code_hash FROM oauth_codes WHERE code_hash = $1', [hashToken(code)]);
      expect(stored.rowCount).toBe(1);
      expect((await pool.query('SELECT 1 FROM oauth_codes WHERE code_hash = $1', [code])).rowCount).toBe(0);

      const tokens = await tokenRequest(t, {
        grant_type: 'authorization_code',
        code,
        redirect_uri: REDIRECT_URI,
        client_id: clientId,
        code_verifier: p.verifier,
      }).expect(200);
      expect(tokens.headers['cache-control']).toBe('no-store');
      // OAUTH_ACCESS_TOKEN_SECONDS, 3600 by default (rounded down by the time it is answered).
      expect(tokens.body.expires_in).toBeGreaterThan(3590);
      expect(tokens.body.expires_in).toBeLessThanOrEqual(3600);
      expect(tokens.body).toEqual({
        access_token: expect.stringMatching(/^fd_/),
        token_type: 'Bearer',
        expires_in: expect.any(Number),
        refresh_token: expect.stringMatching(/^fdr_/),
        scope: 'game:create game:play',
      });
      // The access token is a bearer token of the player, carrying its scopes.
      await me(tokens.body.access_token).expect(200);
      const session = await pool.query(
        'SELECT player_id, kind, client_id, scopes, expires_at FROM sessions WHERE token_hash = $1',
        [hashToken(tokens.body.access_token)],
      );
      expect(session.rows[0]).toMatchObject({
        player_id: player.id,
        kind: 'oauth',
        client_id: clientId,
        scopes: ['game:create', 'game:play'],
      });
      const lifetime = (session.rows[0].expires_at as Date).getTime() - Date.now();
      expect(lifetime).toBeGreaterThan(3500_000);
      expect(lifetime).toBeLessThanOrEqual(3600_000);

      // A game:create + game:play token creates a solo game and rolls.
      const gameId = await soloGame(tokens.body.access_token);
      const rolled = await t
        .http()
        .post(`/v1/games/${gameId}/roll`)
        .set(bearer(tokens.body.access_token))
        .send({})
        .expect(200);
      expect(rolled.body.dice).toHaveLength(5);
    });

    it('a denied consent redirects with error=access_denied and the state, and stores nothing', async () => {
      const player = await registerPlayer(t);
      const clientId = await registerClient(t, player.token);
      const query = authorizationQuery(clientId, pkce());
      await storesNothing(async () => {
        const res = await decide(t, player.token, query, false).expect(200);
        const redirect = new URL(res.body.redirectTo);
        expect(redirect.searchParams.get('error')).toBe('access_denied');
        expect(redirect.searchParams.get('state')).toBe('st-123');
        expect(redirect.searchParams.get('code')).toBeNull();
      });
    });

    it('only the player themselves consents: an OAuth token cannot approve another app', async () => {
      const player = await registerPlayer(t);
      const clientId = await registerClient(t, player.token);
      const tokens = await connect(t, player.token, clientId);
      await storesNothing(async () => {
        const res = await decide(t, tokens.access_token, authorizationQuery(clientId, pkce())).expect(403);
        expect(res.body).toMatchObject({ code: 'INSUFFICIENT_SCOPE', requiredScope: '*' });
        const reg = await t
          .http()
          .post('/v1/oauth/clients')
          .set(bearer(tokens.access_token))
          .send({ name: 'x', redirectUris: [REDIRECT_URI] })
          .expect(403);
        expect(reg.body).toMatchObject({ code: 'INSUFFICIENT_SCOPE', requiredScope: '*' });
      });
    });

    it('RFC 8414 metadata names the endpoints, S256 only, public clients', async () => {
      const res = await t.http().get('/.well-known/oauth-authorization-server').expect(200);
      expect(res.body).toMatchObject({
        issuer: 'https://dice.example',
        authorization_endpoint: 'https://dice.example/oauth/authorize',
        token_endpoint: 'https://dice.example/oauth/token',
        revocation_endpoint: 'https://dice.example/oauth/revoke',
        response_types_supported: ['code'],
        grant_types_supported: ['authorization_code', 'refresh_token'],
        code_challenge_methods_supported: ['S256'],
        token_endpoint_auth_methods_supported: ['none'],
      });
      expect(res.body.scopes_supported).toEqual(expect.arrayContaining(['game:read', 'game:play', 'account:write']));
    });
  });

  describe('refresh tokens', () => {
    it('rotate: each refresh answers a new refresh token and a new access token; narrowing is allowed', async () => {
      const player = await registerPlayer(t);
      const clientId = await registerClient(t, player.token);
      const first = await connect(t, player.token, clientId);
      const second = await tokenRequest(t, {
        grant_type: 'refresh_token',
        refresh_token: first.refresh_token,
        client_id: clientId,
      }).expect(200);
      expect(second.body.refresh_token).not.toBe(first.refresh_token);
      expect(second.body.access_token).not.toBe(first.access_token);
      expect(second.body.scope).toBe('game:create game:play');
      await me(second.body.access_token).expect(200);
      // A narrower scope may be asked for.
      const third = await tokenRequest(t, {
        grant_type: 'refresh_token',
        refresh_token: second.body.refresh_token,
        client_id: clientId,
        scope: 'game:play',
      }).expect(200);
      expect(third.body.scope).toBe('game:play');
      const row = await pool.query('SELECT scopes FROM sessions WHERE token_hash = $1', [
        hashToken(third.body.access_token),
      ]);
      expect(row.rows[0].scopes).toEqual(['game:play']);
    });

    it('reusing a rotated refresh token revokes the whole family: its access tokens get 401', async () => {
      const player = await registerPlayer(t);
      const clientId = await registerClient(t, player.token);
      const first = await connect(t, player.token, clientId);
      const second = await tokenRequest(t, {
        grant_type: 'refresh_token',
        refresh_token: first.refresh_token,
        client_id: clientId,
      }).expect(200);
      await me(first.access_token).expect(200);
      await me(second.body.access_token).expect(200);

      // The old refresh token again: a thief or a confused app. Refused, and the family ends.
      const reused = await tokenRequest(t, {
        grant_type: 'refresh_token',
        refresh_token: first.refresh_token,
        client_id: clientId,
      }).expect(400);
      expect(reused.body.error).toBe('invalid_grant');
      const a = await me(first.access_token).expect(401);
      expect(a.body.code).toBe('UNAUTHENTICATED');
      await me(second.body.access_token).expect(401);
      // The newest refresh token is dead too.
      const latest = await tokenRequest(t, {
        grant_type: 'refresh_token',
        refresh_token: second.body.refresh_token,
        client_id: clientId,
      }).expect(400);
      expect(latest.body.error).toBe('invalid_grant');
      // Another grant of the same player and app lives on.
      const other = await connect(t, player.token, clientId);
      await me(other.access_token).expect(200);
      await me(player.token).expect(200);
    });

    it('scope escalation on refresh is invalid_scope and leaves the refresh token usable', async () => {
      const player = await registerPlayer(t);
      const clientId = await registerClient(t, player.token);
      const tokens = await connect(t, player.token, clientId, 'game:play');
      await storesNothing(async () => {
        const wider = await tokenRequest(t, {
          grant_type: 'refresh_token',
          refresh_token: tokens.refresh_token,
          client_id: clientId,
          scope: 'game:play webhook:write',
        }).expect(400);
        expect(wider.body.error).toBe('invalid_scope');
        const unknown = await tokenRequest(t, {
          grant_type: 'refresh_token',
          refresh_token: tokens.refresh_token,
          client_id: clientId,
          scope: 'game:play admin',
        }).expect(400);
        expect(unknown.body.error).toBe('invalid_scope');
      });
      // Not consumed: the refresh still works, and was not counted as a reuse.
      await tokenRequest(t, {
        grant_type: 'refresh_token',
        refresh_token: tokens.refresh_token,
        client_id: clientId,
      }).expect(200);
      await me(tokens.access_token).expect(200);
    });

    it('a refresh token of another client is invalid_grant', async () => {
      const player = await registerPlayer(t);
      const clientId = await registerClient(t, player.token);
      const otherClient = await registerClient(t, player.token, [REDIRECT_URI], 'Other');
      const tokens = await connect(t, player.token, clientId);
      await storesNothing(async () => {
        const res = await tokenRequest(t, {
          grant_type: 'refresh_token',
          refresh_token: tokens.refresh_token,
          client_id: otherClient,
        }).expect(400);
        expect(res.body.error).toBe('invalid_grant');
      });
    });
  });

  describe('revocation (RFC 7009)', () => {
    it('revoking an access token makes it 401; the refresh token still works', async () => {
      const player = await registerPlayer(t);
      const clientId = await registerClient(t, player.token);
      const tokens = await connect(t, player.token, clientId);
      await me(tokens.access_token).expect(200);
      const res = await revokeRequest(t, { token: tokens.access_token, client_id: clientId }).expect(200);
      expect(res.text).toBe('');
      await me(tokens.access_token).expect(401);
      const gql = await t.http().post('/graphql').set(bearer(tokens.access_token)).send({ query: '{ me { id } }' });
      expect(gql.body.errors[0].extensions.code).toBe('UNAUTHENTICATED');
      await tokenRequest(t, {
        grant_type: 'refresh_token',
        refresh_token: tokens.refresh_token,
        client_id: clientId,
      }).expect(200);
    });

    it('revoking a refresh token ends its grant: its access tokens get 401', async () => {
      const player = await registerPlayer(t);
      const clientId = await registerClient(t, player.token);
      const tokens = await connect(t, player.token, clientId);
      await revokeRequest(t, {
        token: tokens.refresh_token,
        token_type_hint: 'refresh_token',
        client_id: clientId,
      }).expect(200);
      await me(tokens.access_token).expect(401);
      const res = await tokenRequest(t, {
        grant_type: 'refresh_token',
        refresh_token: tokens.refresh_token,
        client_id: clientId,
      }).expect(400);
      expect(res.body.error).toBe('invalid_grant');
    });

    it("an unknown token, or another client's, is answered 200 and revokes nothing", async () => {
      const player = await registerPlayer(t);
      const clientId = await registerClient(t, player.token);
      const otherClient = await registerClient(t, player.token, [REDIRECT_URI], 'Other');
      const tokens = await connect(t, player.token, clientId);
      await revokeRequest(t, { token: 'fd_nonsense', client_id: clientId }).expect(200);
      await revokeRequest(t, { token: tokens.access_token, client_id: otherClient }).expect(200);
      await revokeRequest(t, { token: player.token, client_id: clientId }).expect(200);
      await me(tokens.access_token).expect(200);
      await me(player.token).expect(200);
    });

    it('bad revocation forms get RFC errors', async () => {
      const player = await registerPlayer(t);
      const clientId = await registerClient(t, player.token);
      expect((await revokeRequest(t, { client_id: clientId }).expect(400)).body.error).toBe('invalid_request');
      expect((await revokeRequest(t, { token: 'x' }).expect(400)).body.error).toBe('invalid_request');
      expect((await revokeRequest(t, { token: 'x', client_id: 'fdc_unknown' }).expect(401)).body.error).toBe(
        'invalid_client',
      );
      const json = await t.http().post('/oauth/revoke').send({ token: 'x', client_id: clientId }).expect(400);
      expect(json.body.error).toBe('invalid_request');
    });

    it('deleting a client ends every token it was given', async () => {
      const player = await registerPlayer(t);
      const clientId = await registerClient(t, player.token);
      const tokens = await connect(t, player.token, clientId);
      const listed = await t.http().get('/v1/oauth/clients').set(bearer(player.token)).expect(200);
      expect(listed.body.items).toEqual([
        { clientId, name: 'Dice Stats', redirectUris: [REDIRECT_URI], createdAt: expect.any(String) },
      ]);
      await t.http().delete(`/v1/oauth/clients/${clientId}`).set(bearer(player.token)).expect(204);
      await me(tokens.access_token).expect(401);
      expect((await t.http().get('/v1/oauth/clients').set(bearer(player.token)).expect(200)).body.items).toEqual([]);
      const res = await tokenRequest(t, {
        grant_type: 'refresh_token',
        refresh_token: tokens.refresh_token,
        client_id: clientId,
      }).expect(400);
      expect(res.body.error).toBe('invalid_client');
      // Another player cannot delete it; a deleted one is gone.
      const again = await t.http().delete(`/v1/oauth/clients/${clientId}`).set(bearer(player.token)).expect(404);
      expect(again.body.code).toBe('OAUTH_CLIENT_NOT_FOUND');
    });
  });

  describe('the apps a player connected', () => {
    it('are listed, and disconnecting one ends its tokens', async () => {
      const player = await registerPlayer(t);
      const clientId = await registerClient(t, player.token);
      const tokens = await connect(t, player.token, clientId, 'game:play');
      const listed = await t.http().get('/v1/oauth/grants').set(bearer(player.token)).expect(200);
      expect(listed.body.items).toEqual([
        {
          grantId: expect.any(String),
          clientId,
          clientName: 'Dice Stats',
          scopes: ['game:play'],
          createdAt: expect.any(String),
        },
      ]);
      const grantId = listed.body.items[0].grantId as string;
      // Not another player's, not with an OAuth token, not a malformed id: nothing revoked.
      const stranger = await registerPlayer(t);
      await storesNothing(async () => {
        const other = await t.http().delete(`/v1/oauth/grants/${grantId}`).set(bearer(stranger.token)).expect(404);
        expect(other.body.code).toBe('OAUTH_GRANT_NOT_FOUND');
        const scoped = await t
          .http()
          .delete(`/v1/oauth/grants/${grantId}`)
          .set(bearer(tokens.access_token))
          .expect(403);
        expect(scoped.body).toMatchObject({ code: 'INSUFFICIENT_SCOPE', requiredScope: '*' });
        await t.http().delete('/v1/oauth/grants/not-a-uuid').set(bearer(player.token)).expect(400);
      });
      await me(tokens.access_token).expect(200);

      await t.http().delete(`/v1/oauth/grants/${grantId}`).set(bearer(player.token)).expect(204);
      await me(tokens.access_token).expect(401);
      const res = await tokenRequest(t, {
        grant_type: 'refresh_token',
        refresh_token: tokens.refresh_token,
        client_id: clientId,
      }).expect(400);
      expect(res.body.error).toBe('invalid_grant');
      expect((await t.http().get('/v1/oauth/grants').set(bearer(player.token)).expect(200)).body.items).toEqual([]);
      const again = await t.http().delete(`/v1/oauth/grants/${grantId}`).set(bearer(player.token)).expect(404);
      expect(again.body.code).toBe('OAUTH_GRANT_NOT_FOUND');
    });
  });

  describe('over GraphQL', () => {
    it('registers, lists and deletes apps; lists and disconnects connected apps', async () => {
      const player = await registerPlayer(t);
      const registered = await gql(
        t,
        'mutation($input: RegisterOAuthClientInput!) { registerOAuthClient(input: $input) { clientId name redirectUris } }',
        { input: { name: 'Dice Stats', redirectUris: [REDIRECT_URI] } },
        player.token,
      );
      const clientId = registered.data?.registerOAuthClient.clientId as string;
      expect(registered.data?.registerOAuthClient).toEqual({
        clientId,
        name: 'Dice Stats',
        redirectUris: [REDIRECT_URI],
      });
      expect((await gql(t, '{ oauthClients { clientId } }', {}, player.token)).data?.oauthClients).toEqual([
        { clientId },
      ]);

      const tokens = await connect(t, player.token, clientId, 'game:play');
      const grants = await gql(t, '{ oauthGrants { grantId clientName scopes } }', {}, player.token);
      expect(grants.data?.oauthGrants).toEqual([
        { grantId: expect.any(String), clientName: 'Dice Stats', scopes: ['game:play'] },
      ]);
      // An OAuth token cannot manage apps.
      const scoped = await gql(t, '{ oauthGrants { grantId } }', {}, tokens.access_token);
      expect(scoped.errors?.[0].extensions).toMatchObject({ code: 'INSUFFICIENT_SCOPE', requiredScope: '*' });
      const bad = await gql(t, 'mutation { disconnectOAuthApp(grantId: "nope") }', {}, player.token);
      expect(bad.errors?.[0].extensions?.code).toBe('VALIDATION_FAILED');
      const badUri = await gql(
        t,
        'mutation($input: RegisterOAuthClientInput!) { registerOAuthClient(input: $input) { clientId } }',
        { input: { name: 'x', redirectUris: ['http://app.example/cb'] } },
        player.token,
      );
      expect(badUri.errors?.[0].extensions?.code).toBe('INVALID_REDIRECT_URI');

      const disconnected = await gql(
        t,
        'mutation($id: ID!) { disconnectOAuthApp(grantId: $id) }',
        { id: grants.data?.oauthGrants[0].grantId },
        player.token,
      );
      expect(disconnected.data?.disconnectOAuthApp).toBe(true);
      await me(tokens.access_token).expect(401);
      const deleted = await gql(
        t,
        'mutation($id: ID!) { deleteOAuthClient(clientId: $id) }',
        { id: clientId },
        player.token,
      );
      expect(deleted.data?.deleteOAuthClient).toBe(true);
      expect((await gql(t, '{ oauthClients { clientId } }', {}, player.token)).data?.oauthClients).toEqual([]);
      const again = await gql(
        t,
        'mutation($id: ID!) { deleteOAuthClient(clientId: $id) }',
        { id: clientId },
        player.token,
      );
      expect(again.errors?.[0].extensions?.code).toBe('OAUTH_CLIENT_NOT_FOUND');
    });
  });

  describe('bad inputs get their error and store nothing', () => {
    let player: Awaited<ReturnType<typeof registerPlayer>>;
    let clientId: string;
    beforeAll(async () => {
      player = await registerPlayer(t, 'Bad');
      clientId = await registerClient(t, player.token);
    });

    const exchange = (code: string, verifier: string, over: Record<string, string> = {}) =>
      tokenRequest(t, {
        grant_type: 'authorization_code',
        code,
        redirect_uri: REDIRECT_URI,
        client_id: clientId,
        code_verifier: verifier,
        ...over,
      });

    it('a replayed code is invalid_grant, and revokes the tokens the first exchange gave', async () => {
      const p = pkce();
      const code = await approvedCode(t, player.token, authorizationQuery(clientId, p));
      const first = await exchange(code, p.verifier).expect(200);
      await storesNothing(async () => {
        const replay = await exchange(code, p.verifier).expect(400);
        expect(replay.body.error).toBe('invalid_grant');
      });
      await me(first.body.access_token).expect(401);
    });

    it('an expired code is invalid_grant', async () => {
      const p = pkce();
      const code = await approvedCode(t, player.token, authorizationQuery(clientId, p));
      // Codes live 60 s: age this one instead of waiting.
      await pool.query(`UPDATE oauth_codes SET expires_at = now() - interval '1 second' WHERE code_hash = $1`, [
        hashToken(code),
      ]);
      await storesNothing(async () => {
        const res = await exchange(code, p.verifier).expect(400);
        expect(res.body).toEqual({ error: 'invalid_grant', error_description: expect.stringContaining('expired') });
      });
    });

    it('a wrong PKCE verifier is invalid_grant and uses the code up (no guessing)', async () => {
      const p = pkce();
      const code = await approvedCode(t, player.token, authorizationQuery(clientId, p));
      await storesNothing(async () => {
        const wrong = await exchange(code, pkce().verifier).expect(400);
        expect(wrong.body.error).toBe('invalid_grant');
        const missing = await tokenRequest(t, {
          grant_type: 'authorization_code',
          code,
          redirect_uri: REDIRECT_URI,
          client_id: clientId,
        }).expect(400);
        expect(missing.body.error).toBe('invalid_grant');
      });
      // The right verifier after a wrong one: the code is spent.
      expect((await exchange(code, p.verifier).expect(400)).body.error).toBe('invalid_grant');
    });

    it('a code of another client is invalid_grant', async () => {
      const otherClient = await registerClient(t, player.token, [REDIRECT_URI], 'Other');
      const p = pkce();
      const code = await approvedCode(t, player.token, authorizationQuery(clientId, p));
      await storesNothing(async () => {
        const res = await exchange(code, p.verifier, { client_id: otherClient }).expect(400);
        expect(res.body.error).toBe('invalid_grant');
      });
    });

    it('a redirect-URI mismatch: shown as an error on the consent page, never redirected; refused at the token endpoint', async () => {
      const registered = await registerClient(t, player.token, [REDIRECT_URI, 'http://127.0.0.1:8123/cb']);
      const p = pkce();
      await storesNothing(async () => {
        for (const uri of [
          'https://app.example/callback/',
          'https://app.example/callback?x=1',
          'https://evil.example/callback',
          'HTTPS://app.example/callback',
          'http://127.0.0.1:8124/cb',
        ]) {
          const shown = await t
            .http()
            .get('/v1/oauth/authorization')
            .query(authorizationQuery(registered, p, { redirect_uri: uri }))
            .expect(400);
          expect(shown.body.code).toBe('OAUTH_REDIRECT_URI_MISMATCH');
          const decided = await decide(
            t,
            player.token,
            authorizationQuery(registered, p, { redirect_uri: uri }),
          ).expect(400);
          expect(decided.body.code).toBe('OAUTH_REDIRECT_URI_MISMATCH');
          expect(decided.body.redirectTo).toBeUndefined();
        }
        const missing = await decide(t, player.token, authorizationQuery(registered, p, { redirect_uri: undefined }));
        expect(missing.status).toBe(400);
        expect(missing.body.code).toBe('OAUTH_REDIRECT_URI_MISMATCH');
      });
      // At the token endpoint, the redirect URI must be the one of the authorization request.
      const code = await approvedCode(t, player.token, authorizationQuery(registered, p));
      const res = await tokenRequest(t, {
        grant_type: 'authorization_code',
        code,
        redirect_uri: 'http://127.0.0.1:8123/cb',
        client_id: registered,
        code_verifier: p.verifier,
      }).expect(400);
      expect(res.body.error).toBe('invalid_request');
    });

    it('an unknown client is an error on the consent page', async () => {
      await storesNothing(async () => {
        for (const unknown of ['fdc_nobody', 'fdc_AAAAAAAAAAAAAAAAAAAAAA', 'x\u0000y']) {
          const res = await t
            .http()
            .get('/v1/oauth/authorization')
            .query(authorizationQuery(unknown, pkce()))
            .expect(404);
          expect(res.body.code).toBe('OAUTH_CLIENT_NOT_FOUND');
          expect((await decide(t, player.token, authorizationQuery(unknown, pkce())).expect(404)).body.code).toBe(
            'OAUTH_CLIENT_NOT_FOUND',
          );
        }
      });
    });

    it('an unknown or missing scope is OAUTH_INVALID_SCOPE', async () => {
      await storesNothing(async () => {
        for (const scope of ['game:play admin', 'game:*', '', undefined]) {
          const q = authorizationQuery(clientId, pkce(), { scope });
          const shown = await t.http().get('/v1/oauth/authorization').query(q).expect(400);
          expect(shown.body.code).toBe('OAUTH_INVALID_SCOPE');
          expect((await decide(t, player.token, q).expect(400)).body.code).toBe('OAUTH_INVALID_SCOPE');
        }
      });
    });

    it('PKCE is required, with S256 only: plain, a missing method or challenge are refused', async () => {
      const p = pkce();
      await storesNothing(async () => {
        for (const over of [
          { code_challenge_method: 'plain', code_challenge: p.verifier },
          { code_challenge_method: 'plain' },
          { code_challenge_method: undefined },
          { code_challenge: undefined },
          { code_challenge: 'short' },
          { code_challenge_method: 'S512' },
        ]) {
          const q = authorizationQuery(clientId, p, over);
          const shown = await t.http().get('/v1/oauth/authorization').query(q).expect(400);
          expect(shown.body.code).toBe('OAUTH_INVALID_REQUEST');
          expect((await decide(t, player.token, q).expect(400)).body.code).toBe('OAUTH_INVALID_REQUEST');
        }
      });
    });

    it('a missing state is refused (OAUTH_INVALID_REQUEST), as a response_type other than code', async () => {
      await storesNothing(async () => {
        for (const over of [
          { state: undefined },
          { state: 'tab\there' },
          { response_type: 'token' },
          { response_type: undefined },
        ]) {
          const q = authorizationQuery(clientId, pkce(), over);
          const shown = await t.http().get('/v1/oauth/authorization').query(q).expect(400);
          expect(shown.body.code).toBe('OAUTH_INVALID_REQUEST');
          expect((await decide(t, player.token, q).expect(400)).body.code).toBe('OAUTH_INVALID_REQUEST');
        }
      });
    });

    it('bad token forms get RFC 6749 §5.2 errors', async () => {
      const p = pkce();
      const code = await approvedCode(t, player.token, authorizationQuery(clientId, p));
      await storesNothing(async () => {
        const cases: Array<[Record<string, string>, number, string]> = [
          [
            { grant_type: 'password', username: 'a', password: 'b', client_id: clientId },
            400,
            'unsupported_grant_type',
          ],
          [{ grant_type: 'client_credentials', client_id: clientId }, 400, 'unsupported_grant_type'],
          [
            { code, client_id: clientId, code_verifier: p.verifier, redirect_uri: REDIRECT_URI },
            400,
            'invalid_request',
          ],
          [
            { grant_type: 'authorization_code', code, code_verifier: p.verifier, redirect_uri: REDIRECT_URI },
            400,
            'invalid_client',
          ],
          [
            {
              grant_type: 'authorization_code',
              code,
              client_id: 'fdc_nobody',
              code_verifier: p.verifier,
              redirect_uri: REDIRECT_URI,
            },
            400,
            'invalid_client',
          ],
          [
            {
              grant_type: 'authorization_code',
              code,
              client_id: clientId,
              client_secret: 's',
              code_verifier: p.verifier,
              redirect_uri: REDIRECT_URI,
            },
            400,
            'invalid_client',
          ],
          [
            { grant_type: 'authorization_code', client_id: clientId, code_verifier: p.verifier },
            400,
            'invalid_request',
          ],
          [
            {
              grant_type: 'authorization_code',
              code: 'nope',
              client_id: clientId,
              code_verifier: p.verifier,
              redirect_uri: REDIRECT_URI,
            },
            400,
            'invalid_grant',
          ],
          [{ grant_type: 'refresh_token', client_id: clientId }, 400, 'invalid_request'],
          [{ grant_type: 'refresh_token', refresh_token: 'fdr_nope', client_id: clientId }, 400, 'invalid_grant'],
          [
            { grant_type: 'refresh_token', refresh_token: 'x', client_id: clientId, scope: 'game:play' },
            400,
            'invalid_grant',
          ],
        ];
        for (const [form, status, error] of cases) {
          const res = await tokenRequest(t, form);
          expect({ form, status: res.status, error: res.body.error }).toEqual({ form, status, error });
        }
        // A parameter twice (RFC 6749 §3.1), JSON instead of a form, no body.
        const twice = await t
          .http()
          .post('/oauth/token')
          .set('content-type', 'application/x-www-form-urlencoded')
          .send(`grant_type=authorization_code&code=${code}&code=${code}&client_id=${clientId}`)
          .expect(400);
        expect(twice.body.error).toBe('invalid_request');
        const json = await t
          .http()
          .post('/oauth/token')
          .send({ grant_type: 'authorization_code', code, client_id: clientId, code_verifier: p.verifier })
          .expect(400);
        expect(json.body.error).toBe('invalid_request');
        const empty = await t.http().post('/oauth/token').expect(400);
        expect(empty.body.error).toBe('invalid_request');
      });
      // None of these spent the code.
      await tokenRequest(t, {
        grant_type: 'authorization_code',
        code,
        redirect_uri: REDIRECT_URI,
        client_id: clientId,
        code_verifier: p.verifier,
      }).expect(200);
    });

    it('client registration refuses bad redirect URIs and names', async () => {
      await storesNothing(async () => {
        for (const redirectUris of [
          [],
          ['http://app.example/callback'],
          ['https://app.example/callback#frag'],
          ['/callback'],
          ['https://user:pw@app.example/cb'],
          ['javascript:alert(1)'],
          Array.from({ length: 11 }, (_, i) => `https://app.example/${i}`),
        ]) {
          const res = await t
            .http()
            .post('/v1/oauth/clients')
            .set(bearer(player.token))
            .send({ name: 'x', redirectUris });
          expect({ redirectUris, status: res.status }).toEqual({ redirectUris, status: 400 });
          expect(['INVALID_REDIRECT_URI', 'VALIDATION_FAILED']).toContain(res.body.code);
        }
        for (const body of [
          { name: '', redirectUris: [REDIRECT_URI] },
          { name: 'x'.repeat(61), redirectUris: [REDIRECT_URI] },
          { name: 'x' },
          { name: 'x', redirectUris: [1] },
        ]) {
          const res = await t.http().post('/v1/oauth/clients').set(bearer(player.token)).send(body).expect(400);
          expect(res.body.code).toBe('VALIDATION_FAILED');
        }
        await t
          .http()
          .post('/v1/oauth/clients')
          .send({ name: 'x', redirectUris: [REDIRECT_URI] })
          .expect(401);
      });
    });
  });
});
