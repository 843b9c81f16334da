/**
 * Signing in (docs/accounts.md): a username and password, or a passkey, opens a session on the
 * device. Every password check (a sign-in, or the current password when replacing it) is counted by
 * SignInThrottle first; a failure writes a `signInFailed` line to the security log.
 */
import { Inject, Injectable } from '@nestjs/common';
import type { Pool } from 'pg';
import { checkPasskeyName, checkUsername, usernameKey } from '@fairdice/core/rules/account';
import { DomainException } from '../common/errors';
import { PG_POOL } from '../database/pg-pool';
import type { LoadedAccount } from '../event-store/account-store.service';
import { AccountSessions } from './account-sessions.service';
import type { RequestOrigin, SignedIn } from './account-views';
import type { RequestOptionsModel } from './dto/webauthn.dto';
import { verifyPassword } from './password';
import { SecurityLog } from './security-log.service';
import { accountKey, addressKey, SignInThrottle } from './sign-in-throttle';
import { responseShape, userHandleToId, WebAuthn } from './webauthn';

export const DEVICE_LABEL_MAX = 64;

const invalidCredentials = (message = 'Wrong username or password') =>
  new DomainException('INVALID_CREDENTIALS', message);

@Injectable()
export class SignIn {
  constructor(
    @Inject(PG_POOL) private readonly pool: Pool,
    private readonly sessions: AccountSessions,
    private readonly securityLog: SecurityLog,
    private readonly throttle: SignInThrottle,
    private readonly webauthn: WebAuthn,
  ) {}

  /**
   * Username + password → a session. Every attempt is counted first (per username and per
   * address, SignInThrottle); an unknown username and a wrong password get the same answer,
   * INVALID_CREDENTIALS, after the same work (a dummy hash is verified for an unknown one).
   */
  async withPassword(
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
      if (account)
        await this.securityLog.record(account.player_id, 'signInFailed', origin.address, { method: 'password' });
      throw invalidCredentials();
    }
    await this.throttle.succeeded(keys);
    return this.sessions.open(account.player_id, label, origin, 'password');
  }

  passkeyOptions(): Promise<RequestOptionsModel> {
    return this.webauthn.authenticationOptions();
  }

  /**
   * A discoverable-credential assertion → a session. The challenge (from clientDataJSON) must be
   * one issued by passkeyOptions, unused and unexpired; it is spent whatever the outcome.
   * The passkey is found by the response's id; the signature counter must move on when the
   * authenticator keeps one.
   */
  async withPasskey(
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
    const failed = () =>
      this.securityLog.record(row.account_id, 'signInFailed', origin.address, { method: 'passkey', credentialId: id });
    let verified;
    try {
      verified = await this.webauthn.verifyAuthentication(response, challenge, {
        credentialId: id,
        publicKey: row.public_key,
        counter,
        transports: row.transports,
      });
    } catch (err) {
      await failed();
      throw err;
    }
    // Counter 0 throughout: the authenticator keeps none (synced passkeys). Otherwise it must grow.
    const updated = await this.pool.query(
      `UPDATE account_passkeys SET counter = $2, last_used_at = now()
        WHERE credential_id = $1 AND (counter < $2 OR ($2 = 0 AND counter = 0))`,
      [id, verified.newCounter],
    );
    if (!updated.rowCount) {
      await failed();
      throw new DomainException('WEBAUTHN_VERIFICATION_FAILED', 'The signature counter did not increase');
    }
    return this.sessions.open(row.account_id, label, origin, 'passkey', id);
  }

  /** The current password, before it is replaced: checked and counted like a sign-in. */
  async checkCurrentPassword(loaded: LoadedAccount, password: string, origin: RequestOrigin): Promise<void> {
    const keys = {
      account: accountKey(usernameKey(loaded.state.username ?? '')),
      address: addressKey(origin.address),
    };
    await this.throttle.attempt(keys);
    if (!(await verifyPassword(loaded.passwordHash, password))) {
      await this.securityLog.record(loaded.state.id, 'signInFailed', origin.address, {
        method: 'password',
        reason: 'passwordChange',
      });
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
}
