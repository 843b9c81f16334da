import { type Die, type RollDice, isDie } from '../core/dice';
import { RuleError, ruleError } from '../core/errors';
import type { GameFamily, SeatStanding } from '../core/family';
import { replay as coreReplay } from '../core/replay';
import { timeoutMove } from './computer';
import { resolveOptions } from './options';
import { scoreOptionsFor, totals } from './scoring';
import {
  BOX_COUNT,
  DICE_COUNT,
  type FiveDiceCommand,
  type FiveDiceEvent,
  type FiveDiceOptions,
  type FiveDiceSheet,
  type FiveDiceState,
  MAX_SEATS,
  MIN_SEATS,
  ROLLS_PER_TURN,
  isBoxId,
} from './types';

const COMMAND_TYPES = ['roll', 'score', 'quit'] as const;

/** State right after the lobby closes: seat 0 to play, nothing rolled. Throws on 0 or more than 8 seats. */
export function initialState(options: FiveDiceOptions, seatCount: number): FiveDiceState {
  if (!Number.isInteger(seatCount) || seatCount < MIN_SEATS || seatCount > MAX_SEATS) {
    throw new RangeError(`five-dice needs ${MIN_SEATS} to ${MAX_SEATS} seats, got ${seatCount}`);
  }
  return {
    options,
    seatCount,
    sheets: Array.from({ length: seatCount }, () => ({ boxes: {}, extraBonus: 0 })),
    quit: Array.from({ length: seatCount }, () => false),
    turn: { seat: 0, rollInTurn: 0, dice: [] },
    finished: false,
    finalStandings: null,
  };
}

/** No start events for this family (seat 0 begins). */
export function start(_state: FiveDiceState, _roll: RollDice): FiveDiceEvent[] {
  return [];
}

export const filledCount = (sheet: FiveDiceSheet) => Object.keys(sheet.boxes).length;

/** Next seat in order after `from` that is still playing and has an open box, or null. */
function nextSeat(sheets: readonly FiveDiceSheet[], quit: readonly boolean[], from: number): number | null {
  const n = sheets.length;
  for (let step = 1; step <= n; step++) {
    const seat = (from + step) % n;
    if (!quit[seat] && filledCount(sheets[seat]) < BOX_COUNT) return seat;
  }
  return null;
}

/**
 * Standings: finishers (and, while the game runs, players still in) by total, then quitters by total.
 * Equal totals within a group share a rank ("1, 1, 3" competition ranking); ties list by seat.
 */
export function computeStandings(state: Pick<FiveDiceState, 'sheets' | 'quit' | 'options'>): SeatStanding[] {
  const rows = state.sheets.map((sheet, seat) => ({
    seat,
    total: totals(sheet, state.options).total,
    quit: state.quit[seat],
  }));
  rows.sort((a, b) => Number(a.quit) - Number(b.quit) || b.total - a.total || a.seat - b.seat);
  const out: SeatStanding[] = [];
  rows.forEach((row, i) => {
    const prev = out[i - 1];
    const rank = prev && prev.quit === row.quit && prev.total === row.total ? prev.rank : i + 1;
    out.push({ seat: row.seat, total: row.total, rank, quit: row.quit });
  });
  return out;
}

export function standings(state: FiveDiceState): SeatStanding[] {
  return state.finalStandings ? state.finalStandings.map((s) => ({ ...s })) : computeStandings(state);
}

export const currentSeat = (state: FiveDiceState): number | null => (state.turn ? state.turn.seat : null);
export const isFinished = (state: FiveDiceState): boolean => state.finished;

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Validates `hold` (untrusted) for the next roll; returns the sorted indices or a RuleError. */
function validateHold(hold: unknown, rollInTurn: number): number[] | RuleError {
  if (hold === undefined || hold === null) return [];
  if (!Array.isArray(hold)) return ruleError('INVALID_HOLD', 'hold must be an array of dice indices 0 to 4');
  if (rollInTurn === 0 && hold.length > 0) {
    return ruleError('INVALID_HOLD', 'the first roll of a turn throws all five dice: hold must be empty', { hold });
  }
  const seen = new Set<number>();
  for (const index of hold) {
    if (typeof index !== 'number' || !Number.isInteger(index) || index < 0 || index >= DICE_COUNT) {
      return ruleError(
        'INVALID_HOLD',
        `hold index ${JSON.stringify(index) ?? String(index)} is not an integer from 0 to 4`,
        {
          hold,
        },
      );
    }
    if (seen.has(index)) return ruleError('INVALID_HOLD', `die ${index} is held twice`, { hold });
    seen.add(index);
  }
  if (seen.size === DICE_COUNT) {
    return ruleError('INVALID_HOLD', 'holding all five dice rolls nothing: score the dice instead', { hold });
  }
  return [...seen].sort((a, b) => a - b);
}

