import { type Die, type RollDice, isDie } from '../core/dice';
import { type RuleError, ruleError } from '../core/errors';
import type { GameFamily, SeatStanding } from '../core/family';
import { replay as foldEvents } from '../core/replay';
import { type FarkleOptions, farkle, resolveOptions } from './options';
import { bestSelection, isFarkle, scoreFaces } from './scoring';
import type { FarkleCommand, FarkleEvent, FarkleState, FarkleTurn } from './types';

const HOT_DICE = 6;
/** A roller that keeps producing ties would loop forever; this bounds the roll-off (a tie every round is ~impossible). */
const MAX_ROLL_OFF_ROUNDS = 1000;

// ---------------------------------------------------------------- state construction

export function initialState(options: FarkleOptions = farkle, seatCount = 1): FarkleState {
  if (!Number.isSafeInteger(seatCount) || seatCount < 1)
    throw new RangeError(`seatCount must be a positive integer, got ${seatCount}`);
  const seats = Array.from({ length: seatCount }, (_, i) => i);
  return {
    options,
    seatCount,
    phase: 'waiting',
    rollOffRound: 0,
    rollOffSeats: seats,
    starter: null,
    turn: null,
    totals: seats.map(() => 0),
    onBoard: seats.map(() => false),
    quit: seats.map(() => false),
    farkleStreak: seats.map(() => 0),
    lastRound: null,
    finishReason: null,
  };
}

function rollChecked(roll: RollDice, count: number): Die[] {
  const dice = roll(count);
  if (!Array.isArray(dice) || dice.length !== count || !dice.every(isDie)) {
    throw new Error(`RollDice returned ${JSON.stringify(dice)} for ${count} dice`);
  }
  return dice.slice();
}

/**
 * Who starts. Solo: seat 0 starts at once (no roll-off). Otherwise every seat rolls one die
 * (one RollDice call for all contenders); ties for the highest die roll again among the tied
 * seats only, one event per round. Play then goes from the starter in ascending seat order.
 * Returns [] if the game has already started.
 */
export function start(state: FarkleState, roll: RollDice): FarkleEvent[] {
  if (state.phase !== 'waiting') return [];
  if (state.seatCount === 1) return [{ type: 'turnStarted', seat: 0 }];
  const events: FarkleEvent[] = [];
  let seats = state.rollOffSeats.slice();
  for (let round = state.rollOffRound + 1; ; round++) {
    if (round > MAX_ROLL_OFF_ROUNDS) throw new Error('roll-off did not settle: the roller keeps producing ties');
    const dice = rollChecked(roll, seats.length);
    events.push({ type: 'rollOff', round, seats, dice });
    const high = Math.max(...dice);
    seats = seats.filter((_, i) => dice[i] === high);
    if (seats.length === 1) break;
  }
  events.push({ type: 'turnStarted', seat: seats[0] });
  return events;
}

// ---------------------------------------------------------------- queries

export const currentSeat = (state: FarkleState): number | null =>
  state.phase === 'playing' && state.turn ? state.turn.seat : null;

export const isFinished = (state: FarkleState): boolean => state.phase === 'finished';

export const totals = (state: FarkleState): number[] => state.totals.slice();

/**
 * Standings by rank. Non-quitters ("finishers") rank first by total, equal totals share a rank
 * (1, 1, 3); quitters rank after all finishers, again by total with shared ranks.
 */
export function standings(state: FarkleState): SeatStanding[] {
  const rows = state.totals.map((total, seat) => ({ seat, total, quit: state.quit[seat], rank: 0 }));
  const finishers = rows.filter((r) => !r.quit);
  const quitters = rows.filter((r) => r.quit);
  const rankWithin = (group: typeof rows, offset: number) => {
    for (const r of group) r.rank = offset + 1 + group.filter((o) => o.total > r.total).length;
  };
  rankWithin(finishers, 0);
  rankWithin(quitters, finishers.length);
  return [...finishers, ...quitters].sort((a, b) => a.rank - b.rank || a.seat - b.seat);
}

/** Seats that have not quit, in play order starting after `seat` (excluding it). */
function activeSeatsAfter(state: FarkleState, seat: number): number[] {
  const out: number[] = [];
  for (let k = 1; k < state.seatCount; k++) {
    const s = (seat + k) % state.seatCount;
    if (!state.quit[s]) out.push(s);
  }
  return out;
}

// ---------------------------------------------------------------- decide

const KNOWN = ['roll', 'setAside', 'bank', 'quit', 'pass'];

