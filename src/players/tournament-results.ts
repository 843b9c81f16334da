import { computeStandings, replayTournament, type TournamentEvent } from '@fairdice/core/rules/tournament';

/** A player's place in one finished tournament (public profile, decision 0063). */
export interface TournamentResult {
  tournamentId: string;
  name: string;
  ruleSet: string;
  format: string;
  /** Rank in the final standings (docs/tournaments.md §4: the system and its tie-breaks). */
  rank: number;
  /** Another entrant has the same rank. */
  tied: boolean;
  /** How many entrants the standings rank. */
  entrants: number;
  totalScore: number;
  matchPoints: number;
  /** active, withdrawn or disqualified: how the player ended the tournament. */
  status: string;
  finishedAt: Date;
}

/** How many tournaments a profile lists (the most recent first). */
export const PROFILE_TOURNAMENTS = 20;

type Query = (sql: string, params: unknown[]) => Promise<{ rows: unknown[] }>;

/**
 * The player's results in the public tournaments they entered that have finished, most recently
 * finished first, at most PROFILE_TOURNAMENTS. The standings are recomputed from each
 * tournament's events (the same pure replay as GET /v1/tournaments/{id}/standings); private
 * tournaments are left out of a public profile.
 */
export async function tournamentResults(query: Query, playerId: string): Promise<TournamentResult[]> {
  const { rows } = await query(
    `SELECT t.id, t.name, t.rule_set, t.format, t.updated_at
       FROM tournaments t
      WHERE t.status = 'finished' AND t.visibility = 'public'
        AND EXISTS (SELECT 1 FROM tournament_events e
                     WHERE e.tournament_id = t.id AND e.type = 'entrantRegistered'
                       AND e.payload->'data'->>'playerId' = $1)
      ORDER BY t.updated_at DESC, t.id DESC
      LIMIT $2`,
    [playerId, PROFILE_TOURNAMENTS],
  );
  const results: TournamentResult[] = [];
  for (const t of rows as Array<{ id: string; name: string; rule_set: string; format: string; updated_at: Date }>) {
    const events = await query(
      `SELECT type, payload FROM tournament_events WHERE tournament_id = $1 ORDER BY version`,
      [t.id],
    );
    const state = replayTournament(
      t.id,
      (events.rows as Array<{ type: string; payload: { data: Record<string, unknown> } }>).map(
        (e) => ({ type: e.type, data: e.payload.data }) as TournamentEvent,
      ),
    );
    const standings = computeStandings(state);
    const mine = standings.find((r) => r.playerId === playerId);
    if (!mine) continue;
    results.push({
      tournamentId: t.id,
      name: t.name,
      ruleSet: t.rule_set,
      format: t.format,
      rank: mine.rank,
      tied: mine.tied,
      entrants: standings.length,
      totalScore: mine.totalScore,
      matchPoints: mine.matchPoints,
      status: mine.status,
      finishedAt: t.updated_at,
    });
  }
  return results;
}
