/** The advice tables service's types: table kinds, its callers and its status view. */
import type { FarkleSolution, FarkleTwoPlayerSolution, FiveDiceSolution } from '@fairdice/core/rules/advice';
import type { FiveDiceOptions } from '@fairdice/core/rules/five-dice';
import type { FarkleOptions } from '@fairdice/core/rules/farkle';

/** five-dice: solitaire five dice; farkle: solo Farkle (fewest turns); farkle-2p: two-player Farkle (win chance). */
export type Kind = 'five-dice' | 'farkle' | 'farkle-2p';
export type Solution<K extends Kind> = K extends 'five-dice'
  ? FiveDiceSolution
  : K extends 'farkle'
    ? FarkleSolution
    : FarkleTwoPlayerSolution;
export type AnySolution = FiveDiceSolution | FarkleSolution | FarkleTwoPlayerSolution;
export type OptionsOf<K extends Kind> = K extends 'five-dice' ? FiveDiceOptions : FarkleOptions;

/** Who asks the stateless advisers for a table: the player, or null when anonymous. */
export interface AdviceCaller {
  playerId: string | null;
}

/** What the tables service is doing (the health/metrics view and the tests read it). */
export interface AdviceTablesStatus {
  workers: number;
  queued: number;
  building: number;
  ready: number;
  /** Bytes of custom tables' files in the cache directory (five-dice and two-player Farkle; the presets' files are not counted). */
  diskBytes: number;
}
