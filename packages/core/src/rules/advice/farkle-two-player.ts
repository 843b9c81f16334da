/**
 * Two-player Farkle, exact (docs/advice.md, "Two-player Farkle: win probability"): the chance to
 * win, a tie counting half, for the player to move, over both players' banked totals, the turn
 * points and the dice left, in the style of Neller & Presser's optimal two-player Pig and Farkle.
 * Pure and deterministic.
 *
 * Points are in units of 50. G = target / 50, E = entry threshold / 50. The player to move has b
 * banked, the opponent o (both < G before the last turn). A tie counts half, so the game is
 * zero-sum: the player to move's value is 1 − the opponent's value of the position they hand over.
 *
 *   W(b, o)        chance to win at the start of the turn = R(b, o, 0, 6)
 *   R(b, o, t, n)  rolling n dice with t turn points:
 *                  P(farkle | n) · (1 − W(o, b)) + Σ_outcomes p · max_k C(b, o, t + points_k, n'_k)
 *   C(b, o, t, n') max(bank value if banking is allowed (b > 0 or t ≥ E), R(b, o, t, n'));
 *                  only the bank value once b + t ≥ G and b + t − o reaches the pair's lead cap
 *   bank value     1 − W(o, b + t)      if b + t < G
 *                  1 − U(b + t − o, 6)  otherwise: the opponent's last turn
 *   U(r, n)        the last-turn player's best chance rolling n dice, needing more than r units to
 *                  win (exactly r ties: ½); Σ_outcomes p · max_k f(r − points_k, n'_k),
 *                  f(r', n') = 1 if r' < 0, max(½, U(0, n')) if r' = 0, U(r', n') otherwise.
 */
import type { Die } from '../core/dice';
import type { FarkleOptions } from '../farkle/options';
import { scoringSelections } from '../farkle/scoring';
import { assertFarkleSolvable, FARKLE_TIE_EPSILON, type FarkleMethod } from './farkle-solver';
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
import { decodeTable, encodeTable } from './table-bytes';

/** −∞ read once: a bare `Infinity` in a hot loop is a global lookup that V8 cannot fold inside a vm context (Jest's sandbox). */
const MINUS_INFINITY = Number.NEGATIVE_INFINITY;

/** The largest target solved (points): the build grows with the cube of the target (docs/advice.md). */
export const FARKLE_TWO_PLAYER_MAX_TARGET = 10_000;
/**
 * The player who reaches the target may keep rolling to build a lead over the opponent's last
 * turn. Banking is optimal once the lead d (units) has U(d, 6) ≤ P(farkle | 6) · W(o, b) (rolling
 * on can gain at most U(d, 6) and risks at least that farkle: docs/advice.md), so the turn is
 * solved up to the smallest such lead, and never past this many points of lead, where banking is
 * forced at a cost of at most U(lead / 50, 6) < 1e-14 (a test checks both on every pair).
 */
export const FARKLE_TWO_PLAYER_MAX_LEAD = 30_000;
/** Convergence of each pair's fixed point: successive estimates closer than this (probability). */
export const FARKLE_TWO_PLAYER_TOLERANCE = 1e-12;
const MAX_ITERATIONS = 10_000;
const CAP_MARGIN = 0.8;

/** Throws a RangeError (with the reason) unless the two-player solver supports `options`. */
export function assertTwoPlayerSolvable(options: FarkleOptions): void {
  assertFarkleSolvable(options);
  if (options.target > FARKLE_TWO_PLAYER_MAX_TARGET)
    throw new RangeError(
      `two-player Farkle win probabilities are solved for targets up to ${FARKLE_TWO_PLAYER_MAX_TARGET}, got ${options.target}`,
    );
}