class Batch {
  readonly events: FarkleEvent[] = [];
  constructor(public state: FarkleState) {}
  push(event: FarkleEvent): void {
    this.state = evolve(this.state, event);
    this.events.push(event);
  }
}

/**
 * Validates an (untrusted) command against the state and returns the events it causes, or a
 * RuleError. Never mutates the state; calls `roll` at most once, only when the command rolls dice.
 */
export function decide(state: FarkleState, command: FarkleCommand, roll: RollDice): FarkleEvent[] | RuleError {
  const c = command as unknown;
  if (typeof c !== 'object' || c === null || Array.isArray(c))
    return ruleError('INVALID_COMMAND', 'A command must be an object');
  const { type, seat } = c as { type?: unknown; seat?: unknown };
  if (typeof type !== 'string') return ruleError('INVALID_COMMAND', 'A command needs a string "type"');
  if (typeof seat !== 'number' || !Number.isSafeInteger(seat) || seat < 0)
    return ruleError('INVALID_COMMAND', 'A command needs a non-negative integer "seat"', { type });
  if (state.phase === 'finished') return ruleError('GAME_FINISHED', 'The game is over', { seat });
  if (state.phase === 'waiting' || !state.turn)
    return ruleError('GAME_NOT_STARTED', 'The game has not started (roll-off pending)');
  if (!KNOWN.includes(type))
    return ruleError('INVALID_COMMAND', `Unknown Farkle command "${type.slice(0, 40)}"`, { known: KNOWN });
  if (seat !== state.turn.seat)
    return ruleError('NOT_YOUR_TURN', `It is seat ${state.turn.seat}'s turn, not seat ${seat}'s`, {
      seat,
      currentSeat: state.turn.seat,
    });

  const batch = new Batch(state);
  const cmd = c as Record<string, unknown>;
  let error: RuleError | null = null;
  switch (type) {
    case 'roll':
      if (cmd.setAside !== undefined) error = setAside(batch, seat, cmd.setAside);
      error ??= doRoll(batch, seat, roll);
      break;
    case 'setAside':
      error = setAside(batch, seat, cmd.dice);
      break;
    case 'bank':
      if (cmd.setAside !== undefined) error = setAside(batch, seat, cmd.setAside);
      error ??= bank(batch, seat);
      break;
    case 'quit':
      batch.push({ type: 'quit', seat, lost: batch.state.turn!.points });
      endTurn(batch, seat, false);
      break;
    case 'pass':
      batch.push({ type: 'passed', seat, lost: batch.state.turn!.points });
      endTurn(batch, seat, false);
      break;
  }
  return error ?? batch.events;
}

function setAside(batch: Batch, seat: number, selection: unknown): RuleError | null {
  const turn = batch.state.turn!;
  if (!turn.roll) return ruleError('ROLL_REQUIRED', 'Roll the dice before setting any aside', { seat });
  if (turn.setAside)
    return ruleError('ALREADY_SET_ASIDE', 'Dice were already set aside from this roll; roll again or bank', {
      seat,
      setAside: turn.setAside,
    });
  const n = turn.roll.length;
  if (!Array.isArray(selection) || selection.length === 0 || selection.length > n)
    return ruleError(
      'INVALID_SELECTION',
      `Choose 1 to ${n} dice by their indices (0 to ${n - 1}) in the current roll`,
      { seat },
    );
  const seen = new Set<number>();
  for (const i of selection) {
    if (typeof i !== 'number' || !Number.isInteger(i) || i < 0 || i >= n)
      return ruleError(
        'INVALID_SELECTION',
        `Die index ${JSON.stringify(i)?.slice(0, 20)} is not an index of the current roll (0 to ${n - 1})`,
        { seat },
      );
    if (seen.has(i)) return ruleError('INVALID_SELECTION', `Die index ${i} is chosen twice`, { seat });
    seen.add(i);
  }
  const dice = [...seen].sort((a, b) => a - b);
  const faces = dice.map((i) => turn.roll![i]);
  const points = scoreFaces(faces, batch.state.options);
  if (points === null)
    return ruleError(
      'SELECTION_DOES_NOT_SCORE',
      `Not every die in [${faces.join(', ')}] scores: every die set aside must be part of a scoring combination`,
      { seat, faces },
    );
  batch.push({
    type: 'setAside',
    seat,
    dice,
    faces,
    points,
    turnPoints: turn.points + points,
    hotDice: turn.diceLeft - dice.length === 0,
  });
  return null;
}

