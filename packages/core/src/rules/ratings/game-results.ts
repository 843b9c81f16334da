/**
 * A finished rated game as Glicko-2 results: one result per pair of players by final totals (a
 * tie is a draw; a player who forfeited, by quitting or running out of time, loses to every
 * player who did not), and all of one game's results form one rating period for each player,
 * computed from everyone's rating before the game (docs/ratings.md §3).
 */
import { bounded, elapsedPeriods, glicko2, INITIAL_RATING, type Rating, type Result } from './glicko2';

/** One seat of a finished rated game, as the public list of rated results gives it. */
export interface RatedSeat {
  playerId: string;
  total: number;
  /** Quit the game or ran out of time at least once: loses for rating. */
  forfeited: boolean;
}

/** A player's stored rating in a pool, with the time of their last rated game (ms). */
export interface PlayerRating extends Rating {
  lastGameAtMs: number | null;
}

export interface RatingChange {
  playerId: string;
  before: Rating;
  after: Rating;
  /** Results of this game for this player: wins, draws, losses (one per opponent). */
  wins: number;
  draws: number;
  losses: number;
}

/** The score of `a` against `b`: forfeit first, then totals (equal totals: a draw). */
export function pairScore(a: RatedSeat, b: RatedSeat): 0 | 0.5 | 1 {
  if (a.forfeited !== b.forfeited) return a.forfeited ? 0 : 1;
  if (a.total === b.total) return 0.5;
  return a.total > b.total ? 1 : 0;
}

/**
 * Every player's new rating after one finished rated game at `finishedAtMs`, from the ratings
 * before it (`current`; a player without one starts at 1500 / 350 / 0.06). Updates are
 * simultaneous: each player's results use the others' ratings from before the game.
 */
export function rateGame(
  seats: readonly RatedSeat[],
  current: ReadonlyMap<string, PlayerRating>,
  finishedAtMs: number,
): RatingChange[] {
  const before = (id: string): PlayerRating => current.get(id) ?? { ...INITIAL_RATING, lastGameAtMs: null };
  return seats.map((me) => {
    const mine = before(me.playerId);
    const results: Result[] = [];
    let wins = 0;
    let draws = 0;
    let losses = 0;
    for (const other of seats) {
      if (other.playerId === me.playerId) continue;
      const o = before(other.playerId);
      const score = pairScore(me, other);
      if (score === 1) wins++;
      else if (score === 0) losses++;
      else draws++;
      results.push({ opponent: { rating: o.rating, rd: o.rd }, score });
    }
    const start: Rating = { rating: mine.rating, rd: mine.rd, volatility: mine.volatility };
    const after = bounded(glicko2(start, results, elapsedPeriods(mine.lastGameAtMs, finishedAtMs)));
    return { playerId: me.playerId, before: start, after, wins, draws, losses };
  });
}
