/**
 * Seeds of the commit–reveal scheme (docs/fairness.md §2): the pure part (validation, commitment,
 * derivation order). Generating seeds needs randomness, so it stays in the service
 * (src/fairness/seed-generation.ts).
 *
 * - The server seed is 32 bytes from the OS CSPRNG, secret until the game ends.
 * - Its commitment is the lowercase hex SHA-256 of those 32 bytes, published at game creation.
 * - Client seeds are public strings: 1..128 characters of visible ASCII (0x21..0x7E, no spaces).
 *   Because they are ASCII, their UTF-8 encoding is the same bytes (one byte per character).
 */
import { isBytes, sha256Hex } from './bytes';

export const SERVER_SEED_BYTES = 32;
export const CLIENT_SEED_MIN_LENGTH = 1;
export const CLIENT_SEED_MAX_LENGTH = 128;
/** Visible ASCII, 0x21 ('!') to 0x7E ('~'): no spaces, no control characters, no non-ASCII. */
export const CLIENT_SEED_PATTERN = /^[\x21-\x7e]{1,128}$/;
/** 64 lowercase hex digits: the form of the commitment and of every event hash. */
export const HEX_SHA256_PATTERN = /^[0-9a-f]{64}$/;

/** Lowercase hex SHA-256 of the raw 32 server-seed bytes (not of its hex string). */
export function commitmentOf(serverSeed: Uint8Array): string {
  assertServerSeed(serverSeed);
  return sha256Hex(serverSeed);
}

/** `null` when `s` is an acceptable client seed, otherwise a human-readable error message. */
export function validateClientSeed(s: unknown): string | null {
  if (typeof s !== 'string') return 'client seed must be a string';
  if (s.length < CLIENT_SEED_MIN_LENGTH) return 'client seed must not be empty';
  if (s.length > CLIENT_SEED_MAX_LENGTH) return `client seed must be at most ${CLIENT_SEED_MAX_LENGTH} characters`;
  if (!CLIENT_SEED_PATTERN.test(s)) {
    return 'client seed may contain only visible ASCII characters (0x21-0x7E): letters, digits and punctuation, no spaces';
  }
  return null;
}

/**
 * The order in which client seeds enter the derivation: the organizer seed first (when present),
 * then each seat's seed in ascending seat number. Throws on an invalid seed or a duplicate seat.
 */
export function orderedClientSeeds(input: {
  organizerSeed?: string | null;
  seats: ReadonlyArray<{ seat: number; clientSeed: string }>;
}): string[] {
  const out: string[] = [];
  if (input.organizerSeed !== undefined && input.organizerSeed !== null) {
    const err = validateClientSeed(input.organizerSeed);
    if (err) throw new RangeError(`organizer seed: ${err}`);
    out.push(input.organizerSeed);
  }
  const seats = [...input.seats].sort((a, b) => a.seat - b.seat);
  for (let i = 0; i < seats.length; i++) {
    const { seat, clientSeed } = seats[i];
    if (!Number.isSafeInteger(seat) || seat < 0)
      throw new RangeError(`seat must be a non-negative integer, got ${seat}`);
    if (i > 0 && seats[i - 1].seat === seat) throw new RangeError(`duplicate seat ${seat}`);
    const err = validateClientSeed(clientSeed);
    if (err) throw new RangeError(`seat ${seat}: ${err}`);
    out.push(clientSeed);
  }
  return out;
}

export function assertServerSeed(serverSeed: unknown): asserts serverSeed is Uint8Array {
  if (!isBytes(serverSeed) || serverSeed.length !== SERVER_SEED_BYTES) {
    throw new RangeError(`server seed must be a Uint8Array (or Buffer) of exactly ${SERVER_SEED_BYTES} bytes`);
  }
}
