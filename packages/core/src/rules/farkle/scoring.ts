import type { Die } from '../core/dice';
import { type FarkleOptions, type FarkleStraights, farkle } from './options';

/**
 * Farkle scoring. A set of dice taken from ONE roll scores as its best partition into
 * combinations, every die belonging to exactly one combination; if no such partition
 * exists, the set does not score (some die would be "dead weight").
 *
 * Combinations (default values):
 *   single 1 = 100, single 5 = 50
 *   n of a kind (n = 3..6) = base x 2^(n-3), base = face x 100, three 1s = 1000
 *   three pairs (six dice that group into three pairs; faces need not differ) = 1500
 *   four of a kind + a pair of another face = 1500
 *   optional straights: low 1-5, high 2-6, full 1-6 (FarkleOptions.straights)
 */

export type ComboName =
  'single' | 'kind' | 'threePairs' | 'fourAndPair' | 'lowStraight' | 'highStraight' | 'fullStraight';

export const THREE_PAIRS_POINTS = 1500;
export const FOUR_AND_PAIR_POINTS = 1500;

/** A scoring selection from one roll: indices into that roll (ascending), their faces, their points. */
export interface ScoringSelection {
  readonly dice: number[];
  readonly faces: Die[];
  readonly points: number;
}

/** Points of `n` of a kind of `face` (n >= 3). */
export const kindPoints = (face: number, n: number): number => (face === 1 ? 1000 : face * 100) * 2 ** (n - 3);

interface Combo {
  readonly counts: readonly number[]; // index 1..6
  readonly points: number;
}

/** Memo of best partition values by count code (base 7); UNKNOWN until computed, -1 = cannot all score. */
const UNKNOWN = -2;
const CODES = 7 ** 6;
/** Contexts by straights values; bounded, since option values come from callers. */
const ctxCache = new Map<string, Ctx>();
const MAX_CONTEXTS = 16;

const straightsKey = (s: FarkleStraights) => `${s.low}|${s.high}|${s.full}`;

const countsOf = (faces: readonly number[]): number[] => {
  const c = [0, 0, 0, 0, 0, 0, 0];
  for (const f of faces) c[f]++;
  return c;
};

const isFace = (f: unknown): boolean => typeof f === 'number' && Number.isInteger(f) && f >= 1 && f <= 6;

/** The roll-level functions take 0 to 6 dice with faces 1..6; anything else is a caller bug. */
function assertRoll(dice: readonly unknown[]): void {
  if (!Array.isArray(dice) || dice.length > 6 || !dice.every(isFace)) {
    throw new RangeError(`A Farkle roll is 0 to 6 dice with faces 1 to 6, got ${JSON.stringify(dice)?.slice(0, 80)}`);
  }
}

const encode = (c: readonly number[]): number => c[1] + 7 * (c[2] + 7 * (c[3] + 7 * (c[4] + 7 * (c[5] + 7 * c[6]))));

/** All combinations for these options, grouped by their lowest face (index 1..6). */
function combosFor(straights: FarkleStraights): readonly Combo[][] {
  const all: Combo[] = [];
  const mk = (pairs: Array<[number, number]>, points: number) => {
    const counts = [0, 0, 0, 0, 0, 0, 0];
    for (const [face, n] of pairs) counts[face] += n;
    all.push({ counts, points });
  };
  mk([[1, 1]], 100);
  mk([[5, 1]], 50);
  for (let f = 1; f <= 6; f++) for (let n = 3; n <= 6; n++) mk([[f, n]], kindPoints(f, n));
  for (let a = 1; a <= 6; a++)
    for (let b = a; b <= 6; b++)
      for (let c = b; c <= 6; c++)
        mk(
          [
            [a, 2],
            [b, 2],
            [c, 2],
          ],
          THREE_PAIRS_POINTS,
        );
  for (let a = 1; a <= 6; a++)
    for (let b = 1; b <= 6; b++)
      if (a !== b)
        mk(
          [
            [a, 4],
            [b, 2],
          ],
          FOUR_AND_PAIR_POINTS,
        );
  if (straights.low !== null)
    mk(
      [
        [1, 1],
        [2, 1],
        [3, 1],
        [4, 1],
        [5, 1],
      ],
      straights.low,
    );
  if (straights.high !== null)
    mk(
      [
        [2, 1],
        [3, 1],
        [4, 1],
        [5, 1],
        [6, 1],
      ],
      straights.high,
    );
  if (straights.full !== null)
    mk(
      [
        [1, 1],
        [2, 1],
        [3, 1],
        [4, 1],
        [5, 1],
        [6, 1],
      ],
      straights.full,
    );
  const byLowest: Combo[][] = [[], [], [], [], [], [], []];
  for (const combo of all) byLowest[combo.counts.findIndex((n, i) => i > 0 && n > 0)].push(combo);
  return byLowest;
}

interface Ctx {
  readonly combos: readonly Combo[][];
  readonly memo: Int32Array;
}
let lastCtx: { key: string; ctx: Ctx } | null = null;

/**
 * Combinations and the memo table (470 KB) for a straights setting. At most MAX_CONTEXTS settings are
 * kept (oldest evicted) so that caller-chosen option values cannot grow memory without bound.
 */
function ctxFor(straights: FarkleStraights): Ctx {
  const key = straightsKey(straights);
  if (lastCtx && lastCtx.key === key) return lastCtx.ctx;
  let ctx = ctxCache.get(key);
  if (!ctx) {
    if (ctxCache.size >= MAX_CONTEXTS) ctxCache.delete(ctxCache.keys().next().value!);
    ctx = { combos: combosFor(straights), memo: new Int32Array(CODES).fill(UNKNOWN) };
    ctxCache.set(key, ctx);
  }
  lastCtx = { key, ctx };
  return ctx;
}