export interface FarkleTwoPlayerSolution {
  readonly options: FarkleOptions;
  /** Target, entry threshold and the largest lead cap (FARKLE_TWO_PLAYER_MAX_LEAD), in units of 50. */
  readonly goal: number;
  readonly entry: number;
  readonly maxLead: number;
  /** win[b * goal + o] = W(b, o): chance to win (a tie ½) at the start of a turn, b banked against o. */
  readonly win: Float64Array;
  /** lastTurn[r * 7 + n] = U(r, n) for r = 0 … 2 · goal + maxLead + (largest points of a set-aside) − 1. */
  readonly lastTurn: Float64Array;
  /** Policy-iteration (or plain) steps per pair, at win[b * goal + o] with b ≤ o (diagnostics; 0 after a read). */
  readonly iterations: Int32Array;
  readonly tables: readonly RollTable[];
}

/** The largest points (units) one set-aside can score. */
function largestSetAside(tables: readonly RollTable[]): number {
  let most = 0;
  for (let n = 1; n <= MAX_DICE; n++) for (const p of tables[n].candPoints) most = Math.max(most, p);
  return most;
}

/** U(r, n) for r = 0 … size − 1 (see the file's header). */
function lastTurnTable(tables: readonly RollTable[], size: number): Float64Array {
  const u = new Float64Array(size * 7);
  for (let r = 0; r < size; r++) {
    for (let n = 1; n <= MAX_DICE; n++) {
      const table = tables[n];
      let value = 0;
      for (let g = 0; g < table.groupProbability.length; g++) {
        let best = 0;
        for (let c = table.candStart[g]; c < table.candStart[g + 1]; c++) {
          const r2 = r - table.candPoints[c];
          const left = diceAfter(n, table.candDice[c]);
          const v = r2 < 0 ? 1 : r2 === 0 ? Math.max(0.5, u[left]) : u[r2 * 7 + left];
          if (v > best) best = v;
        }
        value += table.groupProbability[g] * best;
      }
      u[r * 7 + n] = value;
    }
  }
  return u;
}

type SolvedParts = Omit<FarkleTwoPlayerSolution, 'iterations' | 'options'>;

/**
 * The lead cap of the turn of b against o when W(o, b) = y: the smallest lead d ≥ 1 (units) with
 * U(d, 6) ≤ P(farkle | 6) · y, at which banking is optimal (rolling on gains at most U(d, 6) and
 * loses y with at least that chance), but at most maxLead. U(·, 6) never increases (needing more
 * is never easier), so a binary search finds it.
 */
function leadCap(sol: SolvedParts, y: number): number {
  // P(farkle | 6) is the smallest farkle chance; the minimum over n keeps the bound safe for any scoring.
  let farkle = 1;
  for (let n = 1; n <= MAX_DICE; n++) farkle = Math.min(farkle, sol.tables[n].farkle);
  const bound = farkle * y;
  let lo = 1;
  let hi = sol.maxLead;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (sol.lastTurn[mid * 7 + MAX_DICE] <= bound) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}

/**
 * One turn of the player with b banked against o (b, o < goal), for a farkle value z (= 1 − W(o, b))
 * and a lead cap: fills R(b, o, t, n) and its slope ∂R/∂z under the greedy policy for t from
 * span − 1 down to 0, span = max(goal, o + cap) − b (past that, banking is forced). `prepare`
 * first fills the bank value of every turn total (−∞ where the entry threshold forbids it).
 */
class TurnEvaluator {
  readonly roll: Float64Array;
  readonly slope: Float64Array;
  private readonly bank: Float64Array;
  /** The distinct (dice set aside, points) options of each n, and each candidate's option. */
  private readonly options: ReadonlyArray<{
    dice: Int32Array;
    points: Int32Array;
    left: Int32Array;
    /** Per group: its number of candidates, then their options. */
    groups: Int32Array;
  }>;
  private readonly optValue: Float64Array;
  private readonly optSlope: Float64Array;

