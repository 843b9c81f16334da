import { type Die, isDie } from '../core/dice';
import { type RuleError, ruleError } from '../core/errors';
import {
  BOX_IDS,
  type BoxId,
  DICE_COUNT,
  type FiveDiceOptions,
  type FiveDiceSheet,
  type FiveDiceState,
  type SheetBoxes,
  UPPER_BOXES,
  isBoxId,
  isUpperBox,
  upperBoxFace,
  upperBoxOf,
} from './types';

export const FULL_HOUSE_POINTS = 25;
export const SMALL_STRAIGHT_POINTS = 30;
export const LARGE_STRAIGHT_POINTS = 40;
export const FIVE_OF_A_KIND_POINTS = 50;

/** counts[f] = number of dice showing f (index 0 unused). */
export function faceCounts(dice: readonly Die[]): number[] {
  const counts = [0, 0, 0, 0, 0, 0, 0];
  for (const d of dice) counts[d]++;
  return counts;
}

/** Longest run of consecutive faces present. */
function longestRun(counts: readonly number[]): number {
  let best = 0;
  let run = 0;
  for (let f = 1; f <= 6; f++) {
    run = counts[f] > 0 ? run + 1 : 0;
    if (run > best) best = run;
  }
  return best;
}

export const isFiveOfAKind = (dice: readonly Die[]) =>
  dice.length === DICE_COUNT &&
  dice[0] === dice[1] &&
  dice[0] === dice[2] &&
  dice[0] === dice[3] &&
  dice[0] === dice[4];

/**
 * Ordinary points of `dice` in every box, without any joker: a five of a kind is not a full
 * house and not a straight. Computed from one pass over the face counts.
 */
export function ordinaryScores(dice: readonly Die[]): Record<BoxId, number> {
  const counts = faceCounts(dice);
  let max = 0;
  let total = 0;
  let hasThree = false;
  let hasTwo = false;
  for (let f = 1; f <= 6; f++) {
    const c = counts[f];
    total += c * f;
    if (c > max) max = c;
    if (c === 3) hasThree = true;
    if (c === 2) hasTwo = true;
  }
  const run = longestRun(counts);
  return {
    ones: counts[1],
    twos: counts[2] * 2,
    threes: counts[3] * 3,
    fours: counts[4] * 4,
    fives: counts[5] * 5,
    sixes: counts[6] * 6,
    threeOfAKind: max >= 3 ? total : 0,
    fourOfAKind: max >= 4 ? total : 0,
    fullHouse: hasThree && hasTwo ? FULL_HOUSE_POINTS : 0,
    smallStraight: run >= 4 ? SMALL_STRAIGHT_POINTS : 0,
    largeStraight: run === 5 ? LARGE_STRAIGHT_POINTS : 0,
    fiveOfAKind: max === 5 ? FIVE_OF_A_KIND_POINTS : 0,
    chance: total,
  };
}

/** Ordinary points of `dice` in `box` (see `ordinaryScores`). */
export function boxPoints(box: BoxId, dice: readonly Die[]): number {
  return ordinaryScores(dice)[box];
}

/** Joker ("full value") points in a lower box: fixed boxes at their value, the others the sum. */
function jokerLowerPoints(box: BoxId, ordinary: Record<BoxId, number>): number {
  switch (box) {
    case 'fullHouse':
      return FULL_HOUSE_POINTS;
    case 'smallStraight':
      return SMALL_STRAIGHT_POINTS;
    case 'largeStraight':
      return LARGE_STRAIGHT_POINTS;
    default:
      return ordinary[box];
  }
}

export interface BoxOption {
  readonly box: BoxId;
  /** Points the box would receive. */
  readonly points: number;
  /** Extra five-of-a-kind bonus earned if the roll is entered here (same for every allowed box). */
  readonly bonus: number;
  /** False when the forced joker forbids this open box. */
  readonly allowed: boolean;
}

