import { assertScope, FULL_TOKEN } from '../players/require-scope';
import { randomBytes } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import OAuth2Server from '@node-oauth/oauth2-server';
import { APP_CONFIG, type AppConfig } from '../config/config';
import { DomainException } from '../common/errors';
import { Pool } from 'pg';
import { PG_POOL } from '../database/pg-pool';
import { PlayersService } from '../players/players.service';
import type { AuthenticatedPlayer } from '../players/players.types';
import { TOKEN_SCOPES, type TokenScope } from '../players/scopes';
import { hashToken } from '../players/tokens';
import {
  checkAuthorization,
  checkRedirectUri,
  MAX_REDIRECT_URIS,
  parseScopes,
  type AuthorizationParams,
  type CheckedAuthorization,
} from './authorization-request';
import { CLIENT_GRANTS, inTransaction, looksLikeClientId, OAuthStore } from './oauth-store';

/** An authorization code is exchanged within a minute (RFC 6749 §4.1.2 recommends at most ten). */
const CODE_SECONDS = 60;
/** Refresh tokens live 30 days; every use rotates them. */
const REFRESH_TOKEN_SECONDS = 30 * 24 * 3600;
const MAX_CLIENTS_PER_PLAYER = 20;

export interface OAuthClientView {
  clientId: string;
  name: string;
  redirectUris: string[];
  createdAt: Date;
}

export interface OAuthGrantView {
  grantId: string;
  clientId: string;
  clientName: string;
  scopes: string[];
  createdAt: Date;
}

export interface ScopeView {
  name: TokenScope;
  description: string;
}

export interface AuthorizationView {
  clientId: string;
  clientName: string;
  redirectUri: string;
  /** The redirect URI's host, what the consent page shows the player. */
  redirectHost: string;
  scopes: ScopeView[];
  state: string;
}

/** What the token and revocation endpoints answer (RFC 6749 §5, RFC 7009 §2.2). */
export interface FormAnswer {
  status: number;
  body: Record<string, unknown> | null;
}

/** An RFC 6749 §5.2 error answer. */
const oauthError = (status: number, error: string, description: string): FormAnswer => ({
  status,
  body: { error, error_description: description },
});

/**
 * OAuth 2.1 for third-party apps (docs/oauth.md, decisions 0134 and 0135): client registration,
 * the consent decision, the token endpoint (the library's), revocation (RFC 7009) and
 * authorization-server metadata (RFC 8414).
 */
@Injectable()
export class OAuthService {
  private readonly store: OAuthStore;
  private readonly server: OAuth2Server;
  private readonly issuer: string;

  constructor(
    @Inject(PG_POOL) private readonly pool: Pool,
    private readonly players: PlayersService,
    @Inject(APP_CONFIG) config: AppConfig,
  ) {
    this.store = new OAuthStore(pool, (grantId) => this.revokeGrant(grantId));
    this.server = new OAuth2Server({
      model: this.store,
      accessTokenLifetime: config.OAUTH_ACCESS_TOKEN_SECONDS,
      refreshTokenLifetime: REFRESH_TOKEN_SECONDS,
      authorizationCodeLifetime: CODE_SECONDS,
      allowEmptyState: false,
      // Public clients (no secret), as Lichess's: PKCE proves the code's owner instead.
      requireClientAuthentication: { authorization_code: false, refresh_token: false },
      alwaysIssueNewRefreshToken: true,
    });
    this.issuer = config.OAUTH_ISSUER ?? `http://localhost:${config.PORT}`;
  }

  // --- clients ---

