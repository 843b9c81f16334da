/**
 * The Farkle game family (docs/rules.md): setup.ts (initial state, roll-off), queries.ts,
 * decide.ts, evolve.ts, and here the computer's move on timeout and the family object the
 * registry uses. Every function stays exported from this module.
 */
import type { GameFamily } from '../core/family';
import { decide } from './decide';
import { evolve } from './evolve';
import { type FarkleOptions, resolveOptions } from './options';
import { currentSeat, isFinished, standings } from './queries';
import { bestSelection } from './scoring';
import { initialState, start } from './setup';
import type { FarkleCommand, FarkleEvent, FarkleState } from './types';

export { decide } from './decide';
export { evolve, replay } from './evolve';
export { currentSeat, isFinished, standings, totals } from './queries';
export { initialState, start } from './setup';

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
