/**
 * Five dice, the endgame (issue 31; docs/advice.md "Five dice: the endgame and the bonus chance").
 * Every other player has finished: the player still to move plays to maximise the chance to finish
 * above the best other total `toBeat`, a tie counting half:
 *
 *     winChance = P(final total > toBeat) + ½ · P(final total = toBeat)
 *
 * Backward induction over the remaining open boxes with the points still needed as a dimension:
 * a state is (filled mask, five-of-a-kind box, upper total while the bonus is undecided, deficit
 * d = toBeat − total so far). Only the states reachable from the asked sheet are solved (memoised
 * per options, so any `toBeat` shares them). The turn ("widget") is the expected-score solver's:
 * the same keep tables and passes, the same final-roll scoring (`scoreOptionsFor` semantics: joker,
 * extra bonus, upper bonus), with win chances instead of expected points. Pure and deterministic.
 */
import type { Die } from '../core/dice';
import { type SheetLike, scoreOptionsFor, totals } from '../five-dice/scoring';
import { BOX_IDS, type BoxId, type FiveDiceOptions, type SheetBoxes } from '../five-dice/types';
import { DICE, bestOverSubKeeps, expectOverRolls, keepTables } from './dice-tables';
import {
  ALL_FILLED,
  FIVE_HOLDS_0,
  FIVE_HOLDS_50,
  FIVE_OPEN,
  MASK_BOXES,
  finalRollScores,
  maxOpenUpper,
} from './five-dice-solver';
import { assertDice, boxTieOrder, holdsFromFinalValues, orderBest, solverState } from './five-dice-advice';

/** −∞ read once: a bare `Infinity` in a hot loop is a global lookup that V8 cannot fold inside a vm context (Jest's sandbox). */
const MINUS_INFINITY = Number.NEGATIVE_INFINITY;

/**
 * The most open boxes the endgame advisers accept (docs/advice.md: measured worst case within
 * 50 ms of CPU and a few MB per decision). Beyond it the caller falls back to expected-score advice.
 */
export const ENDGAME_MAX_OPEN_BOXES = 4;

/** Best possible points of each mask box (the joker's full values included). */
const MAX_POINTS = [5, 10, 15, 20, 25, 30, 30, 30, 25, 30, 40, 30];
const UPPER_BITS = 63;

/** The memo of solved endgame states for one option set (any sheet, any `toBeat`). */
export interface FiveDiceEndgame {
  readonly options: FiveDiceOptions;
  /** Sheets with more open boxes are refused (RangeError); see ENDGAME_MAX_OPEN_BOXES. */
  readonly maxOpenBoxes: number;
  /** Win chance at the start of a turn, by state key (see `key`). */
  readonly memo: Map<number, number>;
  /** Turn computations ("widgets") done so far. */
  widgets: number;
}

export function createEndgame(
  options: FiveDiceOptions,
  maxOpenBoxes: number = ENDGAME_MAX_OPEN_BOXES,
): FiveDiceEndgame {
  return { options, maxOpenBoxes, memo: new Map(), widgets: 0 };
}

/** Open boxes of a sheet (0 to 13). */
export const openBoxCount = (sheet: SheetLike) => BOX_IDS.filter((b) => sheet.boxes[b] === undefined).length;

/** True when the endgame advisers take this sheet (not full, at most `maxOpenBoxes` open). */
export function endgameCovers(eg: FiveDiceEndgame, sheet: SheetLike): boolean {
  const open = openBoxCount(sheet);
  return open > 0 && open <= eg.maxOpenBoxes;
}

// ------------------------------------------------------------------ states

/**
 * The upper part of a state: the upper total while the bonus is undecided (0 .. T − 1), T once
 * reached, T + 1 ("out") when it can no longer be reached or is worth nothing.
 */
function upperKey(options: FiveDiceOptions, mask: number, upper: number): number {
  const t = options.upperBonusThreshold;
  if (options.upperBonusPoints === 0) return t + 1;
  if (upper >= t) return t;
  return upper + maxOpenUpper(mask & UPPER_BITS) < t ? t + 1 : upper;
}

/** An upper bound of the points still to come (boxes, upper bonus, extra bonuses). */
function maxFuture(options: FiveDiceOptions, mask: number, five: number, uk: number): number {
  let m = 0;
  let open = 0;
  for (let b = 0; b < 12; b++)
    if (!(mask & (1 << b))) {
      m += MAX_POINTS[b];
      open++;
    }
  if (five === FIVE_OPEN) m += 50;
  if (uk < options.upperBonusThreshold) m += options.upperBonusPoints;
  if (five === FIVE_HOLDS_50) m += options.extraFiveOfAKindBonus * open;
  else if (five === FIVE_OPEN) m += options.extraFiveOfAKindBonus * open; // the five box first, then the others
  return m;
}

