import { createHash } from 'node:crypto';
import { canonicalJson } from '@fairdice/core/fairness/canonical';
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
 */
export function requestHash(operation: string, target: string | null, args: unknown): string {
  const plain = JSON.parse(JSON.stringify(args ?? {}));
  return createHash('sha256')
    .update(canonicalJson({ operation, target, args: plain }))
    .digest('hex');
}