function doRoll(batch: Batch, seat: number, roll: RollDice): RuleError | null {
  const turn = batch.state.turn!;
  if (turn.roll && !turn.setAside)
    return ruleError('NOTHING_SET_ASIDE', 'Set aside at least one scoring die from this roll before rolling again', {
      seat,
    });
  const count = !turn.roll || turn.diceLeft === 0 ? HOT_DICE : turn.diceLeft;
  const dice = rollChecked(roll, count);
  batch.push({ type: 'rolled', seat, dice });
  if (isFarkle(dice, batch.state.options)) {
    const streak = batch.state.farkleStreak[seat] + 1;
    batch.push({ type: 'farkled', seat, lost: turn.points, streak });
    const penalty = batch.state.options.threeFarklePenalty;
    if (penalty > 0 && streak % 3 === 0) {
      const before = batch.state.totals[seat];
      const points = Math.min(penalty, before);
      batch.push({ type: 'penalty', seat, points, total: before - points });
    }
    endTurn(batch, seat, false);
  }
  return null;
}

function bank(batch: Batch, seat: number): RuleError | null {
  const { turn, options, totals: t, onBoard } = batch.state;
  if (!turn!.roll) return ruleError('ROLL_REQUIRED', 'Roll the dice before banking', { seat });
  if (!turn!.setAside)
    return ruleError('NOTHING_SET_ASIDE', 'Set aside at least one scoring die from this roll before banking', { seat });
  const points = turn!.points;
  if (!onBoard[seat] && points < options.entryThreshold)
    return ruleError(
      'BELOW_ENTRY_THRESHOLD',
      `A first banked turn must be worth at least ${options.entryThreshold} points (this turn: ${points})`,
      { seat, points, entryThreshold: options.entryThreshold },
    );
  const total = t[seat] + points;
  if (options.exactTarget && total > options.target) {
    batch.push({ type: 'busted', seat, lost: points });
    endTurn(batch, seat, false);
    return null;
  }
  batch.push({ type: 'banked', seat, points, total });
  endTurn(batch, seat, options.exactTarget ? total === options.target : total >= options.target);
  return null;
}

/** After a turn ended: open the last round, finish the game, or start the next seat's turn. */
function endTurn(batch: Batch, seat: number, reachedTarget: boolean): void {
  if (reachedTarget && batch.state.lastRound === null) {
    batch.push({ type: 'lastRound', seat, seats: activeSeatsAfter(batch.state, seat) });
  }
  const s = batch.state;
  if (s.lastRound) {
    const remaining = s.lastRound.remaining.filter((x) => !s.quit[x]);
    if (remaining.length === 0) return batch.push({ type: 'finished', reason: 'target' });
    const active = s.quit.filter((q) => !q).length;
    if (active <= 1) return batch.push({ type: 'finished', reason: 'quit' });
    return batch.push({ type: 'turnStarted', seat: remaining[0] });
  }
  const next = activeSeatsAfter(s, seat);
  const active = s.quit.filter((q) => !q).length;
  if (active === 0 || (s.seatCount > 1 && active === 1)) return batch.push({ type: 'finished', reason: 'quit' });
  batch.push({ type: 'turnStarted', seat: next.length ? next[0] : seat });
}

// ---------------------------------------------------------------- evolve

const fail = (event: FarkleEvent, why: string): never => {
  throw new Error(`Farkle event ${JSON.stringify(event)} does not apply: ${why}`);
};

const set = <T>(arr: readonly T[], i: number, v: T): T[] => {
  const out = arr.slice();
  out[i] = v;
  return out;
};

function turnOf(state: FarkleState, event: FarkleEvent & { seat: number }): FarkleTurn {
  if (!state.turn || state.turn.seat !== event.seat) fail(event, `it is not seat ${event.seat}'s turn`);
  return state.turn!;
}

/**
 * Applies one event (pure; returns a new state). Throws on an event that cannot follow the state
 * (an event after the end, the wrong seat, inconsistent totals): decide never produces those, and
 * an offline verifier replaying a stored log learns that the log is corrupt.
 */
