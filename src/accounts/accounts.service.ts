/**
 * Accounts (docs/accounts.md): a guest (a registered player) claims a username and adds
 * credentials (a password, passkeys); signing in with one of them on another device opens a
 * session there: a bearer token of the same form as the player's own, stored hashed, accepted
 * by the AuthGuard beside it. Credential changes are commands of the account aggregate through
 * the one command handler; sessions, sign-in attempts and the security log are plain rows.
 */
import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import type { Pool } from 'pg';
import { Inject } from '@nestjs/common';
import {
  checkPasskeyName,
  checkUsername,
  credentialCount,
  isClaimed,
  usernameKey,
  type AccountCommand,
} from '@fairdice/core/rules/account';
import { CommandHandler } from '../commands/command-handler';
import { DomainException } from '../common/errors';
import { cursorPage, decodeCursor, fromMicros, micros, type CursorPage } from '../common/pagination/cursor';
import type { PageRequest } from '../common/pagination/page-request';
import { PG_POOL } from '../database/prisma.service';
import { AccountStore, type LoadedAccount } from '../event-store/account-store.service';
import { PlayersService } from '../players/players.service';
import type { AuthenticatedPlayer } from '../players/players.types';
import { generateToken, hashToken } from '../players/tokens';
import { AccountAggregate } from './account-aggregate';
import { checkPassword, hashPassword, verifyPassword } from './password';
import { accountKey, addressKey, SignInThrottle } from './sign-in-throttle';
import { responseShape, userHandleToId, WebAuthn } from './webauthn';
import type { CreationOptionsModel, RequestOptionsModel } from './dto/webauthn.dto';

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
}

export interface SecurityLogEntryView {
  id: string;
  type: string;
  createdAt: Date;
  address: string | null;
  detail: SecurityLogDetail;
}

const text = (v: unknown): string | null => (typeof v === 'string' ? v : null);
const flag = (v: unknown): boolean | null => (typeof v === 'boolean' ? v : null);

/** The stored detail in its closed shape (every member, null when the line has none). */
const toDetail = (d: Record<string, unknown>): SecurityLogDetail => ({
  method: text(d.method),
  sessionId: text(d.sessionId),
  label: text(d.label),
  passkeyId: text(d.passkeyId),
  credentialId: text(d.credentialId),
  name: text(d.name),
  username: text(d.username),
  reason: text(d.reason),
  replaced: flag(d.replaced),
  revokedSessions: typeof d.revokedSessions === 'number' ? d.revokedSessions : null,
  playerTokenRetired: flag(d.playerTokenRetired),
});

export const DEVICE_LABEL_MAX = 64;

@Injectable()
export class AccountsService {
  constructor(
    @Inject(PG_POOL) private readonly pool: Pool,
    private readonly handler: CommandHandler,
    private readonly aggregate: AccountAggregate,
    private readonly store: AccountStore,
    private readonly players: PlayersService,
    private readonly throttle: SignInThrottle,
    private readonly webauthn: WebAuthn,
  ) {}

  async view(playerId: string): Promise<AccountView> {
    const { state } = await this.store.load(playerId);
    const { rows } = await this.pool.query<{ credential_id: string; created_at: Date; last_used_at: Date | null }>(
      'SELECT credential_id, created_at, last_used_at FROM account_passkeys WHERE account_id = $1',
      [playerId],
    );
    const times = new Map(rows.map((r) => [r.credential_id, r]));
    return {
      playerId,
      username: state.username,
      claimed: isClaimed(state),
      hasPassword: state.hasPassword,
      passkeys: state.passkeys.map((p) => ({
        id: p.id,
        credentialId: p.credentialId,
        name: p.name,
        deviceType: p.deviceType,
        backedUp: p.backedUp,
        createdAt: times.get(p.credentialId)?.created_at ?? new Date(0),
        lastUsedAt: times.get(p.credentialId)?.last_used_at ?? null,
      })),
    };
  }

