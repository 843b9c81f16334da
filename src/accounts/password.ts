/**
 * Passwords (docs/accounts.md, *Passwords*): argon2id through @node-rs/argon2 with OWASP's
 * Password Storage Cheat Sheet parameters (m = 19 MiB, t = 2, p = 1). The binding's async
 * `hash`/`verify` run on libuv's thread pool (a napi AsyncTask), not on the event loop, so a
 * sign-in's ~20 ms of hashing does not hold up other requests. The policy follows NIST SP 800-63B
 * and OWASP ASVS 5.0 (V6.2): at least 8 and at most 128 characters, any characters, no
 * composition rules, not one of the common passwords in common-passwords.ts (compared without case).
 */
import { Algorithm, hash, verify } from '@node-rs/argon2';
import { DomainException } from '../common/errors';
import { COMMON_PASSWORDS_TEXT } from './common-passwords';

export const PASSWORD_MIN_LENGTH = 8;
export const PASSWORD_MAX_LENGTH = 128;

/** OWASP Password Storage Cheat Sheet, argon2id: m=19456 KiB, t=2, p=1. */
export const ARGON2_OPTIONS = {
  algorithm: Algorithm.Argon2id,
  memoryCost: 19_456,
  timeCost: 2,
  parallelism: 1,
} as const;

const COMMON = new Set(
  COMMON_PASSWORDS_TEXT.split('\n')
    .map((p) => p.trim().toLowerCase())
    .filter(Boolean),
);

/** Length in code points (an emoji counts one). */
const lengthOf = (s: string): number => [...s].length;

/** WEAK_PASSWORD unless `password` meets the policy; nothing is hashed or stored otherwise. */
export function checkPassword(password: unknown): string {
  if (typeof password !== 'string') throw new DomainException('VALIDATION_FAILED', 'password must be a string');
  const n = lengthOf(password);
  if (n < PASSWORD_MIN_LENGTH || n > PASSWORD_MAX_LENGTH)
    throw new DomainException(
      'WEAK_PASSWORD',
      `A password is ${PASSWORD_MIN_LENGTH} to ${PASSWORD_MAX_LENGTH} characters long (a passphrase of several words is easiest)`,
      {
        passwordProblem: n < PASSWORD_MIN_LENGTH ? 'tooShort' : 'tooLong',
        minLength: PASSWORD_MIN_LENGTH,
        maxLength: PASSWORD_MAX_LENGTH,
      },
    );
  if (COMMON.has(password.toLowerCase()))
    throw new DomainException('WEAK_PASSWORD', 'This password is among the most common ones; choose another', {
      passwordProblem: 'common',
    });
  return password;
}

export const hashPassword = (password: string): Promise<string> => hash(password, ARGON2_OPTIONS);

/**
 * Whether `password` matches `stored`. With no stored hash (unknown user, no password) a dummy
 * hash of the same cost is checked instead, so that the answer takes as long (decision 0108).
 */
export async function verifyPassword(stored: string | null, password: string): Promise<boolean> {
  const target = stored ?? (await dummyHash());
  try {
    const ok = await verify(target, password);
    return stored !== null && ok;
  } catch {
    return false;
  }
}

let dummy: Promise<string> | null = null;
const dummyHash = () => (dummy ??= hash('fairdice-dummy-password', ARGON2_OPTIONS));
