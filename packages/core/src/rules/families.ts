/**
 * Each game family's own types, by family id: the key from which the registry's families, the
 * game state (`GameState`, discriminated by `family`) and the callers get their types without
 * casts. A new family adds one entry here and one in the registry (registry.ts).
 */
import type { GameFamily } from './core/family';
import type { FarkleOptions } from './farkle/options';
import type { FarkleCommand, FarkleEvent, FarkleState } from './farkle/types';
import type { FiveDiceCommand, FiveDiceEvent, FiveDiceOptions, FiveDiceState } from './five-dice/types';

export interface FamilyTypes {
  'five-dice': { options: FiveDiceOptions; state: FiveDiceState; command: FiveDiceCommand; event: FiveDiceEvent };
  farkle: { options: FarkleOptions; state: FarkleState; command: FarkleCommand; event: FarkleEvent };
}

/** The family with id F, typed by its own options, state, commands and events. */
export type FamilyOf<F extends keyof FamilyTypes> = GameFamily<
  FamilyTypes[F]['options'],
  FamilyTypes[F]['state'],
  FamilyTypes[F]['command'],
  FamilyTypes[F]['event']
>;

/** The state of a started game of family F. */
export type FamilyState<F extends keyof FamilyTypes> = FamilyTypes[F]['state'];
