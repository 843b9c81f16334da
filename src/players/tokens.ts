import { hash, randomBytes, timingSafeEqual } from 'node:crypto';

/** Bearer tokens: "fd_" + 32 random bytes (256 bits) in base64url. Only the SHA-256 is stored. */
export const TOKEN_PREFIX = 'fd_';
const TOKEN_PATTERN = /^fd_[A-Za-z0-9_-]{43}$/;

export const generateToken = (): string => TOKEN_PREFIX + randomBytes(32).toString('base64url');

export const hashToken = (token: string): string => hash('sha256', token, 'hex');

export const looksLikeToken = (value: string): boolean => TOKEN_PATTERN.test(value);

/** Constant-time comparison of two hex hashes (the lookup is by hash; this re-checks the match). */
export const sameHash = (a: string, b: string): boolean => {
  const x = Buffer.from(a, 'hex');
  const y = Buffer.from(b, 'hex');
  return x.length === y.length && timingSafeEqual(x, y);
};
