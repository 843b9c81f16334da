/**
 * Farkle advice (docs/advice.md): the solo policy that minimises the expected number of turns to
 * reach the target, by value iteration over (banked score, turn points, dice left) in the style of
 * Neller & Presser's analyses of Pig and Farkle; and the last-round adjustment for a trailing player
 * (maximise the chance to end above the leader). Pure and deterministic.
 *
 * Points are counted in units of 50 (every Farkle score is a multiple of 50 under the supported options).
 */
import type { Die } from '../core/dice';
import { type FarkleOptions, farkle } from '../farkle/options';
import { scoringSelections } from '../farkle/scoring';
import {
  assertDiceLeft,
  bestFirst,
  diceAfter,
  MAX_DICE,
  reachChance,
  type RollTable,
  rollTables,
  toUnits,
  UNIT,
} from './farkle-turn';

/** +∞ read once: a bare `Infinity` in a hot loop is a global lookup that V8 cannot fold inside a vm context (Jest's sandbox). */
const PLUS_INFINITY = Number.POSITIVE_INFINITY;

/** Throws a RangeError unless the solver supports `options` (docs/advice.md). */
export function assertFarkleSolvable(options: FarkleOptions): void {
  if (options.exactTarget) throw new RangeError('Farkle advice does not support exactTarget');
  if (options.threeFarklePenalty !== 0) throw new RangeError('Farkle advice does not support threeFarklePenalty');
  for (const v of [options.straights.low, options.straights.high, options.straights.full, options.entryThreshold])
    if (v !== null && v % UNIT !== 0)
      throw new RangeError('Farkle advice needs straights and entry threshold in multiples of 50');
  if (options.target % UNIT !== 0) throw new RangeError('Farkle advice needs a target in multiples of 50');
}

export interface FarkleSolution {
  readonly options: FarkleOptions;
  /** Target and entry threshold in units of 50. */
  readonly goal: number;
  readonly entry: number;
  /** turns[b]: expected turns to reach the target from the start of a turn with b × 50 banked (b < goal). */
  readonly turns: Float64Array;
  /**
   * rollValue[(b * goal + t) * 7 + n]: expected turns AFTER the current one when rolling n dice with
   * b × 50 banked and t × 50 turn points (b + t < goal), playing on optimally.
   */
  readonly rollValue: Float64Array;
  /** Iterations used per banked score (diagnostics). */
  readonly iterations: Int32Array;
  readonly tables: readonly RollTable[];
}

export type FarkleMethod = 'newton' | 'plain';

/** Convergence: successive estimates of a turn-start value closer than this (turns). */
export const FARKLE_TOLERANCE = 1e-12;
const MAX_ITERATIONS = 10_000;

/**
 * Solves the solo problem. For each banked score b, from the highest down (states with more banked
 * never lead back to fewer), value iteration on the one unknown that the turn's states refer back
 * to, T(b) (a farkle returns to it): x ← 1 + f(x), where f(x) evaluates every (turn points, dice)
 * state of the turn with T(b) = x. `newton` (default) takes Newton steps on x = 1 + f(x) using
 * f's slope along the current policy (the policy's farkle probability), which is policy iteration
 * and converges in a few steps; `plain` iterates x ← 1 + f(x) directly. Both stop when successive
 * x differ by less than FARKLE_TOLERANCE.
 */
