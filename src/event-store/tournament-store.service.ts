/**
 * The tournament event store: tournament_events is the tournament's own append-only stream,
 * hash-chained like a game's (@fairdice/core/fairness/hash-chain; the stream id goes in the
 * envelope's `gameId` field, seat and rollNumber are null, the first prev_hash is the
 * tournament's commitment) with the same expected-version rule: ONE statement updates
 * `tournaments` WHERE version = expected and inserts the events from the updated row; another
 * writer first → VERSION_CONFLICT, nothing stored. Jobs the command schedules (scheduled start)
 * are upserted by the same statement. No cache: tournaments see few commands.
 */
import { Inject, Injectable } from '@nestjs/common';
import { Pool } from 'pg';
import { DomainException } from '../common/errors';
import { PG_POOL } from '../database/pg-pool';
import { dbOr } from '../database/unit-of-work';
import { SeedVault } from '../keys/seed-vault';
import { appendEvent, type HashedEventEnvelope } from '@fairdice/core/fairness/hash-chain';
import { NODE_HASHES } from '../fairness/node-hashes';
import {
  evolveTournament,
  emptyTournament,
  type TournamentCommand,
  type TournamentEvent,
  type TournamentState,
} from '@fairdice/core/rules/tournament';
import type { ScheduledJob } from './event-store.types';
import { UUID_PATTERN as UUID } from '@fairdice/core/fairness/ids';

export interface StoredTournamentEvent extends HashedEventEnvelope {
  createdAt: Date;
}

export interface TournamentRow {
  id: string;
  organizerId: string;
  /** hex, secret until the tournament ends. */
  tournamentSeed: string;
  commitment: string;
  createdAt: Date;
  updatedAt: Date;
}

export interface LoadedTournament {
  row: TournamentRow;
  state: TournamentState;
  head: string;
  events: StoredTournamentEvent[];
}

const conflict = () =>
  new DomainException('VERSION_CONFLICT', 'The tournament changed meanwhile; reload it and try again');

/** The seed vault seals per id; tournament seeds use their own label so a game id can never open one. */
const vaultId = (id: string) => `tournament:${id}`;

@Injectable()
export class TournamentStore {
  constructor(
    @Inject(PG_POOL) private readonly pool: Pool,
    private readonly vault: SeedVault,
  ) {}

  private chain(
    id: string,
    head: string,
    from: number,
    events: readonly TournamentEvent[],
    command: TournamentCommand,
  ): StoredTournamentEvent[] {
    let prev = head;
    return events.map((e, i) => {
      const env = appendEvent(
        prev,
        {
          gameId: id,
          version: from + i + 1,
          type: e.type,
          seat: null,
          data: e.data,
          rollNumber: null,
          command: i === 0 ? command : null,
        },
        NODE_HASHES,
      );
      prev = env.hash;
      return { ...env, createdAt: new Date() };
    });
  }

  async create(
    input: { id: string; organizerId: string; tournamentSeed: string; commitment: string },
    events: readonly TournamentEvent[],
    command: TournamentCommand,
    state: TournamentState,
    jobs: readonly ScheduledJob[] = [],
  ): Promise<LoadedTournament> {
    const stored = this.chain(input.id, input.commitment, 0, events, command);
    const { rows } = await dbOr(this.pool).query(
      `WITH t AS (
         INSERT INTO tournaments (id, organizer_id, name, rule_set, format, visibility, status, version,
                                  tournament_seed, commitment, created_at, updated_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, now(), now())
         RETURNING id, created_at, updated_at),
       e AS (${insertEventsSql('t', 11)}),
       jb AS (${upsertJobsSql('t', 12)})
       SELECT created_at, updated_at FROM t`,
      [
        input.id,
        input.organizerId,
        state.name,
        state.ruleSet,
        state.format,
        state.visibility,
        state.status,
        state.version,
        this.vault.seal(vaultId(input.id), input.tournamentSeed),
        input.commitment,
        JSON.stringify(stored.map(toRecord)),
        jobsJson(jobs),
      ],
    );
    return {
      row: { ...input, createdAt: rows[0].created_at, updatedAt: rows[0].updated_at },
      state,
      head: stored[stored.length - 1].hash,
      events: stored,
    };
  }

  async load(id: string): Promise<LoadedTournament | null> {
    if (!UUID.test(id)) throw new Error('tournament store: not a UUID');
    const db = dbOr(this.pool);
    const t = await db.query(
      `SELECT id, organizer_id, tournament_seed, commitment, created_at, updated_at FROM tournaments WHERE id = $1`,
      [id],
    );
    if (t.rows.length === 0) return null;
    const ev = await db.query(
      `SELECT version, type, payload, prev_hash, hash, created_at FROM tournament_events
        WHERE tournament_id = $1 ORDER BY version`,
      [id],
    );
    const events = ev.rows.map((e) => fromRow(id, e));
    const r = t.rows[0];
    const state = events.reduce(
      (s: TournamentState, e) => evolveTournament(s, { type: e.type as TournamentEvent['type'], data: e.data }),
      emptyTournament(id),
    );
    return {
      row: {
        id,
        organizerId: r.organizer_id,
        tournamentSeed: this.vault.open(vaultId(id), r.tournament_seed),
        commitment: r.commitment,
        createdAt: r.created_at,
        updatedAt: r.updated_at,
      },
      state,
      head: events.length ? events[events.length - 1].hash : r.commitment,
      events,
    };
  }

