/**
 * The transparency log of commitments (docs/fairness.md §9): an append-only Merkle log in the
 * style of Certificate Transparency (RFC 9162 §2.1). Pure and browser-safe (no `node:` imports):
 * the service, the offline verifier and the HTML page share it.
 *
 * - Leaf: a 62-byte record (encodeLeaf) naming a game, an event version of its hash chain and
 *   the chain's hash at that version: the commitment at creation (version 0), the final chain
 *   head once the game has ended.
 * - Hashes (RFC 9162 §2.1.1): leaf hash = SHA-256(0x00 || leaf), interior node =
 *   SHA-256(0x01 || left || right), the root of the empty tree = SHA-256("").
 * - Inclusion and consistency proofs: RFC 9162 §2.1.3 and §2.1.4, generation and verification.
 * - Signed tree head: Ed25519 (RFC 8032) over encodeTreeHead(treeSize, timestamp, rootHash).
 */
import { ed25519 } from '@noble/curves/ed25519.js';
import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex, hexToBytes } from '@noble/hashes/utils.js';
import { UUID_PATTERN as UUID } from './ids';

export const LOG_LEAF_VERSION = 1;
export const LOG_LEAF_BYTES = 62;
/** What a leaf records: the commitment when the game was created, the final head when it ended. */
export const LOG_LEAF_KINDS = { created: 1, ended: 2 } as const;
export type LogLeafKind = keyof typeof LOG_LEAF_KINDS;
/** Domain-separation prefix of the signed tree head bytes (ASCII, followed by one 0x00 byte). */
export const TREE_HEAD_CONTEXT = 'fairdice/tree-head/v1';
export const TREE_HEAD_BYTES = TREE_HEAD_CONTEXT.length + 1 + 8 + 8 + 32;
export const LOG_SIGNATURE_ALGORITHM = 'ed25519';

const HEX64 = /^[0-9a-f]{64}$/;
const HEX128 = /^[0-9a-f]{128}$/;
const MAX_U32 = 0xffffffff;

export interface LogLeaf {
  kind: LogLeafKind;
  /** Milliseconds since the Unix epoch: when the service wrote the leaf. */
  timestamp: number;
  /** The game's id (lowercase UUID). */
  gameId: string;
  /** The event version the value belongs to: 0 for the commitment, the last version for the final head. */
  eventVersion: number;
  /** 64 lowercase hex: the commitment (created) or the chain head at eventVersion (ended). */
  value: string;
}

export interface TreeHead {
  treeSize: number;
  /** Milliseconds since the Unix epoch: when the head was signed. */
  timestamp: number;
  /** 64 lowercase hex. */
  rootHash: string;
}

export interface SignedTreeHead extends TreeHead {
  /** 128 lowercase hex: Ed25519 signature over encodeTreeHead(head). */
  signature: string;
}

export const toHex = (b: Uint8Array): string => bytesToHex(b);
export const fromHex = (h: string): Uint8Array => hexToBytes(h);

function writeU64(out: Uint8Array, offset: number, n: number): void {
  if (!Number.isSafeInteger(n) || n < 0) throw new RangeError(`not a non-negative safe integer: ${n}`);
  const hi = Math.floor(n / 2 ** 32);
  const lo = n >>> 0;
  const view = new DataView(out.buffer, out.byteOffset, out.byteLength);
  view.setUint32(offset, hi);
  view.setUint32(offset + 4, lo);
}

function readU64(bytes: Uint8Array, offset: number): number {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const n = view.getUint32(offset) * 2 ** 32 + view.getUint32(offset + 4);
  if (!Number.isSafeInteger(n)) throw new RangeError('64-bit value beyond 2^53');
  return n;
}

/**
 * The leaf's bytes (62):
 *   0  1  leaf version = 0x01
 *   1  1  kind: 0x01 created (value = commitment), 0x02 ended (value = final chain head)
 *   2  8  timestamp, milliseconds since the Unix epoch, unsigned big-endian
 *  10 16  game id: the UUID's 16 bytes (its 32 hex digits in order)
 *  26  4  event version, unsigned big-endian (0 for created)
 *  30 32  value (the raw 32 bytes of the hex hash)
 */