/** Events that close the game, if the state after `events` has nobody left to play. */
function closingEvents(state: FiveDiceState, events: FiveDiceEvent[]): FiveDiceEvent[] {
  const after = coreReplay(evolve, state, events);
  if (after.turn === null) return [...events, { type: 'finished', standings: computeStandings(after) }];
  return events;
}

/** Validates `command` against `state`; returns the events it causes or a RuleError. Never mutates. */
export function decide(state: FiveDiceState, command: FiveDiceCommand, roll: RollDice): FiveDiceEvent[] | RuleError {
  const cmd: unknown = command;
  if (!isObject(cmd)) return ruleError('INVALID_COMMAND', 'a command must be an object');
  if (state.finished || state.turn === null) return ruleError('GAME_FINISHED', 'the game is finished');
  const type = cmd.type;
  if (typeof type !== 'string' || !(COMMAND_TYPES as readonly string[]).includes(type)) {
    return ruleError(
      'INVALID_COMMAND',
      `unknown command type ${JSON.stringify(type) ?? String(type)} (roll, score, quit)`,
    );
  }
  const seat = cmd.seat;
  if (typeof seat !== 'number' || !Number.isInteger(seat) || seat < 0 || seat >= state.seatCount) {
    return ruleError('INVALID_COMMAND', `seat must be an integer from 0 to ${state.seatCount - 1}`);
  }
  const turn = state.turn;
  if (seat !== turn.seat) {
    return ruleError('NOT_YOUR_TURN', `it is seat ${turn.seat}'s turn, not seat ${seat}'s`, { currentSeat: turn.seat });
  }

  switch (type) {
    case 'roll': {
      if (turn.rollInTurn >= ROLLS_PER_TURN) {
        return ruleError('NO_ROLLS_LEFT', `all ${ROLLS_PER_TURN} rolls of this turn are used: choose a box`);
      }
      const held = validateHold(cmd.hold, turn.rollInTurn);
      if (held instanceof RuleError) return held;
      const count = DICE_COUNT - held.length;
      const positions = Array.from({ length: DICE_COUNT }, (_, i) => i).filter((i) => !held.includes(i));
      const faces = roll(count, { turn: filledCount(state.sheets[seat]), roll: turn.rollInTurn, positions });
      if (!Array.isArray(faces) || faces.length !== count || !faces.every(isDie)) {
        // A broken roller is a programming error, not a rule violation.
        throw new Error(`roller returned ${JSON.stringify(faces)} for ${count} dice`);
      }
      const dice: Die[] = [];
      let next = 0;
      for (let i = 0; i < DICE_COUNT; i++) dice.push(held.includes(i) ? turn.dice[i] : faces[next++]);
      return [{ type: 'rolled', seat, dice, held, rollInTurn: turn.rollInTurn + 1 }];
    }
    case 'score': {
      if (turn.rollInTurn === 0) return ruleError('ROLL_REQUIRED', 'roll the dice before choosing a box');
      const box = cmd.box;
      if (!isBoxId(box)) return ruleError('UNKNOWN_BOX', `unknown box ${JSON.stringify(box) ?? String(box)}`, { box });
      const sheet = state.sheets[seat];
      if (sheet.boxes[box] !== undefined) {
        return ruleError('BOX_ALREADY_FILLED', `box '${box}' already holds ${sheet.boxes[box]}`, { box });
      }
      const choice = scoreOptionsFor(sheet, turn.dice, state.options).boxes.find((o) => o.box === box)!;
      if (!choice.allowed) {
        return ruleError('BOX_NOT_ALLOWED', `the joker rule forbids '${box}' for this five of a kind`, { box });
      }
      return closingEvents(state, [{ type: 'scored', seat, box, points: choice.points, bonus: choice.bonus }]);
    }
    default: // quit
      return closingEvents(state, [{ type: 'quit', seat }]);
  }
}

const fail = (event: FiveDiceEvent, why: string): never => {
  throw new Error(`five-dice: cannot apply ${JSON.stringify(event)}: ${why}`);
};

/**
 * Applies one event. Never fails for events `decide` produced; throws on an event that cannot
 * follow `state` (the offline verifier relies on this).
 */
