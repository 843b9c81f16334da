/**
 * Tournament standings (docs/tournaments.md §4), a pure function of the tournament's events and,
 * for live standings, the current totals of games still running.
 *
 * Per game, every entrant earns match points against each other entrant compared with them:
 * 2 for a higher total, 1 for an equal one, 0 for a lower one. Compared with: in a duplicate
 * round every entrant who played the same game of the same round (same dice stream); at tables,
 * the others at the table.
 *
 * Order: duplicate: total score, then match points; tables: match points, then total score;
 * then (both) the best single game. Entrants equal on all of these share a rank (standard
 * competition ranking: 1, 1, 3; `tied` is set on each of them) and are listed by entrant number.
 * Equal totals are a tie, as the brief reports them: registration order breaks no tie.
 * Disqualified entrants come last (ranked after everyone else, in the same way among themselves).
 */
import type { EntrantStatus, GameResult, TournamentState } from './types';

export interface StandingRound {
  round: number;
  /** Sum of the entrant's game totals in the round. */
  score: number;
  matchPoints: number;
  games: number;
}

export interface StandingRow {
  /** 1 + the number of entrants ranked strictly ahead (equal entrants share it). */
  rank: number;
  /** Another entrant has the same rank. */
  tied: boolean;
  entrant: number;
  playerId: string;
  status: EntrantStatus;
  totalScore: number;
  matchPoints: number;
  bestGame: number;
  gamesPlayed: number;
  rounds: StandingRound[];
}

/**
 * `live`: current totals of games that have not ended yet (counted like results). The service
 * passes none for a duplicate round in progress (its scores are secret until the round ends).
 */
export function computeStandings(state: TournamentState, live: readonly GameResult[] = []): StandingRow[] {
  const rows = new Map<number, StandingRow>();
  for (const e of state.entrants) {
    rows.set(e.number, {
      rank: 0,
      tied: false,
      entrant: e.number,
      playerId: e.playerId,
      status: e.status,
      totalScore: 0,
      matchPoints: 0,
      bestGame: 0,
      gamesPlayed: 0,
      rounds: [],
    });
  }
  const liveById = new Map(live.map((r) => [r.gameId, r]));
  for (const round of state.roundStates) {
    const results = new Map((round.finished ? round.results : []).map((r) => [r.gameId, r]));
    // Who is compared with whom: one group per game index (duplicate) or per game (tables).
    const groups = new Map<string, Array<{ entrant: number; score: number }>>();
    for (const g of round.games) {
      const result = results.get(g.gameId) ?? liveById.get(g.gameId);
      if (!result) continue;
      g.entrants.forEach((entrant, seat) => {
        const score = result.scores[seat] ?? 0;
        const key = state.format === 'duplicate' ? `game:${g.game}` : g.gameId;
        if (!groups.has(key)) groups.set(key, []);
        groups.get(key)!.push({ entrant, score });
        const row = rows.get(entrant);
        if (!row) return;
        let rr = row.rounds.find((x) => x.round === round.round);
        if (!rr) row.rounds.push((rr = { round: round.round, score: 0, matchPoints: 0, games: 0 }));
        rr.score += score;
        rr.games += 1;
        row.totalScore += score;
        row.gamesPlayed += 1;
        row.bestGame = Math.max(row.bestGame, score);
      });
    }
    for (const group of groups.values()) {
      for (const a of group) {
        let mp = 0;
        for (const b of group) if (a !== b) mp += a.score > b.score ? 2 : a.score === b.score ? 1 : 0;
        const row = rows.get(a.entrant);
        if (!row) continue;
        row.matchPoints += mp;
        row.rounds.find((x) => x.round === round.round)!.matchPoints += mp;
      }
    }
  }
  const primary = (r: StandingRow) =>
    state.format === 'duplicate' ? [r.totalScore, r.matchPoints] : [r.matchPoints, r.totalScore];
  /** Negative when a ranks ahead of b, 0 when they are equal (a tie). */
  const ahead = (a: StandingRow, b: StandingRow) => {
    const dq = Number(a.status === 'disqualified') - Number(b.status === 'disqualified');
    if (dq !== 0) return dq;
    const ka = [...primary(a), a.bestGame];
    const kb = [...primary(b), b.bestGame];
    for (let i = 0; i < ka.length; i++) if (ka[i] !== kb[i]) return kb[i] - ka[i];
    return 0;
  };
  const sorted = [...rows.values()].sort((a, b) => ahead(a, b) || a.entrant - b.entrant);
  sorted.forEach((r, i) => {
    const previous = sorted[i - 1];
    r.rank = previous && ahead(previous, r) === 0 ? previous.rank : i + 1;
    if (previous && previous.rank === r.rank) previous.tied = r.tied = true;
  });
  return sorted;
}
