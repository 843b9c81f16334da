/**
 * The group-commit statement (decision 0045): ONE SQL statement that writes the appends of several
 * games (events, games row, seats, jobs, transparency leaf, idempotent outcome) and checks each
 * game's expected version on its own. The batcher (append-batcher.ts) decides what goes in a batch;
 * the event store also runs it for a single append inside a transaction.
 *
 * - Per-game outcome: a game whose version moved on is left out by the statement itself (its
 *   UPDATE matches no row, so nothing of it is written).
 * - One NOTIFY per statement lists the games it wrote, delivered on commit.
 */
import { namedStatement } from '../database/prepared-statements';
import type { Queryable } from '../database/unit-of-work';
import { FANOUT_QUEUE } from './async-effects';
import { GAME_EVENTS_CHANNEL } from './event-store.types';

/** One command's append: the new events, read-model update and jobs of one game. */
export interface AppendItem {
  gameId: string;
  expected: number;
  version: number;
  status: string;
  currentSeat: number | null;
  currentPlayerId: string | null;
  standings: unknown;
  started: boolean;
  finished: boolean;
  deadlineSeconds: number | null;
  organizerSet: boolean;
  organizerSeed: string | null;
  /** Final chain head when this command ends the game (transparency leaf, jobs dropped). */
  ends: string | null;
  events: unknown[];
  seats: unknown[];
  jobs: unknown[];
  /** An idempotent command: its outcome record is written by the same statement. */
  idem?: IdempotentItem;
}

export interface IdempotentItem {
  playerId: string;
  key: string;
  hash: string;
  lockKey: string;
  ttlHours: number;
  okStatus: number;
  /** The stored outcome when the version moved on (VERSION_CONFLICT). */
  conflictStatus: number;
  conflictBody: unknown;
  /**
   * The success response, built from the transaction's now() (the statement's timestamps) before
   * the statement runs, since it is stored by it. Set on `response` by the batcher.
   */
  respond(now: Date): unknown;
  response?: unknown;
}

/** The games row's timestamps after a committed append. */
export interface Written {
  updatedAt: Date;
  startedAt: Date | null;
  finishedAt: Date | null;
}

export interface AppendOutcome {
  /** null: nothing of the command was written (version moved on, or its idempotency key is busy/used). */
  written: Written | null;
  /** Idempotent items: false when another request held the key's lock (nothing written). */
  locked: boolean;
  /** Idempotent items: the statement stored the command's outcome record. */
  recorded: boolean;
}

/**
 * Writes the appends of `items` (distinct games and idempotency keys) in ONE statement and returns
 * each one's outcome. An idempotent item's success response is built first, from the timestamp the
 * statement will use (one extra round trip, `SELECT now()`, only for batches with such items); an
 * item whose response cannot be built is left out (undefined, the error on idem.response).
 */
export async function writeAppends(
  db: Queryable,
  items: readonly AppendItem[],
): Promise<Array<AppendOutcome | undefined>> {
  let now: Date | null = null;
  if (items.some((it) => it.idem)) {
    const { rows } = await db.query<{ now: Date }>('SELECT now() AS now');
    now = rows[0].now;
  }
  const input: unknown[] = [];
  const out: Array<AppendOutcome | undefined> = items.map(() => undefined);
  items.forEach((it, n) => {
    let okBody: unknown = null;
    if (it.idem && now) {
      try {
        okBody = it.idem.response = it.idem.respond(now);
      } catch (err) {
        it.idem.response = err instanceof Error ? err : new Error(String(err));
        return;
      }
    }
    out[n] = { written: null, locked: true, recorded: false };
    input.push({
      item_no: n,
      game_id: it.gameId,
      expected: it.expected,
      version: it.version,
      status: it.status,
      current_seat: it.currentSeat,
      current_player_id: it.currentPlayerId,
      standings: it.standings,
      started: it.started,
      finished: it.finished,
      deadline_s: it.deadlineSeconds,
      org_set: it.organizerSet,
      org_seed: it.organizerSeed,
      ends: it.ends,
      events: it.events,
      seats: it.seats,
      jobs: it.jobs,
      ...(it.idem
        ? {
            idem_player: it.idem.playerId,
            idem_key: it.idem.key,
            idem_hash: it.idem.hash,
            idem_lock: it.idem.lockKey,
            idem_ttl: it.idem.ttlHours,
            ok_status: it.idem.okStatus,
            ok_body: okBody ?? null,
            err_status: it.idem.conflictStatus,
            err_body: it.idem.conflictBody,
          }
        : {}),
    });
  });
  if (input.length === 0) return out;
  const { rows } = await db.query<{
    item_no: number;
    written: boolean;
    locked: boolean;
    recorded: boolean;
    updated_at: Date;
    started_at: Date | null;
    finished_at: Date | null;
  }>(
    appendBatchStatement(db, [
      JSON.stringify(input),
      now,
      items.map((it) => it.gameId),
      items.flatMap((it) =>
        it.ends === null
          ? []
          : [`inactivity:${it.gameId}`, `deadline:${it.gameId}`, `computer:${it.gameId}`, `auto-score:${it.gameId}`],
      ),
    ]),
  );
  for (const r of rows)
    out[r.item_no] = {
      written: r.written ? { updatedAt: r.updated_at, startedAt: r.started_at, finishedAt: r.finished_at } : null,
      locked: r.locked,
      recorded: r.recorded,
    };
  return out;
}

