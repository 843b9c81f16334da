import { DomainException } from '../common/errors';
import { cursorPage, decodeCursor, fromMicros, micros, type CursorPage } from '../common/pagination/cursor';
import type { PageRequest } from '../common/pagination/page-request';
import { isRuleSetName } from '@fairdice/core/rules/registry';

/** One line of a solo leaderboard: a player's best qualifying solo score in the rule set. */
export interface SoloLeaderboardEntry {
  rank: number;
  playerId: string;
  displayName: string;
  score: number;
  gameId: string;
  finishedAt: Date;
}

/**
 * Event reasons that mark a move the service chose instead of the player: `timeout` (the turn ran
 * out of time) today; `computer` (a computer seat) and `autoScore` (five dice: the box chosen when
 * the player did not score in time) once computer seats land (branch `computer`). Listed ahead so
 * that such games never count, whichever lands first.
 */
export const COMPUTER_MOVE_REASONS = ['timeout', 'computer', 'autoScore'] as const;

interface Row {
  player_id: string;
  display_name: string;
  game_id: string;
  score: number;
  finished_at: Date;
  finished_micros: string;
  rank: string;
}

type Query = (sql: string, params: unknown[]) => Promise<{ rows: unknown[] }>;

/**
 * Best solo scores of a rule set, one line per player (decision 0061). A game qualifies when it is
 * public, has one seat, finished (not abandoned), was created with advice forbidden, and no move
 * in it was made by the computer (no event with a reason of COMPUTER_MOVE_REASONS). A player's line is their best
 * qualifying score, the earliest reached when several are equal. Ordered by score (high first),
 * then the earlier finish, then the game id: keys that never change once a game is finished, so
 * paging by cursor neither skips nor repeats a line (a new best moves a player's line, as on any
 * live leaderboard). rank: standard competition ranking by score (equal scores share a rank).
 */
export async function soloLeaderboard(
  query: Query,
  ruleSet: string,
  page: PageRequest,
): Promise<CursorPage<SoloLeaderboardEntry>> {
  if (!isRuleSetName(ruleSet))
    throw new DomainException('RULE_SET_NOT_FOUND', `No rule set named "${ruleSet}"; see GET /v1/rule-sets`);
  const list = `leaderboard:solo:${ruleSet}`;
  const after = page.cursor === undefined ? null : decodeCursor(page.cursor, list, ['int', 'int', 'uuid']);
  const result = await query(
    `WITH qualifying AS (
       SELECT s.player_id, g.id AS game_id, (g.standings->0->>'total')::int AS score, g.finished_at
         FROM games g
         JOIN game_seats s ON s.game_id = g.id AND s.seat = 0
        WHERE g.rule_set = $1 AND g.status = 'finished' AND g.seat_count = 1 AND g.visibility = 'public'
          AND g.finished_at IS NOT NULL AND s.player_id IS NOT NULL
          AND EXISTS (SELECT 1 FROM game_events e
                       WHERE e.game_id = g.id AND e.version = 1 AND e.payload->'data'->>'advice' = 'forbidden')
          AND NOT EXISTS (SELECT 1 FROM game_events e
                           WHERE e.game_id = g.id AND e.payload->'data'->>'reason' = ANY($6::text[]))),
     best AS (
       SELECT DISTINCT ON (player_id) player_id, game_id, score, finished_at
         FROM qualifying
        ORDER BY player_id, score DESC, finished_at ASC, game_id ASC),
     ranked AS (
       SELECT b.*, rank() OVER (ORDER BY b.score DESC) AS rank FROM best b)
     SELECT r.player_id, p.display_name, r.game_id, r.score, r.finished_at,
            ${micros('r.finished_at')} AS finished_micros, r.rank
       FROM ranked r JOIN players p ON p.id = r.player_id
      WHERE $2::int IS NULL
         OR r.score < $2::int
         OR (r.score = $2::int AND r.finished_at > ${fromMicros('$3')})
         OR (r.score = $2::int AND r.finished_at = ${fromMicros('$3')} AND r.game_id > $4::uuid)
      ORDER BY r.score DESC, r.finished_at ASC, r.game_id ASC
      LIMIT $5`,
    [ruleSet, after?.[0] ?? null, after?.[1] ?? null, after?.[2] ?? null, page.limit + 1, [...COMPUTER_MOVE_REASONS]],
  );
  const rows = result.rows as Row[];
  return cursorPage(
    rows,
    page.limit,
    list,
    (r) => [r.score, Number(r.finished_micros), r.game_id],
    (r) => ({
      rank: Number(r.rank),
      playerId: r.player_id,
      displayName: r.display_name,
      score: r.score,
      gameId: r.game_id,
      finishedAt: r.finished_at,
    }),
  );
}
