/**
 * Byte encoding of a solved five-dice table, for a disk cache (docs/advice.md, "Table format"),
 * in the layout of table-bytes.ts. Only the values of reachable states are stored (the reader recomputes which states those are
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
import { decodeTable, encodeTable } from './table-bytes';

export const FORMAT_VERSION = 2;
const KIND = { magic: 'FDOT', version: FORMAT_VERSION, name: 'five-dice table', float32Section: true };

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

export function serializeSolution(sol: FiveDiceSolution): Uint8Array {
  const indices = reachableIndices(sol.threshold, sol.reachable);
  return encodeTable(
    KIND,
    optionsFingerprint(sol.options),
    Float64Array.from(indices, (index) => sol.values[index]),
    sol.bonusChance ? Float32Array.from(indices, (index) => sol.bonusChance![index]) : null,
  );
}

export type TableReadResult = { ok: true; solution: FiveDiceSolution } | { ok: false; reason: string };

/**
 * Reads a table written by serializeSolution for `options`. A wrong magic, version, fingerprint,
 * size or hash gives `{ ok: false, reason }` (the caller then solves again and rewrites the file).
 */
export function deserializeSolution(bytes: Uint8Array, options: FiveDiceOptions): TableReadResult {
  const threshold = options.upperBonusThreshold;
  const reachable = reachability(threshold);
  const indices = reachableIndices(threshold, reachable);
  const read = decodeTable(KIND, bytes, optionsFingerprint(options), indices.length);
  if (!read.ok) return read;
  const values = new Float64Array(4096 * 3 * (threshold + 1)).fill(NaN);
  indices.forEach((index, i) => (values[index] = read.values[i]));
  const solution: FiveDiceSolution = { options, threshold, values, reachable, widgets: 0 };
  if (read.float32s === null) return { ok: true, solution };
  const chances = read.float32s;
  const bonusChance = new Float32Array(values.length).fill(NaN);
  indices.forEach((index, i) => (bonusChance[index] = chances[i]));
  return { ok: true, solution: { ...solution, bonusChance } };
}
