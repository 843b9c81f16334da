/**
 * Checks `commitment` (SHA-256(serverSeed) = commitment; SKIPPED while the server seed is not
 * revealed) and `expected-commitment` (with --commitment: the commitment the organizer wrote down
 * before play is the bundle's).
 */
import type { AuditBundle } from '../audit-bundle';
import { sha256Hex } from '../bytes';
import { HEX_SHA256_PATTERN } from '../seeds';
import type { Checks } from './checks';
import type { VerifyOptions } from './types';

export function checkCommitment(checks: Checks, b: AuditBundle, serverSeed: Uint8Array | null): void {
  checks.add('commitment');
  if (serverSeed) {
    const c = sha256Hex(serverSeed);
    if (c !== b.commitment)
      checks.fail('commitment', null, `SHA-256(serverSeed) = ${c}, but the commitment is ${b.commitment}`);
  } else {
    checks.skip(
      'commitment',
      'the server seed is not revealed yet (it is revealed when the game ends): the dice cannot be checked yet',
    );
  }
}

export function checkExpectedCommitment(checks: Checks, b: AuditBundle, options: VerifyOptions): void {
  checks.add('expected-commitment');
  if (options.commitment === undefined) {
    checks.skip(
      'expected-commitment',
      'no --commitment given: nothing shows that this is the game whose commitment was announced before play',
    );
  } else if (!HEX_SHA256_PATTERN.test(options.commitment.toLowerCase())) {
    checks.fail('expected-commitment', null, 'the expected commitment must be 64 hex digits');
  } else if (options.commitment.toLowerCase() !== b.commitment) {
    checks.fail(
      'expected-commitment',
      1,
      `the bundle's commitment ${b.commitment} is not the one written down before play (${options.commitment.toLowerCase()})`,
    );
  }
}