export function encodeLeaf(leaf: LogLeaf): Uint8Array {
  const kind = LOG_LEAF_KINDS[leaf.kind];
  if (kind === undefined) throw new RangeError(`unknown leaf kind ${String(leaf.kind)}`);
  if (typeof leaf.gameId !== 'string' || !UUID.test(leaf.gameId))
    throw new RangeError('gameId must be a lowercase UUID');
  if (!Number.isInteger(leaf.eventVersion) || leaf.eventVersion < 0 || leaf.eventVersion > MAX_U32)
    throw new RangeError('eventVersion must be a 32-bit unsigned integer');
  if (typeof leaf.value !== 'string' || !HEX64.test(leaf.value)) throw new RangeError('value must be 64 lowercase hex');
  const out = new Uint8Array(LOG_LEAF_BYTES);
  out[0] = LOG_LEAF_VERSION;
  out[1] = kind;
  writeU64(out, 2, leaf.timestamp);
  out.set(hexToBytes(leaf.gameId.replace(/-/g, '')), 10);
  new DataView(out.buffer).setUint32(26, leaf.eventVersion);
  out.set(hexToBytes(leaf.value), 30);
  return out;
}

export function decodeLeaf(bytes: Uint8Array): LogLeaf {
  if (bytes.length !== LOG_LEAF_BYTES) throw new RangeError(`a leaf has ${LOG_LEAF_BYTES} bytes, not ${bytes.length}`);
  if (bytes[0] !== LOG_LEAF_VERSION) throw new RangeError(`unknown leaf version ${bytes[0]}`);
  const kind = (Object.keys(LOG_LEAF_KINDS) as LogLeafKind[]).find((k) => LOG_LEAF_KINDS[k] === bytes[1]);
  if (!kind) throw new RangeError(`unknown leaf kind ${bytes[1]}`);
  const id = bytesToHex(bytes.subarray(10, 26));
  return {
    kind,
    timestamp: readU64(bytes, 2),
    gameId: `${id.slice(0, 8)}-${id.slice(8, 12)}-${id.slice(12, 16)}-${id.slice(16, 20)}-${id.slice(20)}`,
    eventVersion: new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength).getUint32(26),
    value: bytesToHex(bytes.subarray(30, 62)),
  };
}

/** RFC 9162 §2.1.1: SHA-256(0x00 || leaf). */
export function leafHash(leaf: Uint8Array): Uint8Array {
  const input = new Uint8Array(leaf.length + 1);
  input[0] = 0x00;
  input.set(leaf, 1);
  return sha256(input);
}

/** RFC 9162 §2.1.1: SHA-256(0x01 || left || right). */
export function nodeHash(left: Uint8Array, right: Uint8Array): Uint8Array {
  const input = new Uint8Array(1 + left.length + right.length);
  input[0] = 0x01;
  input.set(left, 1);
  input.set(right, 1 + left.length);
  return sha256(input);
}

/** The root of the empty tree: SHA-256 of the empty string. */
export const EMPTY_ROOT = (): Uint8Array => sha256(new Uint8Array(0));

/** The largest power of two smaller than n (n >= 2). */
export function splitPoint(n: number): number {
  let k = 1;
  while (k * 2 < n) k *= 2;
  return k;
}

/** MTH(D[0:n]) over already-hashed leaves (RFC 9162 §2.1.1). */
export function merkleRoot(leafHashes: readonly Uint8Array[]): Uint8Array {
  return rangeRoot(leafHashes, 0, leafHashes.length);
}

function rangeRoot(h: readonly Uint8Array[], lo: number, hi: number): Uint8Array {
  const n = hi - lo;
  if (n === 0) return EMPTY_ROOT();
  if (n === 1) return h[lo];
  const k = splitPoint(n);
  return nodeHash(rangeRoot(h, lo, lo + k), rangeRoot(h, lo + k, hi));
}

/** A half-open range of leaf indexes [lo, hi) that is a subtree of the RFC 9162 tree. */
export type LeafRange = readonly [number, number];

/** The subtrees whose roots form PATH(m, D[0:n]) (RFC 9162 §2.1.3.1), in proof order. */
export function inclusionProofRanges(m: number, n: number): LeafRange[] {
  checkSizes(m, n, true);
  const out: LeafRange[] = [];
  const path = (index: number, lo: number, hi: number): void => {
    if (hi - lo <= 1) return;
    const k = splitPoint(hi - lo);
    if (index < k) {
      path(index, lo, lo + k);
      out.push([lo + k, hi]);
    } else {
      path(index - k, lo + k, hi);
      out.push([lo, lo + k]);
    }
  };
  path(m, 0, n);
  return out;
}

