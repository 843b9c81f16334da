/** Farkle's state construction: the initial state and the roll-off that decides who starts (docs/rules.md). */
import { type Die, type RollDice, isDie } from '../core/dice';
import { type FarkleOptions, farkle } from './options';
import type { FarkleEvent, FarkleState } from './types';

/** A turn's dice, and the dice rolled again after hot dice. */
export const HOT_DICE = 6;
/** A roller that keeps producing ties would loop forever; this bounds the roll-off (a tie every round is ~impossible). */
const MAX_ROLL_OFF_ROUNDS = 1000;

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

export function rollChecked(roll: RollDice, count: number): Die[] {
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