  async registerClient(owner: AuthenticatedPlayer, name: string, redirectUris: string[]): Promise<OAuthClientView> {
    requireFullAccess(owner);
    const trimmed = name.trim();
    if (redirectUris.length === 0 || redirectUris.length > MAX_REDIRECT_URIS)
      throw new DomainException('INVALID_REDIRECT_URI', `Register 1 to ${MAX_REDIRECT_URIS} redirect URIs`);
    redirectUris.forEach(checkRedirectUri);
    const uris = [...new Set(redirectUris)];
    const id = `fdc_${randomBytes(16).toString('base64url')}`;
    const row = await inTransaction(this.pool, async (db) => {
      // One registration at a time per player: the count below cannot be raced past.
      await db.query('SELECT id FROM players WHERE id = $1 FOR UPDATE', [owner.id]);
      const { rows: counted } = await db.query<{ n: number }>(
        'SELECT count(*)::int AS n FROM oauth_clients WHERE owner_id = $1 AND deleted_at IS NULL',
        [owner.id],
      );
      if (counted[0].n >= MAX_CLIENTS_PER_PLAYER)
        throw new DomainException('OAUTH_CLIENT_LIMIT_REACHED', `At most ${MAX_CLIENTS_PER_PLAYER} clients`);
      const { rows } = await db.query<{ created_at: Date }>(
        'INSERT INTO oauth_clients (id, owner_id, name, redirect_uris) VALUES ($1, $2, $3, $4) RETURNING created_at',
        [id, owner.id, trimmed, uris],
      );
      return rows[0];
    });
    return { clientId: id, name: trimmed, redirectUris: uris, createdAt: row.created_at };
  }

  async listClients(owner: AuthenticatedPlayer): Promise<OAuthClientView[]> {
    requireFullAccess(owner);
    const { rows } = await this.pool.query<{
      id: string;
      name: string;
      redirect_uris: string[];
      created_at: Date;
    }>(
      `SELECT id, name, redirect_uris, created_at FROM oauth_clients
        WHERE owner_id = $1 AND deleted_at IS NULL ORDER BY created_at, id`,
      [owner.id],
    );
    return rows.map((r) => ({ clientId: r.id, name: r.name, redirectUris: r.redirect_uris, createdAt: r.created_at }));
  }

  /** Deletes a client of the caller's; every token it was given stops working at once. */
  async deleteClient(owner: AuthenticatedPlayer, clientId: string): Promise<void> {
    requireFullAccess(owner);
    if (!looksLikeClientId(clientId))
      throw new DomainException('OAUTH_CLIENT_NOT_FOUND', 'No such OAuth client of yours');
    const { rowCount } = await this.pool.query(
      'UPDATE oauth_clients SET deleted_at = now() WHERE id = $1 AND owner_id = $2 AND deleted_at IS NULL',
      [clientId, owner.id],
    );
    if (rowCount !== 1) throw new DomainException('OAUTH_CLIENT_NOT_FOUND', 'No such OAuth client of yours');
    const { rows } = await this.pool.query<{ id: string }>(
      'SELECT id FROM oauth_grants WHERE client_id = $1 AND revoked_at IS NULL',
      [clientId],
    );
    for (const grant of rows) await this.revokeGrant(grant.id);
  }

  // --- the apps a player connected ---

  /** The grants of the player still in force: an app that can act for them now or after a refresh. */
  async listGrants(player: AuthenticatedPlayer): Promise<OAuthGrantView[]> {
    requireFullAccess(player);
    const { rows } = await this.pool.query<{
      id: string;
      client_id: string;
      name: string;
      scopes: string[];
      created_at: Date;
    }>(
      `SELECT g.id, g.client_id, k.name, g.scopes, g.created_at
         FROM oauth_grants g JOIN oauth_clients k ON k.id = g.client_id AND k.deleted_at IS NULL
        WHERE g.player_id = $1 AND g.revoked_at IS NULL
          AND EXISTS (SELECT 1 FROM oauth_refresh_tokens r
                       WHERE r.grant_id = g.id AND r.used_at IS NULL AND r.expires_at > now())
        ORDER BY g.created_at, g.id`,
      [player.id],
    );
    return rows.map((r) => ({
      grantId: r.id,
      clientId: r.client_id,
      clientName: r.name,
      scopes: r.scopes,
      createdAt: r.created_at,
    }));
  }

