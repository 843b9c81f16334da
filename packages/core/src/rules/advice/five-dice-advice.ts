/**
 * Optimal advice for one decision of the five-dice family, from a solved table (five-dice-solver).
 * Every value is an expected FINAL score (the sheet's total so far + what optimal play adds).
 * Ties (values within TIE_EPSILON of the best) are broken by a documented order (docs/advice.md),
 * so another implementation makes the same move.
 */
import type { Die } from '../core/dice';
import { type SheetLike, scoreOptionsFor, totals } from '../five-dice/scoring';
import { BOX_IDS, type BoxId, DICE_COUNT, UPPER_BOXES } from '../five-dice/types';
import { DICE, bestOverSubKeeps, expectOverRolls, keepTables } from './dice-tables';
import {
  FIVE_HOLDS_0,
  FIVE_HOLDS_50,
  FIVE_OPEN,
  type FiveBoxState,
  type FiveDiceSolution,
  MASK_BOXES,
  type Scratch,
  fillFinalRollValues,
  newScratch,
  stateValue,
} from './five-dice-solver';

/** Two expected values closer than this are a tie. */
export const TIE_EPSILON = 1e-9;

/** The solver's view of a sheet: filled boxes, five-of-a-kind box, upper total (uncapped). */
export interface SolverState {
  readonly mask: number;
  readonly fiveBox: FiveBoxState;
  readonly upper: number;
}

/** The solver state of a sheet (its boxes must hold possible values: see isPossibleBoxValue). */
export function solverState(sheet: SheetLike): SolverState {
  let mask = 0;
  let upper = 0;
  MASK_BOXES.forEach((box, bit) => {
    const points = sheet.boxes[box];
    if (points === undefined) return;
    mask |= 1 << bit;
    if (bit < UPPER_BOXES.length) upper += points;
  });
  const five = sheet.boxes.fiveOfAKind;
  const fiveBox: FiveBoxState = five === undefined ? FIVE_OPEN : five > 0 ? FIVE_HOLDS_50 : FIVE_HOLDS_0;
  return { mask, fiveBox, upper };
}

const isFull = (s: SolverState) => s.mask === 4095 && s.fiveBox !== FIVE_OPEN;

/** Expected final score of the sheet at the start of a turn under optimal play (its total once full). */
export function expectedFinalScore(sol: FiveDiceSolution, sheet: SheetLike): number {
  const s = solverState(sheet);
  const now = totals(sheet, sol.options).total;
  return isFull(s) ? now : now + stateValue(sol, s.mask, s.fiveBox, s.upper);
}

export interface BoxAdvice {
  readonly box: BoxId;
  /** Points the box would receive, and the extra five-of-a-kind bonus this roll earns. */
  readonly points: number;
  readonly bonus: number;
  /** Expected final score if the roll is entered here and play stays optimal. */
  readonly expected: number;
}

/**
 * Every box the rules allow for `dice` (five faces) on `sheet`, best first. The first entry is the
 * optimal choice: the highest expected final score; within TIE_EPSILON, the earliest box in sheet order.
 */
export function adviseBox(sol: FiveDiceSolution, sheet: SheetLike, dice: readonly Die[]): BoxAdvice[] {
  assertDice(dice);
  const { options, threshold } = sol;
  const s = solverState(sheet);
  const now = totals(sheet, options).total;
  const upperNow = Math.min(s.upper, threshold);
  const list: BoxAdvice[] = [];
  for (const option of scoreOptionsFor(sheet, dice, options).boxes) {
    if (!option.allowed) continue;
    const bit = (MASK_BOXES as readonly string[]).indexOf(option.box);
    let next: number;
    let upperBonus = 0;
    if (bit < 0) {
      next = stateValueOrZero(sol, s.mask, option.points > 0 ? FIVE_HOLDS_50 : FIVE_HOLDS_0, upperNow);
    } else if (bit < UPPER_BOXES.length) {
      const reached = Math.min(threshold, upperNow + option.points);
      if (upperNow < threshold && reached >= threshold) upperBonus = options.upperBonusPoints;
      next = stateValueOrZero(sol, s.mask | (1 << bit), s.fiveBox, reached);
    } else {
      next = stateValueOrZero(sol, s.mask | (1 << bit), s.fiveBox, upperNow);
    }
    list.push({
      box: option.box,
      points: option.points,
      bonus: option.bonus,
      expected: now + option.points + option.bonus + upperBonus + next,
    });
  }
  return orderBest(list, boxTieOrder);
}

function stateValueOrZero(sol: FiveDiceSolution, mask: number, fiveBox: number, upper: number): number {
  return mask === 4095 && fiveBox !== FIVE_OPEN ? 0 : stateValue(sol, mask, fiveBox, upper);
}

export interface HoldAdvice {
  /** Indices (0..4, ascending) of the dice to keep: for each face the lowest indices showing it. */
  readonly hold: number[];
  /** The kept faces, ascending. Keeping all five dice means scoring now (the best box). */
  readonly kept: Die[];
  /** Expected final score if these dice are kept and play stays optimal. */
  readonly expected: number;
}