  // --- credentials (commands of the account aggregate) ---

  claimUsername(player: AuthenticatedPlayer, username: string, origin: RequestOrigin): Promise<AccountView> {
    const bad = checkUsername(username);
    if (bad) throw DomainException.fromRule(bad);
    return this.command(player, { command: { type: 'claimUsername', username }, address: origin.address });
  }

  /**
   * Sets the password (WEAK_PASSWORD first: nothing is hashed or stored). Replacing a password
   * needs the current one, checked and counted like a sign-in (a stolen token alone cannot lock
   * the owner out by changing it).
   */
  async setPassword(
    player: AuthenticatedPlayer,
    password: string,
    currentPassword: string | null | undefined,
    origin: RequestOrigin,
  ): Promise<AccountView> {
    checkPassword(password);
    const loaded = await this.store.load(player.id);
    if (!isClaimed(loaded.state))
      throw new DomainException('USERNAME_REQUIRED', 'Claim a username first: a password signs in with the username');
    if (loaded.state.hasPassword) {
      if (typeof currentPassword !== 'string' || currentPassword.length === 0)
        throw new DomainException('VALIDATION_FAILED', 'currentPassword is required to replace a password');
      await this.checkCurrentPassword(loaded, currentPassword, origin);
    }
    const passwordHash = await hashPassword(password);
    return this.command(player, { command: { type: 'setPassword' }, passwordHash, address: origin.address });
  }

  removePassword(player: AuthenticatedPlayer, origin: RequestOrigin): Promise<AccountView> {
    return this.command(player, { command: { type: 'removePassword' }, address: origin.address });
  }

  async passkeyRegistrationOptions(player: AuthenticatedPlayer): Promise<CreationOptionsModel> {
    const { state } = await this.store.load(player.id);
    if (!isClaimed(state) || state.username === null)
      throw new DomainException(
        'USERNAME_REQUIRED',
        'Claim a username first: a passkey is a credential of a claimed account',
      );
    return this.webauthn.registrationOptions(
      { id: player.id, username: state.username, displayName: player.displayName },
      state.passkeys,
    );
  }

  /** Verifies the authenticator's registration response (its challenge used once) and adds the passkey. */
  async addPasskey(
    player: AuthenticatedPlayer,
    name: string,
    response: unknown,
    origin: RequestOrigin,
  ): Promise<AccountView> {
    const checked = checkPasskeyName(name);
    if (typeof checked !== 'string') throw DomainException.fromRule(checked);
    const credential = await this.webauthn.verifyRegistration(player.id, response);
    const { counter, ...passkey } = credential;
    return this.command(player, {
      command: { type: 'addPasskey', passkey: { ...passkey, id: randomUUID(), name: checked } },
      passkeyCounter: counter,
      address: origin.address,
    });
  }

  renamePasskey(
    player: AuthenticatedPlayer,
    passkeyId: string,
    name: string,
    origin: RequestOrigin,
  ): Promise<AccountView> {
    return this.command(player, { command: { type: 'renamePasskey', passkeyId, name }, address: origin.address });
  }

  removePasskey(player: AuthenticatedPlayer, passkeyId: string, origin: RequestOrigin): Promise<AccountView> {
    return this.command(player, { command: { type: 'removePasskey', passkeyId }, address: origin.address });
  }

  private async command(
    player: AuthenticatedPlayer,
    request: { command: AccountCommand; passwordHash?: string; passkeyCounter?: number; address: string | null },
  ): Promise<AccountView> {
    await this.handler.run(this.aggregate, {
      operation: request.command.type,
      id: player.id,
      args: null,
      actor: player,
      opts: {},
      build: () => request,
      respond: () => undefined,
    });
    return this.view(player.id);
  }

  // --- sign-in ---

