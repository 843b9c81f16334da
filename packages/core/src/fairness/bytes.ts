/**
 * Byte helpers for the browser-safe fairness code: Uint8Array instead of Node's Buffer, SHA-256
 * and HMAC-SHA256 from @noble/hashes (audited, zero-dependency, the same code in Node and in a
 * browser). No `node:` import anywhere in @fairdice/core (see scripts/check-rules-purity.js).
 */
import { hmac } from '@noble/hashes/hmac.js';
import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex, concatBytes, hexToBytes as nobleHexToBytes, utf8ToBytes } from '@noble/hashes/utils.js';

export { bytesToHex, concatBytes, utf8ToBytes };

/**
 * Is `value` a Uint8Array (a Node Buffer is one)? Also true for one from another realm (a Jest
 * sandbox, an iframe), where `instanceof` is false.
 */
export function isBytes(value: unknown): value is Uint8Array {
  return (
    value instanceof Uint8Array ||
    (ArrayBuffer.isView(value) && Object.prototype.toString.call(value) === '[object Uint8Array]')
  );
}

/** A plain Uint8Array of this realm holding the same bytes (a Buffer or foreign-realm array is copied). */
export function toBytes(value: Uint8Array): Uint8Array {
  return value instanceof Uint8Array && value.constructor === Uint8Array ? value : new Uint8Array(value);
}

/** Bytes from hex digits (either case, even length). Throws on anything else. */
export function hexToBytes(hex: string): Uint8Array {
  return nobleHexToBytes(hex);
}

/** SHA-256 of `bytes`. */
export function sha256Bytes(bytes: Uint8Array): Uint8Array {
  return sha256(toBytes(bytes));
}

/** Lowercase hex SHA-256 of `bytes`. */
export function sha256Hex(bytes: Uint8Array): string {
  return bytesToHex(sha256Bytes(bytes));
}

/** HMAC-SHA256(key, message). */
export function hmacSha256(key: Uint8Array, message: Uint8Array): Uint8Array {
  return hmac(sha256, toBytes(key), toBytes(message));
}

/**
 * A keyed HMAC-SHA256 whose key schedule is computed once: `mac(message)` then costs two
 * compressions plus the message's, as node:crypto's createHmac would.
 */
export function keyedHmacSha256(key: Uint8Array): (message: Uint8Array) => Uint8Array {
  const keyed = hmac.create(sha256, toBytes(key));
  return (message) => keyed.clone().update(toBytes(message)).digest();
}

/**
 * The two hash primitives on a game's hot path (each event's hash, each roll's HMAC blocks). The
 * defaults are @noble/hashes; a host with a native SHA-256 (the server: node:crypto) passes its
 * own. Any correct implementation gives the same bytes, so the choice changes speed, not results.
 */
export interface HashPrimitives {
  /** Lowercase hex SHA-256 of the UTF-8 encoding of `text` (a well-formed string). */
  sha256HexOfText(text: string): string;
  /** `keyedHmacSha256`'s contract: HMAC-SHA256 with this key, the key copied now. */
  keyedHmacSha256(key: Uint8Array): (message: Uint8Array) => Uint8Array;
}

export const NOBLE_HASHES: HashPrimitives = {
  sha256HexOfText: (text) => bytesToHex(sha256(utf8ToBytes(text))),
  keyedHmacSha256,
};
