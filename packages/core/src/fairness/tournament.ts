/**
 * Tournament derivations (docs/fairness.md §10): the round seed, the duplicate dice stream and
 * the table draw. Everything is a pure function of the tournament seed (committed when the
 * tournament is created, revealed when it ends), the tournament id, the round number and the
 * public seeds fixed after the commitment (organizer seed, then every entrant's seed in entrant
 * order).
 *
 *   roundSeed(r) = HMAC-SHA256(key = tournamentSeed,
 *       lp("fairdice/tournament-round/v1") || lp(tournamentId) || u32(r) || u32(m) || lp(seed_1) .. lp(seed_m))
 *
 *   duplicate block(g, t, n, b) = HMAC-SHA256(key = roundSeed(r),
 *       lp("fairdice/duplicate/v1") || lp(tournamentId) || u32(r) || u32(g) || u32(t) || u32(n) || u32(b))
 *   faces(g, t, n) = the first 5 accepted faces of blocks b = 0, 1, ... (bytes >= 252 rejected, as in §3)
 *   die at position p of roll n of turn t of game g = faces(g, t, n)[p]
 *
 *   draw key(e) = HMAC-SHA256(key = roundSeed(r), lp("fairdice/table-draw/v1") || lp(entrantId))
 *   entrants sorted by draw key (hex, ascending; ties by id), then cut into tables in that order.
 */
import type { Die } from '../rules/core/dice';
import { bytesToHex, concatBytes, hexToBytes, hmacSha256, keyedHmacSha256, utf8ToBytes } from './bytes';
import { REJECTION_THRESHOLD } from './derivation';
import { assertServerSeed, validateClientSeed } from './seeds';

export const ROUND_SEED_TAG = 'fairdice/tournament-round/v1';
export const DUPLICATE_TAG = 'fairdice/duplicate/v1';
export const TABLE_DRAW_TAG = 'fairdice/table-draw/v1';
/** Positions of the duplicate stream per roll: the five dice of the five-dice games. */
export const DUPLICATE_POSITIONS = 5;

const u32 = (n: number): Uint8Array => {
  if (!Number.isInteger(n) || n < 0 || n > 0xffffffff) throw new RangeError(`not a u32: ${n}`);
  const b = new Uint8Array(4);
  new DataView(b.buffer).setUint32(0, n, false);
  return b;
};
const lp = (bytes: Uint8Array): Uint8Array => concatBytes(u32(bytes.length), bytes);
const text = (s: string): Uint8Array => lp(utf8ToBytes(s));

export interface RoundSeedParams {
  /** The tournament's 32-byte seed (its SHA-256 is the commitment published at creation). */
  tournamentSeed: Uint8Array;
  tournamentId: string;
  round: number;
  /** The organizer seed, then every entrant's seed in entrant order (as fixed when registration closed). */
  seeds: readonly string[];
}

/** The HMAC message of the round seed (for the spec and independent verifiers). */
export function roundSeedMessage(p: Omit<RoundSeedParams, 'tournamentSeed'>): Uint8Array {
  p.seeds.forEach((s, i) => {
    const err = validateClientSeed(s);
    if (err) throw new RangeError(`seeds[${i}]: ${err}`);
  });
  return concatBytes(
    text(ROUND_SEED_TAG),
    text(p.tournamentId),
    u32(p.round),
    u32(p.seeds.length),
    ...p.seeds.map((s) => text(s)),
  );
}

/** The round's shared seed (32 bytes). */
export function roundSeed(p: RoundSeedParams): Uint8Array {
  assertServerSeed(p.tournamentSeed);
  return hmacSha256(p.tournamentSeed, roundSeedMessage(p));
}

export interface DuplicateAddress {
  /** The game of the round (0-based; a round may have several games per entrant). */
  game: number;
  /** The turn: 0-based count of boxes the seat had filled before this turn. */
  turn: number;
  /** The roll within the turn: 0 (first roll) to 2. */
  roll: number;
}

export interface DuplicateStream {
  roundSeed: Uint8Array;
  tournamentId: string;
  round: number;
}

/** The HMAC message of block `block` of the duplicate stream at `at`. */
export function duplicateMessage(
  s: Omit<DuplicateStream, 'roundSeed'>,
  at: DuplicateAddress,
  block: number,
): Uint8Array {
  return concatBytes(
    text(DUPLICATE_TAG),
    text(s.tournamentId),
    u32(s.round),
    u32(at.game),
    u32(at.turn),
    u32(at.roll),
    u32(block),
  );
}

/** The five faces of roll `at.roll` of turn `at.turn`: position p holds faces[p]. Identical for every entrant. */
export function duplicateFaces(s: DuplicateStream, at: DuplicateAddress): Die[] {
  assertServerSeed(s.roundSeed);
  const mac = keyedHmacSha256(s.roundSeed);
  const faces: Die[] = [];
  for (let block = 0; faces.length < DUPLICATE_POSITIONS; block++) {
    const out = mac(duplicateMessage(s, at, block));
    for (let i = 0; i < out.length && faces.length < DUPLICATE_POSITIONS; i++) {
      if (out[i] < REJECTION_THRESHOLD) faces.push(((out[i] % 6) + 1) as Die);
    }
  }
  return faces;
}

/** The dice a roll throws: the faces of the stream at the rolled (not held) positions, in position order. */
export function duplicateRoll(s: DuplicateStream, at: DuplicateAddress, positions: readonly number[]): Die[] {
  const faces = duplicateFaces(s, at);
  return positions.map((p) => {
    if (!Number.isInteger(p) || p < 0 || p >= DUPLICATE_POSITIONS) throw new RangeError(`no position ${p}`);
    return faces[p];
  });
}

/** An entrant's draw key for the round (hex). */
export function drawKey(roundSeedBytes: Uint8Array, entrantId: string): string {
  assertServerSeed(roundSeedBytes);
  return bytesToHex(hmacSha256(roundSeedBytes, concatBytes(text(TABLE_DRAW_TAG), text(entrantId))));
}

/**
 * Table sizes for `n` entrants with at most `max` per table: the fewest tables, as equal as
 * possible, larger tables first (7 entrants, max 3: 3, 2, 2). null when a table would be smaller than `min`.
 */
export function tableSizes(n: number, min: number, max: number): number[] | null {
  if (n < min || n < 1) return null;
  const tables = Math.ceil(n / max);
  const base = Math.floor(n / tables);
  if (base < min) return null;
  const extra = n % tables;
  return Array.from({ length: tables }, (_, i) => base + (i < extra ? 1 : 0));
}

/**
 * The round's tables: entrant ids sorted by draw key, cut into `tableSizes` in order; a table's
 * seats follow the same order. null when the entrants cannot be seated within min..max.
 */
export function tableDraw(
  roundSeedBytes: Uint8Array,
  entrantIds: readonly string[],
  min: number,
  max: number,
): string[][] | null {
  const sizes = tableSizes(entrantIds.length, min, max);
  if (!sizes) return null;
  const keyed = entrantIds.map((id) => ({ id, key: drawKey(roundSeedBytes, id) }));
  keyed.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  const tables: string[][] = [];
  let next = 0;
  for (const size of sizes) {
    tables.push(keyed.slice(next, next + size).map((k) => k.id));
    next += size;
  }
  return tables;
}

/** Round seed from hex inputs (convenience for verifiers). */
export function roundSeedHex(p: Omit<RoundSeedParams, 'tournamentSeed'> & { tournamentSeedHex: string }): string {
  return bytesToHex(roundSeed({ ...p, tournamentSeed: hexToBytes(p.tournamentSeedHex) }));
}
