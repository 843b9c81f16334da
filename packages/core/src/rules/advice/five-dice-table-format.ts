/**
 * Byte encoding of a solved five-dice table, for a disk cache (docs/advice.md, "Table format").
 * Only the values of reachable states are stored (the reader recomputes which states those are
 * from the threshold), as little-endian IEEE-754 float64, so a loaded table decides exactly as
 * the solve that wrote it.
 *
 *   offset  size  field
 *   0       4     magic "FDOT" (ASCII)
 *   4       4     format version, uint32 LE (FORMAT_VERSION)
 *   8       4     fingerprint length L in bytes, uint32 LE
 *   12      L     fingerprint, ASCII (optionsFingerprint)
 *   12+L    P     zero padding to a multiple of 8
 *   H       4     value count N, uint32 LE
 *   H+4     4     FNV-1a 32-bit hash of every byte from H+8 to the end, uint32 LE
 *   H+8     8N    the values, float64 LE, reachable states in increasing state index
 *   H+8+8N  4     bonus-chance count M, uint32 LE: N, or 0 for a table without them (the bonus is worth 0) (v2)
 *   H+12+8N 4M    the upper-bonus chances, float32 LE, the same states in the same order (version 2)
 */
import type { FiveDiceOptions } from '../five-dice/types';
import { type FiveDiceSolution, reachability, stateIndex } from './five-dice-solver';

export const FORMAT_VERSION = 2;
const MAGIC = [0x46, 0x44, 0x4f, 0x54]; // "FDOT"

/**
 * The options a table was solved for, as one ASCII line. Two option sets with the same
 * fingerprint have the same table. Bump the `solver/vN` part when the solver's results change.
 */
export function optionsFingerprint(o: FiveDiceOptions): string {
  return (
    `five-dice solver/v2 joker=${o.joker} jokerAfterSacrifice=${o.jokerAfterSacrifice === true} ` +
    `extraFiveOfAKindBonus=${o.extraFiveOfAKindBonus} upperBonusThreshold=${o.upperBonusThreshold} ` +
    `upperBonusPoints=${o.upperBonusPoints}`
  );
}

/** Reachable (mask, five-box, upper) states in increasing state index, as indices. */
function reachableIndices(threshold: number, reachable: Uint8Array): Int32Array {
  const width = threshold + 1;
  const out: number[] = [];
  for (let mask = 0; mask < 4096; mask++)
    for (let fiveBox = 0; fiveBox < 3; fiveBox++)
      for (let u = 0; u < width; u++)
        if (reachable[(mask & 63) * width + u]) out.push(stateIndex(threshold, mask, fiveBox, u));
  return Int32Array.from(out);
}

function fnv1a(bytes: Uint8Array, start: number, end: number): number {
  let h = 0x811c9dc5;
  for (let i = start; i < end; i++) h = Math.imul(h ^ bytes[i], 0x01000193) >>> 0;
  return h >>> 0;
}

export function serializeSolution(sol: FiveDiceSolution): Uint8Array {
  const fingerprint = optionsFingerprint(sol.options);
  const indices = reachableIndices(sol.threshold, sol.reachable);
  const header = Math.ceil((12 + fingerprint.length) / 8) * 8;
  const chances = sol.bonusChance ? indices.length : 0;
  const bytes = new Uint8Array(header + 8 + indices.length * 8 + 4 + chances * 4);
  const view = new DataView(bytes.buffer);
  MAGIC.forEach((b, i) => (bytes[i] = b));
  view.setUint32(4, FORMAT_VERSION, true);
  view.setUint32(8, fingerprint.length, true);
  for (let i = 0; i < fingerprint.length; i++) bytes[12 + i] = fingerprint.charCodeAt(i) & 0x7f;
  view.setUint32(header, indices.length, true);
  const first = header + 8;
  indices.forEach((index, i) => view.setFloat64(first + i * 8, sol.values[index], true));
  const after = first + indices.length * 8;
  view.setUint32(after, chances, true);
  if (sol.bonusChance) {
    const bonusChance = sol.bonusChance;
    indices.forEach((index, i) => view.setFloat32(after + 4 + i * 4, bonusChance[index], true));
  }
  view.setUint32(header + 4, fnv1a(bytes, first, bytes.length), true);
  return bytes;
}

export type TableReadResult = { ok: true; solution: FiveDiceSolution } | { ok: false; reason: string };

/**
 * Reads a table written by serializeSolution for `options`. A wrong magic, version, fingerprint,
 * size or hash gives `{ ok: false, reason }` (the caller then solves again and rewrites the file).
 */
export function deserializeSolution(bytes: Uint8Array, options: FiveDiceOptions): TableReadResult {
  const bad = (why: string): TableReadResult => ({ ok: false, reason: `five-dice table: ${why}` });
  if (bytes.length < 16 || MAGIC.some((b, i) => bytes[i] !== b)) return bad('not a table (magic)');
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const version = view.getUint32(4, true);
  if (version !== FORMAT_VERSION) return bad(`format version ${version}, expected ${FORMAT_VERSION}`);
  const length = view.getUint32(8, true);
  const want = optionsFingerprint(options);
  if (length !== want.length || 12 + length > bytes.length) return bad('options fingerprint differs');
  for (let i = 0; i < length; i++) if (bytes[12 + i] !== want.charCodeAt(i)) return bad('options fingerprint differs');
  const header = Math.ceil((12 + length) / 8) * 8;
  const threshold = options.upperBonusThreshold;
  const reachable = reachability(threshold);
  const indices = reachableIndices(threshold, reachable);
  const first = header + 8;
  const after = first + indices.length * 8;
  if (bytes.length < after + 4 || view.getUint32(header, true) !== indices.length) return bad('size differs');
  if (view.getUint32(header + 4, true) !== fnv1a(bytes, first, bytes.length)) return bad('hash differs (corrupt)');
  const chances = view.getUint32(after, true);
  if ((chances !== 0 && chances !== indices.length) || bytes.length !== after + 4 + chances * 4)
    return bad('size differs');
  const values = new Float64Array(4096 * 3 * (threshold + 1)).fill(NaN);
  indices.forEach((index, i) => (values[index] = view.getFloat64(first + i * 8, true)));
  const solution: FiveDiceSolution = { options, threshold, values, reachable, widgets: 0 };
  if (chances === 0) return { ok: true, solution };
  const bonusChance = new Float32Array(values.length).fill(NaN);
  indices.forEach((index, i) => (bonusChance[index] = view.getFloat32(after + 4 + i * 4, true)));
  return { ok: true, solution: { ...solution, bonusChance } };
}
