import { createHash } from 'node:crypto';
import { CanonicalJsonError, canonicalJson } from '@fairdice/core/fairness/canonical';
import { DomainException } from '../../common/errors';

/** 1..255 visible ASCII characters (0x21-0x7E): UUIDs, ULIDs, base64url, etc. */
const KEY_PATTERN = /^[\x21-\x7e]{1,255}$/;

/**
 * The Idempotency-Key header / idempotencyKey argument: undefined when absent, the key when
 * valid, 400 VALIDATION_FAILED otherwise (checked before any query runs).
 */
export function parseIdempotencyKey(value: unknown): string | undefined {
  if (value === undefined || value === null) return undefined;
  if (Array.isArray(value)) {
    throw invalid('send one Idempotency-Key header');
  }
  if (typeof value !== 'string' || !KEY_PATTERN.test(value)) {
    throw invalid('the idempotency key must be 1 to 255 visible ASCII characters (no spaces)');
  }
  return value;
}

const invalid = (problem: string) =>
  new DomainException('VALIDATION_FAILED', problem, { errors: [{ field: 'Idempotency-Key', problems: [problem] }] });

/**
 * Fingerprint of what a request asks for: the operation, its target and its validated
 * arguments, as canonical JSON (so REST and GraphQL, and any field order, hash alike).
 * Callers validate first and hash only valid input; a value canonical JSON cannot encode
 * (a non-integer or unsafe number that slipped past validation) is still a client error,
 * 400 VALIDATION_FAILED, never a 500.
 */
export function requestHash(operation: string, target: string | null, args: unknown): string {
  const plain: unknown = JSON.parse(JSON.stringify(args ?? {}));
  let text: string;
  try {
    text = canonicalJson({ operation, target, args: plain });
  } catch (err) {
    if (!(err instanceof CanonicalJsonError)) throw err;
    const field = err.path.replace(/^\$\.args\.?/, '') || '(body)';
    const problem = 'numbers must be integers of at most 2^53 - 1 in magnitude';
    throw new DomainException('VALIDATION_FAILED', `${field}: ${problem}`, {
      errors: [{ field, problems: [problem] }],
    });
  }
  return createHash('sha256').update(text).digest('hex');
}

/** The `idempotencyKey` argument of every GraphQL mutation that is a command (one definition, one description). */
export const IDEMPOTENCY_KEY_ARG = {
  type: () => String,
  nullable: true,
  description: 'Retry-safe: the first outcome under this key is replayed for 24 h (docs/operations.md).',
} as const;
