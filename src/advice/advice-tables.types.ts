/** The advice tables service's types: table kinds, its callers and its status view. */
import type { FarkleSolution, FiveDiceSolution } from '@fairdice/core/rules/advice';
import type { FiveDiceOptions } from '@fairdice/core/rules/five-dice';
import type { FarkleOptions } from '@fairdice/core/rules/farkle';

export type Kind = 'five-dice' | 'farkle';
export type Solution<K extends Kind> = K extends 'five-dice' ? FiveDiceSolution : FarkleSolution;
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
  /** Bytes of custom tables' files in the cache directory (the presets' files are not counted). */
  diskBytes: number;
}