export interface ScoreOptions {
  /** Every open box, in sheet order. */
  readonly boxes: BoxOption[];
  /** No allowed open box scores more than 0 ("No open box scores: you must sacrifice one"). */
  readonly mustSacrifice: boolean;
  /** A joker rule (forced or free) applies to this roll. */
  readonly jokerActive: boolean;
  /** The dice show five of a kind. */
  readonly fiveOfAKind: boolean;
}

/** Anything with filled boxes: a full sheet, or just the boxes (calculator). */
export type SheetLike = { readonly boxes: SheetBoxes } | FiveDiceSheet;

const isOpen = (boxes: SheetBoxes, box: BoxId) => boxes[box] === undefined;

/**
 * Stateless: every open box of `sheet` with what `dice` would score there under `options`.
 * `dice` must be five valid faces (see `calculateScoreOptions` for untrusted input).
 */
export function scoreOptionsFor(sheet: SheetLike, dice: readonly Die[], options: FiveDiceOptions): ScoreOptions {
  const boxes = sheet.boxes;
  const five = isFiveOfAKind(dice);
  const fiveBoxHolds50 = boxes.fiveOfAKind === FIVE_OF_A_KIND_POINTS;
  const extra = five && fiveBoxHolds50 ? options.extraFiveOfAKindBonus : 0;
  const fiveBoxFilled = boxes.fiveOfAKind !== undefined;
  // freeChoice: no joker while the face's upper box is open (the roll then scores ordinarily).
  const jokerActive =
    five &&
    options.joker !== 'none' &&
    (fiveBoxHolds50 || (fiveBoxFilled && options.jokerAfterSacrifice === true)) &&
    !(options.joker === 'freeChoice' && isOpen(boxes, upperBoxOf(dice[0])));

  const open = BOX_IDS.filter((b) => isOpen(boxes, b));
  const ordinary = ordinaryScores(dice);
  let list: BoxOption[];
  if (!jokerActive) {
    list = open.map((box) => ({ box, points: ordinary[box], bonus: extra, allowed: true }));
  } else if (options.joker === 'free' || options.joker === 'freeChoice') {
    list = open.map((box) => ({
      box,
      points: isUpperBox(box) ? ordinary[box] : jokerLowerPoints(box, ordinary),
      bonus: extra,
      allowed: true,
    }));
  } else {
    // forced: own upper box first, then any open lower box at full value, then any upper box at 0.
    const own = upperBoxOf(dice[0]);
    const ownOpen = isOpen(boxes, own);
    const lowerOpen = open.some((b) => !isUpperBox(b));
    list = open.map((box) => {
      let allowed: boolean;
      if (ownOpen) allowed = box === own;
      else if (lowerOpen) allowed = !isUpperBox(box);
      else allowed = true; // only upper boxes are left
      const points = isUpperBox(box) ? (box === own ? ordinary[box] : 0) : jokerLowerPoints(box, ordinary);
      return { box, points, bonus: extra, allowed };
    });
  }
  const mustSacrifice = !list.some((o) => o.allowed && o.points > 0);
  return { boxes: list, mustSacrifice, jokerActive, fiveOfAKind: five };
}

/** `scoreOptions` for the current dice of the seat whose turn it is (ROLL_REQUIRED before a roll). */
export function scoreOptions(state: FiveDiceState): ScoreOptions | RuleError;
export function scoreOptions(sheet: SheetLike, dice: readonly Die[], options: FiveDiceOptions): ScoreOptions;
export function scoreOptions(
  stateOrSheet: FiveDiceState | SheetLike,
  dice?: readonly Die[],
  options?: FiveDiceOptions,
): ScoreOptions | RuleError {
  if (dice !== undefined && options !== undefined) return scoreOptionsFor(stateOrSheet as SheetLike, dice, options);
  const state = stateOrSheet as FiveDiceState;
  if (state.turn === null) return ruleError('GAME_FINISHED', 'the game is finished');
  if (state.turn.dice.length === 0) return ruleError('ROLL_REQUIRED', 'roll the dice before looking at the boxes');
  return scoreOptionsFor(state.sheets[state.turn.seat], state.turn.dice, state.options);
}

