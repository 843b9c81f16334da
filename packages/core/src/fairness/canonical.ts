/**
 * Canonical JSON for hashing (docs/fairness.md §4.1): the subset of RFC 8785 (JCS) that our
 * events use.
 *
 * - null, true, false.
 * - Numbers: integers only, |n| <= 2^53 - 1, written in decimal without exponent, sign only if
 *   negative, -0 written as 0. Non-integers, NaN, ±Infinity and unsafe integers are rejected.
 * - Strings: JSON.stringify's escaping, which is RFC 8785's: \" \\ \b \f \n \r \t, other
 *   characters below U+0020 as \u00xx (lowercase hex); everything else as itself. Strings with a
 *   lone surrogate are rejected (they have no UTF-8 encoding).
 * - Arrays: elements in order, separated by ",".
 * - Objects: plain objects only; members sorted by key, comparing keys as sequences of UTF-16
 *   code units (RFC 8785 §3.2.3; for ASCII keys this is plain byte order); a member whose value
 *   is `undefined` is omitted (as JSON.stringify does), so a payload hashes the same before and
 *   after a JSON round trip.
 * - No whitespace anywhere. The bytes hashed are the UTF-8 encoding of the resulting string.
 */
import { utf8ToBytes } from './bytes';

export class CanonicalJsonError extends TypeError {
  constructor(
    message: string,
    readonly path: string,
  ) {
    super(`${message} at ${path}`);
    this.name = 'CanonicalJsonError';
  }
}

const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

function encodeString(s: string, path: string): string {
  if (LONE_SURROGATE.test(s)) throw new CanonicalJsonError('string contains a lone surrogate', path);
  return JSON.stringify(s);
}

const compareCodeUnits = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

function encode(value: unknown, path: string, stack: Set<object>): string {
  if (value === null) return 'null';
  switch (typeof value) {
    case 'boolean':
      return value ? 'true' : 'false';
    case 'number':
      if (!Number.isFinite(value)) throw new CanonicalJsonError(`non-finite number ${value}`, path);
      if (!Number.isInteger(value)) throw new CanonicalJsonError(`non-integer number ${value}`, path);
      if (!Number.isSafeInteger(value)) throw new CanonicalJsonError(`integer ${value} outside ±(2^53-1)`, path);
      return Object.is(value, -0) ? '0' : String(value);
    case 'string':
      return encodeString(value, path);
    case 'object':
      break;
    default:
      throw new CanonicalJsonError(`unsupported value of type ${typeof value}`, path);
  }
  const obj = value;
  if (stack.has(obj)) throw new CanonicalJsonError('cyclic structure', path);
  stack.add(obj);
  try {
    if (Array.isArray(obj)) {
      const parts: string[] = [];
      for (let i = 0; i < obj.length; i++) {
        if (!(i in obj) || obj[i] === undefined)
          throw new CanonicalJsonError('hole or undefined in array', `${path}[${i}]`);
        parts.push(encode(obj[i], `${path}[${i}]`, stack));
      }
      return `[${parts.join(',')}]`;
    }
    const proto = Object.getPrototypeOf(obj);
    if (proto !== Object.prototype && proto !== null) {
      throw new CanonicalJsonError(
        `unsupported object (${obj.constructor?.name ?? 'unknown'}); use plain objects`,
        path,
      );
    }
    if (Object.getOwnPropertySymbols(obj).length > 0) throw new CanonicalJsonError('symbol keys are not allowed', path);
    const record = obj as Record<string, unknown>;
    const keys = Object.keys(record)
      .filter((k) => record[k] !== undefined)
      .sort(compareCodeUnits);
    const parts = keys.map((k) => `${encodeString(k, `${path}.${k}`)}:${encode(record[k], `${path}.${k}`, stack)}`);
    return `{${parts.join(',')}}`;
  } finally {
    stack.delete(obj);
  }
}

/**
 * The fast path: the same text as `encode` for every value inside the subset, built without
 * paths or a cycle set (both cost more than the encoding on an event). Anything unusual (a
 * lone surrogate, a non-integer, a non-plain object, a symbol key, more than MAX_FAST_DEPTH
 * levels, which is also where a cycle ends up) gives null, and `encode` then decides, with its
 * errors.
 */
const MAX_FAST_DEPTH = 64;
const ANY_SURROGATE = /[\ud800-\udfff]/;
/** Member names recur on every event ("type", "seat", "dice" ...): their JSON text, kept. */
const keyTexts = new Map<string, string>();
const MAX_KEY_TEXTS = 1024;

const wellFormed = (s: string): boolean => !(ANY_SURROGATE.test(s) && LONE_SURROGATE.test(s));

function keyText(k: string): string | null {
  let text = keyTexts.get(k);
  if (text === undefined) {
    if (!wellFormed(k)) return null;
    text = JSON.stringify(k);
    if (keyTexts.size < MAX_KEY_TEXTS) keyTexts.set(k, text);
  }
  return text;
}

const SMALL_OBJECT_MEMBERS = 16;

/**
 * `keys` sorted in place by UTF-16 code units (RFC 8785), as the default sort compares strings.
 * An object has a handful of members: insertion sort moves them without the temporary array
 * `Array.prototype.sort` allocates on every call (a sixteenth of a move's allocations went there).
 */
function sortedKeys(keys: string[]): string[] {
  if (keys.length > SMALL_OBJECT_MEMBERS) return keys.sort();
  for (let i = 1; i < keys.length; i++) {
    const k = keys[i];
    let j = i - 1;
    while (j >= 0 && keys[j] > k) {
      keys[j + 1] = keys[j];
      j--;
    }
    keys[j + 1] = k;
  }
  return keys;
}

function encodeFast(value: unknown, depth: number): string | null {
  if (value === null) return 'null';
  switch (typeof value) {
    case 'boolean':
      return value ? 'true' : 'false';
    case 'number':
      return Number.isSafeInteger(value) ? String(value) : null; // String(-0) is "0"
    case 'string':
      return wellFormed(value) ? JSON.stringify(value) : null;
    case 'object':
      break;
    default:
      return null;
  }
  if (depth >= MAX_FAST_DEPTH) return null;
  if (Array.isArray(value)) {
    let text = '[';
    for (let i = 0; i < value.length; i++) {
      if (!(i in value) || value[i] === undefined) return null;
      const item = encodeFast(value[i], depth + 1);
      if (item === null) return null;
      text += (i === 0 ? '' : ',') + item;
    }
    return text + ']';
  }
  const proto = Object.getPrototypeOf(value);
  if ((proto !== Object.prototype && proto !== null) || Object.getOwnPropertySymbols(value).length > 0) return null;
  const record = value as Record<string, unknown>;
  const keys = sortedKeys(Object.keys(record));
  let text = '{';
  for (const k of keys) {
    const v = record[k];
    if (v === undefined) continue;
    const name = keyText(k);
    const member = name === null ? null : encodeFast(v, depth + 1);
    if (member === null) return null;
    text += (text.length === 1 ? '' : ',') + name + ':' + member;
  }
  return text + '}';
}

/** The canonical JSON text of `value`. Throws `CanonicalJsonError` for anything outside the subset. */
export function canonicalJson(value: unknown): string {
  if (value === undefined) throw new CanonicalJsonError('undefined is not JSON', '$');
  return encodeFast(value, 0) ?? encode(value, '$', new Set());
}

/** The UTF-8 bytes of `canonicalJson(value)`: what is hashed. */
export function canonicalBytes(value: unknown): Uint8Array {
  return utf8ToBytes(canonicalJson(value));
}
