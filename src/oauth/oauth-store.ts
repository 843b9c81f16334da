/**
 * The @node-oauth/oauth2-server model over our tables (docs/oauth.md, decision 0134): the library
 * runs the protocol (code exchange, PKCE S256 verification, redirect-URI and client checks,
 * refresh), this class stores and finds what it asks for. Codes and tokens are kept as SHA-256
 * hashes; an access token is a `sessions` row of kind 'oauth', which PlayersService.authenticate
 * accepts like any bearer token, with its scopes.
 *
 * What the library does not do is here too: a refresh token used twice, or a code replayed,
 * revokes the whole grant (its family: every refresh and access token issued from one consent).
 */
import { randomBytes, randomUUID } from 'node:crypto';
import type { Pool, PoolClient } from 'pg';
import OAuth2Server from '@node-oauth/oauth2-server';
import { generateToken, hashToken } from '../players/tokens';
import type { RegisteredClient } from './authorization-request';

/** The grants a client may use: public clients, authorization code with PKCE, and refresh. */
export const CLIENT_GRANTS = ['authorization_code', 'refresh_token'];

/** Who the library passes around as `user`: the player, and where the tokens come from. */
interface OAuthUser {
  id: string;
  /** The code being exchanged (authorization_code grant): its grant is created with the tokens. */
  codeHash?: string;
  /** The grant a refresh token belongs to (refresh_token grant). */
  grantId?: string;
}

const REFRESH_TOKEN_PREFIX = 'fdr_';

export const looksLikeRefreshToken = (value: string) => /^fdr_[A-Za-z0-9_-]{43}$/.test(value);

/** A client id: "fdc_" + 16 random bytes in base64url (OAuthService.registerClient). */
export const looksLikeClientId = (value: string) => /^fdc_[A-Za-z0-9_-]{22}$/.test(value);

export async function inTransaction<T>(pool: Pool, work: (db: PoolClient) => Promise<T>): Promise<T> {
  const db = await pool.connect();
  try {
    await db.query('BEGIN');
    const result = await work(db);
    await db.query('COMMIT');
    return result;
  } catch (err) {
    await db.query('ROLLBACK').catch(() => undefined);
    throw err;
  } finally {
    db.release();
  }
}

export class OAuthStore implements OAuth2Server.AuthorizationCodeModel, OAuth2Server.RefreshTokenModel {
  constructor(
    private readonly pool: Pool,
    /** Revokes a grant and everything issued from it (OAuthService.revokeGrant). */
    private readonly revokeGrant: (grantId: string) => Promise<void>,
  ) {}

  async findClient(clientId: string): Promise<RegisteredClient | null> {
    if (!looksLikeClientId(clientId)) return null;
    const { rows } = await this.pool.query<{ id: string; name: string; redirect_uris: string[] }>(
      'SELECT id, name, redirect_uris FROM oauth_clients WHERE id = $1 AND deleted_at IS NULL',
      [clientId],
    );
    const row = rows[0];
    return row ? { id: row.id, name: row.name, redirectUris: row.redirect_uris } : null;
  }

  /** Public clients have no secret: one that sends a secret is not a client of ours. */
  async getClient(clientId: string, clientSecret: string | null): Promise<OAuth2Server.Client | false> {
    if (clientSecret) return false;
    const client = await this.findClient(clientId);
    return client ? { ...client, grants: CLIENT_GRANTS } : false;
  }

  validateScope(_user: OAuth2Server.User, _client: OAuth2Server.Client, scope?: string[]): Promise<string[] | false> {
    // The service has checked every name against the vocabulary before the library runs.
    return Promise.resolve(scope && scope.length > 0 ? scope : false);
  }

  validateRedirectUri(redirectUri: string, client: OAuth2Server.Client): Promise<boolean> {
    const uris = Array.isArray(client.redirectUris) ? client.redirectUris : [client.redirectUris];
    return Promise.resolve(uris.includes(redirectUri));
  }

