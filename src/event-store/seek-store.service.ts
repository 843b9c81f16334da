/**
 * The seek event store (docs/matchmaking.md): seek_events is a seek's own append-only stream with
 * the expected-version rule of the other aggregates: ONE statement upserts `seeks` WHERE version
 * = expected and inserts the events from the written row; another writer first → VERSION_CONFLICT,
 * nothing stored. The row keeps what the lobby and the matchmaker read (spec, status, game) in
 * step with the events. Not hash-chained: a seek carries no dice; the game it makes is the record.
 */
import { Inject, Injectable } from '@nestjs/common';
import { Pool } from 'pg';
import { DomainException } from '../common/errors';
import { PG_POOL } from '../database/pg-pool';
import { dbOr } from '../database/unit-of-work';
import { emptySeek, evolveSeek, type SeekCommand, type SeekEvent, type SeekState } from '@fairdice/core/rules/seek';
import { UUID_PATTERN as UUID } from '@fairdice/core/fairness/ids';

export interface LoadedSeek {
  state: SeekState;
  /** When the seek was created (its waiting time counts from here); null before it exists. */
  createdAt: Date | null;
}

const conflict = () => new DomainException('VERSION_CONFLICT', 'The seek changed meanwhile; retry');

@Injectable()
export class SeekStore {
  constructor(@Inject(PG_POOL) private readonly pool: Pool) {}

  /** The seek, or null when there is none. */
  async load(seekId: string): Promise<LoadedSeek | null> {
    if (!UUID.test(seekId)) throw new Error('seek store: not a UUID');
    const db = dbOr(this.pool);
    const row = await db.query<{ created_at: Date }>('SELECT created_at FROM seeks WHERE id = $1', [seekId]);
    if (row.rows.length === 0) return null;
    const ev = await db.query<{ type: SeekEvent['type']; payload: { data: unknown } }>(
      'SELECT type, payload FROM seek_events WHERE seek_id = $1 ORDER BY version',
      [seekId],
    );
    const state = ev.rows.reduce(
      (s: SeekState, e) => evolveSeek(s, { type: e.type, data: e.payload.data } as SeekEvent),
      emptySeek(seekId),
    );
    return { state, createdAt: row.rows[0].created_at };
  }

  /** A seek not created yet (version 0). */
  fresh(seekId: string): LoadedSeek {
    return { state: emptySeek(seekId), createdAt: null };
  }

  /** Appends `events` decided on `loaded` at its version (VERSION_CONFLICT when it moved on). */
  async append(loaded: LoadedSeek, events: readonly SeekEvent[], command: SeekCommand): Promise<LoadedSeek> {
    if (events.length === 0) return loaded;
    const state = events.reduce(evolveSeek, loaded.state);
    const from = loaded.state.version;
    const records = events.map((e, i) => ({
      version: from + i + 1,
      type: e.type,
      payload: { data: e.data, command: i === 0 ? command : null },
    }));
    const spec = state.spec!;
    let res;
    try {
      res = await dbOr(this.pool).query<{ id: string; created_at: Date }>(
        `WITH s AS (
           INSERT INTO seeks (id, player_id, pool, seats, rated, rating_min, rating_max, turn_time_limit_seconds,
                              status, game_id, version)
           VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)
           ON CONFLICT (id) DO UPDATE SET status = EXCLUDED.status, game_id = EXCLUDED.game_id,
                                          version = EXCLUDED.version, updated_at = now()
           WHERE seeks.version = $12
           RETURNING id, created_at),
         e AS (
           INSERT INTO seek_events (seek_id, version, type, payload)
           SELECT s.id, x.version, x.type, x.payload
             FROM s, jsonb_to_recordset($13::jsonb) AS x(version int, type text, payload jsonb))
         SELECT id, created_at FROM s`,
        [
          state.id,
          state.playerId,
          spec.pool,
          spec.seats,
          spec.rated,
          spec.ratingMin,
          spec.ratingMax,
          spec.turnTimeLimitSeconds,
          state.status,
          state.gameId,
          state.version,
          from,
          JSON.stringify(records),
        ],
      );
    } catch (err) {
      if ((err as { code?: string }).code === '23505') throw conflict();
      throw err;
    }
    if (res.rows.length === 0) throw conflict();
    return { state, createdAt: res.rows[0].created_at };
  }
}