  /**
   * Username + password → a session. Every attempt is counted first (per username and per
   * address, SignInThrottle); an unknown username and a wrong password get the same answer,
   * INVALID_CREDENTIALS, after the same work (a dummy hash is verified for an unknown one).
   */
  async signInWithPassword(
    username: string,
    password: string,
    deviceLabel: string | null | undefined,
    origin: RequestOrigin,
  ): Promise<SignedIn> {
    const bad = checkUsername(username);
    if (bad) throw DomainException.fromRule(bad);
    if (typeof password !== 'string' || password.length === 0 || [...password].length > 128)
      throw new DomainException('VALIDATION_FAILED', 'password must be a string of 1 to 128 characters');
    const label = this.deviceLabel(deviceLabel, origin);
    const keys = { account: accountKey(usernameKey(username)), address: addressKey(origin.address) };
    await this.throttle.attempt(keys);
    const { rows } = await this.pool.query<{ player_id: string; password_hash: string | null }>(
      'SELECT player_id, password_hash FROM accounts WHERE username_key = $1',
      [usernameKey(username)],
    );
    const account = rows[0];
    const ok = await verifyPassword(account?.password_hash ?? null, password);
    if (!ok) {
      if (account) await this.log(account.player_id, 'signInFailed', origin.address, { method: 'password' });
      throw invalidCredentials();
    }
    await this.throttle.succeeded(keys);
    return this.openSession(account.player_id, label, origin, 'password');
  }

  passkeySignInOptions(): Promise<RequestOptionsModel> {
    return this.webauthn.authenticationOptions();
  }

  /**
   * A discoverable-credential assertion → a session. The challenge (from clientDataJSON) must be
   * one issued by passkeySignInOptions, unused and unexpired; it is spent whatever the outcome.
   * The passkey is found by the response's id; the signature counter must move on when the
   * authenticator keeps one.
   */
  async signInWithPasskey(
    response: unknown,
    deviceLabel: string | null | undefined,
    origin: RequestOrigin,
  ): Promise<SignedIn> {
    const label = this.deviceLabel(deviceLabel, origin);
    const { id, challenge } = responseShape(response, 'assertion');
    await this.webauthn.consume(challenge, 'authenticate', null);
    const { rows } = await this.pool.query<{
      account_id: string;
      public_key: string;
      counter: string;
      transports: string[];
    }>('SELECT account_id, public_key, counter, transports FROM account_passkeys WHERE credential_id = $1', [id]);
    const row = rows[0];
    if (!row)
      throw new DomainException('WEBAUTHN_VERIFICATION_FAILED', 'This passkey is not registered with any account');
    const handle = (response as { response: { userHandle?: unknown } }).response.userHandle;
    if (handle !== undefined && handle !== null && userHandleToId(handle) !== row.account_id)
      throw new DomainException('WEBAUTHN_VERIFICATION_FAILED', 'The user handle does not match the passkey');
    const counter = Number(row.counter);
    let verified;
    try {
      verified = await this.webauthn.verifyAuthentication(response, challenge, {
        credentialId: id,
        publicKey: row.public_key,
        counter,
        transports: row.transports,
      });
    } catch (err) {
      await this.log(row.account_id, 'signInFailed', origin.address, { method: 'passkey', credentialId: id });
      throw err;
    }
    // Counter 0 throughout: the authenticator keeps none (synced passkeys). Otherwise it must grow.
    const updated = await this.pool.query(
      `UPDATE account_passkeys SET counter = $2, last_used_at = now()
        WHERE credential_id = $1 AND (counter < $2 OR ($2 = 0 AND counter = 0))`,
      [id, verified.newCounter],
    );
    if (!updated.rowCount) {
      await this.log(row.account_id, 'signInFailed', origin.address, { method: 'passkey', credentialId: id });
      throw new DomainException('WEBAUTHN_VERIFICATION_FAILED', 'The signature counter did not increase');
    }
    return this.openSession(row.account_id, label, origin, 'passkey', id);
  }

