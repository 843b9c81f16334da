/**
 * The Farkle advice views that are not the solo table's (docs/advice.md "Advice API"): the
 * two-player win-probability view, and the chance to get on the board this turn. Pure functions
 * of the solved two-player table and the pure advisers; the service checks the input first.
 */
import {
  adviseTwoPlayerBankOrRoll,
  adviseTwoPlayerSetAside,
  onBoardChance,
  winChanceAtTurnStart,
  type FarkleTwoPlayerSolution,
} from '@fairdice/core/rules/advice';
import type { Die } from '@fairdice/core/rules/core/dice';
import { scoringSelections, type FarkleOptions } from '@fairdice/core/rules/farkle';
import type { FarkleAdviceView } from './dto/advice.dto';
import type { FarkleSetAsideAdviceView } from './dto/farkle-advice.dto';

/** One set-aside of any Farkle adviser as the API shows it: the dice, then its values. */
export function setAsideView(
  a: { dice: number[]; faces: Die[]; points: number; diceLeft: number; best: 'bank' | 'roll' },
  values: { bank: number | null; roll: number | null; value: number },
): FarkleSetAsideAdviceView {
  return { dice: a.dice, faces: a.faces, points: a.points, diceLeft: a.diceLeft, then: a.best, ...values };
}

/** The position of a two-player game: the player to move's total, the other's, the turn so far. */
export interface WinPosition {
  banked: number;
  /** At or above the target: the opponent reached it, and this is the player's last turn. */
  opponent: number;
  turnPoints: number;
}

/**
 * The win-probability view: with a roll, every scoring set-aside best first with the chance to
 * win after banking (null: not allowed) and after rolling on; after a set-aside (`diceLeft`),
 * bank or roll; at the start of a turn (neither), roll. `value` is the chance to win from here;
 * on a farkle, the chance left once the turn has passed to the opponent.
 */
export function winProbabilityView(
  sol: FarkleTwoPlayerSolution,
  position: WinPosition,
  roll: Die[] | null,
  diceLeft: number | null,
  onBoard: number | null,
): FarkleAdviceView {
  const { banked, opponent, turnPoints } = position;
  const base = {
    objective: 'winProbability',
    banked,
    turnPoints,
    dice: roll,
    leader: null,
    opponent,
    onBoardChance: onBoard,
  };
  if (roll !== null) {
    const setAsides = adviseTwoPlayerSetAside(sol, position, roll).map((a) =>
      setAsideView(a, { bank: a.bank, roll: a.roll, value: a.winChance }),
    );
    const best = setAsides[0];
    // A farkle: the turn ends with the total unchanged; the opponent moves next (or, on the
    // player's last turn, the game ends below the opponent's total).
    const value = best
      ? best.value
      : opponent >= sol.options.target
        ? 0
        : 1 - winChanceAtTurnStart(sol, opponent, banked);
    return {
      ...base,
      value,
      best: best ? { action: 'setAside', dice: best.dice, then: best.then, value: best.value } : null,
      setAsides,
      bank: null,
      roll: null,
    };
  }
  if (diceLeft === null) {
    const value = winChanceAtTurnStart(sol, banked, opponent);
    return {
      ...base,
      value,
      best: { action: 'roll', dice: null, then: null, value },
      setAsides: [],
      bank: null,
      roll: value,
    };
  }
  const choice = adviseTwoPlayerBankOrRoll(sol, position, diceLeft);
  const value = choice.best === 'bank' ? choice.bank! : choice.roll;
  return {
    ...base,
    value,
    best: { action: choice.best, dice: null, then: null, value },
    setAsides: [],
    bank: choice.bank,
    roll: choice.roll,
  };
}

/**
 * The best chance to get on the board this turn, for a player not on it yet (null when on the
 * board, or under rules without an entry threshold): at the start of a turn from 0 points with six
 * dice; with a roll, the best of its set-asides (banking at once when it reaches the threshold,
 * else rolling the dice left; 0 on a farkle); after a set-aside, banking if the turn reaches the
 * threshold, else rolling the dice left.
 */
export function onBoardChanceOf(
  options: FarkleOptions,
  onBoard: boolean,
  turnPoints: number,
  roll: readonly Die[] | null,
  diceLeft: number | null,
): number | null {
  if (onBoard || options.entryThreshold === 0) return null;
  const from = (points: number, left: number) =>
    points >= options.entryThreshold ? 1 : onBoardChance(options, points, left === 0 ? 6 : left);
  if (roll !== null)
    return scoringSelections(roll as Die[], options).reduce(
      (best, s) => Math.max(best, from(turnPoints + s.points, roll.length - s.dice.length)),
      0,
    );
  return from(turnPoints, diceLeft ?? 6);
}
