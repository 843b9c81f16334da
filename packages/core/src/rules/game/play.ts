/**
 * A game's family state, typed. `GameState` is discriminated by `family`, so narrowing it types
 * `play`; these accessors do it for callers that want one family's state: null when the game is of
 * another family or has not started. `startedPlay` gives the state of whichever family, for the
 * generic aggregate (with `familyById(state.family)`), and the two `as…` functions are the one
 * place where stored or client-sent JSON becomes a family's event or command.
 */
import type { FamilyId } from '../core/family';
import type { FamilyState, FamilyTypes } from '../families';
import type { FarkleState } from '../farkle/types';
import type { FiveDiceState } from '../five-dice/types';
import type { GameState } from './types';

/** The five-dice state of a started five-dice game, else null. */
export function fiveDicePlay(state: GameState): FiveDiceState | null {
  return state.family === 'five-dice' ? state.play : null;
}

/** The Farkle state of a started Farkle game, else null. */
export function farklePlay(state: GameState): FarkleState | null {
  return state.family === 'farkle' ? state.play : null;
}

/** The family state of a started game (the caller checked that it started: an error otherwise). */
export function startedPlay<S extends GameState>(state: S): NonNullable<S['play']> {
  const play: S['play'] = state.play;
  if (play === null) throw new Error(`game ${state.id} has not started`);
  return play;
}

/**
 * A family event as stored (GameEvent.data of a non-lifecycle event): its family's decide wrote it,
 * so its family's evolve reads it as one of its events.
 */
export const asFamilyEvent = (data: Record<string, unknown>): FamilyTypes[FamilyId]['event'] =>
  data as unknown as FamilyTypes[FamilyId]['event'];

/**
 * A move as a client or the service sent it, with the acting seat: the family's decide checks its
 * type and fields (a move it does not know is INVALID_COMMAND), so it is given as a family command.
 */
export const asFamilyCommand = (move: { type: string }, seat: number): FamilyTypes[FamilyId]['command'] =>
  ({ ...move, seat }) as FamilyTypes[FamilyId]['command'];

/**
 * `state` with its family state replaced by `play`, which its own family's evolve made from
 * `state.play` (the planners replay a turn on the family state alone).
 */
export const withPlay = (state: GameState, play: FamilyState<FamilyId>): GameState => ({ ...state, play }) as GameState;
