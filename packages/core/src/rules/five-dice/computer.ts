import type { Die } from '../core/dice';
import { FIVE_OF_A_KIND_POINTS, type SheetLike, faceCounts, isFiveOfAKind, scoreOptionsFor } from './scoring';
import {
  BOX_IDS,
  type BoxId,
  DICE_COUNT,
  type FiveDiceOptions,
  type FiveDiceState,
  ROLLS_PER_TURN,
  UPPER_BOXES,
  isUpperBox,
  upperBoxFace,
  upperBoxOf,
} from './types';

/**
 * Expected future value of an open box: `asymptote × (1 − (1 − p)^turnsLeft)`, where `p` is the
 * chance of a good result in one turn aimed at the box and `turnsLeft` the turns still to play
 * after this one. A box that is easy to fill later (chance, threes of a kind) keeps its value;
 * a rare one (large straight, five of a kind) loses its value as the game runs out.
 */
const FUTURE_VALUE: Record<Exclude<BoxId, 'fiveOfAKind'>, { asymptote: number; p: number }> = {
  ones: { asymptote: 3, p: 0.9 },
  twos: { asymptote: 6, p: 0.9 },
  threes: { asymptote: 9, p: 0.9 },
  fours: { asymptote: 12, p: 0.9 },
  fives: { asymptote: 15, p: 0.9 },
  sixes: { asymptote: 18, p: 0.9 },
  threeOfAKind: { asymptote: 22, p: 0.7 },
  fourOfAKind: { asymptote: 14, p: 0.4 },
  fullHouse: { asymptote: 22.5, p: 0.33 },
  smallStraight: { asymptote: 28.5, p: 0.5 },
  largeStraight: { asymptote: 32, p: 0.25 },
  chance: { asymptote: 22, p: 1 },
};
/** Chance of a five of a kind in one turn under the hold policy (simulated ≈ 3%). */
const FIVE_OF_A_KIND_P = 0.03;
/** Weight of an upper box's distance from 3 × face while the upper bonus is still open and reachable. */
const UPPER_BONUS_WEIGHT = 1.5;

/** The expected future value of keeping `box` open with `turnsLeft` turns after this one. */
export function futureValue(box: BoxId, turnsLeft: number, options: FiveDiceOptions): number {
  if (turnsLeft <= 0) return 0;
  if (box === 'fiveOfAKind') {
    // 50 in the box, plus the extra bonuses it unlocks for the rest of the game.
    const reach = 1 - (1 - FIVE_OF_A_KIND_P) ** turnsLeft;
    const unlocked = options.extraFiveOfAKindBonus * FIVE_OF_A_KIND_P * (turnsLeft / 2);
    return (FIVE_OF_A_KIND_POINTS + unlocked) * reach;
  }
  const { asymptote, p } = FUTURE_VALUE[box];
  return asymptote * (1 - (1 - p) ** turnsLeft);
}

const openBoxes = (sheet: SheetLike) => BOX_IDS.filter((b) => sheet.boxes[b] === undefined);

function upperState(sheet: SheetLike, options: FiveDiceOptions) {
  let sum = 0;
  let maxMore = 0;
  for (const box of UPPER_BOXES) {
    const v = sheet.boxes[box];
    if (v === undefined) maxMore += 5 * upperBoxFace(box);
    else sum += v;
  }
  const reached = sum >= options.upperBonusThreshold;
  return { sum, reached, reachable: !reached && sum + maxMore >= options.upperBonusThreshold };
}

/** Value of entering `points` into `box` now (points − what the box would be worth later ± upper bonus). */
function choiceValue(
  sheet: SheetLike,
  box: BoxId,
  points: number,
  turnsLeft: number,
  options: FiveDiceOptions,
): number {
  let value = points - futureValue(box, turnsLeft, options);
  if (isUpperBox(box)) {
    const upper = upperState(sheet, options);
    if (upper.reachable) {
      if (upper.sum + points >= options.upperBonusThreshold) value += options.upperBonusPoints;
      else value += UPPER_BONUS_WEIGHT * (points - 3 * upperBoxFace(box)) * (options.upperBonusPoints / 35);
    }
  }
  return value;
}

/**
 * The box the computer enters `dice` into (also used when a turn times out). Deterministic.
 * Among the boxes the joker allows, it maximises `points − futureValue(box) ± upper-bonus term`;
 * ties go to the earlier box on the sheet. Throws if the sheet has no open box.
 */
export function computerChoice(sheet: SheetLike, dice: readonly Die[], options: FiveDiceOptions): BoxId {
  const list = scoreOptionsFor(sheet, dice, options).boxes.filter((o) => o.allowed);
  if (list.length === 0) throw new Error('computerChoice: the sheet has no open box');
  const turnsLeft = openBoxes(sheet).length - 1;
  let best = list[0].box;
  let bestValue = -Infinity;
  for (const o of list) {
    const v = choiceValue(sheet, o.box, o.points, turnsLeft, options);
    if (v > bestValue + 1e-9) {
      best = o.box;
      bestValue = v;
    }
  }
  return best;
}