  constructor(private readonly sol: SolvedParts) {
    const levels = sol.goal + sol.maxLead;
    this.roll = new Float64Array(levels * 7);
    this.slope = new Float64Array(levels * 7);
    this.bank = new Float64Array(levels + largestSetAside(sol.tables) + 1);
    let most = 0;
    this.options = sol.tables.map((table, n) => {
      const index = new Map<string, number>();
      const dice: number[] = [];
      const points: number[] = [];
      const groups: number[] = [];
      const count = table ? table.groupProbability.length : 0;
      for (let g = 0; g < count; g++) {
        groups.push(table.candStart[g + 1] - table.candStart[g]);
        for (let c = table.candStart[g]; c < table.candStart[g + 1]; c++) {
          const key = `${table.candDice[c]}:${table.candPoints[c]}`;
          let j = index.get(key);
          if (j === undefined) {
            j = dice.length;
            index.set(key, j);
            dice.push(table.candDice[c]);
            points.push(table.candPoints[c]);
          }
          groups.push(j);
        }
      }
      most = Math.max(most, dice.length);
      return {
        dice: Int32Array.from(dice),
        points: Int32Array.from(points),
        left: Int32Array.from(dice, (k) => diceAfter(n, k)),
        groups: Int32Array.from(groups),
      };
    });
    this.optValue = new Float64Array(most);
    this.optSlope = new Float64Array(most);
  }

  /** The value of banking t ≥ 1 turn points (b + t total) against o. */
  bankValue(b: number, o: number, t: number): number {
    const { goal, entry, win } = this.sol;
    if (b === 0 && t < entry) return MINUS_INFINITY;
    const s = b + t;
    return s < goal ? 1 - win[o * goal + s] : lastTurnAfterBank(this.sol, s - o);
  }

  prepare(b: number, o: number): void {
    for (let t = 1; t < this.bank.length; t++) this.bank[t] = this.bankValue(b, o, t);
  }

  span(b: number, o: number, cap: number): number {
    return Math.max(this.sol.goal, o + cap) - b;
  }

  /**
   * R(b, o, 0, 6) for the farkle value z, after prepare(b, o); its slope is slope[6]. Each option
   * (dice set aside, points) is valued once per state: bank if allowed and at least rolling on
   * (ties bank), rolling on otherwise, banking past the cap; then each outcome takes its best.
   */
  evaluate(b: number, o: number, z: number, cap: number): number {
    const { tables } = this.sol;
    const { roll, slope, bank, optValue, optSlope } = this;
    const span = this.span(b, o, cap);
    for (let t = span - 1; t >= 0; t--) {
      for (let n = 1; n <= MAX_DICE; n++) {
        const table = tables[n];
        const opt = this.options[n];
        for (let j = 0; j < opt.dice.length; j++) {
          const t2 = t + opt.points[j];
          const bv = bank[t2];
          if (t2 >= span) {
            optValue[j] = bv;
            optSlope[j] = 0;
            continue;
          }
          const i = t2 * 7 + opt.left[j];
          const rv = roll[i];
          if (bv >= rv) {
            optValue[j] = bv;
            optSlope[j] = 0;
          } else {
            optValue[j] = rv;
            optSlope[j] = slope[i];
          }
        }
        let value = table.farkle * z;
        let d = table.farkle;
        const probs = table.groupProbability;
        const flat = opt.groups;
        for (let g = 0, c = 0; g < probs.length; g++) {
          const end = c + 1 + flat[c];
          let bj = flat[c + 1];
          let best = optValue[bj];
          for (c += 2; c < end; c++) {
            const j = flat[c];
            const v = optValue[j];
            if (v > best) {
              best = v;
              bj = j;
            }
          }
          value += probs[g] * best;
          d += probs[g] * optSlope[bj];
        }
        roll[t * 7 + n] = value;
        slope[t * 7 + n] = d;
      }
    }
    return roll[MAX_DICE];
  }

