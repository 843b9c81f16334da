/**
 * The chance of reaching the upper bonus under optimal (expected-score) play (issue 31 item 3;
 * docs/advice.md "Five dice: the endgame and the bonus chance"): the probability that the upper
 * total reaches the threshold when every hold and box is the first entry of adviseHolds / adviseBox
 * (their tie-breaks included). Computed by the solve alongside the values (a second table,
 * `FiveDiceSolution.bonusChance`), state by state in the same backward order: for one state it is a
 * turn ("widget") in which the decisions are taken from the values and the chances averaged.
 */
import type { Die } from '../core/dice';
import { scoreOptionsFor } from '../five-dice/scoring';
import { BOX_IDS, type BoxId, type SheetBoxes } from '../five-dice/types';
import { DICE, type KeepTables, expectOverRolls, keepTables } from './dice-tables';
import {
  FIVE_HOLDS_0,
  FIVE_HOLDS_50,
  FIVE_OPEN,
  type FiveDiceSolution,
  MASK_BOXES,
  type Scratch,
  ALL_FILLED,
  fillFinalRollValues,
  finalRollScores,
  maxOpenUpper,
  newScratch,
} from './five-dice-solver';
import { TIE_EPSILON, solverState } from './five-dice-advice';
import type { SheetLike } from '../five-dice/scoring';

/** TIE_EPSILON as a local constant (an imported binding is a property load in the hot loops of the compiled module). */
const EPS = TIE_EPSILON;
/**
 * −∞ read once: a bare `Infinity` is a global lookup, which inside a vm context (Jest's sandbox)
 * V8 cannot fold, and the hot loops below ran 9 × slower there than in Node.
 */
const MINUS_INFINITY = Number.NEGATIVE_INFINITY;

/** Mask bits in sheet order (five of a kind as -1, between large straight and chance). */
const SHEET_BITS = BOX_IDS.map((b) => (MASK_BOXES as readonly string[]).indexOf(b));

interface SubKeeps {
  /** For outcome i (size-5 keep sizeStart[5] + i): its distinct sub-keeps in hold tie order, list[start[i] .. start[i + 1]). */
  readonly start: Int32Array;
  readonly list: Int32Array;
}

let subKeepTable: SubKeeps | null = null;
/** Every outcome's distinct holds (itself first), ordered as adviseHolds breaks ties: most dice, then smallest faces. */
function subKeeps(t: KeepTables): SubKeeps {
  if (subKeepTable) return subKeepTable;
  const first = t.sizeStart[DICE];
  const n = t.count - first;
  const start = new Int32Array(n + 1);
  const list: number[] = [];
  for (let i = 0; i < n; i++) {
    start[i] = list.length;
    const counts = Array.from({ length: 7 }, (_, f) => (f === 0 ? 0 : t.counts[(first + i) * 7 + f]));
    const subs: { k: number; faces: number[] }[] = [];
    const take = [0, 0, 0, 0, 0, 0, 0];
    const walk = (f: number) => {
      if (f > 6) {
        const faces: number[] = [];
        for (let g = 1; g <= 6; g++) for (let c = 0; c < take[g]; c++) faces.push(g);
        subs.push({ k: t.indexOf(take), faces });
        return;
      }
      for (let c = 0; c <= counts[f]; c++) {
        take[f] = c;
        walk(f + 1);
      }
      take[f] = 0;
    };
    walk(1);
    subs.sort((a, b) => {
      if (a.faces.length !== b.faces.length) return b.faces.length - a.faces.length;
      for (let j = 0; j < a.faces.length; j++) if (a.faces[j] !== b.faces[j]) return a.faces[j] - b.faces[j];
      return 0;
    });
    for (const s of subs) list.push(s.k);
  }
  start[n] = list.length;
  subKeepTable = { start, list: Int32Array.from(list) };
  return subKeepTable;
}

/** A five of a kind's allowed boxes (mask bit, -1 for five of a kind) and what they give, in sheet order. */
export interface JokerEntry {
  readonly bit: number;
  readonly points: number;
  readonly bonus: number;
}

