/** Queries on a Farkle state: the seat to move, the end, totals, standings and play order. */
import type { SeatStanding } from '../core/family';
import type { FarkleState } from './types';

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
export function activeSeatsAfter(state: FarkleState, seat: number): number[] {
  const out: number[] = [];
  for (let k = 1; k < state.seatCount; k++) {
    const s = (seat + k) % state.seatCount;
    if (!state.quit[s]) out.push(s);
  }
  return out;
}
