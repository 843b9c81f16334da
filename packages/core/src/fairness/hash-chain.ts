/**
 * Tamper-evident event log (docs/fairness.md §4).
 *
 *   hash(e) = lowercase hex SHA-256 of canonicalJson({ gameId, version, type, seat, data, rollNumber, command, prevHash })
 *   e[0].prevHash = the game's commitment (hex SHA-256 of the server seed);  e[i].prevHash = hash(e[i-1])
 *   head = hash(last event)
 */
import { type HashPrimitives, NOBLE_HASHES } from './bytes';
import { canonicalJson } from './canonical';
import { HEX_SHA256_PATTERN } from './seeds';

/** Version of the first event of every game; versions then increase by exactly 1. */
export const FIRST_EVENT_VERSION = 1;

export interface EventEnvelope {
  gameId: string;
  /** Position of the event in the game's stream: 1, 2, 3, ... */
  version: number;
  type: string;
  /** The acting seat, or null for events without an actor (game created, game started, ...). */
  seat: number | null;
  /** The event payload: a plain JSON object (integers only, see canonical.ts). */
  data: Record<string, unknown>;
  /** The roll number whose dice this event records, or null when the event records no roll. */
  rollNumber: number | null;
  /**
   * The command that produced this event's batch, on the batch's FIRST event (a plain JSON
   * object), or null on every other event. Hashed, so commands are covered by the chain.
   */
  command: object | null;
  /** hash of the previous event; for the first event, the game's commitment. */
  prevHash: string;
}

export type HashedEventEnvelope = EventEnvelope & { hash: string };

/** Exactly the eight envelope fields, in a fresh object (other properties such as `hash` are not hashed). */
export function envelopeFields(e: EventEnvelope): EventEnvelope {
  return {
    gameId: e.gameId,
    version: e.version,
    type: e.type,
    seat: e.seat,
    data: e.data,
    rollNumber: e.rollNumber,
    command: e.command,
    prevHash: e.prevHash,
  };
}

/** Why the envelope is malformed, or null. */
export function envelopeShapeError(e: unknown): string | null {
  if (typeof e !== 'object' || e === null || Array.isArray(e)) return 'envelope is not an object';
  const v = e as Record<string, unknown>;
  if (typeof v.gameId !== 'string' || v.gameId.length === 0) return 'gameId must be a non-empty string';
  if (!Number.isSafeInteger(v.version) || (v.version as number) < FIRST_EVENT_VERSION)
    return 'version must be a positive integer';
  if (typeof v.type !== 'string' || v.type.length === 0) return 'type must be a non-empty string';
  if (v.seat !== null && (!Number.isSafeInteger(v.seat) || (v.seat as number) < 0))
    return 'seat must be a non-negative integer or null';
  if (typeof v.data !== 'object' || v.data === null || Array.isArray(v.data)) return 'data must be an object';
  if (v.rollNumber !== null && (!Number.isSafeInteger(v.rollNumber) || (v.rollNumber as number) < 0)) {
    return 'rollNumber must be a non-negative integer or null';
  }
  if (v.command === undefined) return 'command must be present (an object, or null)';
  if (v.command !== null && (typeof v.command !== 'object' || Array.isArray(v.command)))
    return 'command must be an object or null';
  if (typeof v.prevHash !== 'string' || !HEX_SHA256_PATTERN.test(v.prevHash))
    return 'prevHash must be 64 lowercase hex digits';
  return null;
}

/** Lowercase hex SHA-256 of the canonical JSON of the envelope's eight fields. Throws on a malformed envelope. */
export function eventHash(envelope: EventEnvelope, hashes: HashPrimitives = NOBLE_HASHES): string {
  return hashOfFields(envelopeFields(envelope), hashes);
}

/** eventHash of an envelope that has exactly the eight fields (no copy to drop others). */
function hashOfFields(fields: EventEnvelope, hashes: HashPrimitives): string {
  const err = envelopeShapeError(fields);
  if (err) throw new TypeError(`invalid event envelope: ${err}`);
  return hashes.sha256HexOfText(canonicalJson(fields));
}

/** Builds the next envelope of a chain: fills in `prevHash` and returns it with its `hash`. */
export function appendEvent(
  prevHash: string,
  e: Omit<EventEnvelope, 'prevHash'>,
  hashes: HashPrimitives = NOBLE_HASHES,
): HashedEventEnvelope {
  const envelope = envelopeFields({ ...e, prevHash });
  return { ...envelope, hash: hashOfFields(envelope, hashes) };
}