  /** Appends `events` decided on `loaded` (expected version = loaded.state.version). VERSION_CONFLICT when it moved on. */
  async append(
    loaded: LoadedTournament,
    events: readonly TournamentEvent[],
    command: TournamentCommand,
    jobs: readonly ScheduledJob[] = [],
  ): Promise<LoadedTournament> {
    const id = loaded.row.id;
    const stored = this.chain(id, loaded.head, loaded.state.version, events, command);
    const state = events.reduce(evolveTournament, loaded.state);
    let res;
    try {
      res = await dbOr(this.pool).query(
        `WITH t AS (
           UPDATE tournaments SET version = $3, status = $4, updated_at = now()
            WHERE id = $1 AND version = $2
           RETURNING id, updated_at),
         e AS (${insertEventsSql('t', 5)}),
         jb AS (${upsertJobsSql('t', 6)})
         SELECT updated_at FROM t`,
        [id, loaded.state.version, state.version, state.status, JSON.stringify(stored.map(toRecord)), jobsJson(jobs)],
      );
    } catch (err) {
      if ((err as { code?: string }).code === '23505') throw conflict();
      throw err;
    }
    if (res.rows.length === 0) throw conflict();
    return {
      row: { ...loaded.row, updatedAt: res.rows[0].updated_at },
      state,
      head: stored.length ? stored[stored.length - 1].hash : loaded.head,
      events: [...loaded.events, ...stored],
    };
  }

  /** Tournaments anyone may see (public), or the caller organizes or entered; newest first. */
  async list(
    viewerId: string | null,
    limit: number,
    after: { createdMicros: number; id: string } | null,
  ): Promise<Array<{ id: string; createdMicros: number }>> {
    const values: unknown[] = [viewerId, limit];
    const keyset = after ? `AND (t.created_at, t.id) < (to_timestamp($3::float8 / 1000000), $4::uuid)` : '';
    if (after) values.push(after.createdMicros, after.id);
    const { rows } = await this.pool.query(
      `SELECT t.id, (extract(epoch FROM t.created_at) * 1000000)::bigint AS micros FROM tournaments t
        WHERE (t.visibility = 'public' OR t.organizer_id = $1::uuid OR EXISTS (
               SELECT 1 FROM tournament_events e WHERE e.tournament_id = t.id AND e.type = 'entrantRegistered'
                  AND e.payload -> 'data' ->> 'playerId' = $1::text)) ${keyset}
        ORDER BY t.created_at DESC, t.id DESC LIMIT $2`,
      values,
    );
    return rows.map((r) => ({ id: r.id, createdMicros: Number(r.micros) }));
  }

  /** The games of a round with their read-model status and standings (live standings). */
  async roundGames(
    tournamentId: string,
    round: number,
  ): Promise<Array<{ id: string; status: string; standings: Array<{ seat: number; total: number }> | null }>> {
    const { rows } = await dbOr(this.pool).query(
      `SELECT id, status, standings FROM games WHERE tournament_id = $1 AND tournament_round = $2`,
      [tournamentId, round],
    );
    return rows.map((r) => ({ id: r.id, status: r.status, standings: r.standings }));
  }

  /** Every game of the round ended: their seeds (the round seed, in duplicate rounds) may be shown. */
  async unsealRound(tournamentId: string, round: number): Promise<void> {
    await dbOr(this.pool).query(
      `UPDATE games SET seed_sealed = false WHERE tournament_id = $1 AND tournament_round = $2 AND seed_sealed`,
      [tournamentId, round],
    );
  }
}

function toRecord(e: StoredTournamentEvent) {
  return {
    version: e.version,
    type: e.type,
    payload: { data: e.data, command: e.command },
    prev_hash: e.prevHash,
    hash: e.hash,
  };
}

/** A tournament_events row as `load` selects it. */
interface TournamentEventDbRow {
  version: number;
  type: StoredTournamentEvent['type'];
  payload: { data: StoredTournamentEvent['data']; command?: StoredTournamentEvent['command'] };
  prev_hash: string;
  hash: string;
  created_at: Date | string;
}

function fromRow(id: string, e: TournamentEventDbRow): StoredTournamentEvent {
  return {
    gameId: id,
    version: e.version,
    type: e.type,
    seat: null,
    data: e.payload.data,
    rollNumber: null,
    command: e.payload.command ?? null,
    prevHash: e.prev_hash,
    hash: e.hash,
    createdAt: new Date(e.created_at),
  };
}

const insertEventsSql = (from: string, param: number) => `
  INSERT INTO tournament_events (tournament_id, version, type, payload, prev_hash, hash)
  SELECT ${from}.id, x.version, x.type, x.payload, x.prev_hash, x.hash
    FROM ${from}, jsonb_to_recordset($${param}::jsonb) AS x(version int, type text, payload jsonb, prev_hash text, hash text)`;

const upsertJobsSql = (from: string, param: number) => `
  INSERT INTO async_jobs (queue, key, payload, run_at)
  SELECT x.queue, x.key, x.payload, now() + x.delay_ms * interval '1 millisecond'
    FROM ${from}, jsonb_to_recordset($${param}::jsonb) AS x(queue text, key text, payload jsonb, delay_ms float8)
  ON CONFLICT (key) DO UPDATE
    SET queue = EXCLUDED.queue, payload = EXCLUDED.payload, run_at = EXCLUDED.run_at, attempts = 0,
        revision = async_jobs.revision + 1, locked_by = NULL, last_error = NULL, updated_at = now()`;

const jobsJson = (jobs: readonly ScheduledJob[]) =>
  JSON.stringify(jobs.map((j) => ({ queue: j.queue, key: j.key, payload: j.payload, delay_ms: j.delayMs })));
