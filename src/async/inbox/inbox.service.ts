import { Inject, Injectable } from '@nestjs/common';
import { Pool } from 'pg';
import { PG_POOL } from '../../database/pg-pool';
import { cursorPage, decodeCursor, fromMicros, micros, type CursorPage } from '../../common/pagination/cursor';
import type { PageRequest } from '../../common/pagination/page-request';
import type { InboxItem } from './dto/inbox.dto';

/** A page of the inbox, plus the deprecated offset of the next page (offset paging only). */
export type InboxListPage = CursorPage<InboxItem> & { nextOffset: number | null };

const LIST = 'inbox';

/**
 * My inbox: the games waiting for my move (status playing, games.current_player_id = me), the
 * nearest deadline first, then games without a limit, oldest change first (ORDER BY
 * turn_deadline ASC NULLS LAST, updated_at ASC, id ASC). Read model only (index
 * games(current_player_id, status)).
 *
 * Paging (decision 0026): the order is by urgency, and urgency changes with every move, so a
 * cursor cannot promise a fixed list. It promises: within one pass (a first page, then its
 * cursors) no game is shown twice, and every game that waits on me unchanged for the whole pass
 * is shown exactly once, in order. The cursor carries the time of the first page (`asOf`) and
 * the key of the last game shown; later pages leave out games changed after `asOf` (they have a
 * new turn, so a fresh first page shows them).
 */
@Injectable()
export class InboxService {
  constructor(@Inject(PG_POOL) private readonly pool: Pool) {}

  async inbox(playerId: string, page: PageRequest): Promise<InboxListPage> {
    const values: unknown[] = [playerId];
    const p = (v: unknown) => `$${values.push(v)}`;
    let asOf: string;
    let keyset = '';
    if (page.cursor !== undefined) {
      const [asOfMicros, deadline, updated, id] = decodeCursor(page.cursor, LIST, ['int', 'int?', 'int', 'uuid']);
      asOf = fromMicros(p(asOfMicros));
      const u = fromMicros(p(updated));
      const i = `${p(id)}::uuid`;
      // After (deadline, updated, id) in ORDER BY turn_deadline ASC NULLS LAST, updated_at, id.
      if (deadline === null) {
        keyset = ` AND turn_deadline IS NULL AND (updated_at, id) > (${u}, ${i})`;
      } else {
        const d = fromMicros(p(deadline));
        keyset = ` AND (turn_deadline IS NULL OR turn_deadline > ${d} OR (turn_deadline = ${d} AND (updated_at, id) > (${u}, ${i})))`;
      }
      keyset += ` AND updated_at <= ${asOf}`;
    } else {
      asOf = 'now()';
    }
    const { rows } = await this.pool.query(
      `SELECT id, rule_set, family, version, current_seat, seat_count, turn_time_limit_seconds, turn_deadline, updated_at,
              ${micros('turn_deadline')} AS deadline_micros, ${micros('updated_at')} AS updated_micros,
              ${micros(asOf)} AS as_of_micros
         FROM games
        WHERE current_player_id = $1 AND status = 'playing'${keyset}
        ORDER BY turn_deadline ASC NULLS LAST, updated_at ASC, id
        LIMIT ${p(page.limit + 1)} OFFSET ${p(page.offset ?? 0)}`,
      values,
    );
    const result = cursorPage(
      rows,
      page.limit,
      LIST,
      (r) => [
        Number(r.as_of_micros),
        r.deadline_micros === null ? null : Number(r.deadline_micros),
        Number(r.updated_micros),
        r.id,
      ],
      (r): InboxItem => ({
        gameId: r.id,
        ruleSet: r.rule_set,
        family: r.family,
        version: r.version,
        seat: r.current_seat,
        seatCount: r.seat_count,
        turnTimeLimitSeconds: r.turn_time_limit_seconds,
        deadline: r.turn_deadline,
        updatedAt: r.updated_at,
      }),
    );
    const nextOffset = page.cursor === undefined && result.nextCursor !== null ? (page.offset ?? 0) + page.limit : null;
    return { ...result, nextOffset };
  }
}