  /**
   * The value of rolling n dice with t turn points after `evaluate(b, o, z, cap)`: from the
   * table below the cap; past it (where banking is optimal), one roll whose set-asides all bank.
   */
  rollValue(b: number, o: number, t: number, n: number, z: number, cap: number): number {
    if (t < this.span(b, o, cap)) return this.roll[t * 7 + n];
    const table = this.sol.tables[n];
    let value = table.farkle * z;
    for (let g = 0; g < table.groupProbability.length; g++) {
      let best = MINUS_INFINITY;
      for (let c = table.candStart[g]; c < table.candStart[g + 1]; c++)
        best = Math.max(best, lastTurnAfterBank(this.sol, b + t + table.candPoints[c] - o));
      value += table.groupProbability[g] * best;
    }
    return value;
  }
}

/** 1 − U(r, 6): the value of banking a lead of r units ahead of the opponent's last turn. */
function lastTurnAfterBank(sol: Pick<FarkleTwoPlayerSolution, 'lastTurn' | 'tables'>, r: number): number {
  return 1 - lastTurnChance(sol, r, MAX_DICE);
}

/** U(r, n), extended past the stored table when a position needs it (huge totals). */
function lastTurnChance(sol: Pick<FarkleTwoPlayerSolution, 'lastTurn' | 'tables'>, r: number, n: number): number {
  if (r < 0) return 1 - sol.tables[n].farkle; // already ahead: any scoring set-aside, then bank
  if ((r + 1) * 7 <= sol.lastTurn.length) return sol.lastTurn[r * 7 + n];
  return lastTurnTable(sol.tables, r + 1)[r * 7 + n];
}

function solvedParts(options: FarkleOptions, win: Float64Array): SolvedParts {
  const goal = options.target / UNIT;
  const maxLead = FARKLE_TWO_PLAYER_MAX_LEAD / UNIT;
  const tables = rollTables(options);
  const lastTurn = lastTurnTable(tables, 2 * goal + maxLead + largestSetAside(tables) + 1);
  return { goal, entry: options.entryThreshold / UNIT, maxLead, win, lastTurn, tables };
}

/** 2·W(i, j) − W(i + di, j + dj) within [0, 1] (W(i, j) alone at the edge; ½ outside). */
function extrapolated(win: Float64Array, goal: number, i: number, j: number, di: number, dj: number): number {
  if (i >= goal || j >= goal) return 0.5;
  const one = win[i * goal + j];
  if (i + di >= goal || j + dj >= goal) return one;
  return Math.min(1, Math.max(0, 2 * one - win[(i + di) * goal + j + dj]));
}

/**
 * Solves the two-player game. Pairs of banked totals are solved by b + o descending: every
 * transition leads to a larger sum except a farkle, which hands (o, b) to the opponent, so each
 * pair {(b, o), (o, b)} is a fixed point of two unknowns x = W(b, o), y = W(o, b). `newton`
 * (default) is policy iteration: evaluate both turns at the current (x, y), keep their policies,
 * under which x = a − p·y and y = c − q·x are linear, solve that system, repeat until the step is
 * below FARKLE_TWO_PLAYER_TOLERANCE and the lead caps fit the values. `plain` iterates
 * x ← F(1 − y), y ← H(1 − x) to the same tolerance (the check method). Both start from the
 * pairs (b, o + 1) and (b, o + 2) extrapolated (along b when o + 1 = goal; ½ for the first pair).
 */
