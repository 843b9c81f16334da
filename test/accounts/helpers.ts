/** Helpers of the account e2e tests (docs/accounts.md). */
import type { Pool } from 'pg';
import { createTestApp, registerPlayer, type TestApp } from '../helpers/app';
import { PG_POOL } from '../../src/database/pg-pool';

export const RP_ID = 'fairdice.test';
export const ORIGIN = 'https://fairdice.test';

/**
 * The app as the account tests need it: X-Forwarded-For believed (TRUST_PROXY), so that every
 * test signs in from an address of its own and the per-address limits of one test do not reach
 * another; WebAuthn for https://fairdice.test. No background jobs: accounts schedule none, and a
 * job of this file's earlier tests finishing mid-check (a game's player-events job) would change
 * `async_jobs` between the row counts of a refusal.
 */
export const accountsApp = (env: Record<string, string> = {}): Promise<TestApp> =>
  createTestApp({
    env: {
      TRUST_PROXY: 'true',
      WEBAUTHN_RP_ID: RP_ID,
      WEBAUTHN_ORIGINS: ORIGIN,
      SIGN_IN_ADDRESS_FREE_ATTEMPTS: '8',
      JOBS_ENABLED: 'false',
      ...env,
    },
  });

let addressSeq = 0;
/** A fresh client address (TEST-NET-3, RFC 5737) for one test's requests. */
export const freshAddress = () => `203.0.113.${++addressSeq}`;

let nameSeq = 0;
/** A username no other test uses (run id + sequence). */
export const freshUsername = (prefix = 'user') =>
  `${prefix}_${process.pid.toString(36)}${(++nameSeq).toString(36)}`.slice(0, 24);

export type Player = Awaited<ReturnType<typeof registerPlayer>>;

export const poolOf = (t: TestApp): Pool => t.app.get<Pool>(PG_POOL);

/** A guest who claimed `username` and set `password`. */
export async function claimedWithPassword(
  t: TestApp,
  username: string,
  password: string,
  address: string,
): Promise<Player> {
  const p = await registerPlayer(t, 'Ada');
  await t
    .http()
    .put('/v1/accounts/me/username')
    .set(p.auth)
    .set('x-forwarded-for', address)
    .send({ username })
    .expect(200);
  await t
    .http()
    .put('/v1/accounts/me/password')
    .set(p.auth)
    .set('x-forwarded-for', address)
    .send({ password })
    .expect(200);
  return p;
}
