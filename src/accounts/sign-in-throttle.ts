/**
 * Password-guessing limits (docs/accounts.md, *Abuse limits*; decision 0108). Every password
 * attempt is counted, per account ("account:<username, lower-cased>", whether the account exists
 * or not, so that the answers do not tell) and per client address ("address:<ip>"), BEFORE the
 * password is checked, in one statement per key that also sets the lock: concurrent guesses cannot
 * slip past the count while a hash is being computed. The first `free` consecutive attempts of a
 * key are free; each later one locks the key for base × 2^(n − free − 1) seconds, at most an hour.
 * A locked key refuses attempts with 429 SIGN_IN_LOCKED (Retry-After) without checking the
 * password. A successful sign-in forgets the account's count and takes its own attempt back from
 * the address's. A count is forgotten 24 hours after its last attempt. Counted in PostgreSQL so
 * every instance shares it.
 */
import { Inject, Injectable } from '@nestjs/common';
import type { Pool } from 'pg';
import { DomainException } from '../common/errors';
import { PG_POOL } from '../database/pg-pool';

export interface ThrottleLimits {
  /** Free consecutive attempts per account. */
  accountFree: number;
  /** Free consecutive attempts per client address. */
  addressFree: number;
  /** First lock, seconds (doubled with each further attempt). */
  baseSeconds: number;
  /** Longest lock, seconds. */
  maxSeconds: number;
}

export const THROTTLE_LIMITS = Symbol('THROTTLE_LIMITS');

export const accountKey = (usernameKey: string) => 'account:' + usernameKey;
export const addressKey = (address: string) => 'address:' + address;

@Injectable()
export class SignInThrottle {
  constructor(
    @Inject(PG_POOL) private readonly pool: Pool,
    @Inject(THROTTLE_LIMITS) private readonly limits: ThrottleLimits,
  ) {}

  /** Counts one attempt on each key, or throws SIGN_IN_LOCKED (nothing counted) when one is locked. */
  async attempt(keys: { account: string; address: string }): Promise<void> {
    // The address first: a locked address does not count against the account it guesses.
    await this.count(keys.address, this.limits.addressFree);
    await this.count(keys.account, this.limits.accountFree);
  }

  /** A successful sign-in: the account's count is forgotten; the address gets its attempt back. */
  async succeeded(keys: { account: string; address: string }): Promise<void> {
    await this.pool.query('DELETE FROM sign_in_failures WHERE key = $1', [keys.account]);
    await this.pool.query(
      `UPDATE sign_in_failures
          SET failures = greatest(failures - 1, 0),
              locked_until = CASE WHEN failures - 1 > $2 THEN locked_until END
        WHERE key = $1`,
      [keys.address, this.limits.addressFree],
    );
  }

  private async count(key: string, free: number): Promise<void> {
    const { rows } = await this.pool.query<{ failures: number }>(
      `INSERT INTO sign_in_failures AS f (key, failures, locked_until, updated_at)
       VALUES ($1, 1, CASE WHEN 1 > $2 THEN now() + make_interval(secs => $3) END, now())
       ON CONFLICT (key) DO UPDATE
         SET failures = CASE WHEN f.updated_at < now() - interval '24 hours' THEN 1 ELSE f.failures + 1 END,
             locked_until = CASE
               WHEN f.updated_at < now() - interval '24 hours' THEN NULL
               WHEN f.failures + 1 > $2
                 THEN now() + make_interval(secs => least($4::float8, $3::float8 * power(2, f.failures - $2)))
             END,
             updated_at = now()
         WHERE f.locked_until IS NULL OR f.locked_until <= now()
       RETURNING failures`,
      [key, free, this.limits.baseSeconds, this.limits.maxSeconds],
    );
    if (rows.length > 0) return;
    const locked = await this.pool.query<{ seconds: number }>(
      `SELECT ceil(extract(epoch FROM locked_until - now()))::int AS seconds FROM sign_in_failures WHERE key = $1`,
      [key],
    );
    const seconds = Math.max(1, locked.rows[0]?.seconds ?? 1);
    throw new DomainException(
      'SIGN_IN_LOCKED',
      'Too many sign-in attempts for this username or from this address; retry after Retry-After seconds, or sign in with a passkey',
      { retryAfterSeconds: seconds },
      { 'Retry-After': String(seconds) },
    );
  }
}
