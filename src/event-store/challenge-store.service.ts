/**
 * The challenge event store (docs/challenges.md): challenge_events is the challenge's own
 * append-only stream with the expected-version rule of the other aggregates: ONE statement writes
 * `challenges` (inserted by the creation; updated WHERE version = expected by later commands) and
 * inserts the events from the written row, with the command's jobs (the expiry sweep, the players'
 * notices: player-notices.ts). Another writer first → VERSION_CONFLICT, nothing stored. Not
 * hash-chained: a challenge carries no dice (the game it starts is chained and verifiable). No
 * cache: challenges see a handful of commands each.
 */
import { Inject, Injectable } from '@nestjs/common';
import { Pool } from 'pg';
import { DomainException } from '../common/errors';
import { PG_POOL } from '../database/pg-pool';
import { dbOr } from '../database/unit-of-work';
import {
  emptyChallenge,
  evolveChallenge,
  type ChallengeCommand,
  type ChallengeEvent,
  type ChallengeState,
} from '@fairdice/core/rules/challenge';
import { UUID_PATTERN as UUID } from '@fairdice/core/fairness/ids';
import type { ScheduledJob } from './event-store.types';

export interface LoadedChallenge {
  state: ChallengeState;
}

const conflict = () => new DomainException('VERSION_CONFLICT', 'The challenge changed meanwhile; reload it and retry');

const JOBS_SQL = (param: number) => `
  INSERT INTO async_jobs (queue, key, payload, run_at)
  SELECT x.queue, x.key, x.payload, now() + x.delay_ms * interval '1 millisecond'
    FROM c, jsonb_to_recordset($${param}::jsonb) AS x(queue text, key text, payload jsonb, delay_ms float8)
  ON CONFLICT (key) DO UPDATE
    SET queue = EXCLUDED.queue, payload = EXCLUDED.payload, run_at = EXCLUDED.run_at, attempts = 0,
        revision = async_jobs.revision + 1, locked_by = NULL, last_error = NULL, updated_at = now()`;

const EVENTS_SQL = (param: number) => `
  INSERT INTO challenge_events (challenge_id, version, type, payload)
  SELECT c.id, x.version, x.type, x.payload
    FROM c, jsonb_to_recordset($${param}::jsonb) AS x(version int, type text, payload jsonb)`;

@Injectable()
export class ChallengeStore {
  constructor(@Inject(PG_POOL) private readonly pool: Pool) {}

  /** The challenge, or null when there is none with this id (or the id is not a UUID). */
  async load(id: string): Promise<LoadedChallenge | null> {
    if (!UUID.test(id)) return null;
    const { rows } = await dbOr(this.pool).query<{ type: ChallengeEvent['type']; payload: { data: unknown } }>(
      'SELECT type, payload FROM challenge_events WHERE challenge_id = $1 ORDER BY version',
      [id],
    );
    if (rows.length === 0) return null;
    const state = rows.reduce(
      (s: ChallengeState, e) => evolveChallenge(s, { type: e.type, data: e.payload.data } as ChallengeEvent),
      emptyChallenge(id),
    );
    return { state };
  }

  /**
   * Appends `events` decided on `loaded` at its version (0: the creation inserts the row), with
   * `jobs` in the same statement. VERSION_CONFLICT when the challenge moved on.
   */
  async append(
    loaded: LoadedChallenge,
    events: readonly ChallengeEvent[],
    command: ChallengeCommand,
    jobs: readonly ScheduledJob[],
  ): Promise<LoadedChallenge> {
    if (events.length === 0) return loaded;
    const state = events.reduce(evolveChallenge, loaded.state);
    const from = loaded.state.version;
    const records = JSON.stringify(
      events.map((e, i) => ({
        version: from + i + 1,
        type: e.type,
        payload: { data: e.data, command: i === 0 ? command : null },
      })),
    );
    const jobRows = JSON.stringify(
      jobs.map((j) => ({ queue: j.queue, key: j.key, payload: j.payload, delay_ms: j.delayMs })),
    );
    // $1 the events, $2 the jobs; then the row's columns.
    const [write, values] =
      from === 0
        ? [
            `INSERT INTO challenges (id, challenger_id, opponent_id, status, version, pool, rated,
                                     turn_time_limit_seconds, expires_at)
             VALUES ($3, $4, $5, $6, $7, $8, $9, $10, $11)
             ON CONFLICT (id) DO NOTHING
             RETURNING id`,
            [
              state.id,
              state.challengerId,
              state.opponentId,
              state.status,
              state.version,
              state.pool,
              state.rated,
              state.turnTimeLimitSeconds,
              state.expiresAt,
            ],
          ]
        : [
            `UPDATE challenges SET status = $5, version = $6, accepted_by = $7, game_id = $8, updated_at = now()
              WHERE id = $3 AND version = $4
             RETURNING id`,
            [state.id, from, state.status, state.version, state.acceptedBy, state.gameId],
          ];
    let res;
    try {
      res = await dbOr(this.pool).query(
        `WITH c AS (${write}), e AS (${EVENTS_SQL(1)}), jb AS (${JOBS_SQL(2)}) SELECT id FROM c`,
        [records, jobRows, ...values],
      );
    } catch (err) {
      if ((err as { code?: string }).code === '23505') throw conflict();
      throw err;
    }
    if (res.rows.length === 0) throw conflict();
    return { state };
  }
}
