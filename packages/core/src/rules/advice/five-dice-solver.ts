/**
 * Exact optimal solitaire policy of the five-dice family (docs/advice.md): backward induction over
 * (filled boxes, upper total capped at the threshold, state of the five-of-a-kind box), with the
 * standard per-turn computation ("widget": three rolls, two holds, one box) at every state.
 * Works for every option combination the family accepts. Pure and deterministic.
 */
import { BOX_IDS, type BoxId, type FiveDiceOptions } from '../five-dice/types';
import { DICE, type KeepTables, bestOverSubKeeps, expectOverRolls, keepTables } from './dice-tables';

/** −∞ read once: a bare `Infinity` in a hot loop is a global lookup that V8 cannot fold inside a vm context (Jest's sandbox). */
const MINUS_INFINITY = Number.NEGATIVE_INFINITY;

/**
 * The 12 boxes other than five of a kind, as bits of a "filled" mask: bits 0..5 the upper boxes
 * (ones..sixes), then three/four of a kind, full house, small and large straight, chance.
 */
export const MASK_BOXES = [
  'ones',
  'twos',
  'threes',
  'fours',
  'fives',
  'sixes',
  'threeOfAKind',
  'fourOfAKind',
  'fullHouse',
  'smallStraight',
  'largeStraight',
  'chance',
] as const satisfies readonly BoxId[];
export const ALL_FILLED = (1 << MASK_BOXES.length) - 1; // 4095
const UPPER_BITS = 63;
const THREE_KIND = 6;
const FOUR_KIND = 7;
const FULL_HOUSE = 8;
const SMALL_STRAIGHT = 9;
const LARGE_STRAIGHT = 10;
const CHANCE = 11;

/** State of the five-of-a-kind box: open, holds 50, holds 0. */
export const FIVE_OPEN = 0;
export const FIVE_HOLDS_50 = 1;
export const FIVE_HOLDS_0 = 2;
export type FiveBoxState = typeof FIVE_OPEN | typeof FIVE_HOLDS_50 | typeof FIVE_HOLDS_0;

/** A solved table: the expected points still to come from the start of a turn in every state. */
export interface FiveDiceSolution {
  readonly options: FiveDiceOptions;
  /** Upper totals are capped at this (the threshold); `threshold + 1` slots per (mask, five-box state). */
  readonly threshold: number;
  /**
   * values[((mask * 3 + fiveBox) * (threshold + 1)) + upper]: expected points still to come (boxes,
   * upper bonus, extra bonuses) from the start of a turn; NaN for states no sheet can reach.
   */
  readonly values: Float64Array;
  /** reachable[upperMask * (threshold + 1) + upper]: 1 if some filling of those upper boxes totals `upper` (capped). */
  readonly reachable: Uint8Array;
  /** Widget computations done while solving (the rest were copies of equal states). */
  readonly widgets: number;
  /**
   * bonusChance[state index]: the chance of reaching the upper bonus from the start of a turn under
   * optimal play (five-dice-bonus-chance.ts); 1 once reached, 0 out of reach, NaN unreachable.
   * Absent when the bonus is worth 0 points (and in tables built without it).
   */
  readonly bonusChance?: Float32Array;
}

export const stateIndex = (threshold: number, mask: number, fiveBox: number, upper: number) =>
  (mask * 3 + fiveBox) * (threshold + 1) + upper;

/** Ordinary points of each size-5 keep in each mask box, and which keeps are five of a kind. */
export interface OutcomeTables {
  /** byBox[bit * 252 + i]: ordinary points of outcome i (size-5 keep sizeStart[5] + i) in mask box `bit`. */
  readonly byBox: Float64Array;
  /** byFace[j * 252 + i]: dice of face j + 1 in outcome i. */
  readonly byFace: Uint8Array;
  /** fiveKeeps[f]: keep index of five dice of face f (1..6). */
  readonly fiveKeeps: Int32Array;
}

