/**
 * A game's family state, typed. `GameState.play` is opaque to the generic aggregate (each family
 * owns its state); these accessors check the family and give its state typed, so readers never
 * cast it themselves: null when the game is of another family or has not started.
 */
import type { FarkleState } from '../farkle/types';
import type { FiveDiceState } from '../five-dice/types';
import type { GameState } from './types';

/** The five-dice state of a started five-dice game, else null. */
export function fiveDicePlay(state: Pick<GameState, 'family' | 'play'>): FiveDiceState | null {
  // The family's initialState made it, and only its evolve changes it (registry.ts).
  return state.family === 'five-dice' && state.play !== null ? (state.play as FiveDiceState) : null;
}

/** The Farkle state of a started Farkle game, else null. */
export function farklePlay(state: Pick<GameState, 'family' | 'play'>): FarkleState | null {
  return state.family === 'farkle' && state.play !== null ? (state.play as FarkleState) : null;
}