/** The largest deficit that can matter for these options (the bound of an empty sheet) + 1. */
const deficitSpan = (options: FiveDiceOptions) => maxFuture(options, 0, FIVE_OPEN, 0) + 2;

/** Win chance at the start of a turn. */
function value(eg: FiveDiceEndgame, mask: number, five: number, uk: number, d: number): number {
  if (d < 0) return 1;
  if (mask === ALL_FILLED && five !== FIVE_OPEN) return d === 0 ? 0.5 : 0;
  const { options } = eg;
  if (d > maxFuture(options, mask, five, uk)) return 0;
  const key = ((mask * 3 + five) * (options.upperBonusThreshold + 2) + uk) * deficitSpan(options) + d;
  const known = eg.memo.get(key);
  if (known !== undefined) return known;
  const t = keepTables();
  const v = new Float64Array(t.count);
  fillFinal(eg, mask, five, uk, d, v);
  expectOverRolls(t, v);
  bestOverSubKeeps(t, v);
  expectOverRolls(t, v);
  bestOverSubKeeps(t, v);
  expectOverRolls(t, v);
  eg.widgets++;
  eg.memo.set(key, v[0]);
  return v[0];
}

/**
 * Win chance after entering `points` (+ `bonus`, the extra five-of-a-kind bonus) in the box of
 * mask bit `bit` (-1: five of a kind): the upper bonus is added when the entry reaches the threshold.
 */
function valueAfter(
  eg: FiveDiceEndgame,
  mask: number,
  five: number,
  uk: number,
  d: number,
  bit: number,
  points: number,
  bonus: number,
): number {
  const { options } = eg;
  let gained = points + bonus;
  if (bit < 0) return value(eg, mask, points > 0 ? FIVE_HOLDS_50 : FIVE_HOLDS_0, uk, d - gained);
  const next = mask | (1 << bit);
  let nextUk = uk;
  if (bit < 6 && uk < options.upperBonusThreshold) {
    const upper = uk + points;
    if (upper >= options.upperBonusThreshold) gained += options.upperBonusPoints;
    nextUk = upperKey(options, next, upper);
  }
  return value(eg, next, five, nextUk, d - gained);
}

/** A sheet with the state's filled boxes (points only matter in five of a kind): for scoreOptionsFor. */
function stateSheet(mask: number, five: number): { boxes: SheetBoxes } {
  const boxes: Partial<Record<BoxId, number>> = {};
  MASK_BOXES.forEach((box, bit) => {
    if (mask & (1 << bit)) boxes[box] = 0;
  });
  if (five !== FIVE_OPEN) boxes.fiveOfAKind = five === FIVE_HOLDS_50 ? 50 : 0;
  return { boxes };
}

/**
 * `out[k]` for every final roll k (size-5 keep): the win chance of its best allowed box. Ordinary
 * rolls score from the solver's outcome tables (every open box allowed, no bonus); the six five of
 * a kinds through `scoreOptionsFor` (joker, extra bonus).
 */
function fillFinal(eg: FiveDiceEndgame, mask: number, five: number, uk: number, d: number, out: Float64Array): void {
  const t = keepTables();
  const { byBox, byFace, fiveKeeps } = finalRollScores(t);
  const start = t.sizeStart[DICE];
  const n = t.count - start;
  // Successor values by box and points (the same points recur across outcomes).
  const upperNext = new Float64Array(36);
  for (let j = 0; j < 6; j++)
    if (!(mask & (1 << j)))
      for (let c = 0; c <= 5; c++) upperNext[j * 6 + c] = valueAfter(eg, mask, five, uk, d, j, c * (j + 1), 0);
  const lowerNext = new Map<number, number>();
  const lower = (b: number, points: number) => {
    const k = b * 64 + points;
    let v = lowerNext.get(k);
    if (v === undefined) lowerNext.set(k, (v = valueAfter(eg, mask, five, uk, d, b, points, 0)));
    return v;
  };
  const fiveMiss = five === FIVE_OPEN ? valueAfter(eg, mask, five, uk, d, -1, 0, 0) : MINUS_INFINITY;
  const isFive = new Uint8Array(n);
  for (let f = 1; f <= 6; f++) isFive[fiveKeeps[f] - start] = 1;
  for (let i = 0; i < n; i++) {
    if (isFive[i]) continue;
    let best = fiveMiss;
    for (let b = 0; b < 12; b++) {
      if (mask & (1 << b)) continue;
      const v = b < 6 ? upperNext[b * 6 + byFace[b * n + i]] : lower(b, byBox[b * n + i]);
      if (v > best) best = v;
    }
    out[start + i] = best;
  }
  const sheet = stateSheet(mask, five);
  for (let f = 1; f <= 6; f++) {
    const face = f as Die;
    let best = MINUS_INFINITY;
    for (const o of scoreOptionsFor(sheet, [face, face, face, face, face], eg.options).boxes) {
      if (!o.allowed) continue;
      const v = valueAfter(eg, mask, five, uk, d, (MASK_BOXES as readonly string[]).indexOf(o.box), o.points, o.bonus);
      if (v > best) best = v;
    }
    out[fiveKeeps[f]] = best;
  }
}