/** For one (mask, five-box state): the allowed entries of each five of a kind (index face − 1), from scoreOptionsFor. */
export function jokerEntries(sol: Pick<FiveDiceSolution, 'options'>, mask: number, fiveBox: number): JokerEntry[][] {
  const boxes: Partial<Record<BoxId, number>> = {};
  MASK_BOXES.forEach((box, bit) => {
    if (mask & (1 << bit)) boxes[box] = 0;
  });
  if (fiveBox !== FIVE_OPEN) boxes.fiveOfAKind = fiveBox === FIVE_HOLDS_50 ? 50 : 0;
  const sheet: { boxes: SheetBoxes } = { boxes };
  return [1, 2, 3, 4, 5, 6].map((f) =>
    scoreOptionsFor(sheet, [f, f, f, f, f] as Die[], sol.options)
      .boxes.filter((o) => o.allowed)
      .map((o) => ({ bit: (MASK_BOXES as readonly string[]).indexOf(o.box), points: o.points, bonus: o.bonus })),
  );
}

export interface BonusScratch {
  readonly base: Scratch;
  readonly v1: Float64Array;
  readonly v2: Float64Array;
  readonly p1: Float64Array;
  readonly p2: Float64Array;
  readonly p3: Float64Array;
  /** bestHolds output: best value, a keep with it, and an upper bound of the best over the other keeps. */
  readonly best: Float64Array;
  readonly arg: Int32Array;
  readonly second: Float64Array;
  /** Per outcome: its value minus TIE_EPSILON (what a box must reach to be chosen); the outcomes still without a box. */
  readonly bar: Float64Array;
  readonly open: Int32Array;
  /** Per outcome: 1 for the six five of a kind (their box is chosen apart). */
  readonly isFive: Uint8Array;
  readonly pUp: Float64Array;
  /** What each allowed entry of a five of a kind is worth. */
  readonly jokerWorth: Float64Array;
}
const fiveOutcomes = () => {
  const t = keepTables();
  const out = new Uint8Array(t.count - t.sizeStart[DICE]);
  const { fiveKeeps } = finalRollScores(t);
  for (let f = 1; f <= 6; f++) out[fiveKeeps[f] - t.sizeStart[DICE]] = 1;
  return out;
};
export const newBonusScratch = (): BonusScratch => {
  const count = keepTables().count;
  const n = count - keepTables().sizeStart[DICE];
  return {
    base: newScratch(),
    v1: new Float64Array(count),
    v2: new Float64Array(count),
    p1: new Float64Array(count),
    p2: new Float64Array(count),
    p3: new Float64Array(count),
    best: new Float64Array(count),
    arg: new Int32Array(count),
    second: new Float64Array(count),
    bar: new Float64Array(n),
    open: new Int32Array(n),
    isFive: fiveOutcomes(),
    pUp: new Float64Array(6),
    jokerWorth: new Float64Array(13),
  };
};

/** expectOverRolls on two arrays in one pass (the same sums, so the same numbers). */
function expectOverRolls2(t: KeepTables, x: Float64Array, y: Float64Array): void {
  const { add, sizeStart } = t;
  for (let k = sizeStart[DICE] - 1; k >= 0; k--) {
    const a = k * 6;
    const a0 = add[a];
    const a1 = add[a + 1];
    const a2 = add[a + 2];
    const a3 = add[a + 3];
    const a4 = add[a + 4];
    const a5 = add[a + 5];
    x[k] = (x[a0] + x[a1] + x[a2] + x[a3] + x[a4] + x[a5]) / 6;
    y[k] = (y[a0] + y[a1] + y[a2] + y[a3] + y[a4] + y[a5]) / 6;
  }
}

/**
 * bestOverSubKeeps that also says where the best is: for every keep k, `best[k]` the best value
 * over its sub-keeps (itself included; the same max, so the same number, as bestOverSubKeeps),
 * `arg[k]` a sub-keep with that value, and `second[k]` at least the best value of the other
 * sub-keeps (it may count a keep twice, which only overstates it). When second < best −
 * TIE_EPSILON, `arg` is the only hold within TIE_EPSILON of the best, so the tie-order scan
 * (which costs more than this pass) is not needed.
 */
