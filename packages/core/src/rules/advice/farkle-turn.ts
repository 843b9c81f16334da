/**
 * What the Farkle solvers share (docs/advice.md, "Farkle: the model"): the roll tables (the
 * outcomes of n dice grouped by what they offer), points in units of 50, and the order in which
 * advice lists set-asides. Pure and deterministic; not part of the advice package's exports.
 */
import type { FarkleOptions } from '../farkle/options';
import { scoreFaces } from '../farkle/scoring';

/** Every Farkle score is a multiple of this under the supported options. */
export const UNIT = 50;
export const MAX_DICE = 6;

/** Roll outcomes of n dice, grouped by what they offer: for each group, the best points per number of dice set aside. */
export interface RollTable {
  /** Probability of a farkle (nothing scores). */
  readonly farkle: number;
  readonly groupProbability: Float64Array;
  /** Candidates of group g: candStart[g] .. candStart[g + 1]. */
  readonly candStart: Int32Array;
  /** Dice set aside and their best points (units of 50) for that count. */
  readonly candDice: Int8Array;
  readonly candPoints: Int32Array;
}

const factorial = [1, 1, 2, 6, 24, 120, 720];

/**
 * The outcomes of rolling n dice: each multiset of faces (probability n!/∏cᶠ!/6ⁿ), reduced to the
 * best points for each number k of dice set aside, and outcomes offering the same (k, points)
 * list merged.
 */
export function rollTable(n: number, options: FarkleOptions): RollTable {
  const groups = new Map<string, { p: number; cands: Array<[number, number]> }>();
  let farkleP = 0;
  const counts = [0, 0, 0, 0, 0, 0, 0];
  const visitOutcome = () => {
    let ways = factorial[n];
    for (let f = 1; f <= 6; f++) ways /= factorial[counts[f]];
    const p = ways / 6 ** n;
    const best = new Array<number>(n + 1).fill(-1);
    const take = [0, 0, 0, 0, 0, 0, 0];
    const walk = (face: number) => {
      if (face > 6) {
        const faces: number[] = [];
        for (let f = 1; f <= 6; f++) for (let i = 0; i < take[f]; i++) faces.push(f);
        if (faces.length === 0) return;
        const points = scoreFaces(faces, options);
        if (points !== null && points > best[faces.length]) best[faces.length] = points;
        return;
      }
      for (let c = 0; c <= counts[face]; c++) {
        take[face] = c;
        walk(face + 1);
      }
      take[face] = 0;
    };
    walk(1);
    const cands: Array<[number, number]> = [];
    for (let k = 1; k <= n; k++) if (best[k] > 0) cands.push([k, best[k] / UNIT]);
    if (cands.length === 0) {
      farkleP += p;
      return;
    }
    const key = cands.map(([k, pts]) => `${k}:${pts}`).join(',');
    const group = groups.get(key);
    if (group) group.p += p;
    else groups.set(key, { p, cands });
  };
  const enumerate = (face: number, left: number) => {
    if (face === 6) {
      counts[6] = left;
      visitOutcome();
      return;
    }
    for (let c = left; c >= 0; c--) {
      counts[face] = c;
      enumerate(face + 1, left - c);
    }
    counts[face] = 0;
  };
  enumerate(1, n);
  const list = [...groups.values()];
  const candStart = new Int32Array(list.length + 1);
  const all = list.flatMap((g) => g.cands);
  list.reduce((start, g, i) => ((candStart[i + 1] = start + g.cands.length), start + g.cands.length), 0);
  return {
    farkle: farkleP,
    groupProbability: Float64Array.from(list.map((g) => g.p)),
    candStart,
    candDice: Int8Array.from(all.map(([k]) => k)),
    candPoints: Int32Array.from(all.map(([, pts]) => pts)),
  };
}

/** rollTables(options)[n] for n = 1 … 6 (index 0 unused). */
export function rollTables(options: FarkleOptions): readonly RollTable[] {
  return [null, 1, 2, 3, 4, 5, 6].map((n) => (n === null ? null : rollTable(n, options))) as RollTable[];
}

/** The dice the next roll throws after setting aside `setAside` of `rolled` dice (hot dice: six). */
export const diceAfter = (rolled: number, setAside: number) => (setAside === rolled ? MAX_DICE : rolled - setAside);

/** Points as a count of units; a RangeError unless a non-negative multiple of 50. */
export function toUnits(points: number, what: string): number {
  if (!Number.isSafeInteger(points) || points < 0 || points % UNIT !== 0)
    throw new RangeError(`${what} must be a non-negative multiple of ${UNIT}, got ${String(points)}`);
  return points / UNIT;
}

export function assertDiceLeft(diceLeft: number): void {
  if (!Number.isInteger(diceLeft) || diceLeft < 1 || diceLeft > MAX_DICE)
    throw new RangeError(`diceLeft must be 1 to 6, got ${String(diceLeft)}`);
}

/**
 * Advice entries best first by `score` (higher is better), with the documented tie-break: among
 * the entries within `epsilon` of the best, the one earliest in `scoringSelections` order
 * (`order`) comes first; the rest by score, exact ties by order.
 */
export function bestFirst<T>(entries: Array<{ order: number; score: number; advice: T }>, epsilon: number): T[] {
  entries.sort((a, b) => b.score - a.score || a.order - b.order);
  if (entries.length > 1) {
    const best = entries[0].score;
    let chosen = 0;
    for (let i = 1; i < entries.length && entries[i].score >= best - epsilon; i++)
      if (entries[i].order < entries[chosen].order) chosen = i;
    if (chosen !== 0) entries.unshift(...entries.splice(chosen, 1));
  }
  return entries.map((x) => x.advice);
}

/**
 * chance[t * 7 + n] (t < need): the best chance to set aside at least `need` units in this turn
 * when rolling n dice with t units so far (a farkle: 0). Banking is right exactly once the turn
 * holds `need`, so only rolling matters before that: the largest chance over the set-asides of
 * each outcome, t from need − 1 down to 0.
 */
export function reachChance(tables: readonly RollTable[], need: number): Float64Array {
  const chance = new Float64Array(need * 7);
  for (let t = need - 1; t >= 0; t--) {
    for (let n = 1; n <= MAX_DICE; n++) {
      const table = tables[n];
      let p = 0;
      for (let g = 0; g < table.groupProbability.length; g++) {
        let best = 0;
        for (let c = table.candStart[g]; c < table.candStart[g + 1]; c++) {
          const t2 = t + table.candPoints[c];
          const v = t2 >= need ? 1 : chance[t2 * 7 + diceAfter(n, table.candDice[c])];
          if (v > best) best = v;
        }
        p += table.groupProbability[g] * best;
      }
      chance[t * 7 + n] = p;
    }
  }
  return chance;
}
