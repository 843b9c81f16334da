/**
 * The seek aggregate (docs/matchmaking.md): a player's standing offer to play a game of a pool
 * with a number of seats, rated or casual, a per-move time limit and an acceptable rating range,
 * until the matchmaker pairs it into a game or the player cancels it. The aggregate id is the
 * seek id; the player is in its first event.
 */
import type { RatingPool } from '../ratings/pools';

export const SEEK_LIMITS = {
  /** Open seeks one player may hold at once (SEEK_LIMIT_REACHED beyond). */
  openPerPlayer: 3,
  seatsMin: 2,
  seatsMax: 4,
  /** The bounds of a rating range (the ratings' own bounds, docs/ratings.md §2.1). */
  ratingMin: 400,
  ratingMax: 4000,
} as const;

/**
 * The per-move time limits (seconds) a seek may ask for: required for a rated seek; a casual seek
 * may also ask for none (null). Standard controls, so that seeks meet instead of scattering.
 */
export const TIME_CONTROLS = [15, 30, 60, 120, 300] as const;

export interface SeekSpec {
  pool: RatingPool;
  seats: number;
  rated: boolean;
  /** The lowest and highest opponent rating accepted (null: the default window around the seeker's rating). */
  ratingMin: number | null;
  ratingMax: number | null;
  /** Seconds per move, one of TIME_CONTROLS (null: no limit, casual seeks only). */
  turnTimeLimitSeconds: number | null;
}

export type SeekStatus = 'open' | 'paired' | 'cancelled';

export interface SeekState {
  id: string;
  version: number;
  /** Null before the seek exists (version 0). */
  playerId: string | null;
  spec: SeekSpec | null;
  status: SeekStatus | null;
  /** The game the seek was paired into. */
  gameId: string | null;
}

export type SeekCommand =
  | {
      type: 'create';
      playerId: string;
      /** As the client sent it: checked by the decider. */
      spec: {
        pool: unknown;
        seats: unknown;
        rated: unknown;
        ratingMin?: unknown;
        ratingMax?: unknown;
        turnTimeLimitSeconds?: unknown;
      };
      /** How many open seeks the player holds now (counted by the service under the player's lock). */
      openSeeks: number;
    }
  | { type: 'cancel'; playerId: string }
  /** The matchmaker's: the seek is one of `seekIds`, paired into `gameId`. */
  | { type: 'pair'; gameId: string; seekIds: string[] };

export type SeekEvent =
  | { type: 'seekCreated'; data: { playerId: string } & SeekSpec }
  | { type: 'seekCancelled'; data: { playerId: string } }
  | { type: 'seekPaired'; data: { gameId: string; seekIds: string[] } };

export type SeekEventType = SeekEvent['type'];