function bestHolds(t: KeepTables, v: Float64Array, best: Float64Array, arg: Int32Array, second: Float64Array): void {
  best[0] = v[0];
  arg[0] = 0;
  second[0] = MINUS_INFINITY;
  // The holds of fewer than five dice; the outcomes' are merged where they are used (holdOf).
  for (let k = 1, end = t.sizeStart[DICE]; k < end; k++) {
    mergeSubKeeps(t, k, v[k], best, arg, second);
    best[k] = merged.best;
    arg[k] = merged.arg;
    second[k] = merged.second;
  }
}

/** What mergeSubKeeps leaves (one object reused: no allocation per keep). */
const merged = { best: 0, arg: 0, second: 0 };

/**
 * Keep k worth `own` itself, merged with its sub-keeps' best/arg/second (already merged): its
 * best value, a keep with it, and at least the best value of the others, in `merged`.
 */
function mergeSubKeeps(
  t: KeepTables,
  k: number,
  own: number,
  best: Float64Array,
  arg: Int32Array,
  second: Float64Array,
): void {
  const { sub, subStart } = t;
  let b = own;
  let a = k;
  let s = MINUS_INFINITY;
  for (let i = subStart[k], end = subStart[k + 1]; i < end; i++) {
    const c = sub[i];
    const cb = best[c];
    // b ≥ s throughout (each child's best is merged before its second).
    if (cb > s) {
      if (cb > b) {
        s = b;
        b = cb;
        a = arg[c];
      } else if (arg[c] !== a) s = cb;
    }
    const cs = second[c];
    if (cs > s) s = cs;
  }
  merged.best = b;
  merged.arg = a;
  merged.second = s;
}

/**
 * The hold chosen for outcome k (size-5 keep, index i among the outcomes) worth `own` if all five
 * are kept, its other holds `v` (with bestHolds of them in best/arg/second): the first in tie
 * order within TIE_EPSILON of the best. Leaves the best value in `out[k]`.
 */
function holdOf(
  t: KeepTables,
  k: number,
  i: number,
  own: number,
  v: Float64Array,
  s: BonusScratch,
  out: Float64Array,
): number {
  mergeSubKeeps(t, k, own, s.best, s.arg, s.second);
  const { best: b, arg: a, second: sec } = merged;
  out[k] = b;
  const cut = b - EPS;
  if (sec < cut) return a; // the only hold within TIE_EPSILON of the best
  if (own >= cut) return k;
  const { start, list } = subKeeps(t);
  let j = start[i] + 1;
  while (v[list[j]] < cut) j++;
  return list[j];
}

/**
 * The bonus chance of a state whose bonus is still undecided (upper < threshold and reachable),
 * from the values (`sol.values`, all states) and the chances of the states after it (`chance`).
 * Leaves in the scratch, for every outcome k (size-5 keep), the chance after the decision on it:
 * `p1[k]` with no roll left (the box), `p2[k]` with one (the hold), `p3[k]` with two.
 * Written for speed (it runs once per state): no closures, the tie-order scans only on near ties.
 */
