/** The rated pools: one per rule set whose games may be rated, played with the preset's default options. */
import type { RuleSetName } from '../registry';

export const RATING_POOLS = ['penta', 'simple', 'bonus', 'farkle'] as const satisfies readonly RuleSetName[];
export type RatingPool = (typeof RATING_POOLS)[number];

export const isRatingPool = (x: unknown): x is RatingPool =>
  typeof x === 'string' && (RATING_POOLS as readonly string[]).includes(x);
