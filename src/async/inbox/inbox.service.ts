import { Inject, Injectable } from '@nestjs/common';
import { Pool } from 'pg';
import { PG_POOL } from '../../database/prisma.service';
import type { InboxPage } from './dto/inbox.dto';

/**
 * My inbox: the games waiting for my move (status playing, games.current_player_id = me), the
 * nearest deadline first, then games without a limit, oldest change first. Read model only
 * (index games(current_player_id, status)).
 */
@Injectable()
export class InboxService {
  constructor(@Inject(PG_POOL) private readonly pool: Pool) {}

  async inbox(playerId: string, limit = 20, offset = 0): Promise<InboxPage> {
    const { rows } = await this.pool.query(
      `SELECT id, rule_set, family, version, current_seat, seat_count, turn_time_limit_seconds, turn_deadline, updated_at
         FROM games
        WHERE current_player_id = $1 AND status = 'playing'
        ORDER BY turn_deadline ASC NULLS LAST, updated_at ASC, id
        LIMIT $2 OFFSET $3`,
      [playerId, limit + 1, offset],
    );
    return {
      items: rows.slice(0, limit).map((r) => ({
        gameId: r.id,
        ruleSet: r.rule_set,
        family: r.family,
        version: r.version,
        seat: r.current_seat,
        seatCount: r.seat_count,
        turnTimeLimitSeconds: r.turn_time_limit_seconds,
        deadline: r.turn_deadline,
        updatedAt: r.updated_at,
      })),
      nextOffset: rows.length > limit ? offset + limit : null,
    };
  }
}
