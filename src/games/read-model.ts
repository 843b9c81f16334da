/** The games row's read-model columns after a command, written by the same statement as its events. */
import { familyById } from '@fairdice/core/rules/registry';
import type { GameEvent, GameState } from '@fairdice/core/rules/game';
import { asyncEffects, type InactivityPeriods } from '../event-store/async-effects';
import type { ReadModelUpdate } from '../event-store/event-store.types';

/** The read-model columns after a command (kept in step with the events, same statement). */
export function readModel(
  before: GameState,
  after: GameState,
  _events: readonly GameEvent[],
  inactivity?: InactivityPeriods,
): ReadModelUpdate {
  const play = after.play;
  const currentSeat = play !== null && after.status === 'playing' ? familyById(after.family).currentSeat(play) : null;
  return {
    status: after.status,
    currentSeat,
    currentPlayerId: currentSeat === null ? null : (after.seats[currentSeat]?.playerId ?? null),
    standings: after.standings,
    started: before.status === 'open' && after.status !== 'open' && after.play !== null,
    finished: after.status === 'finished' || after.status === 'abandoned',
    // Evolve keeps an unchanged seat's object: only a replaced one is compared field by field.
    seats: after.seats.filter((s, i) => s !== before.seats[i] && JSON.stringify(s) !== JSON.stringify(before.seats[i])),
    organizerSeed: after.organizerSeed,
    // Turn deadline, inactivity job and webhook fan-out, written by the same statement as the events (src/async).
    ...asyncEffects(before, after, inactivity),
  };
}