/** Best partition value of a count vector, or -1 if the dice cannot all be covered. Memoised per straights. */
function bestOfCounts(counts: number[], straights: FarkleStraights): number {
  const { combos, memo } = ctxFor(straights);
  return best(counts, combos, memo);
}

function best(counts: number[], combos: readonly Combo[][], memo: Int32Array): number {
  const code = encode(counts);
  if (code === 0) return 0;
  const hit = memo[code];
  if (hit !== UNKNOWN) return hit;
  let lowest = 1;
  while (counts[lowest] === 0) lowest++;
  // The lowest face present must be covered by some combination containing it.
  let result = -1;
  for (const combo of combos[lowest]) {
    let fits = true;
    for (let f = 1; f <= 6; f++)
      if (combo.counts[f] > counts[f]) {
        fits = false;
        break;
      }
    if (!fits) continue;
    for (let f = 1; f <= 6; f++) counts[f] -= combo.counts[f];
    const rest = best(counts, combos, memo);
    for (let f = 1; f <= 6; f++) counts[f] += combo.counts[f];
    if (rest >= 0 && combo.points + rest > result) result = combo.points + rest;
  }
  memo[code] = result;
  return result;
}

/**
 * Points of a set of faces set aside from one roll, or null if some die would not score.
 * An empty set scores null (setting nothing aside is not a selection).
 */
export function scoreFaces(faces: readonly number[], options: FarkleOptions = farkle): number | null {
  if (!Array.isArray(faces) || faces.length === 0 || faces.length > 6 || !faces.every(isFace)) return null;
  const points = bestOfCounts(countsOf(faces), options.straights);
  return points > 0 ? points : null;
}

/**
 * Every distinct scoring selection of a roll, one per distinct multiset of faces (not per index
 * permutation: with 1,1,5 the selections are {1},{5},{1,1},{1,5},{1,1,5}, five and not seven).
 * Each selection uses the first (lowest) indices holding its faces. A roll of six distinct faces
 * has at most 63 candidate multisets, so the list stays small.
 * Order: points descending, then fewer dice, then indices lexicographically.
 */
export function scoringSelections(dice: readonly Die[], options: FarkleOptions = farkle): ScoringSelection[] {
  assertRoll(dice);
  const counts = countsOf(dice);
  const positions: number[][] = [[], [], [], [], [], [], []];
  dice.forEach((f, i) => positions[f].push(i));
  const out: ScoringSelection[] = [];
  const { combos, memo } = ctxFor(options.straights);
  forEachSubCount(counts, (take) => {
    const points = best(take, combos, memo);
    if (points > 0) {
      const idx: number[] = [];
      for (let f = 1; f <= 6; f++) for (let k = 0; k < take[f]; k++) idx.push(positions[f][k]);
      idx.sort((a, b) => a - b);
      out.push({ dice: idx, faces: idx.map((i) => dice[i]), points });
    }
  });
  out.sort((a, b) => b.points - a.points || a.dice.length - b.dice.length || compareIdx(a.dice, b.dice));
  return out;
}

const compareIdx = (a: readonly number[], b: readonly number[]) => {
  for (let i = 0; i < Math.min(a.length, b.length); i++) if (a[i] !== b[i]) return a[i] - b[i];
  return a.length - b.length;
};

/**
 * The selection with the most points. Ties on points (possible only with unusual straight values,
 * e.g. the brief's garbled high straight = 50 vs a single 5) go to the selection that leaves the
 * most dice for the next roll, counting "all dice set aside" (hot dice) as 6 dice; then fewer indices.
 * Returns null on a farkle. Throws RangeError unless `dice` is 0 to 6 faces from 1 to 6 (as do
 * scoringSelections and isFarkle); scoreFaces instead returns null for such input.
 */
export function bestSelection(dice: readonly Die[], options: FarkleOptions = farkle): ScoringSelection | null {
  const all = scoringSelections(dice, options);
  let best: ScoringSelection | null = null;
  const next = (s: ScoringSelection) => (s.dice.length === dice.length ? 6 : dice.length - s.dice.length);
  for (const s of all) {
    if (!best || s.points > best.points || (s.points === best.points && next(s) > next(best))) best = s;
  }
  return best;
}

/** True if no die of the roll can be set aside for points (the turn is lost). */
export function isFarkle(dice: readonly Die[], options: FarkleOptions = farkle): boolean {
  assertRoll(dice);
  const c = countsOf(dice);
  if (c[1] > 0 || c[5] > 0) return false;
  for (let f = 1; f <= 6; f++) if (c[f] >= 3) return false;
  // Only multi-dice combinations without 1s, 5s or triples remain: three pairs, straights (which hold a 5).
  return bestOfSubsets(c, options.straights) <= 0;
}

function bestOfSubsets(counts: readonly number[], straights: FarkleStraights): number {
  let top = -1;
  const { combos, memo } = ctxFor(straights);
  forEachSubCount(counts, (take) => {
    top = Math.max(top, best(take, combos, memo));
  });
  return top;
}

/**
 * Calls `visit` with every sub-multiset of a roll's face counts (index 1..6; `take[f]` from 0 to
 * `counts[f]`), the empty one included. `take` is reused between calls: read it, do not keep it.
 */
function forEachSubCount(counts: readonly number[], visit: (take: number[]) => void): void {
  const take = [0, 0, 0, 0, 0, 0, 0];
  const walk = (face: number) => {
    if (face > 6) return visit(take);
    for (let n = 0; n <= counts[face]; n++) {
      take[face] = n;
      walk(face + 1);
    }
    take[face] = 0;
  };
  walk(1);
}