// ------------------------------------------------------------------ advisers

interface Position {
  mask: number;
  five: number;
  uk: number;
  d: number;
}

function position(eg: FiveDiceEndgame, sheet: SheetLike, toBeat: number): Position {
  if (!Number.isInteger(toBeat) || toBeat < 0)
    throw new RangeError(`toBeat must be an integer ≥ 0, got ${String(toBeat)}`);
  const open = openBoxCount(sheet);
  if (open === 0) throw new RangeError('the sheet is full');
  if (open > eg.maxOpenBoxes)
    throw new RangeError(`the endgame solver takes at most ${eg.maxOpenBoxes} open boxes, the sheet has ${open}`);
  const s = solverState(sheet);
  return {
    mask: s.mask,
    five: s.fiveBox,
    uk: upperKey(eg.options, s.mask, s.upper),
    d: toBeat - totals(sheet, eg.options).total,
  };
}

/** The chance to finish above `toBeat` (a tie counts half) from the start of a turn, under the best play. */
export function endgameWinChance(eg: FiveDiceEndgame, sheet: SheetLike, toBeat: number): number {
  const p = position(eg, sheet, toBeat);
  return value(eg, p.mask, p.five, p.uk, p.d);
}

export interface EndgameBoxAdvice {
  readonly box: BoxId;
  readonly points: number;
  readonly bonus: number;
  /** Chance to finish above `toBeat` (a tie counts half) if the roll is entered here and play stays best. */
  readonly winChance: number;
}

/**
 * Every box the rules allow for `dice` on `sheet`, best first by win chance; within TIE_EPSILON
 * the earliest box in sheet order (as adviseBox).
 */
export function adviseEndgameBox(
  eg: FiveDiceEndgame,
  sheet: SheetLike,
  toBeat: number,
  dice: readonly Die[],
): EndgameBoxAdvice[] {
  assertDice(dice);
  const p = position(eg, sheet, toBeat);
  const list: EndgameBoxAdvice[] = [];
  for (const o of scoreOptionsFor(sheet, dice, eg.options).boxes) {
    if (!o.allowed) continue;
    const bit = (MASK_BOXES as readonly string[]).indexOf(o.box);
    const winChance = valueAfter(eg, p.mask, p.five, p.uk, p.d, bit, o.points, o.bonus);
    list.push({ box: o.box, points: o.points, bonus: o.bonus, winChance });
  }
  return orderBest(list, boxTieOrder, (m) => m.winChance);
}

export interface EndgameHoldAdvice {
  readonly hold: number[];
  readonly kept: Die[];
  /** Chance to finish above `toBeat` (a tie counts half) with this hold and the best play after it. */
  readonly winChance: number;
}

/**
 * Every distinct hold for `dice` with `rollsLeft` (2 or 1), best first by win chance; within
 * TIE_EPSILON the hold keeping the most dice, then the smallest kept faces (as adviseHolds).
 */
export function adviseEndgameHolds(
  eg: FiveDiceEndgame,
  sheet: SheetLike,
  toBeat: number,
  dice: readonly Die[],
  rollsLeft: 1 | 2,
): EndgameHoldAdvice[] {
  assertDice(dice);
  if (rollsLeft !== 1 && rollsLeft !== 2) throw new RangeError(`rollsLeft must be 1 or 2, got ${String(rollsLeft)}`);
  const p = position(eg, sheet, toBeat);
  const values = new Float64Array(keepTables().count);
  fillFinal(eg, p.mask, p.five, p.uk, p.d, values);
  return holdsFromFinalValues(values, dice, rollsLeft, 0).map((h) => ({
    hold: h.hold,
    kept: h.kept,
    winChance: h.expected,
  }));
}
