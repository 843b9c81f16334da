/** The shapes the ratings service answers (docs/ratings.md); the transport models are in dto/rating.model.ts. */
import type { RatedSeat } from '@fairdice/core/rules/ratings';

/** One seat of a rated result as the public list gives it. */
export interface RatedSeatView extends RatedSeat {
  seat: number;
}

export interface RatingValues {
  rating: number;
  rd: number;
  volatility: number;
}

export interface RatedResultView {
  seq: number;
  gameId: string;
  pool: string;
  finishedAt: Date;
  seats: RatedSeatView[];
  changes: Array<{ playerId: string; before: RatingValues; after: RatingValues }>;
}

export interface PlayerRatingView extends RatingValues {
  pool: string;
  /** The deviation now: grown by the time since the last rated game (docs/ratings.md §2.3). */
  currentRd: number;
  provisional: boolean;
  games: number;
  wins: number;
  draws: number;
  losses: number;
  lastGameAt: Date;
}

export interface RatingHistoryEntry {
  seq: number;
  gameId: string;
  pool: string;
  finishedAt: Date;
  before: RatingValues;
  after: RatingValues;
  wins: number;
  draws: number;
  losses: number;
}

export interface RatingLeaderboardEntry {
  rank: number;
  playerId: string;
  displayName: string;
  rating: number;
  rd: number;
  games: number;
  lastGameAt: Date;
}