/** NOTIFY payloads stay far below PostgreSQL's 8000-byte limit: 150 × '<uuid>:<version>,' ≤ 7,500 bytes. */
export const NOTIFY_ENTRIES = 150;

/**
 * The CTE body that writes jobs in a write statement: `from` yields the job rows as `x` (queue, key,
 * payload, delay_ms). A pending job with the same key is replaced (new run time, attempts reset,
 * revision bumped so a worker holding the old one cannot complete it).
 *
 * One row per key: commands of one batch may schedule the same job (two games of a tournament
 * round ending together both schedule `tournament-progress:<id>:<round>`), and INSERT … ON
 * CONFLICT DO UPDATE may not touch a row twice in one statement (SQLSTATE 21000, which failed the
 * whole batch). The jobs are merged: of the rows with one key, the last in `order` (the batch's
 * last command) is written, as if the commands had been written one after the other.
 */
export function upsertJobsSql(from: string, order = 'x.key'): string {
  return `
    INSERT INTO async_jobs (queue, key, payload, run_at)
    SELECT DISTINCT ON (x.key) x.queue, x.key, x.payload, now() + x.delay_ms * interval '1 millisecond'
      FROM ${from}
     -- A fan-out job only when some webhook can receive one of its notices (most commands have none).
     WHERE x.queue <> '${FANOUT_QUEUE}' OR EXISTS (
       SELECT 1 FROM jsonb_array_elements(x.payload -> 'notices') n
         CROSS JOIN jsonb_array_elements_text(n -> 'playerIds') p
         JOIN webhooks w ON w.player_id = p::uuid AND (n ->> 'type') = ANY (w.events))
     ORDER BY x.key, ${order}
    ON CONFLICT (key) DO UPDATE
      SET queue = EXCLUDED.queue, payload = EXCLUDED.payload, run_at = EXCLUDED.run_at, attempts = 0,
          revision = async_jobs.revision + 1, locked_by = NULL, last_error = NULL, updated_at = now()`;
}

const LEAF_TIMESTAMP = `(extract(epoch FROM clock_timestamp()) * 1000)::bigint`;
const JOB_COLUMNS = 'x(queue text, key text, payload jsonb, delay_ms float8)';

/**
 * One statement for a whole batch. `i` is the input (one row per game); `upd` updates each games row
 * only WHERE version = its expected version, and every other write joins `upd`, so a game whose
 * version moved on writes nothing. The NOTIFY (one per batch, split every NOTIFY_ENTRIES games) is
 * an InitPlan of the final SELECT: evaluated once, delivered on commit.
 */
const TS = `coalesce($2::timestamptz, now())`;