  private async openSession(
    playerId: string,
    label: string,
    origin: RequestOrigin,
    method: 'password' | 'passkey',
    credentialId?: string,
  ): Promise<SignedIn> {
    const token = generateToken();
    const id = randomUUID();
    const { rows } = await this.pool.query<SessionRow & { display_name: string; player_created_at: Date }>(
      `WITH s AS (
         INSERT INTO sessions (id, player_id, token_hash, label, address) VALUES ($1, $2, $3, $4, $5)
         RETURNING id, label, created_at, last_used_at, address, scopes),
       l AS (
         INSERT INTO security_log (player_id, type, address, detail) VALUES ($2, 'signIn', $5, $6))
       SELECT s.*, p.display_name, p.created_at AS player_created_at FROM s, players p WHERE p.id = $2`,
      [
        id,
        playerId,
        hashToken(token),
        label,
        origin.address,
        JSON.stringify({ method, sessionId: id, label, ...(credentialId ? { credentialId } : {}) }),
      ],
    );
    const r = rows[0];
    return {
      token,
      session: toSession(r, id),
      player: { id: playerId, displayName: r.display_name, createdAt: r.player_created_at },
    };
  }

  // --- sessions ---

  async sessions(player: AuthenticatedPlayer, page: PageRequest): Promise<CursorPage<SessionView>> {
    const list = 'sessions';
    const values: unknown[] = [player.id, page.limit + 1];
    let keyset = '';
    if (page.cursor) {
      const [at, id] = decodeCursor(page.cursor, list, ['int', 'uuid']);
      values.push(at, id);
      keyset = `AND (created_at, id) < (${fromMicros('$3')}, $4::uuid)`;
    }
    const { rows } = await this.pool.query<SessionRow & { micros: string }>(
      `SELECT id, label, created_at, last_used_at, address, scopes, ${micros('created_at')} AS micros
         FROM sessions WHERE player_id = $1 AND revoked_at IS NULL ${keyset}
        ORDER BY created_at DESC, id DESC LIMIT $2`,
      values,
    );
    return cursorPage(
      rows,
      page.limit,
      list,
      (r) => [Number(r.micros), r.id],
      (r) => toSession(r, player.sessionId ?? null),
    );
  }

  /** Revokes one of the player's sessions (SESSION_NOT_FOUND when none such is live). */
  async revokeSession(player: AuthenticatedPlayer, sessionId: string, origin: RequestOrigin): Promise<void> {
    const { rows } = await this.pool.query(
      `WITH s AS (
         UPDATE sessions SET revoked_at = now() WHERE id = $1 AND player_id = $2 AND revoked_at IS NULL RETURNING id),
       l AS (
         INSERT INTO security_log (player_id, type, address, detail)
         SELECT $2, 'sessionRevoked', $3, jsonb_build_object('sessionId', s.id) FROM s)
       SELECT id FROM s`,
      [sessionId, player.id, origin.address],
    );
    this.players.forgetPlayer(player.id);
    if (rows.length === 0) throw new DomainException('SESSION_NOT_FOUND', 'No such live session of yours');
  }

  /**
   * Revokes every session; when the account has a credential to sign back in with, the player's
   * own token (the guest's first device) is retired as well.
   */
  async signOutEverywhere(
    player: AuthenticatedPlayer,
    origin: RequestOrigin,
  ): Promise<{ revokedSessions: number; playerTokenRetired: boolean }> {
    const { state } = await this.store.load(player.id);
    const retire = credentialCount(state) > 0;
    const { rows } = await this.pool.query<{ revoked: number }>(
      `WITH s AS (
         UPDATE sessions SET revoked_at = now() WHERE player_id = $1 AND revoked_at IS NULL RETURNING id),
       p AS (
         UPDATE players SET token_hash = $3, updated_at = now() WHERE id = $1 AND $4::boolean RETURNING id),
       l AS (
         INSERT INTO security_log (player_id, type, address, detail)
         SELECT $1, 'signedOutEverywhere', $2,
                jsonb_build_object('revokedSessions', (SELECT count(*) FROM s), 'playerTokenRetired', $4::boolean))
       SELECT (SELECT count(*) FROM s)::int AS revoked, (SELECT count(*) FROM p)::int AS retired`,
      [player.id, origin.address, hashToken(generateToken()), retire],
    );
    this.players.forgetPlayer(player.id);
    return { revokedSessions: rows[0].revoked, playerTokenRetired: retire };
  }