export function evolve(state: FarkleState, event: FarkleEvent): FarkleState {
  if (state.phase === 'finished') fail(event, 'the game is over');
  switch (event.type) {
    case 'rollOff': {
      if (state.phase !== 'waiting') fail(event, 'the game has started');
      const high = Math.max(...event.dice);
      return {
        ...state,
        rollOffRound: event.round,
        rollOffSeats: event.seats.filter((_, i) => event.dice[i] === high),
      };
    }
    case 'turnStarted': {
      const starter = state.starter ?? event.seat;
      const lastRound = state.lastRound && {
        ...state.lastRound,
        remaining: state.lastRound.remaining.filter((s) => s !== event.seat),
      };
      return {
        ...state,
        phase: 'playing',
        starter,
        lastRound,
        turn: { seat: event.seat, roll: null, setAside: null, points: 0, diceLeft: HOT_DICE },
      };
    }
    case 'rolled': {
      const turn = turnOf(state, event);
      return { ...state, turn: { ...turn, roll: event.dice.slice(), setAside: null, diceLeft: event.dice.length } };
    }
    case 'setAside': {
      const turn = turnOf(state, event);
      if (event.turnPoints !== turn.points + event.points) fail(event, 'turn points do not add up');
      return {
        ...state,
        turn: {
          ...turn,
          setAside: event.dice.slice(),
          points: event.turnPoints,
          diceLeft: turn.diceLeft - event.dice.length,
        },
      };
    }
    case 'farkled':
      turnOf(state, event);
      return { ...state, turn: null, farkleStreak: set(state.farkleStreak, event.seat, event.streak) };
    case 'penalty':
      if (event.total !== state.totals[event.seat] - event.points) fail(event, 'total does not add up');
      return { ...state, totals: set(state.totals, event.seat, event.total) };
    case 'banked':
      turnOf(state, event);
      if (event.total !== state.totals[event.seat] + event.points) fail(event, 'total does not add up');
      return {
        ...state,
        turn: null,
        totals: set(state.totals, event.seat, event.total),
        onBoard: set(state.onBoard, event.seat, true),
        farkleStreak: set(state.farkleStreak, event.seat, 0),
      };
    case 'busted':
      turnOf(state, event);
      return { ...state, turn: null, farkleStreak: set(state.farkleStreak, event.seat, 0) };
    case 'passed':
      turnOf(state, event);
      return { ...state, turn: null };
    case 'lastRound':
      return { ...state, lastRound: { trigger: event.seat, remaining: event.seats.slice() } };
    case 'quit':
      turnOf(state, event);
      return { ...state, turn: null, quit: set(state.quit, event.seat, true) };
    case 'finished':
      return { ...state, phase: 'finished', turn: null, finishReason: event.reason };
    default:
      return fail(event, 'unknown event type');
  }
}

/** Rebuilds the state from the initial state and the stored events. */
export function replay(events: readonly FarkleEvent[], options: FarkleOptions = farkle, seatCount = 1): FarkleState {
  return foldEvents(evolve, initialState(options, seatCount), events);
}

// ---------------------------------------------------------------- computer move on timeout

/**
 * The move the computer makes for the seat on turn when its turn timed out, one move at a time
 * (the caller applies it and asks again until the seat changes), or null when no turn is open.
 * As the async-play issue asks: roll if the turn has not rolled yet (a farkle ends the turn); then
 * bank what can be banked (the best selection of the current roll, when none is set aside yet),
 * else — below the entry threshold — pass, forfeiting the turn's points. It never rolls on. With
 * exactTarget an overshooting bank busts, which ends the turn just the same.
 */
type TimeoutMove = { type: 'roll' } | { type: 'bank'; setAside?: number[] } | { type: 'pass' };

export function timeoutMove(state: FarkleState): TimeoutMove | null {
  const seat = currentSeat(state);
  const turn = state.turn;
  if (seat === null || !turn) return null;
  const canBank = (points: number) => state.onBoard[seat] || points >= state.options.entryThreshold;
  if (!turn.roll) return { type: 'roll' };
  if (!turn.setAside) {
    const best = bestSelection(turn.roll, state.options);
    if (!best) return null; // unreachable: a farkle ends the turn
    return canBank(turn.points + best.points) ? { type: 'bank', setAside: best.dice } : { type: 'pass' };
  }
  return canBank(turn.points) ? { type: 'bank' } : { type: 'pass' };
}

// ---------------------------------------------------------------- the family

export const farkleFamily: GameFamily<FarkleOptions, FarkleState, FarkleCommand, FarkleEvent> = {
  id: 'farkle',
  resolveOptions,
  initialState,
  start,
  decide,
  evolve,
  currentSeat,
  isFinished,
  standings,
  /** 'rolled' and 'rollOff' events record one physical roll each. */
  rolledDice: (event) => (event.type === 'rolled' || event.type === 'rollOff' ? event.dice.slice() : null),
  timeoutMove,
  isTurnStart: (state) => state.turn !== null && state.turn.roll === null && state.turn.points === 0,
};
