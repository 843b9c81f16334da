/**
 * Seed generation (docs/fairness.md §2): the only fairness code that needs randomness, so it
 * stays in the service (the pure part, @fairdice/core/fairness/seeds, is shared with verifiers).
 */
import { randomBytes } from 'node:crypto';
import { SERVER_SEED_BYTES } from '@fairdice/core/fairness/seeds';

/** 32 fresh bytes from the OS CSPRNG. Keep secret until the game has ended. */
export function generateServerSeed(): Buffer {
  return randomBytes(SERVER_SEED_BYTES);
}

/** A client seed for a player who did not give one: 16 CSPRNG bytes as 32 lowercase hex characters. */
export function generateClientSeed(): string {
  return randomBytes(16).toString('hex');
}
