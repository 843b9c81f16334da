/**
 * Deterministic, unbiased dice from the commit–reveal stream (docs/fairness.md §3).
 *
 *   block(r, k) = HMAC-SHA256(key = serverSeed (32 bytes), message(r, k))
 *   message(r, k) = lp("fairdice/roll/v1") || lp(gameId) || u32(n) || lp(seed_1) .. lp(seed_n) || u32(r) || u32(k)
 *   lp(x) = u32(byteLength(x)) || x,  u32 = unsigned 32-bit big-endian
 *
 * Bytes of block 0, 1, 2, ... are read in order; a byte b < 252 gives the face (b mod 6) + 1,
 * a byte b >= 252 is rejected (252 = 42 * 6, so every face has exactly 42 accepting byte values).
 * Reading stops as soon as `count` faces are produced; the rest of the last block is discarded.
 */
import type { Die, RollDice } from '../rules/core/dice';
import { bytesToHex, concatBytes, type HashPrimitives, keyedHmacSha256, NOBLE_HASHES, utf8ToBytes } from './bytes';
import { assertServerSeed, validateClientSeed } from './seeds';
import { UUID_PATTERN as GAME_ID_PATTERN } from './ids';

export { GAME_ID_PATTERN };

export const ROLL_DOMAIN_TAG = 'fairdice/roll/v1';
/** Bytes >= this value are rejected: 252 is the largest multiple of 6 that is <= 256. */
export const REJECTION_THRESHOLD = 252;
export const MAX_ROLL_NUMBER = 0xffffffff;
export const MAX_DICE_PER_ROLL = 10_000;
/** Canonical textual UUID: 8-4-4-4-12 lowercase hex digits (any version). */

export interface StreamParams {
  /** The 32 server-seed bytes (a Node Buffer is a Uint8Array too). */
  serverSeed: Uint8Array;
  /** Already in derivation order (see `orderedClientSeeds`). */
  clientSeeds: readonly string[];
  gameId: string;
}

export interface DeriveParams extends StreamParams {
  rollNumber: number;
  count: number;
}

export interface DiceTrace {
  dice: Die[];
  blocks: Array<{
    blockCounter: number;
    /** The HMAC message, hex. */
    messageHex: string;
    /** The 32 output bytes, hex. */
    outputHex: string;
    /** How many bytes of this block were read (the rest was discarded). */
    bytesRead: number;
  }>;
  /** Every rejected byte (value >= 252), by block and index within the block. */
  rejected: Array<{ blockCounter: number; index: number; byte: number }>;
}

const writeU32 = (into: Uint8Array, offset: number, n: number): void => {
  new DataView(into.buffer, into.byteOffset, into.byteLength).setUint32(offset, n, false);
};
const u32 = (n: number): Uint8Array => {
  const b = new Uint8Array(4);
  writeU32(b, 0, n);
  return b;
};
const lp = (bytes: Uint8Array): Uint8Array => concatBytes(u32(bytes.length), bytes);

function assertStream(p: StreamParams): void {
  assertServerSeed(p.serverSeed);
  if (typeof p.gameId !== 'string' || !GAME_ID_PATTERN.test(p.gameId)) {
    throw new RangeError('gameId must be a lowercase canonical UUID string (8-4-4-4-12 hex digits)');
  }
  if (!Array.isArray(p.clientSeeds)) throw new TypeError('clientSeeds must be an array');
  p.clientSeeds.forEach((s, i) => {
    const err = validateClientSeed(s);
    if (err) throw new RangeError(`clientSeeds[${i}]: ${err}`);
  });
}

function assertRollNumber(rollNumber: number): void {
  if (!Number.isInteger(rollNumber) || rollNumber < 0 || rollNumber > MAX_ROLL_NUMBER) {
    throw new RangeError(`rollNumber must be an integer in [0, ${MAX_ROLL_NUMBER}], got ${rollNumber}`);
  }
}

function assertCount(count: number): void {
  if (!Number.isInteger(count) || count < 0 || count > MAX_DICE_PER_ROLL) {
    throw new RangeError(`count must be an integer in [0, ${MAX_DICE_PER_ROLL}], got ${count}`);
  }
}

/** The part of the message shared by every roll of a game: tag, game id, seed count and seeds. */
function streamPrefix(p: StreamParams): Uint8Array {
  // The tag and the game id are ASCII (checked), so their UTF-8 bytes are their ASCII bytes.
  return concatBytes(
    lp(utf8ToBytes(ROLL_DOMAIN_TAG)),
    lp(utf8ToBytes(p.gameId)),
    u32(p.clientSeeds.length),
    ...p.clientSeeds.map((s) => lp(utf8ToBytes(s))),
  );
}

/** The exact HMAC message for roll `rollNumber`, block `blockCounter` (for the spec and verifiers). */
export function rollMessage(p: StreamParams & { rollNumber: number; blockCounter: number }): Uint8Array {
  assertStream(p);
  assertRollNumber(p.rollNumber);
  assertRollNumber(p.blockCounter);
  return concatBytes(streamPrefix(p), u32(p.rollNumber), u32(p.blockCounter));
}

