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
import { DICE, type KeepTables, bestOverSubKeeps, expectOverRolls, keepTables } from './dice-tables';
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
  readonly f: Float64Array;
  readonly v1: Float64Array;
  readonly v2: Float64Array;
  readonly p1: Float64Array;
  readonly p2: Float64Array;
  readonly p3: Float64Array;
  readonly b: Float64Array;
  readonly done: Uint8Array;
  readonly pUp: Float64Array;
}
export const newBonusScratch = (): BonusScratch => {
  const count = keepTables().count;
  return {
    base: newScratch(),
    f: new Float64Array(count),
    v1: new Float64Array(count),
    v2: new Float64Array(count),
    p1: new Float64Array(count),
    p2: new Float64Array(count),
    p3: new Float64Array(count),
    b: new Float64Array(count),
    done: new Uint8Array(count),
    pUp: new Float64Array(6),
  };
};

/**
 * The bonus chance of a state whose bonus is still undecided (upper < threshold and reachable),
 * from the values (`sol.values`, all states) and the chances of the states after it (`chance`).
 * Leaves in the scratch, for every outcome k (size-5 keep), the chance after the decision on it:
 * `p1[k]` with no roll left (the box), `p2[k]` with one (the hold), `p3[k]` with two.
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
  const F = s.f;
  fillFinalRollValues(sol, mask, fiveBox, upper, s.base, F);
  const { upperValue, lowerNext } = s.base;
  const fiveOpen = fiveBox === FIVE_OPEN;
  const fiveHit = fiveOpen ? 50 + values[(mask * 3 + FIVE_HOLDS_50) * width + upper] : 0;
  const fiveMiss = fiveOpen ? values[(mask * 3 + FIVE_HOLDS_0) * width + upper] : 0;
  const chanceOf = (m: number, f: number, u: number) => (u >= threshold ? 1 : chance[(m * 3 + f) * width + u]);
  // Final roll: the box adviseBox chooses (the earliest in sheet order within TIE_EPSILON of the
  // best), box by box in sheet order over the outcomes not yet decided.
  const P1 = s.p1;
  const done = s.done;
  done.fill(0);
  for (const bit of SHEET_BITS) {
    if (bit < 0) {
      if (!fiveOpen) continue;
      const p = chanceOf(mask, FIVE_HOLDS_0, upper); // not a five of a kind (those are below)
      for (let i = 0; i < n; i++)
        if (!done[i] && fiveMiss >= F[first + i] - TIE_EPSILON) {
          P1[first + i] = p;
          done[i] = 1;
        }
      continue;
    }
    if (mask & (1 << bit)) continue;
    const next = mask | (1 << bit);
    if (bit < 6) {
      const off = bit * n;
      for (let c = 0; c <= 5; c++) s.pUp[c] = chanceOf(next, fiveBox, Math.min(threshold, upper + c * (bit + 1)));
      for (let i = 0; i < n; i++) {
        if (done[i]) continue;
        const c = byFace[off + i];
        if (upperValue[bit * 6 + c] >= F[first + i] - TIE_EPSILON) {
          P1[first + i] = s.pUp[c];
          done[i] = 1;
        }
      }
    } else {
      const off = bit * n;
      const nb = lowerNext[bit];
      const p = chanceOf(next, fiveBox, upper);
      for (let i = 0; i < n; i++)
        if (!done[i] && byBox[off + i] + nb >= F[first + i] - TIE_EPSILON) {
          P1[first + i] = p;
          done[i] = 1;
        }
    }
  }
  const bonusPoints = options.upperBonusPoints;
  const worthOf = (e: JokerEntry) => {
    if (e.bit < 0) return e.points + e.bonus + (e.points > 0 ? fiveHit - 50 : fiveMiss);
    const m = mask | (1 << e.bit);
    if (e.bit >= 6) return e.points + e.bonus + values[(m * 3 + fiveBox) * width + upper];
    const u = upper + e.points;
    const full = m === ALL_FILLED && fiveBox !== FIVE_OPEN;
    return (
      e.points +
      e.bonus +
      (u >= threshold ? bonusPoints : 0) +
      (full ? 0 : values[(m * 3 + fiveBox) * width + Math.min(threshold, u)])
    );
  };
  for (let f = 1; f <= 6; f++) {
    const entries = jokers[f - 1];
    let best = -Infinity;
    for (const e of entries) best = Math.max(best, worthOf(e));
    let j = 0;
    while (worthOf(entries[j]) < best - TIE_EPSILON) j++;
    const e = entries[j];
    const k = fiveKeeps[f];
    F[k] = best;
    P1[k] =
      e.bit < 0
        ? chanceOf(mask, e.points > 0 ? FIVE_HOLDS_50 : FIVE_HOLDS_0, upper)
        : e.bit < 6
          ? chanceOf(mask | (1 << e.bit), fiveBox, Math.min(threshold, upper + e.points))
          : chanceOf(mask | (1 << e.bit), fiveBox, upper);
  }
  // Second roll (one roll left): hold values E1 (V1) and chances (P1) of every keep.
  const V1 = s.v1;
  V1.set(F);
  expectOverRolls(t, V1);
  expectOverRolls(t, P1);
  const { start, list } = subKeeps(t);
  const V2 = s.v2;
  const P2 = s.p2;
  // The best hold's value of each outcome (bestOverSubKeeps on a copy), then the first hold in tie order within TIE_EPSILON.
  const B = s.b;
  B.set(V1);
  bestOverSubKeeps(t, B);
  for (let i = 0; i < n; i++) {
    const k = first + i;
    const best = B[k];
    let j = start[i];
    while (V1[list[j]] < best - TIE_EPSILON) j++;
    V2[k] = best;
    P2[k] = P1[list[j]];
  }
  // First roll (two rolls left): the holds' values are E2 (V2 averaged), keeping all five scores now (F).
  expectOverRolls(t, V2);
  expectOverRolls(t, P2);
  const P3 = s.p3;
  B.set(V2);
  for (let i = 0; i < n; i++) B[first + i] = F[first + i];
  bestOverSubKeeps(t, B);
  for (let i = 0; i < n; i++) {
    const k = first + i;
    const own = F[k];
    const best = B[k];
    let chosen = -1;
    if (own < best - TIE_EPSILON) {
      let j = start[i] + 1;
      while (V2[list[j]] < best - TIE_EPSILON) j++;
      chosen = list[j];
    }
    P3[k] = chosen < 0 ? P1[k] : P2[chosen];
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
  for (let mask = ALL_FILLED; mask >= 0; mask--) {
    const upperMask = mask & 63;
    const openMax = maxOpenUpper(upperMask);
    for (const fiveBox of [FIVE_HOLDS_50, FIVE_HOLDS_0, FIVE_OPEN]) {
      const base = (mask * 3 + fiveBox) * width;
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
