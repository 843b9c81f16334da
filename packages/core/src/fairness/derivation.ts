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
import { createHmac } from 'node:crypto';
import type { Die, RollDice } from '../rules/core/dice';
import { assertServerSeed, validateClientSeed } from './seeds';

export const ROLL_DOMAIN_TAG = 'fairdice/roll/v1';
/** Bytes >= this value are rejected: 252 is the largest multiple of 6 that is <= 256. */
export const REJECTION_THRESHOLD = 252;
export const MAX_ROLL_NUMBER = 0xffffffff;
export const MAX_DICE_PER_ROLL = 10_000;
/** Canonical textual UUID: 8-4-4-4-12 lowercase hex digits (any version). */
export const GAME_ID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

export interface StreamParams {
  serverSeed: Buffer;
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

const u32 = (n: number): Buffer => {
  const b = Buffer.allocUnsafe(4);
  b.writeUInt32BE(n, 0);
  return b;
};
const lp = (bytes: Buffer): Buffer => Buffer.concat([u32(bytes.length), bytes]);

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
function streamPrefix(p: StreamParams): Buffer {
  return Buffer.concat([
    lp(Buffer.from(ROLL_DOMAIN_TAG, 'ascii')),
    lp(Buffer.from(p.gameId, 'ascii')),
    u32(p.clientSeeds.length),
    ...p.clientSeeds.map((s) => lp(Buffer.from(s, 'utf8'))),
  ]);
}

/** The exact HMAC message for roll `rollNumber`, block `blockCounter` (for the spec and verifiers). */
export function rollMessage(p: StreamParams & { rollNumber: number; blockCounter: number }): Buffer {
  assertStream(p);
  assertRollNumber(p.rollNumber);
  assertRollNumber(p.blockCounter);
  return Buffer.concat([streamPrefix(p), u32(p.rollNumber), u32(p.blockCounter)]);
}

/** Face for one output byte, or null when the byte is rejected. */
export function byteToFace(b: number): Die | null {
  return b < REJECTION_THRESHOLD ? (((b % 6) + 1) as Die) : null;
}

function derive(serverSeed: Buffer, prefix: Buffer, rollNumber: number, count: number, trace: DiceTrace | null): Die[] {
  const dice: Die[] = [];
  if (count === 0) return dice;
  const message = Buffer.allocUnsafe(prefix.length + 8);
  prefix.copy(message, 0);
  message.writeUInt32BE(rollNumber, prefix.length);
  for (let blockCounter = 0; dice.length < count; blockCounter++) {
    if (blockCounter > MAX_ROLL_NUMBER) throw new Error('block counter overflow'); // unreachable in practice
    message.writeUInt32BE(blockCounter, prefix.length + 4);
    const out = createHmac('sha256', serverSeed).update(message).digest();
    let i = 0;
    for (; i < out.length && dice.length < count; i++) {
      const b = out[i];
      if (b < REJECTION_THRESHOLD) dice.push(((b % 6) + 1) as Die);
      else if (trace) trace.rejected.push({ blockCounter, index: i, byte: b });
    }
    if (trace) {
      trace.blocks.push({
        blockCounter,
        messageHex: message.toString('hex'),
        outputHex: out.toString('hex'),
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
  return derive(p.serverSeed, streamPrefix(p), p.rollNumber, p.count, null);
}

/** Like `deriveDice`, also returning the blocks read and every rejected byte (for test vectors and verifiers). */
export function deriveDiceWithTrace(p: DeriveParams): DiceTrace {
  assertStream(p);
  assertRollNumber(p.rollNumber);
  assertCount(p.count);
  const trace: DiceTrace = { dice: [], blocks: [], rejected: [] };
  trace.dice = derive(p.serverSeed, streamPrefix(p), p.rollNumber, p.count, trace);
  return trace;
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
export function diceRoller(params: StreamParams & { firstRollNumber: number }): {
  roll: RollDice;
  readonly rolls: ReadonlyArray<RecordedRoll>;
  /** The roll number the next call will use. */
  readonly nextRollNumber: number;
} {
  assertStream(params);
  assertRollNumber(params.firstRollNumber);
  const serverSeed = Buffer.from(params.serverSeed); // a private copy: later mutation of the caller's buffer cannot change dice
  const prefix = streamPrefix(params);
  const rolls: RecordedRoll[] = [];
  let next = params.firstRollNumber;
  const roll: RollDice = (count) => {
    assertCount(count);
    assertRollNumber(next);
    const dice = derive(serverSeed, prefix, next, count, null);
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
  for (const r of rolls) {
    assertRollNumber(r.rollNumber);
    assertCount(r.dice.length);
    const expected = derive(stream.serverSeed, prefix, r.rollNumber, r.dice.length, null);
    if (expected.some((d, i) => d !== r.dice[i])) {
      return { ok: false, rollNumber: r.rollNumber, expected, actual: [...r.dice] };
    }
  }
  return { ok: true };
}