export function bonusChanceWidget(
  sol: Pick<FiveDiceSolution, 'options' | 'threshold' | 'values'>,
  chance: Float32Array,
  mask: number,
  fiveBox: number,
  upper: number,
  jokers: JokerEntry[][],
  s: BonusScratch,
): number {
  const t = keepTables();
  const { byBox, byFace, fiveKeeps } = finalRollScores(t);
  const { threshold, values, options } = sol;
  const width = threshold + 1;
  const first = t.sizeStart[DICE];
  const n = t.count - first;
  // V1 holds the final-roll values (the outcomes' slots, read as "F" below: expectOverRolls only
  // writes the smaller keeps), then E1 of every smaller keep.
  const V1 = s.v1;
  fillFinalRollValues(sol, mask, fiveBox, upper, s.base, V1);
  const { upperValue, lowerNext } = s.base;
  const fiveOpen = fiveBox === FIVE_OPEN;
  const fiveHit = fiveOpen ? 50 + values[(mask * 3 + FIVE_HOLDS_50) * width + upper] : 0;
  const fiveMiss = fiveOpen ? values[(mask * 3 + FIVE_HOLDS_0) * width + upper] : 0;
  const bonusPoints = options.upperBonusPoints;
  // The five of a kind: the first allowed entry (sheet order) within TIE_EPSILON of the best, as adviseBox.
  const P1 = s.p1;
  const jokerWorth = s.jokerWorth;
  for (let f = 1; f <= 6; f++) {
    const entries = jokers[f - 1];
    let best = MINUS_INFINITY;
    for (let j = 0; j < entries.length; j++) {
      const e = entries[j];
      let worth: number;
      if (e.bit < 0) worth = e.points + e.bonus + (e.points > 0 ? fiveHit - 50 : fiveMiss);
      else {
        const m = mask | (1 << e.bit);
        if (e.bit >= 6) worth = e.points + e.bonus + values[(m * 3 + fiveBox) * width + upper];
        else {
          const u = upper + e.points;
          const full = m === ALL_FILLED && fiveBox !== FIVE_OPEN;
          worth =
            e.points +
            e.bonus +
            (u >= threshold ? bonusPoints : 0) +
            (full ? 0 : values[(m * 3 + fiveBox) * width + Math.min(threshold, u)]);
        }
      }
      best = Math.max(best, worth);
      jokerWorth[j] = worth;
    }
    let chosen = 0;
    while (jokerWorth[chosen] < best - EPS) chosen++;
    const e = entries[chosen];
    const k = fiveKeeps[f];
    V1[k] = best;
    const m = e.bit < 0 ? mask : mask | (1 << e.bit);
    const fb = e.bit < 0 ? (e.points > 0 ? FIVE_HOLDS_50 : FIVE_HOLDS_0) : fiveBox;
    const u = e.bit >= 0 && e.bit < 6 ? Math.min(threshold, upper + e.points) : upper;
    P1[k] = u >= threshold ? 1 : chance[(m * 3 + fb) * width + u];
  }
  // Final roll: the box adviseBox chooses (the earliest in sheet order within TIE_EPSILON of the
  // best), box by box in sheet order over the outcomes not yet decided (the five of a kind are decided above).
  // `open` lists the outcomes still undecided (compacted after each box, so later boxes scan fewer).
  const bar = s.bar;
  const open = s.open;
  let left = 0;
  for (let i = 0; i < n; i++) {
    bar[i] = V1[first + i] - EPS;
    if (s.isFive[i] === 0) open[left++] = i;
  }
  const pUp = s.pUp;
  for (let b = 0; b < SHEET_BITS.length && left > 0; b++) {
    const bit = SHEET_BITS[b];
    let kept = 0;
    if (bit < 0) {
      if (!fiveOpen) continue;
      const p = upper >= threshold ? 1 : chance[(mask * 3 + FIVE_HOLDS_0) * width + upper]; // not a five of a kind
      for (let j = 0; j < left; j++) {
        const i = open[j];
        if (fiveMiss >= bar[i]) P1[first + i] = p;
        else open[kept++] = i;
      }
    } else {
      if (mask & (1 << bit)) continue;
      const nextBase = ((mask | (1 << bit)) * 3 + fiveBox) * width;
      const off = bit * n;
      if (bit < 6) {
        for (let c = 0; c <= 5; c++) {
          const u = upper + c * (bit + 1);
          pUp[c] = u >= threshold ? 1 : chance[nextBase + u];
        }
        const uv = bit * 6;
        for (let j = 0; j < left; j++) {
          const i = open[j];
          const c = byFace[off + i];
          if (upperValue[uv + c] >= bar[i]) P1[first + i] = pUp[c];
          else open[kept++] = i;
        }
      } else {
        const nb = lowerNext[bit];
        const p = upper >= threshold ? 1 : chance[nextBase + upper];
        for (let j = 0; j < left; j++) {
          const i = open[j];
          if (byBox[off + i] + nb >= bar[i]) P1[first + i] = p;
          else open[kept++] = i;
        }
      }
    }
    left = kept;
  }
  // Second roll (one roll left): hold values E1 (V1) and chances (P1) of every keep.
  expectOverRolls2(t, V1, P1);
  const V2 = s.v2;
  const P2 = s.p2;
  // The best hold of each outcome (its value becomes V2's outcome slot).
  bestHolds(t, V1, s.best, s.arg, s.second);
  for (let i = 0; i < n; i++) {
    const k = first + i;
    P2[k] = P1[holdOf(t, k, i, V1[k], V1, s, V2)];
  }
  // First roll (two rolls left): the holds' values are E2 (V2 averaged), keeping all five scores
  // now (the final-roll value, V1's outcome slot).
  expectOverRolls2(t, V2, P2);
  bestHolds(t, V2, s.best, s.arg, s.second);
  const P3 = s.p3;
  for (let i = 0; i < n; i++) {
    const k = first + i;
    const hold = holdOf(t, k, i, V1[k], V2, s, s.best);
    P3[k] = hold === k ? P1[k] : P2[hold];
  }
  expectOverRolls(t, P3);
  return P3[0];
}

