import { DomainException } from '../common/errors';
import { cursorPage, decodeCursor, type CursorPage } from '../common/pagination/cursor';
import type { PageRequest } from '../common/pagination/page-request';
import { isRuleSetName } from '@fairdice/core/rules/registry';
import { computeStandings, replayTournament, type TournamentEvent } from '@fairdice/core/rules/tournament';

/** One line of a rule set's tournament leaderboard: a player's record in its finished public tournaments. */
export interface TournamentLeaderboardEntry {
  rank: number;
  playerId: string;
  displayName: string;
  /** Finished tournaments ranked first in, alone (a shared first place is no win). */
  wins: number;
  /** Finished tournaments ranked first to third in. */
  podiums: number;
  tournamentsPlayed: number;
  bestRank: number;
}

type Query = (sql: string, params: unknown[]) => Promise<{ rows: unknown[] }>;

/**
 * Tournament results of a rule set, one line per player who entered one of its finished public
 * tournaments (decision 0061): wins, podiums, tournaments played, best rank, each tournament's
 * final standings recomputed from its events (the pure standings code). Ordered by wins, then
 * podiums, then tournaments played (all descending), then player id; rank is competition ranking
 * by (wins, podiums). The cursor holds that key; a tournament finishing meanwhile can move lines.
 */
export async function tournamentLeaderboard(
  query: Query,
  ruleSet: string,
  page: PageRequest,
): Promise<CursorPage<TournamentLeaderboardEntry>> {
  if (!isRuleSetName(ruleSet))
    throw new DomainException('RULE_SET_NOT_FOUND', `No rule set named "${ruleSet}"; see GET /v1/rule-sets`);
  const list = `leaderboard:tournaments:${ruleSet}`;
  const after = page.cursor === undefined ? null : decodeCursor(page.cursor, list, ['int', 'int', 'int', 'uuid']);
  const { rows } = await query(
    `SELECT e.tournament_id, e.type, e.payload
       FROM tournament_events e JOIN tournaments t ON t.id = e.tournament_id
      WHERE t.rule_set = $1 AND t.status = 'finished' AND t.visibility = 'public'
      ORDER BY e.tournament_id, e.version`,
    [ruleSet],
  );
  const byTournament = new Map<string, TournamentEvent[]>();
  for (const r of rows as Array<{ tournament_id: string; type: string; payload: { data: Record<string, unknown> } }>) {
    const list = byTournament.get(r.tournament_id) ?? [];
    list.push({ type: r.type, data: r.payload.data } as TournamentEvent);
    byTournament.set(r.tournament_id, list);
  }
  const lines = new Map<string, Omit<TournamentLeaderboardEntry, 'rank' | 'displayName'>>();
  for (const [id, events] of byTournament) {
    for (const row of computeStandings(replayTournament(id, events))) {
      const line = lines.get(row.playerId) ?? {
        playerId: row.playerId,
        wins: 0,
        podiums: 0,
        tournamentsPlayed: 0,
        bestRank: row.rank,
      };
      line.tournamentsPlayed++;
      // A shared first place is a tie, not a win (the brief reports equal totals as a tie).
      if (row.rank === 1 && !row.tied) line.wins++;
      if (row.rank <= 3) line.podiums++;
      line.bestRank = Math.min(line.bestRank, row.rank);
      lines.set(row.playerId, line);
    }
  }
  const key = (l: { wins: number; podiums: number; tournamentsPlayed: number; playerId: string }) =>
    [l.wins, l.podiums, l.tournamentsPlayed, l.playerId] as const;
  const before = (a: readonly [number, number, number, string], b: readonly [number, number, number, string]) =>
    a[0] !== b[0] ? a[0] > b[0] : a[1] !== b[1] ? a[1] > b[1] : a[2] !== b[2] ? a[2] > b[2] : a[3] < b[3];
  const sorted = [...lines.values()].sort((a, b) => (before(key(a), key(b)) ? -1 : 1));
  const ranked = sorted.map((l, i) => ({ ...l, rank: i + 1 }));
  for (let i = 1; i < ranked.length; i++)
    if (ranked[i].wins === ranked[i - 1].wins && ranked[i].podiums === ranked[i - 1].podiums)
      ranked[i].rank = ranked[i - 1].rank;
  const afterKey = after as [number, number, number, string] | null;
  const rest = afterKey === null ? ranked : ranked.filter((l) => before(afterKey, key(l)));
  const shown = rest.slice(0, page.limit + 1);
  const names = new Map<string, string>();
  if (shown.length > 0) {
    const { rows: players } = await query('SELECT id, display_name FROM players WHERE id = ANY($1::uuid[])', [
      shown.map((l) => l.playerId),
    ]);
    for (const p of players as Array<{ id: string; display_name: string }>) names.set(p.id, p.display_name);
  }
  return cursorPage(
    shown,
    page.limit,
    list,
    (l) => [...key(l)],
    (l) => ({
      rank: l.rank,
      playerId: l.playerId,
      displayName: names.get(l.playerId) ?? '',
      wins: l.wins,
      podiums: l.podiums,
      tournamentsPlayed: l.tournamentsPlayed,
      bestRank: l.bestRank,
    }),
  );
}