/** The subtrees whose roots form PROOF(m, D[0:n]) (RFC 9162 §2.1.4.1), in proof order. */
export function consistencyProofRanges(m: number, n: number): LeafRange[] {
  if (!Number.isSafeInteger(m) || !Number.isSafeInteger(n) || m < 1 || m > n)
    throw new RangeError(`consistency needs 0 < first <= second, got ${m}, ${n}`);
  const out: LeafRange[] = [];
  const sub = (size: number, lo: number, hi: number, b: boolean): void => {
    if (size === hi - lo) {
      if (!b) out.push([lo, hi]);
      return;
    }
    const k = splitPoint(hi - lo);
    if (size <= k) {
      sub(size, lo, lo + k, b);
      out.push([lo + k, hi]);
    } else {
      sub(size - k, lo + k, hi, false);
      out.push([lo, lo + k]);
    }
  };
  if (m < n) sub(m, 0, n, true);
  return out;
}

/**
 * A subtree [lo, hi) split into perfect subtrees (2^level leaves, aligned), largest first; its
 * root is nodeHash(p1, nodeHash(p2, ... pk)). Each is identified by (level, index = lo >> level).
 */
export function perfectSubtrees(lo: number, hi: number): Array<{ level: number; index: number }> {
  const out: Array<{ level: number; index: number }> = [];
  let start = lo;
  while (start < hi) {
    let size = 1;
    let level = 0;
    while (size * 2 <= hi - start && start % (size * 2) === 0) {
      size *= 2;
      level++;
    }
    out.push({ level, index: start / size });
    start += size;
  }
  return out;
}

/** The root of a subtree from the hashes of its perfectSubtrees (same order). */
export function combinePerfect(hashes: readonly Uint8Array[]): Uint8Array {
  if (hashes.length === 0) return EMPTY_ROOT();
  let h = hashes[hashes.length - 1];
  for (let i = hashes.length - 2; i >= 0; i--) h = nodeHash(hashes[i], h);
  return h;
}

/** The perfect subtrees of the whole tree of size n, left to right (its "compact range"). */
export const frontier = (n: number) => perfectSubtrees(0, n);

/** Inclusion proof generated from every leaf hash (tests, vectors; the service reads stored nodes). */
export function inclusionProof(leafHashes: readonly Uint8Array[], m: number, n: number): Uint8Array[] {
  return inclusionProofRanges(m, n).map(([lo, hi]) => rangeRoot(leafHashes, lo, hi));
}

/** Consistency proof generated from every leaf hash (tests, vectors). */
export function consistencyProof(leafHashes: readonly Uint8Array[], m: number, n: number): Uint8Array[] {
  return consistencyProofRanges(m, n).map(([lo, hi]) => rangeRoot(leafHashes, lo, hi));
}

function checkSizes(index: number, size: number, strict: boolean): void {
  if (
    !Number.isSafeInteger(index) ||
    !Number.isSafeInteger(size) ||
    index < 0 ||
    (strict ? index >= size : index > size)
  )
    throw new RangeError(`leaf index ${index} is not in a tree of size ${size}`);
}

const equal = (a: Uint8Array, b: Uint8Array): boolean => a.length === b.length && a.every((x, i) => x === b[i]);

/** RFC 9162 §2.1.3.2: does `proof` show the leaf (by its hash) at `leafIndex` in the tree of `treeSize` with `root`? */
export function verifyInclusion(
  leafIndex: number,
  treeSize: number,
  leaf: Uint8Array,
  proof: readonly Uint8Array[],
  root: Uint8Array,
): boolean {
  if (!Number.isSafeInteger(leafIndex) || !Number.isSafeInteger(treeSize) || leafIndex < 0 || leafIndex >= treeSize)
    return false;
  let fn = leafIndex;
  let sn = treeSize - 1;
  let r = leaf;
  for (const p of proof) {
    if (sn === 0) return false;
    if (fn % 2 === 1 || fn === sn) {
      r = nodeHash(p, r);
      if (fn % 2 === 0) {
        while (fn % 2 === 0 && fn !== 0) {
          fn = Math.floor(fn / 2);
          sn = Math.floor(sn / 2);
        }
      }
    } else {
      r = nodeHash(r, p);
    }
    fn = Math.floor(fn / 2);
    sn = Math.floor(sn / 2);
  }
  return sn === 0 && equal(r, root);
}