/**
 * Every distinct hold (by kept faces) for `dice` with `rollsLeft` (2 after the first roll of a
 * turn, 1 after the second), best first. The first entry is the optimal hold: the highest expected
 * final score; within TIE_EPSILON, the hold keeping the most dice, then the smallest kept faces in
 * lexicographic order (ascending faces compared left to right).
 */
export function adviseHolds(
  sol: FiveDiceSolution,
  sheet: SheetLike,
  dice: readonly Die[],
  rollsLeft: 1 | 2,
  scratch: Scratch = sharedScratch(),
): HoldAdvice[] {
  assertDice(dice);
  if (rollsLeft !== 1 && rollsLeft !== 2) throw new RangeError(`rollsLeft must be 1 or 2, got ${String(rollsLeft)}`);
  const s = solverState(sheet);
  if (isFull(s)) throw new RangeError('the sheet is full');
  const now = totals(sheet, sol.options).total;
  const upper = Math.min(s.upper, sol.threshold);
  const values = scratch.keep;
  fillFinalRollValues(sol, s.mask, s.fiveBox, upper, scratch, values);
  return holdsFromFinalValues(values, dice, rollsLeft, now);
}

/**
 * The hold list of adviseHolds from the values of every final roll (`values[k]` for the size-5
 * keeps k: what that roll is worth when scored; overwritten): each distinct hold's value is `base`
 * plus the value of keeping it with `rollsLeft` rolls to come (keeping all five: the roll's own
 * value). Ordered as adviseHolds. Shared with the endgame advisers (five-dice-endgame.ts).
 */
export function holdsFromFinalValues(
  values: Float64Array,
  dice: readonly Die[],
  rollsLeft: 1 | 2,
  base: number,
): HoldAdvice[] {
  const t = keepTables();
  const counts = [0, 0, 0, 0, 0, 0, 0];
  for (const d of dice) counts[d]++;
  const rolled = t.indexOf(counts);
  const scoreNow = values[rolled];
  expectOverRolls(t, values);
  if (rollsLeft === 2) {
    bestOverSubKeeps(t, values);
    expectOverRolls(t, values);
  }
  const positions: number[][] = [[], [], [], [], [], [], []];
  dice.forEach((d, i) => positions[d].push(i));
  const list: HoldAdvice[] = [];
  const take = [0, 0, 0, 0, 0, 0, 0];
  const walk = (face: number) => {
    if (face > 6) {
      const k = t.indexOf(take);
      const hold: number[] = [];
      const kept: Die[] = [];
      for (let f = 1; f <= 6; f++)
        for (let n = 0; n < take[f]; n++) {
          hold.push(positions[f][n]);
          kept.push(f as Die);
        }
      hold.sort((a, b) => a - b);
      const expected = base + (t.size[k] === DICE ? scoreNow : values[k]);
      list.push({ hold, kept, expected });
      return;
    }
    for (let n = 0; n <= counts[face]; n++) {
      take[face] = n;
      walk(face + 1);
    }
    take[face] = 0;
  };
  walk(1);
  return orderBest(list, holdTieOrder);
}

/** Tie order of holds: the most dice first, then the smallest kept faces (lexicographic). */
export const holdTieOrder = (a: { kept: readonly number[] }, b: { kept: readonly number[] }) =>
  b.kept.length - a.kept.length || compareFaces(a.kept, b.kept);

/** Tie order of boxes: sheet order. */
export const boxTieOrder = (a: { box: BoxId }, b: { box: BoxId }) => BOX_IDS.indexOf(a.box) - BOX_IDS.indexOf(b.box);

const compareFaces = (a: readonly number[], b: readonly number[]) => {
  for (let i = 0; i < Math.min(a.length, b.length); i++) if (a[i] !== b[i]) return a[i] - b[i];
  return a.length - b.length;
};

/**
 * Sorted by value (`expected` unless `value` says otherwise; descending, exact ties by `tieOrder`),
 * with the chosen move first: the earliest in `tieOrder` among the moves within TIE_EPSILON of the best.
 */
export function orderBest<T>(
  list: T[],
  tieOrder: (a: T, b: T) => number,
  value: (move: T) => number = (move) => (move as { expected: number }).expected,
): T[] {
  list.sort((a, b) => value(b) - value(a) || tieOrder(a, b));
  if (list.length === 0) return list;
  const best = value(list[0]);
  let chosen = 0;
  for (let i = 1; i < list.length && value(list[i]) >= best - TIE_EPSILON; i++)
    if (tieOrder(list[i], list[chosen]) < 0) chosen = i;
  if (chosen !== 0) list.unshift(...list.splice(chosen, 1));
  return list;
}

export function assertDice(dice: readonly Die[]): void {
  if (!Array.isArray(dice) || dice.length !== DICE_COUNT || !dice.every((d) => Number.isInteger(d) && d >= 1 && d <= 6))
    throw new RangeError(`five dice with faces 1 to 6 expected, got ${JSON.stringify(dice)?.slice(0, 60)}`);
}

let scratch: Scratch | null = null;
const sharedScratch = () => (scratch ??= newScratch());
