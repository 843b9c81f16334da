/**
 * Passwords (docs/accounts.md, *Passwords*): argon2id through @node-rs/argon2 with OWASP's
 * Password Storage Cheat Sheet parameters (m = 19 MiB, t = 2, p = 1). Hashing runs off the event
 * loop, in one worker thread at nice 19 (PasswordHasher below), one password at a time: a sign-in's
 * ~25 ms of hashing takes only CPU that requests leave over, so a burst of sign-ins (or password
 * guessing) does not slow other requests down; sign-ins wait in line instead. The policy follows NIST SP 800-63B
 * and OWASP ASVS 5.0 (V6.2): at least 8 and at most 128 characters, any characters, no
 * composition rules, not one of the common passwords in common-passwords.ts (compared without case).
 */
import { Worker } from 'node:worker_threads';
import { Algorithm } from '@node-rs/argon2';
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

export const hashPassword = (password: string): Promise<string> =>
  hasher().run({ op: 'hash', password }) as Promise<string>;

/**
 * Whether `password` matches `stored`. With no stored hash (unknown user, no password) a dummy
 * hash of the same cost is checked instead, so that the answer takes as long (decision 0108).
 */
export async function verifyPassword(stored: string | null, password: string): Promise<boolean> {
  const target = stored ?? (await dummyHash());
  try {
    const ok = (await hasher().run({ op: 'verify', stored: target, password })) as boolean;
    return stored !== null && ok;
  } catch {
    return false;
  }
}

let dummy: Promise<string> | null = null;
const dummyHash = () => (dummy ??= hashPassword('fairdice-dummy-password'));

/** Linux's nice value is per thread: the hashing thread's only, not the event loop's. */
const HASHER_NICE = 19;

// Plain JavaScript (no build step, the same from dist/ and from jest's TypeScript sources).
const HASHER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const { setPriority } = require('node:os');
const { hashSync, verifySync } = require(workerData.argon2);
try { setPriority(workerData.nice); } catch {}
parentPort.on('message', (m) => {
  try {
    const value = m.op === 'hash' ? hashSync(m.password, workerData.options) : verifySync(m.stored, m.password);
    parentPort.postMessage({ id: m.id, value });
  } catch (e) {
    parentPort.postMessage({ id: m.id, error: String((e && e.message) || e) });
  }
});
`;

type HashRequest = { op: 'hash'; password: string } | { op: 'verify'; stored: string; password: string };

/** One worker thread that hashes and verifies passwords in order, started on first use. */
class PasswordHasher {
  private readonly worker: Worker;
  private readonly pending = new Map<number, { resolve(v: unknown): void; reject(e: Error): void }>();
  private next = 0;

  constructor() {
    this.worker = new Worker(HASHER_SOURCE, {
      eval: true,
      workerData: { argon2: require.resolve('@node-rs/argon2'), options: ARGON2_OPTIONS, nice: HASHER_NICE },
    });
    this.worker.unref(); // an idle hasher never keeps the process alive
    this.worker.on('message', (m: { id: number; value?: unknown; error?: string }) => {
      const p = this.pending.get(m.id);
      this.pending.delete(m.id);
      if (this.pending.size === 0) this.worker.unref();
      if (m.error !== undefined) p?.reject(new Error(m.error));
      else p?.resolve(m.value);
    });
    this.worker.on('error', (err) => this.fail(err));
    this.worker.on('exit', () => this.fail(new Error('the password hasher stopped')));
  }

  run(request: HashRequest): Promise<unknown> {
    const id = this.next++;
    return new Promise((resolve, reject) => {
      if (this.pending.size === 0) this.worker.ref(); // a hash under way keeps the process alive
      this.pending.set(id, { resolve, reject });
      this.worker.postMessage({ id, ...request });
    });
  }

  private fail(err: Error): void {
    if (current === this) current = null; // the next call starts a new one
    for (const p of this.pending.values()) p.reject(err);
    this.pending.clear();
  }
}

let current: PasswordHasher | null = null;
const hasher = (): PasswordHasher => (current ??= new PasswordHasher());