  // --- security log ---

  async securityLog(player: AuthenticatedPlayer, page: PageRequest): Promise<CursorPage<SecurityLogEntryView>> {
    const list = 'security-log';
    const values: unknown[] = [player.id, page.limit + 1];
    let keyset = '';
    if (page.cursor) {
      const [id] = decodeCursor(page.cursor, list, ['int']);
      values.push(id);
      keyset = 'AND id < $3';
    }
    const { rows } = await this.pool.query<{
      id: string;
      type: string;
      created_at: Date;
      address: string | null;
      detail: Record<string, unknown>;
    }>(
      `SELECT id, type, created_at, address, detail FROM security_log WHERE player_id = $1 ${keyset}
        ORDER BY id DESC LIMIT $2`,
      values,
    );
    return cursorPage(
      rows,
      page.limit,
      list,
      (r) => [Number(r.id)],
      (r) => ({
        id: String(r.id),
        type: r.type,
        createdAt: r.created_at,
        address: r.address,
        detail: toDetail(r.detail),
      }),
    );
  }

  // --- helpers ---

  private async checkCurrentPassword(loaded: LoadedAccount, password: string, origin: RequestOrigin): Promise<void> {
    const keys = {
      account: accountKey(usernameKey(loaded.state.username ?? '')),
      address: addressKey(origin.address),
    };
    await this.throttle.attempt(keys);
    if (!(await verifyPassword(loaded.passwordHash, password))) {
      await this.log(loaded.state.id, 'signInFailed', origin.address, { method: 'password', reason: 'passwordChange' });
      throw invalidCredentials('currentPassword is wrong');
    }
    await this.throttle.succeeded(keys);
  }

  /** The label the player gave the device, else its User-Agent, shortened; control characters removed. */
  private deviceLabel(given: string | null | undefined, origin: RequestOrigin): string {
    if (given !== undefined && given !== null) {
      const name = checkPasskeyName(given);
      if (typeof name !== 'string')
        throw new DomainException('VALIDATION_FAILED', `deviceLabel must be 1 to ${DEVICE_LABEL_MAX} characters`);
      return name;
    }
    // eslint-disable-next-line no-control-regex
    const ua = (origin.userAgent ?? '').replace(/[\u0000-\u001f\u007f]/g, '').trim();
    return ua ? [...ua].slice(0, DEVICE_LABEL_MAX).join('') : 'Unknown device';
  }

  private async log(playerId: string, type: string, address: string | null, detail: object): Promise<void> {
    await this.pool.query('INSERT INTO security_log (player_id, type, address, detail) VALUES ($1, $2, $3, $4)', [
      playerId,
      type,
      address,
      JSON.stringify(detail),
    ]);
  }
}

interface SessionRow {
  id: string;
  label: string;
  created_at: Date;
  last_used_at: Date;
  address: string | null;
  scopes: string[];
}

const toSession = (r: SessionRow, currentId: string | null): SessionView => ({
  id: r.id,
  label: r.label,
  createdAt: r.created_at,
  lastUsedAt: r.last_used_at,
  address: r.address,
  scopes: r.scopes,
  current: r.id === currentId,
});

const invalidCredentials = (message = 'Wrong username or password') =>
  new DomainException('INVALID_CREDENTIALS', message);