  /** Disconnects an app: its tokens of this grant stop working at once. */
  async revokeGrantOf(player: AuthenticatedPlayer, grantId: string): Promise<void> {
    requireFullAccess(player);
    const { rowCount } = await this.pool.query(
      'SELECT 1 FROM oauth_grants WHERE id = $1 AND player_id = $2 AND revoked_at IS NULL',
      [grantId, player.id],
    );
    if (rowCount !== 1) throw new DomainException('OAUTH_GRANT_NOT_FOUND', 'No such connected app of yours');
    await this.revokeGrant(grantId);
  }

  // --- the consent page ---

  /** What the consent page shows: the app, where it sends the player back, the scopes asked. */
  async describeAuthorization(params: AuthorizationParams): Promise<AuthorizationView> {
    const checked = await this.check(params);
    return {
      clientId: checked.client.id,
      clientName: checked.client.name,
      redirectUri: checked.redirectUri,
      redirectHost: new URL(checked.redirectUri).host,
      scopes: checked.scopes.map((name) => ({ name, description: TOKEN_SCOPES[name] })),
      state: checked.state,
    };
  }

  /**
   * The player's answer on the consent page: the URL to send the browser to, with a code and the
   * state (approved) or error=access_denied and the state (denied). The library issues the code.
   */
  async decide(player: AuthenticatedPlayer, params: AuthorizationParams, approved: boolean): Promise<string> {
    requireFullAccess(player);
    const checked = await this.check(params);
    const request = new OAuth2Server.Request({
      method: 'POST',
      headers: {},
      query: {},
      body: {
        response_type: 'code',
        client_id: checked.client.id,
        redirect_uri: checked.redirectUri,
        scope: checked.scopes.join(' '),
        state: checked.state,
        code_challenge: checked.codeChallenge,
        code_challenge_method: 'S256',
        allowed: approved ? 'true' : 'false',
      },
    });
    const response = new OAuth2Server.Response({ headers: {} });
    try {
      await this.server.authorize(request, response, {
        authenticateHandler: { handle: () => ({ id: player.id }) },
      });
    } catch (err) {
      if (!(err instanceof OAuth2Server.AccessDeniedError)) throw err;
    }
    const location = response.get('location') as string | undefined;
    if (!location) throw new Error('the authorization server gave no redirect');
    return location;
  }

  private async check(params: AuthorizationParams): Promise<CheckedAuthorization> {
    const client = params.clientId ? await this.store.findClient(params.clientId) : null;
    return checkAuthorization(params, client);
  }

  // --- the token endpoint (RFC 6749 §3.2), the revocation endpoint (RFC 7009) ---

  /** POST /oauth/token: the form, checked for shape here, then the library's token handler. */
  async token(form: Record<string, string>, headers: Record<string, string>): Promise<FormAnswer> {
    // The grant type first (RFC 6749 §5.2): the library would ask for a client secret before it
    // says that a password or client-credentials grant is not offered here.
    if (!form.grant_type) return oauthError(400, 'invalid_request', 'Missing parameter: `grant_type`');
    if (!CLIENT_GRANTS.includes(form.grant_type))
      return oauthError(
        400,
        'unsupported_grant_type',
        'Unsupported grant type: use authorization_code or refresh_token',
      );
    if (form.grant_type === 'refresh_token' && form.scope !== undefined) {
      // Narrowing is allowed, widening is not (RFC 6749 §6). The library checks this only after it
      // has rotated the refresh token: checked first here, so a refused request changes nothing.
      const refused = await this.refreshScopeRefusal(form.refresh_token, form.scope);
      if (refused) return refused;
    }
    const request = new OAuth2Server.Request({ method: 'POST', headers, query: {}, body: form });
    const response = new OAuth2Server.Response({ headers: {} });
    try {
      await this.server.token(request, response);
      return { status: 200, body: response.body as Record<string, unknown> };
    } catch (err) {
      if (!(err instanceof OAuth2Server.OAuthError) || err instanceof OAuth2Server.ServerError) throw err;
      return oauthError(err.code, err.name, err.message);
    }
  }