let outcomeTables: OutcomeTables | null = null;
/** The ordinary scores of the 252 outcomes (built once; shared with the endgame solver). */
export function finalRollScores(t: KeepTables = keepTables()): OutcomeTables {
  if (outcomeTables) return outcomeTables;
  const start = t.sizeStart[DICE];
  const n = t.count - start;
  const byBox = new Float64Array(12 * n);
  const byFace = new Uint8Array(6 * n);
  const fiveKeeps = new Int32Array(7);
  for (let k = start; k < t.count; k++) {
    const i = k - start;
    let total = 0;
    let max = 0;
    let three = false;
    let two = false;
    let run = 0;
    let longest = 0;
    for (let f = 1; f <= 6; f++) {
      const c = t.counts[k * 7 + f];
      byFace[(f - 1) * n + i] = c;
      byBox[(f - 1) * n + i] = c * f;
      total += c * f;
      if (c > max) max = c;
      if (c === 3) three = true;
      if (c === 2) two = true;
      run = c > 0 ? run + 1 : 0;
      if (run > longest) longest = run;
      if (c === 5) fiveKeeps[f] = k;
    }
    byBox[THREE_KIND * n + i] = max >= 3 ? total : 0;
    byBox[FOUR_KIND * n + i] = max >= 4 ? total : 0;
    byBox[FULL_HOUSE * n + i] = three && two ? 25 : 0;
    byBox[SMALL_STRAIGHT * n + i] = longest >= 4 ? 30 : 0;
    byBox[LARGE_STRAIGHT * n + i] = longest === 5 ? 40 : 0;
    byBox[CHANCE * n + i] = total;
  }
  outcomeTables = { byBox, byFace, fiveKeeps };
  return outcomeTables;
}

/** Joker "full value" of a lower mask box for five dice of `face`. */
const jokerLowerPoints = (bit: number, face: number) =>
  bit === FULL_HOUSE ? 25 : bit === SMALL_STRAIGHT ? 30 : bit === LARGE_STRAIGHT ? 40 : 5 * face;

/** Upper totals reachable for each set of filled upper boxes (capped at the threshold). */
export function reachability(threshold: number): Uint8Array {
  const width = threshold + 1;
  const out = new Uint8Array(64 * width);
  for (let upperMask = 0; upperMask < 64; upperMask++) {
    let sums = new Set<number>([0]);
    for (let j = 0; j < 6; j++) {
      if (!(upperMask & (1 << j))) continue;
      const next = new Set<number>();
      for (const s of sums) for (let c = 0; c <= 5; c++) next.add(Math.min(threshold, s + c * (j + 1)));
      sums = next;
    }
    for (const s of sums) out[upperMask * width + s] = 1;
  }
  return out;
}

/** Largest sum the still-open upper boxes of `upperMask` can add. */
export const maxOpenUpper = (upperMask: number) => {
  let m = 0;
  for (let j = 0; j < 6; j++) if (!(upperMask & (1 << j))) m += 5 * (j + 1);
  return m;
};

/** Scratch arrays of one widget computation (reused). */
export interface Scratch {
  readonly keep: Float64Array;
  readonly upperValue: Float64Array;
  readonly lowerNext: Float64Array;
}
export const newScratch = (): Scratch => ({
  keep: new Float64Array(keepTables().count),
  upperValue: new Float64Array(36),
  lowerNext: new Float64Array(12),
});

/**
 * Fills `out[k]` for every size-5 keep k (a final roll) with the best value over the allowed
 * open boxes: points + extra bonus + upper bonus if this entry reaches the threshold + the value
 * of the state after it. The state must have at least one open box.
 */