export function evolve(state: FiveDiceState, event: FiveDiceEvent): FiveDiceState {
  if (state.finished) fail(event, 'the game is finished');
  const turn = state.turn!;
  switch (event.type) {
    case 'rolled': {
      if (event.seat !== turn.seat) fail(event, "not this seat's turn");
      if (event.rollInTurn !== turn.rollInTurn + 1 || event.rollInTurn > ROLLS_PER_TURN)
        fail(event, 'wrong roll number');
      if (!Array.isArray(event.dice) || event.dice.length !== DICE_COUNT || !event.dice.every(isDie))
        fail(event, 'bad dice');
      if (
        !Array.isArray(event.held) ||
        event.held.some((i) => turn.dice[i] === undefined || event.dice[i] !== turn.dice[i])
      ) {
        fail(event, 'held dice changed');
      }
      return { ...state, turn: { seat: turn.seat, rollInTurn: event.rollInTurn, dice: [...event.dice] } };
    }
    case 'scored': {
      if (event.seat !== turn.seat || turn.rollInTurn === 0) fail(event, "not this seat's turn or nothing rolled");
      const sheet = state.sheets[event.seat];
      if (!isBoxId(event.box) || sheet.boxes[event.box] !== undefined) fail(event, 'box unknown or filled');
      const sheets = state.sheets.slice();
      sheets[event.seat] = {
        boxes: { ...sheet.boxes, [event.box]: event.points },
        extraBonus: sheet.extraBonus + event.bonus,
      };
      // One new state per event (the turn moves on in the same object).
      return { ...state, sheets, turn: nextTurn(sheets, state.quit, event.seat) };
    }
    case 'quit': {
      if (event.seat !== turn.seat) fail(event, "not this seat's turn");
      const quit = state.quit.slice();
      quit[event.seat] = true;
      return { ...state, quit, turn: nextTurn(state.sheets, quit, event.seat) };
    }
    case 'finished': {
      if (state.turn !== null) fail(event, 'players still have turns to play');
      return { ...state, finished: true, finalStandings: event.standings.map((s) => ({ ...s })) };
    }
    default:
      return fail(event, 'unknown event type');
  }
}

function nextTurn(sheets: readonly FiveDiceSheet[], quit: readonly boolean[], from: number): FiveDiceState['turn'] {
  const seat = nextSeat(sheets, quit, from);
  return seat === null ? null : { seat, rollInTurn: 0, dice: [] };
}

/** `replay(events)` = `events.reduce(evolve, initialState(options, seatCount))`. */
export function replayGame(
  options: FiveDiceOptions,
  seatCount: number,
  events: readonly FiveDiceEvent[],
): FiveDiceState {
  return coreReplay(evolve, initialState(options, seatCount), events);
}

export const fiveDiceFamily: GameFamily<FiveDiceOptions, FiveDiceState, FiveDiceCommand, FiveDiceEvent> = {
  id: 'five-dice',
  resolveOptions,
  initialState,
  start,
  decide,
  evolve,
  currentSeat,
  isFinished,
  standings,
  /** The re-rolled faces of a 'rolled' event: the non-held positions, in index order. */
  rolledDice: (event) => (event.type === 'rolled' ? event.dice.filter((_, i) => !event.held.includes(i)) : null),
  /** The computer completes a timed-out turn (see `timeoutMove` in computer.ts). */
  timeoutMove,
  isTurnStart: (state) => state.turn !== null && state.turn.rollInTurn === 0,
  autoScoreDelayMs,
  autoScoreMove,
};

/** `autoScoreAfterMs` while the turn's last roll waits for a score, else null. */
function autoScoreDelayMs(state: FiveDiceState): number | null {
  const ms = state.options.autoScoreAfterMs;
  return typeof ms === 'number' && state.turn !== null && state.turn.rollInTurn === 3 ? ms : null;
}

/** Auto-score: with the option on, after the turn's last roll, the dice go into `box`. */
function autoScoreMove(state: FiveDiceState, seat: number, box: string): FiveDiceCommand | RuleError {
  if (typeof state.options.autoScoreAfterMs !== 'number')
    return ruleError('INVALID_COMMAND', 'This game does not score automatically');
  if (state.turn === null || state.turn.rollInTurn !== 3)
    return ruleError('INVALID_COMMAND', 'Auto-score comes only after the last roll of a turn');
  if (!isBoxId(box)) return ruleError('UNKNOWN_BOX', `unknown box ${JSON.stringify(box)}`, { box });
  return { type: 'score', box, seat };
}