export function solveFarkleTwoPlayer(options: FarkleOptions, method: FarkleMethod = 'newton'): FarkleTwoPlayerSolution {
  assertTwoPlayerSolvable(options);
  const goal = options.target / UNIT;
  const parts = solvedParts(options, new Float64Array(goal * goal));
  const win = parts.win;
  const iterations = new Int32Array(goal * goal);
  const mine = new TurnEvaluator(parts);
  const theirs = new TurnEvaluator(parts);
  for (let sum = 2 * goal - 2; sum >= 0; sum--) {
    for (let b = Math.max(0, sum - goal + 1); 2 * b <= sum; b++) {
      const o = sum - b;
      mine.prepare(b, o);
      if (b !== o) theirs.prepare(o, b);
      // Start from the solved neighbours one and two sums up, extrapolated (½ for the first pair).
      const [nb, no] = o + 1 < goal ? [b, o + 1] : [b + 1, o];
      const [db, dob] = o + 1 < goal ? [0, 1] : [1, 0];
      let x = extrapolated(win, goal, nb, no, db, dob);
      let y = b === o ? x : extrapolated(win, goal, no, nb, dob, db); // on the diagonal, one unknown
      // Caps a little past what the start asks for, so that they rarely have to grow.
      let capX = leadCap(parts, y * CAP_MARGIN);
      let capY = leadCap(parts, x * CAP_MARGIN);
      let it = 0;
      for (;;) {
        it++;
        let dx: number;
        let dy: number;
        if (b === o) {
          // One unknown: x = F(1 − x), linear under the policy: x = a + s·(1 − x).
          const f = mine.evaluate(b, o, 1 - x, capX);
          const s = mine.slope[MAX_DICE];
          dx = method === 'newton' ? (f - x) / (1 + s) : f - x;
          dy = dx;
        } else if (method === 'newton') {
          const rx = mine.evaluate(b, o, 1 - y, capX) - x;
          const sx = mine.slope[MAX_DICE];
          const ry = theirs.evaluate(o, b, 1 - x, capY) - y;
          const sy = theirs.slope[MAX_DICE];
          // x + dx = x + rx − sx·dy and y + dy = y + ry − sy·dx (each turn linear in the other's value).
          dx = (rx - sx * ry) / (1 - sx * sy);
          dy = ry - sy * dx;
        } else {
          dx = mine.evaluate(b, o, 1 - y, capX) - x;
          dy = theirs.evaluate(o, b, 1 - (x + dx), capY) - y;
        }
        x += dx;
        y += dy;
        const nextX = Math.max(capX, leadCap(parts, y));
        const nextY = Math.max(capY, leadCap(parts, x));
        const settled = nextX === capX && nextY === capY;
        capX = nextX;
        capY = nextY;
        if ((settled && Math.max(Math.abs(dx), Math.abs(dy)) < FARKLE_TWO_PLAYER_TOLERANCE) || it >= MAX_ITERATIONS)
          break;
      }
      win[b * goal + o] = x;
      win[o * goal + b] = y;
      iterations[b * goal + o] = it;
    }
  }
  return { options, ...parts, iterations };
}

/**
 * W(b, o) recomputed from the table: R(b, o, 0, 6) with the farkle value 1 − W(o, b) and the lead
 * cap of W(o, b) (the Bellman equation of the pair; tests and diagnostics).
 */
export function twoPlayerTurnValue(sol: FarkleTwoPlayerSolution, b: number, o: number): number {
  const evaluator = new TurnEvaluator(sol);
  const y = sol.win[o * sol.goal + b];
  evaluator.prepare(b, o);
  return evaluator.evaluate(b, o, 1 - y, leadCap(sol, y));
}

/** The lead cap (units) of the turn of b against o in a solved table. */
export const twoPlayerLeadCap = (sol: FarkleTwoPlayerSolution, b: number, o: number) =>
  leadCap(sol, sol.win[o * sol.goal + b]);

// ---------------------------------------------------------------------------------------------
// Positions and advice

export interface TwoPlayerPosition {
  /** The player to move's total (points). */
  readonly banked: number;
  /**
   * The other player's total (points); at or above the target, the opponent reached it and this
   * is the player's last turn.
   */
  readonly opponent: number;
  /** Points set aside this turn. */
  readonly turnPoints: number;
}

function units(sol: FarkleTwoPlayerSolution, position: TwoPlayerPosition) {
  const b = toUnits(position.banked, 'banked');
  const o = toUnits(position.opponent, 'opponent');
  const t = toUnits(position.turnPoints, 'turnPoints');
  if (b >= sol.goal) throw new RangeError('banked must be below the target (the game is in its last turn or over)');
  return { b, o, t, last: o >= sol.goal };
}

