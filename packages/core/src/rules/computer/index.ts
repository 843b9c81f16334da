/**
 * Computer players (docs/advice.md, "Computer players"): the move a computer seat makes at each
 * level, and a whole turn planned move by move. Pure and deterministic given the state and the
 * dice: another implementation following docs/advice.md makes the same moves. The service records
 * the moves in the command (`computer`, `timeout` with moves, `autoScore`); the rules then check
 * each for legality, so a verifier needs neither these policies nor the optimal tables.
 */
import type { Die, RollDice } from '../core/dice';
import { RuleError } from '../core/errors';
import { familyById } from '../registry';
import type { ComputerLevel, GameState, SeatMove } from '../game/types';
import { asFamilyCommand, farklePlay, fiveDicePlay, withPlay } from '../game/play';
import {
  BOX_IDS,
  type BoxId,
  DICE_COUNT,
  type FiveDiceState,
  computerChoice,
  faceCounts,
  isFiveOfAKind,
  scoreOptionsFor,
  timeoutMove as standardFiveDiceMove,
  totals,
  type SheetLike,
} from '../five-dice';
import { bestSelection, type FarkleState } from '../farkle';
import {
  adviseBox,
  adviseEndgameBox,
  adviseEndgameHolds,
  adviseHolds,
  createEndgame,
  endgameCovers,
  type FiveDiceEndgame,
  adviseLastTurnSetAside,
  adviseSetAside,
  adviseTwoPlayerSetAside,
  type FarkleSolution,
  type FarkleTwoPlayerSolution,
  type FiveDiceSolution,
  solveLastTurn,
} from '../advice';

/**
 * The solved tables levels `optimal` and `expert` need (for the game's options); absent for the
 * other levels. `farkleTwoPlayer` is for `expert` in a two-seat Farkle game.
 */
export interface OptimalTables {
  readonly fiveDice?: FiveDiceSolution;
  readonly farkle?: FarkleSolution;
  readonly farkleTwoPlayer?: FarkleTwoPlayerSolution;
}

/** Thrown when level `optimal` or `expert` is asked to move without its table (the caller loads it first). */
export class MissingTableError extends Error {}

/** Levels that play from solved tables (the others need none). */
export const playsFromTables = (level: ComputerLevel) => level === 'optimal' || level === 'expert';

/** Whether level `expert` plays this Farkle game from the two-player table: exactly two seats. */
export const farkleExpertTwoPlayer = (seats: number) => seats === 2;

// ---------------------------------------------------------------- five dice

/**
 * `beginner` box: the allowed box with the most points for these dice (the extra bonus is the
 * same in every box); ties to the earliest box in sheet order. Never looks ahead.
 */
export function beginnerBox(sheet: SheetLike, dice: readonly Die[], options: FiveDiceState['options']): BoxId {
  const allowed = scoreOptionsFor(sheet, dice, options).boxes.filter((o) => o.allowed);
  if (allowed.length === 0) throw new Error('beginnerBox: the sheet has no open box');
  let best = allowed[0];
  for (const o of allowed) if (o.points > best.points) best = o; // strict: the earlier box keeps a tie
  return best.box;
}

/**
 * `beginner` hold: keep every die showing the face that shows most often (ties: the higher face);
 * stop (keep all five) only on a five of a kind.
 */
export function beginnerHold(dice: readonly Die[]): number[] {
  if (isFiveOfAKind(dice)) return [0, 1, 2, 3, 4];
  const counts = faceCounts(dice);
  let face = 6;
  for (let f = 5; f >= 1; f--) if (counts[f] > counts[face]) face = f;
  return dice.flatMap((d, i) => (d === face ? [i] : []));
}

/** The box a level enters `dice` into (auto-score, and the last move of a computer turn). */
export function fiveDiceBox(
  sheet: SheetLike,
  dice: readonly Die[],
  options: FiveDiceState['options'],
  level: ComputerLevel,
  tables: OptimalTables = {},
): BoxId {
  if (level === 'beginner') return beginnerBox(sheet, dice, options);
  if (level === 'standard') return computerChoice(sheet, dice, options);
  if (!tables.fiveDice) throw new MissingTableError(`level ${level} needs the five-dice table`);
  return adviseBox(tables.fiveDice, sheet, dice)[0].box;
}

type FiveDiceMove = { type: 'roll'; hold: number[] } | { type: 'score'; box: BoxId };

/**
 * Five-dice `expert` in the endgame: the best other total when every other seat that has not quit
 * has filled its sheet and at least one such seat exists (docs/advice.md "Computer players"), else
 * null (then `expert` plays like `optimal`).
 */
