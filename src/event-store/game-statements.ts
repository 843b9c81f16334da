/**
 * The SQL of the event store's games, apart from the group-commit append (append-statement.ts):
 * the statement that creates a game, the one-message load, the event reads and the paged lists,
 * and the rows the append statement takes. EventStore (event-store.service.ts) runs them and
 * keeps the cache; these only talk to the database.
 */
import type { GameState } from '@fairdice/core/rules/game';
import { isEnded } from '@fairdice/core/rules/game/status';
import { fromMicros } from '../common/pagination/cursor';
import { namedStatement } from '../database/prepared-statements';
import type { Queryable } from '../database/unit-of-work';
import type { AppendItem } from './append-statement';
import { upsertJobsSql } from './append-statement';
import type {
  GameSummaryRow,
  ListPosition,
  NewGame,
  ReadModelUpdate,
  ScheduledJob,
  StoredEvent,
} from './event-store.types';
import {
  type EventDbRow,
  fromJson,
  GAME_COLUMNS,
  type GameDbRow,
  SUMMARY_COLUMNS,
  type SummaryDbRow,
  toRecord,
  toSummary,
} from './game-rows';

/** The leaf's timestamp: milliseconds since the epoch, taken by the database (one clock for every instance). */
const LEAF_TIMESTAMP = `(extract(epoch FROM clock_timestamp()) * 1000)::bigint`;

const EVENT_COLUMNS = `version, type, seat, payload, prev_hash AS "prevHash", hash, created_at AS "createdAt"`;

/** game_seats rows as the write statements take them (jsonb_to_recordset). */
const seatRecords = (seats: ReadModelUpdate['seats']) =>
  seats.map((s) => ({
    seat: s.seat,
    player_id: s.playerId,
    hot_seat: s.hotSeat,
    client_seed: s.clientSeed,
    computer_level: s.computer,
  }));

/** async_jobs rows as the write statements take them (upsertJobsSql). */
const jobRecords = (jobs: readonly ScheduledJob[]) =>
  jobs.map((j) => ({ queue: j.queue, key: j.key, payload: j.payload, delay_ms: j.delayMs }));

/** Creates the games row, its seats, first events, jobs and transparency leaf (prepared: decision 0152). */
const insertGameStatement = namedStatement(
  'fairdice_insert_game',
  `WITH g AS (
         INSERT INTO games (id, rule_set, family, options, seat_count, visibility, creator_id, status, version,
                            turn_time_limit_seconds, server_seed, server_seed_hash, organizer_seed, created_at, updated_at,
                            tournament_id, tournament_round, seed_sealed)
         VALUES ($1, $2, $3, $4::jsonb, $5, $6, $7, $8, $9, $10, $11, $12, $13, now(), now(), $17, $18, $19)
         RETURNING id, created_at, updated_at),
       s AS (
         INSERT INTO game_seats (game_id, seat, player_id, hot_seat, client_seed, computer_level)
         SELECT g.id, x.seat, x.player_id, x.hot_seat, x.client_seed, x.computer_level
           FROM g, jsonb_to_recordset($14::jsonb) AS x(seat int, player_id uuid, hot_seat boolean, client_seed text, computer_level text)),
       e AS (
         INSERT INTO game_events (game_id, version, type, seat, payload, prev_hash, hash)
         SELECT g.id, x.version, x.type, x.seat, x.payload, x.prev_hash, x.hash
           FROM g, jsonb_to_recordset($15::jsonb) AS x(version int, type text, seat int, payload jsonb, prev_hash text, hash text)),
       jb AS (${upsertJobsSql(`g, jsonb_to_recordset($16::jsonb) AS x(queue text, key text, payload jsonb, delay_ms float8)`)}),
       lg AS (
         INSERT INTO transparency_log_leaves (game_id, kind, event_version, value, timestamp_ms)
         SELECT g.id, 1, 0, $12, ${LEAF_TIMESTAMP} FROM g)
       SELECT created_at, updated_at FROM g`,
);

/**
 * Creates the games row, every seat row, the first events, the jobs and the game's "created"
 * transparency leaf in ONE statement; returns the row's timestamps.
 */
export async function insertGame(
  db: Queryable,
  game: NewGame,
  sealedServerSeed: string,
  state: GameState,
  stored: readonly StoredEvent[],
  jobs: readonly ScheduledJob[],
): Promise<{ created_at: Date; updated_at: Date }> {
  const { rows } = await db.query<{ created_at: Date; updated_at: Date }>(
    insertGameStatement(db, [
      game.id,
      game.ruleSet,
      game.family,
      JSON.stringify(game.options),
      game.seatCount,
      game.visibility,
      game.creatorId,
      state.status,
      state.version,
      game.turnTimeLimitSeconds,
      sealedServerSeed,
      game.serverSeedHash,
      game.organizerSeed,
      JSON.stringify(seatRecords(state.seats)),
      JSON.stringify(stored.map(toRecord)),
      JSON.stringify(jobRecords(jobs)),
      game.tournamentId ?? null,
      game.tournamentRound ?? null,
      game.seedSealed ?? false,
    ]),
  );
  return rows[0];
}