export function fillFinalRollValues(
  sol: Pick<FiveDiceSolution, 'options' | 'threshold' | 'values'>,
  mask: number,
  fiveBox: number,
  upper: number,
  scratch: Scratch,
  out: Float64Array,
): void {
  const t = keepTables();
  const boxMajor = finalRollScores(t);
  const { options, threshold, values } = sol;
  const { upperValue, lowerNext } = scratch;
  const width = threshold + 1;
  const bonusPoints = options.upperBonusPoints;
  // Successor values per open box.
  let openUpper = 0;
  let openLower = 0;
  for (let j = 0; j < 6; j++) {
    if (mask & (1 << j)) continue;
    openUpper |= 1 << j;
    const base = ((mask | (1 << j)) * 3 + fiveBox) * width;
    for (let c = 0; c <= 5; c++) {
      const gained = c * (j + 1);
      const reached = upper + gained >= threshold;
      upperValue[j * 6 + c] =
        gained +
        (reached && upper < threshold ? bonusPoints : 0) +
        values[base + (reached ? threshold : upper + gained)];
    }
  }
  for (let b = 6; b < 12; b++) {
    if (mask & (1 << b)) continue;
    openLower |= 1 << b;
    lowerNext[b] = values[((mask | (1 << b)) * 3 + fiveBox) * width + upper];
  }
  const fiveOpen = fiveBox === FIVE_OPEN;
  const fiveHit = fiveOpen ? 50 + values[(mask * 3 + FIVE_HOLDS_50) * width + upper] : 0;
  const fiveMiss = fiveOpen ? values[(mask * 3 + FIVE_HOLDS_0) * width + upper] : 0;
  const jokerRule = options.joker;
  const jokerOn =
    jokerRule !== 'none' &&
    (fiveBox === FIVE_HOLDS_50 || (fiveBox === FIVE_HOLDS_0 && options.jokerAfterSacrifice === true));
  const extra = fiveBox === FIVE_HOLDS_50 ? options.extraFiveOfAKindBonus : 0;

  // Box by box over all 252 outcomes (tight loops over typed arrays), then the six five-of-a-kind
  // outcomes again where the joker or the extra bonus changes them.
  const start = t.sizeStart[DICE];
  const n = t.count - start;
  const { byBox, byFace, fiveKeeps } = boxMajor;
  if (fiveOpen) {
    for (let i = 0; i < n; i++) out[start + i] = fiveMiss;
    for (let f = 1; f <= 6; f++) out[fiveKeeps[f]] = fiveHit;
  } else {
    out.fill(MINUS_INFINITY, start, t.count);
  }
  for (let j = 0; j < 6; j++) {
    if (!(openUpper & (1 << j))) continue;
    const uv = j * 6;
    const off = j * n;
    for (let i = 0; i < n; i++) {
      const v = upperValue[uv + byFace[off + i]];
      if (v > out[start + i]) out[start + i] = v;
    }
  }
  for (let b = 6; b < 12; b++) {
    if (!(openLower & (1 << b))) continue;
    const nb = lowerNext[b];
    const off = b * n;
    for (let i = 0; i < n; i++) {
      const v = byBox[off + i] + nb;
      if (v > out[start + i]) out[start + i] = v;
    }
  }
  for (let face = 1; face <= 6; face++) {
    const k = fiveKeeps[face];
    const own = face - 1;
    // freeChoice with the face's upper box open: no joker, the roll scores ordinarily (as above).
    if (!jokerOn || (jokerRule === 'freeChoice' && openUpper & (1 << own))) {
      out[k] += extra;
      continue;
    }
    let best = MINUS_INFINITY;
    // free / freeChoice: every open box; forced: own upper box, else the lower boxes, else the upper boxes.
    const forced = jokerRule === 'forced';
    const lowerAllowed = !forced || !(openUpper & (1 << own));
    const upperAllowed = !forced || openLower === 0 || openUpper & (1 << own);
    if (upperAllowed) {
      for (let j = 0; j < 6; j++) {
        if (!(openUpper & (1 << j))) continue;
        if (forced && openUpper & (1 << own) && j !== own) continue;
        const v = upperValue[j * 6 + (j === own ? 5 : 0)];
        if (v > best) best = v;
      }
    }
    if (lowerAllowed) {
      for (let b = 6; b < 12; b++) {
        if (!(openLower & (1 << b))) continue;
        const v = jokerLowerPoints(b, face) + lowerNext[b];
        if (v > best) best = v;
      }
    }
    out[k] = best + extra;
  }
}