export type ChainVerification =
  { ok: true; head: string; eventCount: number } | { ok: false; version: number | null; index: number; reason: string };

export interface VerifyChainOptions {
  /** The published chain head; when given, the chain must end exactly there (detects truncation). */
  expectedHead?: string;
  /** When given, every event must carry this gameId. */
  gameId?: string;
  /**
   * How many roll numbers an event consumes (default: 1 when `rollNumber` is non-null, else 0).
   * Non-null roll numbers must then run 0, 1, 2, ... without gaps or repeats, so a dropped or
   * replayed roll is detected.
   */
  rollsInEvent?: (e: EventEnvelope) => number;
  /**
   * Strict envelope (the verifier's mode): an event may carry only the eight hashed members and
   * `hash`. Any other member (a `note`, a `signature`...) is not covered by the hash, so a verifier
   * must not let it pass as part of the log.
   */
  strict?: boolean;
}

/** The members an event may carry in a bundle: the eight hashed ones, and its `hash`. */
export const ENVELOPE_MEMBERS = [
  'gameId',
  'version',
  'type',
  'seat',
  'data',
  'rollNumber',
  'command',
  'prevHash',
  'hash',
] as const;

/**
 * Checks an ordered event list against the commitment: shapes, one gameId, versions 1, 2, 3, ...,
 * prevHash links (the first one to the commitment), stored `hash` fields when present, contiguous
 * roll numbers, and optionally the published head. The head of an empty chain is the commitment.
 */
export function verifyChain(
  commitment: string,
  envelopes: ReadonlyArray<EventEnvelope & { hash?: string }>,
  options: VerifyChainOptions = {},
): ChainVerification {
  const fail = (index: number, reason: string): ChainVerification => {
    const v = envelopes[index]?.version;
    return { ok: false, version: Number.isSafeInteger(v) ? v : null, index, reason };
  };
  if (typeof commitment !== 'string' || !HEX_SHA256_PATTERN.test(commitment)) {
    return { ok: false, version: null, index: -1, reason: 'commitment must be 64 lowercase hex digits' };
  }
  const rollsIn = options.rollsInEvent ?? ((e: EventEnvelope) => (e.rollNumber === null ? 0 : 1));
  const gameId = options.gameId ?? envelopes[0]?.gameId;
  let prev = commitment;
  let nextRoll = 0;
  for (let i = 0; i < envelopes.length; i++) {
    const e = envelopes[i];
    const shape = envelopeShapeError(e);
    if (shape) return fail(i, `malformed envelope: ${shape}`);
    if (options.strict) {
      const extra = Object.keys(e).filter((k) => !(ENVELOPE_MEMBERS as readonly string[]).includes(k));
      if (extra.length > 0)
        return fail(
          i,
          `unknown envelope member ${extra.map((k) => JSON.stringify(k)).join(', ')} (not hashed, not allowed)`,
        );
    }
    if (e.gameId !== gameId) return fail(i, `gameId ${e.gameId} differs from ${gameId}`);
    if (e.version !== FIRST_EVENT_VERSION + i) {
      return fail(
        i,
        `version ${e.version} where ${FIRST_EVENT_VERSION + i} was expected (event missing, inserted or reordered)`,
      );
    }
    if (e.prevHash !== prev) {
      return fail(
        i,
        i === 0
          ? 'first prevHash is not the commitment'
          : `prevHash does not match the hash of version ${e.version - 1}`,
      );
    }
    let h: string;
    try {
      h = eventHash(e);
    } catch (err) {
      return fail(i, `cannot hash: ${(err as Error).message}`);
    }
    if (e.hash !== undefined && e.hash !== h) return fail(i, 'stored hash does not match the recomputed hash');
    const n = rollsIn(e);
    if (e.rollNumber !== null) {
      if (e.rollNumber !== nextRoll)
        return fail(i, `rollNumber ${e.rollNumber} where ${nextRoll} was expected (roll dropped or replayed)`);
      if (!Number.isSafeInteger(n) || n < 1)
        return fail(i, 'an event with a rollNumber must consume at least one roll');
      nextRoll += n;
    } else if (n !== 0) {
      return fail(i, 'an event without a rollNumber cannot consume rolls');
    }
    prev = h;
  }
  if (options.expectedHead !== undefined && options.expectedHead !== prev) {
    return {
      ok: false,
      version: envelopes.at(-1)?.version ?? null,
      index: envelopes.length,
      reason: 'chain does not end at the published head (events missing at the end, or extra events)',
    };
  }
  return { ok: true, head: prev, eventCount: envelopes.length };
}