export function solveFarkle(options: FarkleOptions = farkle, method: FarkleMethod = 'newton'): FarkleSolution {
  assertFarkleSolvable(options);
  const goal = options.target / UNIT;
  const entry = options.entryThreshold / UNIT;
  const tables = rollTables(options);
  const turns = new Float64Array(goal);
  const rollValue = new Float64Array(goal * goal * 7).fill(NaN);
  const slope = new Float64Array(goal * 7);
  const iterations = new Int32Array(goal);
  for (let b = goal - 1; b >= 0; b--) {
    let x = b + 1 < goal ? turns[b + 1] : 1;
    for (let it = 1; ; it++) {
      const f = evaluateTurn(b, x);
      const d = slope[0 * 7 + MAX_DICE];
      const next = method === 'newton' ? (1 + f - d * x) / (1 - d) : 1 + f;
      const done = Math.abs(next - x) < FARKLE_TOLERANCE || it >= MAX_ITERATIONS;
      x = next;
      if (done) {
        iterations[b] = it;
        break;
      }
    }
    evaluateTurn(b, x);
    turns[b] = x;
  }
  return { options, goal, entry, turns, rollValue, iterations, tables };

  /** Fills rollValue for banked b with T(b) = x; returns the value of rolling six dice at 0 turn points. */
  function evaluateTurn(b: number, x: number): number {
    const span = goal - b;
    const base = b * goal * 7;
    for (let t = span - 1; t >= 0; t--) {
      for (let n = 1; n <= MAX_DICE; n++) {
        const table = tables[n];
        let value = table.farkle * x;
        let d = table.farkle;
        for (let g = 0; g < table.groupProbability.length; g++) {
          let best = PLUS_INFINITY;
          let bestSlope = 0;
          for (let c = table.candStart[g]; c < table.candStart[g + 1]; c++) {
            const t2 = t + table.candPoints[c];
            if (t2 >= span) {
              // Bank and reach the target (at b = 0, t2 >= goal >= entry, so banking is allowed).
              best = 0;
              bestSlope = 0;
              break;
            }
            const left = diceAfter(n, table.candDice[c]);
            const roll = rollValue[base + t2 * 7 + left];
            const bank = b > 0 || t2 >= entry ? turns[b + t2] : PLUS_INFINITY;
            if (bank <= roll) {
              if (bank < best) {
                best = bank;
                bestSlope = 0;
              }
            } else if (roll < best) {
              best = roll;
              bestSlope = slope[t2 * 7 + left];
            }
          }
          const p = table.groupProbability[g];
          value += p * best;
          d += p * bestSlope;
        }
        rollValue[base + t * 7 + n] = value;
        slope[t * 7 + n] = d;
      }
    }
    return rollValue[base + MAX_DICE];
  }
}

// ---------------------------------------------------------------------------------------------
// Advice

/** A Farkle position of the player to move. Points are multiples of 50. */
export interface FarklePosition {
  /** The player's banked total (0 = not on the board yet). */
  readonly banked: number;
  /** Points of the turn so far, before the current roll's set-aside. */
  readonly turnPoints: number;
}

/** Two values closer than this are a tie (then the documented order decides). */
export const FARKLE_TIE_EPSILON = 1e-9;

/** Expected number of turns to reach the target from the start of a turn (0 once reached). */
export function expectedTurns(sol: FarkleSolution, banked: number): number {
  const b = toUnits(banked, 'banked');
  return b >= sol.goal ? 0 : sol.turns[b];
}

export interface BankOrRoll {
  /** Expected turns (counting the current one) if the player banks now; null when banking is not allowed (entry threshold). */
  readonly bank: number | null;
  /** Expected turns (counting the current one) if the player rolls the `diceLeft` dice. */
  readonly roll: number;
  /** The better choice; ties go to banking. */
  readonly best: 'bank' | 'roll';
}

/**
 * After a set-aside: bank or roll on, with `turnPoints` including the set-aside and `diceLeft`
 * the dice the next roll would throw (6 after hot dice).
 */
export function adviseBankOrRoll(sol: FarkleSolution, position: FarklePosition, diceLeft: number): BankOrRoll {
  const b = toUnits(position.banked, 'banked');
  const t = toUnits(position.turnPoints, 'turnPoints');
  assertDiceLeft(diceLeft);
  if (b >= sol.goal) throw new RangeError('the target is already reached');
  const bankAllowed = t > 0 && (b > 0 || t >= sol.entry);
  if (b + t >= sol.goal) return { bank: bankAllowed ? 1 : null, roll: 1, best: bankAllowed ? 'bank' : 'roll' };
  const roll = 1 + sol.rollValue[(b * sol.goal + t) * 7 + diceLeft];
  const bank = bankAllowed ? 1 + sol.turns[b + t] : null;
  return { bank, roll, best: bank !== null && bank <= roll + FARKLE_TIE_EPSILON ? 'bank' : 'roll' };
}