/** Face for one output byte, or null when the byte is rejected. */
export function byteToFace(b: number): Die | null {
  return b < REJECTION_THRESHOLD ? (((b % 6) + 1) as Die) : null;
}

/** HMAC-SHA256 keyed with the server seed (the key schedule is computed once per stream). */
type KeyedMac = (message: Uint8Array) => Uint8Array;

function derive(mac: KeyedMac, prefix: Uint8Array, rollNumber: number, count: number, trace: DiceTrace | null): Die[] {
  const dice: Die[] = [];
  if (count === 0) return dice;
  const message = new Uint8Array(prefix.length + 8);
  message.set(prefix, 0);
  writeU32(message, prefix.length, rollNumber);
  for (let blockCounter = 0; dice.length < count; blockCounter++) {
    if (blockCounter > MAX_ROLL_NUMBER) throw new Error('block counter overflow'); // unreachable in practice
    writeU32(message, prefix.length + 4, blockCounter);
    const out = mac(message);
    let i = 0;
    for (; i < out.length && dice.length < count; i++) {
      const b = out[i];
      if (b < REJECTION_THRESHOLD) dice.push(((b % 6) + 1) as Die);
      else if (trace) trace.rejected.push({ blockCounter, index: i, byte: b });
    }
    if (trace) {
      trace.blocks.push({
        blockCounter,
        messageHex: bytesToHex(message),
        outputHex: bytesToHex(out),
        bytesRead: i,
      });
    }
  }
  return dice;
}

/** The `count` dice of roll `rollNumber`. Pure: the same inputs always give the same faces. */
export function deriveDice(p: DeriveParams): Die[] {
  assertStream(p);
  assertRollNumber(p.rollNumber);
  assertCount(p.count);
  return derive(keyedHmacSha256(p.serverSeed), streamPrefix(p), p.rollNumber, p.count, null);
}

/** Like `deriveDice`, also returning the blocks read and every rejected byte (for test vectors and verifiers). */
export function deriveDiceWithTrace(p: DeriveParams): DiceTrace {
  assertStream(p);
  assertRollNumber(p.rollNumber);
  assertCount(p.count);
  const trace: DiceTrace = { dice: [], blocks: [], rejected: [] };
  trace.dice = derive(keyedHmacSha256(p.serverSeed), streamPrefix(p), p.rollNumber, p.count, trace);
  return trace;
}

/** A game's stream keyed once: the dice of any roll number (what `diceRoller` numbers in order). */
export interface DiceStream {
  dice(rollNumber: number, count: number): Die[];
}

/** The stream of `params`, validated and keyed now, for a host that rolls one game many times. */
export function diceStream(params: StreamParams, hashes: HashPrimitives = NOBLE_HASHES): DiceStream {
  assertStream(params);
  // Keyed now: later mutation of the caller's seed bytes cannot change the dice.
  const mac = hashes.keyedHmacSha256(params.serverSeed);
  const prefix = streamPrefix(params);
  return {
    dice(rollNumber, count) {
      assertCount(count);
      assertRollNumber(rollNumber);
      return derive(mac, prefix, rollNumber, count, null);
    },
  };
}

export interface RecordedRoll {
  rollNumber: number;
  dice: Die[];
}

/**
 * A `RollDice` backed by the stream: each call consumes the next roll number (starting at
 * `firstRollNumber`, i.e. the game's count of rolls so far) and is recorded in `rolls`.
 * A call with `count` 0 still consumes a roll number (it is still a call of the roller).
 */
export function diceRoller(
  params: StreamParams & { firstRollNumber: number },
  hashes: HashPrimitives = NOBLE_HASHES,
): {
  roll: RollDice;
  readonly rolls: ReadonlyArray<RecordedRoll>;
  /** The roll number the next call will use. */
  readonly nextRollNumber: number;
} {
  const stream = diceStream(params, hashes);
  assertRollNumber(params.firstRollNumber);
  const rolls: RecordedRoll[] = [];
  let next = params.firstRollNumber;
  const roll: RollDice = (count) => {
    const dice = stream.dice(next, count);
    rolls.push({ rollNumber: next, dice: [...dice] });
    next += 1;
    return dice;
  };
  return {
    roll,
    rolls,
    get nextRollNumber() {
      return next;
    },
  };
}

/**
 * Re-derives recorded rolls and compares them. Used by tests and by the audit verifier.
 * Returns the first mismatch, in the order given.
 */
export function verifyRolls(
  stream: StreamParams,
  rolls: ReadonlyArray<{ rollNumber: number; dice: readonly number[] }>,
): { ok: true } | { ok: false; rollNumber: number; expected: Die[]; actual: number[] } {
  assertStream(stream);
  const prefix = streamPrefix(stream);
  const mac = keyedHmacSha256(stream.serverSeed);
  for (const r of rolls) {
    assertRollNumber(r.rollNumber);
    assertCount(r.dice.length);
    const expected = derive(mac, prefix, r.rollNumber, r.dice.length, null);
    if (expected.some((d, i) => d !== r.dice[i])) {
      return { ok: false, rollNumber: r.rollNumber, expected, actual: [...r.dice] };
    }
  }
  return { ok: true };
}