/** RFC 9162 §2.1.4.2: does `proof` show the tree (firstSize, firstRoot) is a prefix of (secondSize, secondRoot)? */
export function verifyConsistency(
  firstSize: number,
  secondSize: number,
  firstRoot: Uint8Array,
  secondRoot: Uint8Array,
  proof: readonly Uint8Array[],
): boolean {
  if (!Number.isSafeInteger(firstSize) || !Number.isSafeInteger(secondSize) || firstSize < 0 || firstSize > secondSize)
    return false;
  if (firstSize === secondSize) return proof.length === 0 && equal(firstRoot, secondRoot);
  if (firstSize === 0) return proof.length === 0; // the empty tree is a prefix of every tree
  let path = [...proof];
  if (isPowerOfTwo(firstSize)) path = [firstRoot, ...path];
  if (path.length === 0) return false;
  let fn = firstSize - 1;
  let sn = secondSize - 1;
  while (fn % 2 === 1) {
    fn = Math.floor(fn / 2);
    sn = Math.floor(sn / 2);
  }
  let fr = path[0];
  let sr = path[0];
  for (const c of path.slice(1)) {
    if (sn === 0) return false;
    if (fn % 2 === 1 || fn === sn) {
      fr = nodeHash(c, fr);
      sr = nodeHash(c, sr);
      if (fn % 2 === 0) {
        while (fn % 2 === 0 && fn !== 0) {
          fn = Math.floor(fn / 2);
          sn = Math.floor(sn / 2);
        }
      }
    } else {
      sr = nodeHash(sr, c);
    }
    fn = Math.floor(fn / 2);
    sn = Math.floor(sn / 2);
  }
  return sn === 0 && equal(fr, firstRoot) && equal(sr, secondRoot);
}

function isPowerOfTwo(n: number): boolean {
  if (n < 1) return false;
  while (n % 2 === 0) n /= 2;
  return n === 1;
}

/**
 * The bytes an Ed25519 tree-head signature covers (70):
 *   ASCII "fairdice/tree-head/v1" (21 bytes), 0x00,
 *   tree size (uint64 big-endian), timestamp in ms since the Unix epoch (uint64 big-endian),
 *   root hash (32 bytes).
 */
export function encodeTreeHead(head: TreeHead): Uint8Array {
  if (typeof head.rootHash !== 'string' || !HEX64.test(head.rootHash))
    throw new RangeError('rootHash must be 64 lowercase hex');
  const out = new Uint8Array(TREE_HEAD_BYTES);
  for (let i = 0; i < TREE_HEAD_CONTEXT.length; i++) out[i] = TREE_HEAD_CONTEXT.charCodeAt(i);
  out[TREE_HEAD_CONTEXT.length] = 0x00;
  const at = TREE_HEAD_CONTEXT.length + 1;
  writeU64(out, at, head.treeSize);
  writeU64(out, at + 8, head.timestamp);
  out.set(hexToBytes(head.rootHash), at + 16);
  return out;
}

/** The Ed25519 public key (32 bytes) of a 32-byte private key (RFC 8032 seed). */
export function logPublicKey(privateKey: Uint8Array): Uint8Array {
  return ed25519.getPublicKey(privateKey);
}

/** The log's id: lowercase hex SHA-256 of its 32-byte public key (as in RFC 9162 §4.4). */
export function logIdOf(publicKey: Uint8Array): string {
  return bytesToHex(sha256(publicKey));
}

export function signTreeHead(head: TreeHead, privateKey: Uint8Array): SignedTreeHead {
  const signature = bytesToHex(ed25519.sign(encodeTreeHead(head), privateKey));
  return { treeSize: head.treeSize, timestamp: head.timestamp, rootHash: head.rootHash, signature };
}

/** Is `head.signature` a valid Ed25519 signature by `publicKey` (32 bytes or 64 hex) over the head? */
export function verifyTreeHeadSignature(head: SignedTreeHead, publicKey: Uint8Array | string): boolean {
  try {
    const key = typeof publicKey === 'string' ? (HEX64.test(publicKey) ? hexToBytes(publicKey) : null) : publicKey;
    if (!key || key.length !== 32) return false;
    if (typeof head.signature !== 'string' || !HEX128.test(head.signature)) return false;
    return ed25519.verify(hexToBytes(head.signature), encodeTreeHead(head), key);
  } catch {
    return false;
  }
}