export interface SetAsideAdvice extends BankOrRoll {
  /** Indices into the roll (ascending) and their faces, as `scoringSelections` lists them. */
  readonly dice: number[];
  readonly faces: Die[];
  readonly points: number;
  /** Dice the next roll would throw (6 after hot dice). */
  readonly diceLeft: number;
  /** Expected turns (counting the current one) with the better of bank and roll after this set-aside. */
  readonly expected: number;
}

/**
 * Every distinct scoring set-aside of `roll` (faces of the dice just rolled), with bank-or-roll
 * values after it, best first: fewest expected turns; within FARKLE_TIE_EPSILON, the earlier in
 * `scoringSelections` order (more points, then fewer dice, then lower indices). Empty on a farkle.
 */
export function adviseSetAside(sol: FarkleSolution, position: FarklePosition, roll: readonly Die[]): SetAsideAdvice[] {
  const list = scoringSelections(roll, sol.options).map((s, order) => {
    const diceLeft = diceAfter(roll.length, s.dice.length);
    const choice = adviseBankOrRoll(sol, { ...position, turnPoints: position.turnPoints + s.points }, diceLeft);
    const expected = choice.best === 'bank' ? choice.bank! : choice.roll;
    return { order, score: -expected, advice: { ...s, diceLeft, ...choice, expected } };
  });
  return bestFirst(list, FARKLE_TIE_EPSILON);
}

// ---------------------------------------------------------------------------------------------
// Last round, trailing: maximise the chance to finish above the leader.

export interface LastTurnTable {
  readonly options: FarkleOptions;
  readonly banked: number;
  readonly leader: number;
  /** Turn points (units) the turn must bank: more than leader − banked, and at least the entry threshold when not on the board. */
  readonly need: number;
  /** winChance[t * 7 + n]: chance to end above the leader when rolling n dice with t × 50 turn points (t < need). */
  readonly winChance: Float64Array;
}

/**
 * The adjustment for a multiplayer end game: in the last round, a player whose banked total does
 * not exceed the leader's (`leader`, the highest total of the other players) plays this one turn to
 * maximise the probability of banking a total strictly above it. Banking is right exactly when the
 * total would then exceed the leader (and the entry threshold is met); before that, only rolling
 * can win. A farkle loses.
 */
export function solveLastTurn(options: FarkleOptions, banked: number, leader: number): LastTurnTable {
  assertFarkleSolvable(options);
  const b = toUnits(banked, 'banked');
  const l = toUnits(leader, 'leader');
  if (b > l) throw new RangeError('the player is not trailing: banked exceeds the leader');
  const entry = options.entryThreshold / UNIT;
  const need = Math.max(l - b + 1, b > 0 ? 1 : Math.max(entry, 1));
  const winChance = reachChance(rollTables(options), need);
  return { options, banked, leader, need, winChance };
}

/** Chance to end above the leader from the start of the last turn. */
export const lastTurnWinChance = (table: LastTurnTable) => table.winChance[MAX_DICE];

export interface LastTurnSetAside {
  readonly dice: number[];
  readonly faces: Die[];
  readonly points: number;
  readonly diceLeft: number;
  /** Chance to end above the leader after this set-aside, playing on optimally. */
  readonly winChance: number;
  /** Bank now (the total then beats the leader) or roll on. */
  readonly best: 'bank' | 'roll';
}

/**
 * Last-round set-aside advice for a trailing player: every scoring set-aside of `roll`, highest
 * chance first; within FARKLE_TIE_EPSILON, the earlier in `scoringSelections` order.
 */
export function adviseLastTurnSetAside(
  table: LastTurnTable,
  turnPoints: number,
  roll: readonly Die[],
): LastTurnSetAside[] {
  const t = toUnits(turnPoints, 'turnPoints');
  const list = scoringSelections(roll, table.options).map((s, order) => {
    const diceLeft = diceAfter(roll.length, s.dice.length);
    const t2 = t + s.points / UNIT;
    const wins = t2 >= table.need;
    const winChance = wins ? 1 : table.winChance[t2 * 7 + diceLeft];
    return {
      order,
      score: winChance,
      advice: { ...s, diceLeft, winChance, best: wins ? ('bank' as const) : ('roll' as const) },
    };
  });
  return bestFirst(list, FARKLE_TIE_EPSILON);
}