const APPEND_BATCH_SQL = `
WITH i AS (
  SELECT * FROM jsonb_to_recordset($1::jsonb) AS x(
    item_no int, game_id uuid, expected int, version int, status text, current_seat int, current_player_id uuid,
    standings jsonb, started boolean, finished boolean, deadline_s float8, org_set boolean, org_seed text,
    ends text, events jsonb, seats jsonb, jobs jsonb,
    idem_player uuid, idem_key text, idem_hash text, idem_lock bigint, idem_ttl int,
    ok_status int, ok_body jsonb, err_status int, err_body jsonb)),
-- Idempotent items: the key's advisory lock (as the transactional path takes it) and no live record.
-- Volatile, so materialized once per item.
-- (LATERAL … LIMIT 1: one primary-key probe per item, never a hash of the whole table.)
lk AS (
  SELECT i.item_no, pg_try_advisory_xact_lock(i.idem_lock) AND live.one IS NULL AS ok
    FROM i LEFT JOIN LATERAL (
      SELECT 1 AS one FROM idempotency_records r
       WHERE r.player_id = i.idem_player AND r.key = i.idem_key AND r.expires_at > now() LIMIT 1) live ON true
   WHERE i.idem_key IS NOT NULL),
upd AS (
  UPDATE games g SET version = i.version, status = i.status, current_seat = i.current_seat,
         current_player_id = i.current_player_id, standings = i.standings,
         started_at = CASE WHEN i.started THEN coalesce(g.started_at, ${TS}) ELSE g.started_at END,
         finished_at = CASE WHEN i.finished THEN coalesce(g.finished_at, ${TS}) ELSE g.finished_at END,
         turn_deadline = CASE WHEN i.deadline_s IS NULL THEN NULL ELSE ${TS} + i.deadline_s * interval '1 second' END,
         organizer_seed = CASE WHEN i.org_set THEN i.org_seed ELSE g.organizer_seed END,
         updated_at = ${TS}
    FROM i
   -- $3 (the batch's game ids) lets the planner probe the primary key whatever it estimates for i.
   WHERE g.id = ANY ($3::uuid[]) AND g.id = i.game_id AND g.version = i.expected
     AND (i.idem_key IS NULL OR EXISTS (SELECT 1 FROM lk WHERE lk.item_no = i.item_no AND lk.ok))
  RETURNING i.item_no, g.id, g.version, g.updated_at, g.started_at, g.finished_at),
ui AS (SELECT i.*, upd.id FROM upd JOIN i ON i.item_no = upd.item_no),
ev AS (
  INSERT INTO game_events (game_id, version, type, seat, payload, prev_hash, hash)
  SELECT ui.id, x.version, x.type, x.seat, x.payload, x.prev_hash, x.hash
    FROM ui CROSS JOIN LATERAL jsonb_to_recordset(ui.events)
      AS x(version int, type text, seat int, payload jsonb, prev_hash text, hash text)),
st AS (
  INSERT INTO game_seats (game_id, seat, player_id, hot_seat, client_seed, computer_level)
  SELECT ui.id, x.seat, x.player_id, x.hot_seat, x.client_seed, x.computer_level
    FROM ui CROSS JOIN LATERAL jsonb_to_recordset(ui.seats)
      AS x(seat int, player_id uuid, hot_seat boolean, client_seed text, computer_level text)
  ON CONFLICT (game_id, seat) DO UPDATE
    SET player_id = EXCLUDED.player_id, hot_seat = EXCLUDED.hot_seat, client_seed = EXCLUDED.client_seed,
        computer_level = EXCLUDED.computer_level, joined_at = now()),
-- One row per job key across the batch: the last command's job (upsertJobsSql).
jb AS (${upsertJobsSql(`ui CROSS JOIN LATERAL jsonb_to_recordset(ui.jobs) AS ${JOB_COLUMNS}`, 'ui.item_no DESC')}),
-- The command that ends a game also drops its pending deadline, inactivity, computer and auto-score jobs.
-- $4: those jobs' keys for the items that end a game (an index probe), kept only if the game was written.
dj AS (
  DELETE FROM async_jobs
   WHERE key = ANY ($4::text[])
     AND EXISTS (SELECT 1 FROM ui WHERE ui.ends IS NOT NULL
                    AND async_jobs.key IN ('inactivity:' || ui.id::text, 'deadline:' || ui.id::text,
                                           'computer:' || ui.id::text, 'auto-score:' || ui.id::text))),
lg AS (
  INSERT INTO transparency_log_leaves (game_id, kind, event_version, value, timestamp_ms)
  SELECT ui.id, 2, ui.version, ui.ends, ${LEAF_TIMESTAMP} FROM ui WHERE ui.ends IS NOT NULL),
-- The outcome of each idempotent item that held its key: the response, or the conflict when its
-- version moved on. An expired record of the key is replaced; a live one (raced in) is left alone.
rec AS (
  INSERT INTO idempotency_records (player_id, key, request_hash, status, response_status, response_body, created_at, expires_at)
  SELECT i.idem_player, i.idem_key, i.idem_hash, 'done',
         CASE WHEN upd.item_no IS NULL THEN i.err_status ELSE i.ok_status END,
         CASE WHEN upd.item_no IS NULL THEN i.err_body ELSE i.ok_body END,
         now(), now() + make_interval(hours => i.idem_ttl)
    FROM i JOIN lk ON lk.item_no = i.item_no AND lk.ok
    LEFT JOIN upd ON upd.item_no = i.item_no
  ON CONFLICT (player_id, key) DO UPDATE
    SET request_hash = EXCLUDED.request_hash, status = 'done', response_status = EXCLUDED.response_status,
        response_body = EXCLUDED.response_body, created_at = EXCLUDED.created_at, expires_at = EXCLUDED.expires_at
    WHERE idempotency_records.expires_at <= now()
  RETURNING player_id, key)
SELECT i.item_no, upd.item_no IS NOT NULL AS written, coalesce(lk.ok, true) AS locked,
       rec.key IS NOT NULL AS recorded, upd.updated_at, upd.started_at, upd.finished_at,
       (SELECT count(*) FROM (
          SELECT pg_notify('${GAME_EVENTS_CHANNEL}', string_agg(z.id::text || ':' || z.version::text, ',')) AS sent
            FROM (SELECT id, version, row_number() OVER () - 1 AS r FROM upd) z
           GROUP BY z.r / ${NOTIFY_ENTRIES}) q) AS notifies
  FROM i
  LEFT JOIN upd ON upd.item_no = i.item_no
  LEFT JOIN lk ON lk.item_no = i.item_no
  LEFT JOIN rec ON rec.player_id = i.idem_player AND rec.key = i.idem_key`;

/** The statement, prepared on connections that allow it (decision 0152). */
const appendBatchStatement = namedStatement('fairdice_append_batch', APPEND_BATCH_SQL);