/** Chance to win (a tie counts half) at the start of the player to move's turn. */
export function winChanceAtTurnStart(sol: FarkleTwoPlayerSolution, banked: number, opponent: number): number {
  const { b, o, last } = units(sol, { banked, opponent, turnPoints: 0 });
  return last ? lastTurnChance(sol, o - b, MAX_DICE) : sol.win[b * sol.goal + o];
}

export interface TwoPlayerBankOrRoll {
  /** The better choice; within FARKLE_TIE_EPSILON, bank. */
  readonly best: 'bank' | 'roll';
  /** Chance to win if the player banks now; null when banking is not allowed (nothing set aside, entry threshold). */
  readonly bank: number | null;
  /** Chance to win if the player rolls the dice left, playing on optimally. */
  readonly roll: number;
}

export interface TwoPlayerSetAside extends TwoPlayerBankOrRoll {
  /** Indices into the roll (ascending) and their faces, as `scoringSelections` lists them. */
  readonly dice: number[];
  readonly faces: Die[];
  readonly points: number;
  /** Dice the next roll would throw (6 after hot dice). */
  readonly diceLeft: number;
  /** The better of bank and roll after this set-aside. */
  readonly winChance: number;
}

type Choices = (t: number, n: number) => TwoPlayerBankOrRoll;

/**
 * The turn last evaluated for each solution: a turn's decisions share (b, o), so the decisions
 * after the first reuse its evaluation (a memo: the answers are the same either way).
 */
const turnMemo = new WeakMap<FarkleTwoPlayerSolution, { b: number; o: number; choices: Choices }>();
const evaluators = new WeakMap<FarkleTwoPlayerSolution, TurnEvaluator>();

/** Bank-or-roll values of the positions of one turn of b against o. */
function turnChoices(sol: FarkleTwoPlayerSolution, b: number, o: number, last: boolean): Choices {
  const memo = turnMemo.get(sol);
  if (memo && memo.b === b && memo.o === o) return memo.choices;
  const choices = evaluateChoices(sol, b, o, last);
  turnMemo.set(sol, { b, o, choices });
  return choices;
}

function evaluateChoices(sol: FarkleTwoPlayerSolution, b: number, o: number, last: boolean): Choices {
  if (last) {
    // The opponent reached the target: this turn ends the game.
    return (t: number, n: number): TwoPlayerBankOrRoll => {
      const r = o - b - t;
      const allowed = t > 0 && (b > 0 || t >= sol.entry);
      const bank = allowed ? (r < 0 ? 1 : r === 0 ? 0.5 : 0) : null;
      const roll = lastTurnChance(sol, r, n);
      return { best: bank !== null && bank >= roll - FARKLE_TIE_EPSILON ? 'bank' : 'roll', bank, roll };
    };
  }
  // One evaluator per table, reused: only the memoised turn's values live in it at a time.
  let evaluator = evaluators.get(sol);
  if (!evaluator) evaluators.set(sol, (evaluator = new TurnEvaluator(sol)));
  const y = sol.win[o * sol.goal + b];
  const cap = leadCap(sol, y);
  evaluator.prepare(b, o);
  evaluator.evaluate(b, o, 1 - y, cap);
  return (t: number, n: number): TwoPlayerBankOrRoll => {
    const bank = t > 0 && (b > 0 || t >= sol.entry) ? evaluator.bankValue(b, o, t) : null;
    const roll = evaluator.rollValue(b, o, t, n, 1 - y, cap);
    return { best: bank !== null && bank >= roll - FARKLE_TIE_EPSILON ? 'bank' : 'roll', bank, roll };
  };
}

/** After a set-aside (`turnPoints` includes it): bank (null when not allowed) or roll `diceLeft` dice. */
export function adviseTwoPlayerBankOrRoll(
  sol: FarkleTwoPlayerSolution,
  position: TwoPlayerPosition,
  diceLeft: number,
): TwoPlayerBankOrRoll {
  const { b, o, t, last } = units(sol, position);
  assertDiceLeft(diceLeft);
  return turnChoices(sol, b, o, last)(t, diceLeft);
}