  private async refreshScopeRefusal(refreshToken: string | undefined, scope: string): Promise<FormAnswer | null> {
    let asked: TokenScope[];
    try {
      asked = parseScopes(scope);
    } catch (err) {
      return oauthError(400, 'invalid_scope', (err as Error).message);
    }
    const row = refreshToken ? await this.store.findRefreshToken(refreshToken) : null;
    if (!row) return null; // the library answers invalid_grant
    const wider = asked.filter((s) => !row.scopes.includes(s));
    return wider.length > 0
      ? oauthError(400, 'invalid_scope', `Invalid scope: not granted before: ${wider.join(' ')}`)
      : null;
  }

  /**
   * POST /oauth/revoke (RFC 7009): a refresh token revokes its whole grant, an access token
   * itself. An unknown token, or one of another client, is answered 200 all the same (§2.2).
   */
  async revoke(form: Record<string, string>): Promise<FormAnswer> {
    if (!form.token) return oauthError(400, 'invalid_request', 'Missing parameter: `token`');
    if (!form.client_id) return oauthError(400, 'invalid_request', 'Missing parameter: `client_id`');
    const client = await this.store.findClient(form.client_id);
    if (!client) return oauthError(401, 'invalid_client', 'Invalid client: client is invalid');
    const refresh = await this.store.findRefreshToken(form.token);
    if (refresh && refresh.client_id === client.id) {
      await this.revokeGrant(refresh.grant_id);
      return { status: 200, body: null };
    }
    const { rows } = await this.pool.query<{ player_id: string }>(
      `UPDATE sessions SET revoked_at = now()
        WHERE token_hash = $1 AND kind = 'oauth' AND client_id = $2 AND revoked_at IS NULL
       RETURNING player_id`,
      [hashToken(form.token), client.id],
    );
    if (rows[0]) this.players.forgetPlayer(rows[0].player_id);
    return { status: 200, body: null };
  }

  /** GET /.well-known/oauth-authorization-server (RFC 8414). */
  metadata(): Record<string, unknown> {
    return {
      issuer: this.issuer,
      authorization_endpoint: `${this.issuer}/oauth/authorize`,
      token_endpoint: `${this.issuer}/oauth/token`,
      revocation_endpoint: `${this.issuer}/oauth/revoke`,
      scopes_supported: Object.keys(TOKEN_SCOPES),
      response_types_supported: ['code'],
      response_modes_supported: ['query'],
      grant_types_supported: ['authorization_code', 'refresh_token'],
      code_challenge_methods_supported: ['S256'],
      token_endpoint_auth_methods_supported: ['none'],
      revocation_endpoint_auth_methods_supported: ['none'],
      service_documentation: `${this.issuer}/docs`,
    };
  }

  /**
   * Revokes a grant: its refresh tokens stop at once (getRefreshToken checks the grant), its
   * access tokens too, and this instance forgets the player's cached tokens and tells the
   * player's streams to check theirs.
   */
  async revokeGrant(grantId: string): Promise<void> {
    const playerId = await inTransaction(this.pool, async (db) => {
      const { rows } = await db.query<{ player_id: string }>(
        'UPDATE oauth_grants SET revoked_at = coalesce(revoked_at, now()) WHERE id = $1 RETURNING player_id',
        [grantId],
      );
      await db.query(
        `UPDATE sessions SET revoked_at = now()
          WHERE id IN (SELECT session_id FROM oauth_refresh_tokens WHERE grant_id = $1) AND revoked_at IS NULL`,
        [grantId],
      );
      return rows[0]?.player_id;
    });
    if (playerId) this.players.forgetPlayer(playerId);
  }
}

/**
 * Registering apps and consenting to them takes the player's own authority, never a scoped token's
 * (an app must not approve itself more scopes): the routes declare FULL_TOKEN, and the service
 * checks it again for any other caller.
 */
function requireFullAccess(player: AuthenticatedPlayer): void {
  assertScope(player.scopes, FULL_TOKEN);
}