export function fiveDiceEndgameTarget(state: FiveDiceState, seat: number): number | null {
  const others = state.sheets.filter((_, s) => s !== seat && !state.quit[s]);
  if (others.length === 0 || !others.every((sheet) => BOX_IDS.every((b) => sheet.boxes[b] !== undefined))) return null;
  return Math.max(...others.map((sheet) => totals(sheet, state.options).total));
}

let endgameMemo: FiveDiceEndgame | null = null;
/** The endgame memo for these options (one kept: consecutive moves of a turn share it). */
function endgameFor(options: FiveDiceState['options']): FiveDiceEndgame {
  if (
    endgameMemo === null ||
    JSON.stringify(endgameMemo.options) !== JSON.stringify(options) ||
    endgameMemo.memo.size > 100_000
  )
    endgameMemo = createEndgame(options);
  return endgameMemo;
}

/**
 * Five-dice `expert`: in the endgame (fiveDiceEndgameTarget) the first entry of the endgame
 * advisers (adviseEndgameHolds, then adviseEndgameBox); null outside it, or past the endgame
 * solver's open-box maximum (then the caller plays like `optimal`).
 */
export function expertFiveDiceMove(state: FiveDiceState): FiveDiceMove | null {
  const turn = state.turn;
  if (state.finished || turn === null) return null;
  const toBeat = fiveDiceEndgameTarget(state, turn.seat);
  if (toBeat === null) return null;
  const sheet = state.sheets[turn.seat];
  const eg = endgameFor(state.options);
  if (!endgameCovers(eg, sheet)) return null;
  if (turn.rollInTurn === 0) return { type: 'roll', hold: [] };
  const score = (): FiveDiceMove => ({ type: 'score', box: adviseEndgameBox(eg, sheet, toBeat, turn.dice)[0].box });
  if (turn.rollInTurn >= 3) return score();
  const hold = adviseEndgameHolds(eg, sheet, toBeat, turn.dice, (3 - turn.rollInTurn) as 1 | 2)[0].hold;
  return hold.length === DICE_COUNT ? score() : { type: 'roll', hold };
}

/** The next move of the seat on turn, or null when the game is over. */
export function fiveDiceMove(
  state: FiveDiceState,
  level: ComputerLevel,
  tables: OptimalTables = {},
): FiveDiceMove | null {
  const turn = state.turn;
  if (state.finished || turn === null) return null;
  if (level === 'expert') {
    const move = expertFiveDiceMove(state);
    if (move !== null) return move;
    level = 'optimal';
  }
  if (level === 'standard') return standardFiveDiceMove(state);
  if (turn.rollInTurn === 0) return { type: 'roll', hold: [] };
  const sheet = state.sheets[turn.seat];
  const score = (): FiveDiceMove => ({
    type: 'score',
    box: fiveDiceBox(sheet, turn.dice, state.options, level, tables),
  });
  if (turn.rollInTurn >= 3) return score();
  let hold: number[];
  if (level === 'beginner') hold = beginnerHold(turn.dice);
  else {
    if (!tables.fiveDice) throw new MissingTableError(`level ${level} needs the five-dice table`);
    hold = adviseHolds(tables.fiveDice, sheet, turn.dice, (3 - turn.rollInTurn) as 1 | 2)[0].hold;
  }
  return hold.length === DICE_COUNT ? score() : { type: 'roll', hold };
}

// ---------------------------------------------------------------- Farkle

type FarkleMove = { type: 'roll' } | { type: 'roll' | 'bank'; setAside: number[] };

/** `standard` banks once the turn holds this many points with at most STANDARD_FEW_DICE dice left to roll … */
export const FARKLE_STANDARD_BANK_FEW = 350;
export const FARKLE_STANDARD_FEW_DICE = 3;
/** … or this many points whatever the dice left. */
export const FARKLE_STANDARD_BANK_ANY = 550;