/**
 * The bonus-chance table of a solved table: a second backward pass in the solve's order (masks
 * down from full, the filled five-of-a-kind box before the open one). 1 once the upper total
 * reached the threshold, 0 when it cannot any more (or the sheet is full), else the widget above.
 * Undefined when the bonus is worth 0 points.
 */
export function solveBonusChance(sol: FiveDiceSolution): Float32Array | undefined {
  const { options, threshold, values, reachable } = sol;
  if (options.upperBonusPoints === 0) return undefined;
  const width = threshold + 1;
  const chance = new Float32Array(values.length).fill(NaN);
  const scratch = newBonusScratch();
  // As in solveFiveDice: when the five-of-a-kind box at 0 and at 50 have the same values, they also
  // have the same joker entries and successors, hence the same chances: copy instead of recomputing.
  const sameFilledStates =
    options.extraFiveOfAKindBonus === 0 && (options.joker === 'none' || options.jokerAfterSacrifice === true);
  for (let mask = ALL_FILLED; mask >= 0; mask--) {
    const upperMask = mask & 63;
    const openMax = maxOpenUpper(upperMask);
    for (const fiveBox of [FIVE_HOLDS_50, FIVE_HOLDS_0, FIVE_OPEN]) {
      const base = (mask * 3 + fiveBox) * width;
      if (fiveBox === FIVE_HOLDS_0 && sameFilledStates) {
        chance.copyWithin(base, (mask * 3 + FIVE_HOLDS_50) * width, base);
        continue;
      }
      const full = mask === ALL_FILLED && fiveBox !== FIVE_OPEN;
      let jokers: JokerEntry[][] | null = null;
      for (let u = 0; u < width; u++) {
        if (!reachable[upperMask * width + u]) continue;
        if (u >= threshold) chance[base + u] = 1;
        else if (full || u + openMax < threshold) chance[base + u] = 0;
        else {
          jokers ??= jokerEntries(sol, mask, fiveBox);
          chance[base + u] = bonusChanceWidget(sol, chance, mask, fiveBox, u, jokers, scratch);
        }
      }
    }
  }
  return chance;
}

/** The table with its bonus-chance table (what the service builds, caches and serves). */
export function withBonusChance(sol: FiveDiceSolution): FiveDiceSolution {
  const bonusChance = solveBonusChance(sol);
  return bonusChance ? { ...sol, bonusChance } : sol;
}

/**
 * The chance of reaching the upper bonus under optimal play from a position: the start of a turn
 * (`dice` null) or after a roll with `rollsLeft` (2, 1, 0) before the decision on it. Null when the
 * bonus is decided (reached, or out of reach), worth 0 points, or the table has no bonus-chance table.
 */
export function upperBonusChance(
  sol: FiveDiceSolution,
  sheet: SheetLike,
  dice: readonly Die[] | null = null,
  rollsLeft = 3,
): number | null {
  const { mask, fiveBox, upper } = solverState(sheet);
  const chance = sol.bonusChance;
  if (!chance || upper >= sol.threshold || upper + maxOpenUpper(mask & 63) < sol.threshold) return null;
  if (mask === ALL_FILLED && fiveBox !== FIVE_OPEN) return null;
  if (dice === null) return chance[(mask * 3 + fiveBox) * (sol.threshold + 1) + upper];
  const t = keepTables();
  const counts = [0, 0, 0, 0, 0, 0, 0];
  for (const d of dice) counts[d]++;
  const k = t.indexOf(counts);
  const s = (scratch ??= newBonusScratch());
  bonusChanceWidget(sol, chance, mask, fiveBox, upper, jokerEntries(sol, mask, fiveBox), s);
  return rollsLeft >= 2 ? s.p3[k] : rollsLeft === 1 ? s.p2[k] : s.p1[k];
}
let scratch: BonusScratch | null = null;