/** Possible points of each box (a sheet from the network is checked against these). */
export function isPossibleBoxValue(box: BoxId, points: number): boolean {
  if (!Number.isInteger(points) || points < 0) return false;
  if (isUpperBox(box)) {
    const face = upperBoxFace(box);
    return points % face === 0 && points <= 5 * face;
  }
  switch (box) {
    case 'threeOfAKind':
    case 'fourOfAKind':
    case 'chance':
      return points === 0 || (points >= 5 && points <= 30);
    case 'fullHouse':
      return points === 0 || points === FULL_HOUSE_POINTS;
    case 'smallStraight':
      return points === 0 || points === SMALL_STRAIGHT_POINTS;
    case 'largeStraight':
      return points === 0 || points === LARGE_STRAIGHT_POINTS;
    case 'fiveOfAKind':
      return points === 0 || points === FIVE_OF_A_KIND_POINTS;
  }
  return false;
}

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * The calculator endpoint: untrusted `{ dice, boxes }` (+ resolved options) → the same list as
 * `scoreOptions`, or INVALID_COMMAND naming what is wrong. `boxes` maps filled box ids to points.
 */
export function calculateScoreOptions(input: unknown, options: FiveDiceOptions): ScoreOptions | RuleError {
  if (!isPlainObject(input)) return ruleError('INVALID_COMMAND', 'expected { dice, boxes }');
  const { dice, boxes } = input;
  if (!Array.isArray(dice) || dice.length !== DICE_COUNT || !dice.every(isDie)) {
    return ruleError('INVALID_COMMAND', 'dice must be 5 integers from 1 to 6', { field: 'dice' });
  }
  const sheet: { -readonly [K in BoxId]?: number } = {};
  if (boxes !== undefined && boxes !== null) {
    if (!isPlainObject(boxes)) return ruleError('INVALID_COMMAND', 'boxes must be an object', { field: 'boxes' });
    for (const [key, value] of Object.entries(boxes)) {
      if (!isBoxId(key)) return ruleError('UNKNOWN_BOX', `unknown box '${key}'`, { box: key });
      if (value === null || value === undefined) continue; // open
      if (typeof value !== 'number' || !isPossibleBoxValue(key, value)) {
        // eslint-disable-next-line @typescript-eslint/no-base-to-string -- any JSON a client sent; the message shows it as String() does
        return ruleError('INVALID_COMMAND', `box '${key}' cannot hold ${String(value)}`, { field: 'boxes', box: key });
      }
      sheet[key] = value;
    }
  }
  return scoreOptionsFor({ boxes: sheet }, dice, options);
}

export interface SheetTotals {
  readonly upper: number;
  readonly upperBonus: number;
  readonly lower: number;
  /** Extra five-of-a-kind bonuses. */
  readonly extraBonus: number;
  readonly total: number;
}

/** Totals of one sheet: upper sum, upper bonus, lower sum, extra bonuses and the grand total. */
export function totals(sheet: SheetLike, options: FiveDiceOptions): SheetTotals {
  let upper = 0;
  let lower = 0;
  for (const box of BOX_IDS) {
    const points = sheet.boxes[box];
    if (points === undefined) continue;
    if ((UPPER_BOXES as readonly string[]).includes(box)) upper += points;
    else lower += points;
  }
  const upperBonus = upper >= options.upperBonusThreshold ? options.upperBonusPoints : 0;
  const extraBonus = 'extraBonus' in sheet ? sheet.extraBonus : 0;
  return { upper, upperBonus, lower, extraBonus, total: upper + upperBonus + lower + extraBonus };
}