/**
 * The next Farkle move of the seat on turn, or null when no turn is open. Every level rolls to
 * begin a turn and, after a roll, sets aside one scoring selection together with bank or roll:
 * - `beginner`: the best-scoring selection (`bestSelection`: most points, then fewest dice, then
 *   lowest indices); bank as soon as banking is allowed (on the board, or the entry threshold met).
 * - `standard`: the same selection; bank when allowed and the turn then holds at least 550 points,
 *   or at least 350 with 3 dice or fewer left to roll (hot dice leave 6), or the bank reaches the target.
 * - `optimal`: the first entry of `adviseSetAside` (fewest expected turns; its bank-or-roll); in
 *   the last round, a seat whose total does not exceed the leader's (the highest other total)
 *   follows `adviseLastTurnSetAside` instead (bank exactly when the total would beat the leader).
 * - `expert`: with two seats, the first entry of `adviseTwoPlayerSetAside` (the highest chance to
 *   win, a tie counting half; the opponent's total at or above the target is the last turn); with
 *   any other number of seats, as `optimal`.
 */
export function farkleMove(state: FarkleState, level: ComputerLevel, tables: OptimalTables = {}): FarkleMove | null {
  const turn = state.turn;
  if (state.phase !== 'playing' || turn === null) return null;
  const seat = turn.seat;
  if (turn.roll === null) return { type: 'roll' };
  const roll = turn.roll;
  const banked = state.totals[seat];
  const canBank = (points: number) => state.onBoard[seat] || points >= state.options.entryThreshold;
  if (level === 'expert' && farkleExpertTwoPlayer(state.totals.length)) {
    if (!tables.farkleTwoPlayer) throw new MissingTableError('level expert needs the two-player Farkle table');
    const position = { banked, opponent: state.totals[1 - seat], turnPoints: turn.points };
    const best = adviseTwoPlayerSetAside(tables.farkleTwoPlayer, position, roll)[0];
    return { type: best.best, setAside: best.dice };
  }
  if (playsFromTables(level)) {
    if (!tables.farkle) throw new MissingTableError(`level ${level} needs the Farkle table`);
    const leader = Math.max(-1, ...state.totals.filter((_, s) => s !== seat && !state.quit[s]));
    if (state.lastRound !== null && leader >= banked) {
      const best = adviseLastTurnSetAside(solveLastTurn(state.options, banked, leader), turn.points, roll)[0];
      return { type: best.best, setAside: best.dice };
    }
    const best = adviseSetAside(tables.farkle, { banked, turnPoints: turn.points }, roll)[0];
    return { type: best.best, setAside: best.dice };
  }
  const sel = bestSelection(roll, state.options);
  if (!sel) return null; // unreachable: a farkle ends the turn
  const points = turn.points + sel.points;
  if (!canBank(points)) return { type: 'roll', setAside: sel.dice };
  if (level === 'beginner') return { type: 'bank', setAside: sel.dice };
  const diceLeft = sel.dice.length === roll.length ? 6 : roll.length - sel.dice.length;
  const bank =
    points >= FARKLE_STANDARD_BANK_ANY ||
    (points >= FARKLE_STANDARD_BANK_FEW && diceLeft <= FARKLE_STANDARD_FEW_DICE) ||
    banked + points >= state.options.target;
  return { type: bank ? 'bank' : 'roll', setAside: sel.dice };
}

// ---------------------------------------------------------------- a whole turn

/** The next move of the seat on turn in a started game at `level`, or null when none is due. */
export function computerMove(state: GameState, level: ComputerLevel, tables: OptimalTables = {}): SeatMove | null {
  const five = fiveDicePlay(state);
  if (five !== null) return fiveDiceMove(five, level, tables);
  const farkle = farklePlay(state);
  return farkle === null ? null : farkleMove(farkle, level, tables);
}

/**
 * The moves `seat` makes for the rest of its turn at `level`, decided one at a time on the state
 * so far with the game's dice (`roll` continues at the state's roll count: the same dice the
 * command will get). Stops when the turn passes, the game ends, or (solo) the turn starts again.
 */
export function planTurn(
  state: GameState,
  seat: number,
  level: ComputerLevel,
  roll: RollDice,
  tables: OptimalTables = {},
): SeatMove[] | RuleError {
  if (state.play === null) return [];
  const family = familyById(state.family);
  let play = state.play;
  const moves: SeatMove[] = [];
  for (let guard = 0; guard < 256; guard++) {
    if (family.isFinished(play) || family.currentSeat(play) !== seat) break;
    if (moves.length > 0 && family.isTurnStart?.(play)) break;
    const move = computerMove(withPlay(state, play), level, tables);
    if (move === null) break;
    const events = family.decide(play, asFamilyCommand(move, seat), roll);
    if (events instanceof RuleError) return events;
    for (const e of events) play = family.evolve(play, e);
    moves.push(move);
  }
  return moves;
}

/** Every box in sheet order (the tie-break order of every level). */
export const SHEET_ORDER: readonly BoxId[] = BOX_IDS;