/**
 * Every scoring set-aside of `roll` (faces of the dice just rolled) with its bank-or-roll values,
 * best first: highest chance to win; within FARKLE_TIE_EPSILON, the earlier in `scoringSelections`
 * order (more points, then fewer dice, then lower indices). Empty on a farkle.
 */
export function adviseTwoPlayerSetAside(
  sol: FarkleTwoPlayerSolution,
  position: TwoPlayerPosition,
  roll: readonly Die[],
): TwoPlayerSetAside[] {
  const { b, o, t, last } = units(sol, position);
  if (roll.length < 1 || roll.length > MAX_DICE) throw new RangeError(`a roll has 1 to 6 dice, got ${roll.length}`);
  const choices = turnChoices(sol, b, o, last);
  const list = scoringSelections(roll, sol.options).map((s, order) => {
    const diceLeft = diceAfter(roll.length, s.dice.length);
    const choice = choices(t + s.points / UNIT, diceLeft);
    const winChance = choice.best === 'bank' ? choice.bank! : choice.roll;
    return { order, score: winChance, advice: { ...s, diceLeft, ...choice, winChance } };
  });
  return bestFirst(list, FARKLE_TIE_EPSILON);
}

// ---------------------------------------------------------------------------------------------
// Getting on the board

/**
 * The best chance for a player not on the board to bank at least the entry threshold in this
 * turn (at least one scoring set-aside when the threshold is 0), from `turnPoints` with
 * `diceLeft` dice to roll (6 at the start of a turn): 1 when the turn already holds it.
 */
export function onBoardChance(options: FarkleOptions, turnPoints: number, diceLeft: number): number {
  assertFarkleSolvable(options);
  const t = toUnits(turnPoints, 'turnPoints');
  assertDiceLeft(diceLeft);
  const need = Math.max(options.entryThreshold / UNIT, 1);
  if (t >= need) return 1;
  return reachChance(rollTables(options), need)[t * 7 + diceLeft];
}

// ---------------------------------------------------------------------------------------------
// Table format (docs/advice.md, "Two-player table format")

const KIND = { magic: 'FD2P', version: 1, name: 'two-player Farkle table' };

/**
 * The options and model constants a table was solved for, as one ASCII line. Bump `solver/vN`
 * whenever the solver's results change.
 */
export function twoPlayerFingerprint(options: FarkleOptions): string {
  const s = options.straights;
  return (
    `farkle two-player solver/v1 target=${options.target} entryThreshold=${options.entryThreshold} ` +
    `straights=${s.low ?? 'off'},${s.high ?? 'off'},${s.full ?? 'off'} maxLead=${FARKLE_TWO_PLAYER_MAX_LEAD} ` +
    `tolerance=${FARKLE_TWO_PLAYER_TOLERANCE}`
  );
}

/** W(b, o) for b, o = 0 … goal − 1 (goal² float64, b-major); the rest is recomputed on reading. */
export function serializeFarkleTwoPlayer(sol: FarkleTwoPlayerSolution): Uint8Array {
  return encodeTable(KIND, twoPlayerFingerprint(sol.options), sol.win);
}

export function deserializeFarkleTwoPlayer(
  bytes: Uint8Array,
  options: FarkleOptions,
): { ok: true; solution: FarkleTwoPlayerSolution } | { ok: false; reason: string } {
  try {
    assertTwoPlayerSolvable(options);
  } catch (err) {
    return { ok: false, reason: `two-player Farkle table: ${(err as Error).message}` };
  }
  const goal = options.target / UNIT;
  const read = decodeTable(KIND, bytes, twoPlayerFingerprint(options), goal * goal);
  if (!read.ok) return read;
  return {
    ok: true,
    solution: { options, ...solvedParts(options, read.values), iterations: new Int32Array(goal * goal) },
  };
}