/**
 * The games row, the seated players' names and the events after version `after`, as ONE
 * simple-protocol message: one round trip, no JSON aggregation (slow on the embedded database).
 * The id and version are interpolated, so they are checked by the caller (a UUID, a safe integer).
 */
export async function selectGameForLoad(
  db: Queryable,
  gameId: string,
  after: number,
): Promise<{ game: GameDbRow | undefined; names: Record<string, string>; events: StoredEvent[] }> {
  const results = (await db.query(
    `SELECT ${GAME_COLUMNS} FROM games g WHERE g.id = '${gameId}';
       SELECT p.id, p.display_name FROM game_seats s JOIN players p ON p.id = s.player_id WHERE s.game_id = '${gameId}';
       SELECT ${EVENT_COLUMNS}
         FROM game_events WHERE game_id = '${gameId}' AND version > ${after} ORDER BY version`,
  )) as unknown as [
    { rows: GameDbRow[] },
    { rows: Array<{ id: string; display_name: string }> },
    { rows: EventDbRow[] },
  ];
  const [games, seats, events] = results;
  const names: Record<string, string> = {};
  for (const n of seats.rows) names[n.id] = n.display_name;
  return { game: games.rows[0], names, events: events.rows.map((e) => fromJson(gameId, e)) };
}

const eventsAfterStatement = namedStatement(
  'fairdice_events_after',
  `SELECT ${EVENT_COLUMNS} FROM game_events WHERE game_id = $1 AND version > $2 ORDER BY version LIMIT $3`,
);
const eventsUpToStatement = namedStatement(
  'fairdice_events_up_to',
  `SELECT ${EVENT_COLUMNS} FROM game_events WHERE game_id = $1 AND version <= $2 ORDER BY version`,
);

/** Events with version > after, oldest first, at most `limit`. */
export async function selectEventsAfter(
  db: Queryable,
  gameId: string,
  after: number,
  limit: number,
): Promise<StoredEvent[]> {
  const { rows } = await db.query<EventDbRow>(eventsAfterStatement(db, [gameId, after, limit]));
  return rows.map((e) => fromJson(gameId, e));
}

/** Events with version <= upTo, oldest first. */
export async function selectEventsUpTo(db: Queryable, gameId: string, upTo: number): Promise<StoredEvent[]> {
  const { rows } = await db.query<EventDbRow>(eventsUpToStatement(db, [gameId, upTo]));
  return rows.map((e) => fromJson(gameId, e));
}

/**
 * A page of game summaries matching `filter` (SQL over `g`, with `params` as $1…), newest first:
 * ORDER BY created_at DESC, id DESC, from the keyset `from.after` or a deprecated offset.
 */
export async function selectGames(
  db: Queryable,
  filter: string,
  params: unknown[],
  limit: number,
  from: ListPosition,
): Promise<GameSummaryRow[]> {
  const values = [...params];
  const p = (v: unknown) => `$${values.push(v)}`;
  const keyset = from.after
    ? ` AND (g.created_at, g.id) < (${fromMicros(p(from.after.createdMicros))}, ${p(from.after.id)}::uuid)`
    : '';
  const { rows } = await db.query<SummaryDbRow>(
    `SELECT ${SUMMARY_COLUMNS} FROM games g
        WHERE ${filter}${keyset}
        ORDER BY g.created_at DESC, g.id DESC
        LIMIT ${p(limit)} OFFSET ${p(from.offset ?? 0)}`,
    values,
  );
  return rows.map(toSummary);
}

/**
 * The append statement's input for one command: `stored` (chained after the state at `expected`)
 * and the read-model update. The command that ends the game also logs its final head (`ends`).
 */
export function appendItemOf(
  gameId: string,
  before: Pick<GameState, 'status' | 'version'>,
  stored: readonly StoredEvent[],
  update: ReadModelUpdate,
): AppendItem {
  const expected = before.version;
  const ends =
    !isEnded(before.status) && isEnded(update.status) && stored.length > 0 ? stored[stored.length - 1].hash : null;
  return {
    gameId,
    expected,
    version: expected + stored.length,
    status: update.status,
    currentSeat: update.currentSeat,
    currentPlayerId: update.currentPlayerId,
    standings: update.standings,
    started: update.started,
    finished: update.finished,
    deadlineSeconds: update.turnDeadlineSeconds ?? null,
    organizerSet: update.organizerSeed !== undefined,
    organizerSeed: update.organizerSeed ?? null,
    ends,
    events: stored.map(toRecord),
    seats: seatRecords(update.seats),
    jobs: jobRecords(update.jobs ?? []),
  };
}
