/**
 * The server's hash primitives for the game's hot path (decision 0157): node:crypto's native
 * SHA-256 and HMAC instead of @noble/hashes' JavaScript, the same bytes (node-hashes.spec.ts).
 * @fairdice/core keeps @noble/hashes as its default, so verifiers and browsers need no Node.
 */
import { createHmac, hash } from 'node:crypto';
import type { HashPrimitives } from '@fairdice/core/fairness/bytes';

export const NODE_HASHES: HashPrimitives = {
  sha256HexOfText: (text) => hash('sha256', text, 'hex'), // one-shot: no Hash object per event
  keyedHmacSha256: (key) => {
    const copy = Buffer.from(key); // keyed now: a later change to the caller's bytes cannot change the dice
    return (message) => createHmac('sha256', copy).update(message).digest();
  },
};