const ALL = [0, 1, 2, 3, 4];
const indicesOf = (dice: readonly Die[], faces: readonly number[]) => {
  const wanted = [...faces];
  const out: number[] = [];
  dice.forEach((d, i) => {
    const k = wanted.indexOf(d);
    if (k >= 0) {
      out.push(i);
      wanted.splice(k, 1);
    }
  });
  return out;
};

/** Longest run of distinct consecutive faces present, as the list of faces. */
function bestRun(counts: readonly number[]): number[] {
  let best: number[] = [];
  let run: number[] = [];
  for (let f = 1; f <= 6; f++) {
    run = counts[f] > 0 ? [...run, f] : [];
    if (run.length >= best.length) best = run; // ties → higher run
  }
  return best;
}

/**
 * A simple, documented hold policy. Returns the indices to keep for the next roll; all five
 * indices mean "stop rolling and score now" (also returned when no roll is left).
 *  1. Stop on a five of a kind, on a large straight with that box open, on a full house with that
 *     box open, on a small straight when only the small straight is still open among straights.
 *  2. Four in a row with the large straight open: keep the run.
 *  3. The most frequent face (ties: a face whose upper box is open, then the higher face), if it
 *     shows at least twice and an upper/of-a-kind box can use it: keep those dice; with two pairs and
 *     the full house open, keep both pairs.
 *  4. Three in a row with a straight open: keep the run.
 *     (With only a pair whose upper box is filled and three in a row, rule 4 goes first.)
 *  5. Otherwise keep nothing and roll all five again.
 */
export function computerHold(
  sheet: SheetLike,
  dice: readonly Die[],
  rollInTurn: number,
  options: FiveDiceOptions,
): number[] {
  if (rollInTurn >= ROLLS_PER_TURN || dice.length !== DICE_COUNT) return ALL.slice();
  const open = (b: BoxId) => sheet.boxes[b] === undefined;
  const counts = faceCounts(dice);
  if (isFiveOfAKind(dice)) return ALL.slice();
  const so = scoreOptionsFor(sheet, dice, options);
  const canScore = (b: BoxId) => so.boxes.some((o) => o.box === b && o.allowed && o.points > 0);
  if (canScore('largeStraight')) return ALL.slice();
  if (canScore('fullHouse')) return ALL.slice();
  if (canScore('smallStraight') && !open('largeStraight')) return ALL.slice();

  const run = bestRun(counts);
  if (run.length >= 4 && open('largeStraight')) return indicesOf(dice, run.slice(-4));
  if (run.length >= 4 && open('smallStraight')) return ALL.slice();

  let face = 0;
  for (let f = 6; f >= 1; f--) {
    if (
      face === 0 ||
      counts[f] > counts[face] ||
      (counts[f] === counts[face] && open(upperBoxOf(f as Die)) && !open(upperBoxOf(face as Die)))
    ) {
      face = f;
    }
  }
  const n = counts[face];
  const ofAKindOpen =
    open('threeOfAKind') || open('fourOfAKind') || open('fiveOfAKind') || open(upperBoxOf(face as Die));
  const straightOpen = open('smallStraight') || open('largeStraight');
  const preferRun = n === 2 && run.length >= 3 && straightOpen && !open(upperBoxOf(face as Die));
  if (n >= 2 && ofAKindOpen && !preferRun) {
    const pairs = [1, 2, 3, 4, 5, 6].filter((f) => counts[f] === 2);
    if (n === 2 && pairs.length === 2 && open('fullHouse'))
      return indicesOf(dice, [pairs[0], pairs[0], pairs[1], pairs[1]]);
    return indicesOf(dice, Array(n).fill(face));
  }
  if (run.length >= 3 && straightOpen) return indicesOf(dice, run.slice(-3));
  return [];
}

/**
 * The move the computer makes for the seat on turn when its turn timed out, one move at a time
 * (the caller applies it and asks again while the same seat is on turn), or null once the game is
 * over. Roll if nothing was rolled this turn; otherwise follow `computerHold` — roll again with its
 * hold, or, when it says stop (always after the third roll, the case 000 describes), score the box
 * of `computerChoice`.
 */
export function timeoutMove(
  state: FiveDiceState,
): { type: 'roll'; hold: number[] } | { type: 'score'; box: BoxId } | null {
  const turn = state.turn;
  if (state.finished || turn === null) return null;
  if (turn.rollInTurn === 0) return { type: 'roll', hold: [] };
  const sheet = state.sheets[turn.seat];
  const hold = computerHold(sheet, turn.dice, turn.rollInTurn, state.options);
  if (hold.length < DICE_COUNT) return { type: 'roll', hold };
  return { type: 'score', box: computerChoice(sheet, turn.dice, state.options) };
}