  generateAuthorizationCode(): Promise<string> {
    return Promise.resolve(randomBytes(32).toString('base64url'));
  }

  generateAccessToken(): Promise<string> {
    return Promise.resolve(generateToken());
  }

  generateRefreshToken(): Promise<string> {
    return Promise.resolve(REFRESH_TOKEN_PREFIX + randomBytes(32).toString('base64url'));
  }

  async saveAuthorizationCode(
    code: Pick<
      OAuth2Server.AuthorizationCode,
      'authorizationCode' | 'expiresAt' | 'redirectUri' | 'scope' | 'codeChallenge' | 'codeChallengeMethod'
    >,
    client: OAuth2Server.Client,
    user: OAuth2Server.User,
  ): Promise<OAuth2Server.AuthorizationCode> {
    await this.pool.query(
      `INSERT INTO oauth_codes (code_hash, client_id, player_id, redirect_uri, scopes, code_challenge,
                                code_challenge_method, expires_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
      [
        hashToken(code.authorizationCode),
        client.id,
        (user as OAuthUser).id,
        code.redirectUri,
        code.scope,
        code.codeChallenge,
        code.codeChallengeMethod,
        code.expiresAt,
      ],
    );
    return { ...code, client, user };
  }

  async getAuthorizationCode(authorizationCode: string): Promise<OAuth2Server.AuthorizationCode | false> {
    const codeHash = hashToken(authorizationCode);
    const { rows } = await this.pool.query<{
      client_id: string;
      player_id: string;
      redirect_uri: string;
      scopes: string[];
      code_challenge: string;
      code_challenge_method: string;
      expires_at: Date;
      used_at: Date | null;
      grant_id: string | null;
      name: string;
      redirect_uris: string[];
    }>(
      `SELECT c.client_id, c.player_id, c.redirect_uri, c.scopes, c.code_challenge, c.code_challenge_method,
              c.expires_at, c.used_at, c.grant_id, k.name, k.redirect_uris
         FROM oauth_codes c JOIN oauth_clients k ON k.id = c.client_id AND k.deleted_at IS NULL
        WHERE c.code_hash = $1`,
      [codeHash],
    );
    const row = rows[0];
    if (!row) return false;
    if (row.used_at) {
      // A replayed code: whoever holds it may have stolen it. RFC 6749 §4.1.2: revoke what it gave.
      if (row.grant_id) await this.revokeGrant(row.grant_id);
      return false;
    }
    return {
      authorizationCode,
      expiresAt: row.expires_at,
      redirectUri: row.redirect_uri,
      scope: row.scopes,
      codeChallenge: row.code_challenge,
      codeChallengeMethod: row.code_challenge_method,
      client: { id: row.client_id, name: row.name, redirectUris: row.redirect_uris, grants: CLIENT_GRANTS },
      user: { id: row.player_id, codeHash } satisfies OAuthUser,
    };
  }

  /** Single use: the first exchange marks the code used; any later one is a replay. */
  async revokeAuthorizationCode(code: OAuth2Server.AuthorizationCode): Promise<boolean> {
    const { rowCount } = await this.pool.query(
      'UPDATE oauth_codes SET used_at = now() WHERE code_hash = $1 AND used_at IS NULL',
      [hashToken(code.authorizationCode)],
    );
    return rowCount === 1;
  }

  async getRefreshToken(refreshToken: string): Promise<OAuth2Server.RefreshToken | false> {
    const row = await this.findRefreshToken(refreshToken);
    if (!row || row.grant_revoked_at) return false;
    if (row.used_at) {
      // Reuse of a rotated refresh token (OAuth 2.1 §4.3.1): end the whole family.
      await this.revokeGrant(row.grant_id);
      return false;
    }
    return {
      refreshToken,
      refreshTokenExpiresAt: row.expires_at,
      scope: row.scopes,
      client: { id: row.client_id, name: row.name, redirectUris: row.redirect_uris, grants: CLIENT_GRANTS },
      user: { id: row.player_id, grantId: row.grant_id } satisfies OAuthUser,
    };
  }

  /** The refresh token's row with its grant and client (null: unknown, or its client was deleted). */
  async findRefreshToken(refreshToken: string) {
    if (!looksLikeRefreshToken(refreshToken)) return null;
    const { rows } = await this.pool.query<{
      grant_id: string;
      scopes: string[];
      expires_at: Date;
      used_at: Date | null;
      grant_revoked_at: Date | null;
      client_id: string;
      player_id: string;
      name: string;
      redirect_uris: string[];
    }>(
      `SELECT r.grant_id, r.scopes, r.expires_at, r.used_at, g.revoked_at AS grant_revoked_at, g.client_id,
              g.player_id, k.name, k.redirect_uris
         FROM oauth_refresh_tokens r
         JOIN oauth_grants g ON g.id = r.grant_id
         JOIN oauth_clients k ON k.id = g.client_id AND k.deleted_at IS NULL
        WHERE r.token_hash = $1`,
      [hashToken(refreshToken)],
    );
    return rows[0] ?? null;
  }

  /** Rotation: a refresh token is exchanged once; losing that race is a reuse too. */
  async revokeToken(token: OAuth2Server.RefreshToken): Promise<boolean> {
    const { rowCount } = await this.pool.query(
      'UPDATE oauth_refresh_tokens SET used_at = now() WHERE token_hash = $1 AND used_at IS NULL',
      [hashToken(token.refreshToken)],
    );
    if (rowCount === 1) return true;
    await this.revokeGrant((token.user as OAuthUser).grantId as string);
    return false;
  }

  /**
   * Stores an access token (a sessions row of kind 'oauth') and its refresh token, in the grant
   * of the code (created now) or of the refresh token. A grant revoked meanwhile gets nothing.
   */
  async saveToken(token: OAuth2Server.Token, client: OAuth2Server.Client, user: OAuth2Server.User) {
    const who = user as OAuthUser;
    const scopes = token.scope ?? [];
    const saved = await inTransaction(this.pool, async (db) => {
      let grantId = who.grantId;
      if (who.codeHash) {
        grantId = randomUUID();
        await db.query('INSERT INTO oauth_grants (id, client_id, player_id, scopes) VALUES ($1, $2, $3, $4)', [
          grantId,
          client.id,
          who.id,
          scopes,
        ]);
        await db.query('UPDATE oauth_codes SET grant_id = $2 WHERE code_hash = $1', [who.codeHash, grantId]);
      } else {
        const { rows } = await db.query<{ revoked_at: Date | null }>(
          'SELECT revoked_at FROM oauth_grants WHERE id = $1 FOR UPDATE',
          [grantId],
        );
        if (!rows[0] || rows[0].revoked_at) return false;
      }
      const sessionId = randomUUID();
      await db.query(
        `INSERT INTO sessions (id, player_id, token_hash, label, scopes, kind, client_id, expires_at)
         VALUES ($1, $2, $3, $4, $5, 'oauth', $6, $7)`,
        [
          sessionId,
          who.id,
          hashToken(token.accessToken),
          String(client.name),
          scopes,
          client.id,
          token.accessTokenExpiresAt,
        ],
      );
      await db.query(
        `INSERT INTO oauth_refresh_tokens (token_hash, grant_id, session_id, scopes, expires_at)
         VALUES ($1, $2, $3, $4, $5)`,
        [hashToken(token.refreshToken as string), grantId, sessionId, scopes, token.refreshTokenExpiresAt],
      );
      return true;
    });
    if (!saved) throw new OAuth2Server.InvalidGrantError('Invalid grant: the grant was revoked');
    return { ...token, client, user };
  }

  /** Not used: bearer tokens are authenticated by PlayersService.authenticate, as every token. */
  getAccessToken(): Promise<false> {
    return Promise.resolve(false);
  }
}