/**
 * Expected points of a whole turn from the state and after it (three rolls, best holds, best box),
 * given the values of the states after it in `sol.values`.
 */
export function turnValue(
  sol: Pick<FiveDiceSolution, 'options' | 'threshold' | 'values'>,
  mask: number,
  fiveBox: number,
  upper: number,
  scratch: Scratch,
): number {
  const t = keepTables();
  const v = scratch.keep;
  fillFinalRollValues(sol, mask, fiveBox, upper, scratch, v);
  expectOverRolls(t, v);
  bestOverSubKeeps(t, v);
  expectOverRolls(t, v);
  bestOverSubKeeps(t, v);
  expectOverRolls(t, v);
  return v[0];
}

/**
 * Solves the options by backward induction: states with more filled boxes first (decreasing
 * mask; for each mask the filled five-of-a-kind box before the open one). States that the
 * options make equal are computed once and copied:
 *  - every upper total from which the bonus can no longer be reached (or with a 0-point bonus);
 *  - five-of-a-kind box at 50 and at 0 when neither the bonus nor the joker tells them apart.
 */
export function solveFiveDice(options: FiveDiceOptions): FiveDiceSolution {
  const threshold = options.upperBonusThreshold;
  const width = threshold + 1;
  const values = new Float64Array(4096 * 3 * width).fill(NaN);
  const reachable = reachability(threshold);
  const sol = { options, threshold, values, reachable, widgets: 0 };
  const scratch = newScratch();

  const sameFilledStates =
    options.extraFiveOfAKindBonus === 0 && (options.joker === 'none' || options.jokerAfterSacrifice === true);
  let widgets = 0;
  for (let mask = ALL_FILLED; mask >= 0; mask--) {
    const upperMask = mask & UPPER_BITS;
    const openMax = maxOpenUpper(upperMask);
    for (const fiveBox of [FIVE_HOLDS_50, FIVE_HOLDS_0, FIVE_OPEN]) {
      const base = (mask * 3 + fiveBox) * width;
      if (fiveBox === FIVE_HOLDS_0 && sameFilledStates) {
        const from = (mask * 3 + FIVE_HOLDS_50) * width;
        for (let u = 0; u < width; u++) values[base + u] = values[from + u];
        continue;
      }
      let collapsed = NaN;
      for (let u = 0; u < width; u++) {
        if (!reachable[upperMask * width + u]) continue;
        if (mask === ALL_FILLED && fiveBox !== FIVE_OPEN) {
          values[base + u] = 0;
          continue;
        }
        const bonusOutOfReach = options.upperBonusPoints === 0 || (u < threshold && u + openMax < threshold);
        if (bonusOutOfReach && !Number.isNaN(collapsed)) {
          values[base + u] = collapsed;
          continue;
        }
        const v = turnValue(sol, mask, fiveBox, u, scratch);
        widgets++;
        values[base + u] = v;
        if (bonusOutOfReach) collapsed = v;
      }
    }
  }
  return { options, threshold, values, reachable, widgets };
}

/** Expected points still to come from the start of a turn (0 when the sheet is full). */
export function stateValue(sol: FiveDiceSolution, mask: number, fiveBox: number, upper: number): number {
  return sol.values[stateIndex(sol.threshold, mask, fiveBox, Math.min(upper, sol.threshold))];
}

/** Expected final score of a fresh sheet under optimal play. */
export const expectedScoreFromStart = (sol: FiveDiceSolution) => stateValue(sol, 0, FIVE_OPEN, 0);

/** Mask bit of a box, or -1 for five of a kind. */
export const maskBit = (box: BoxId): number => (MASK_BOXES as readonly string[]).indexOf(box);
export const SHEET_ORDER: readonly BoxId[] = BOX_IDS;
