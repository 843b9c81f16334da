/**
 * The event store's rows as PostgreSQL gives them, and their mapping to the store's types: the
 * columns it selects, each row's shape, and the record an event is written as.
 */
import { appendEvent } from '@fairdice/core/fairness/hash-chain';
import type { GameEvent } from '@fairdice/core/rules/game';
import { micros } from '../common/pagination/cursor';
import { NODE_HASHES } from '../fairness/node-hashes';
import type { SeedVault } from '../keys/seed-vault';
import type { GameRow, GameSummaryRow, StoredEvent, StoredPayload } from './event-store.types';

export const GAME_COLUMNS = `g.id, g.rule_set, g.family, g.status, g.version, g.visibility, g.creator_id, g.seat_count,
  g.server_seed, g.server_seed_hash, g.created_at, g.updated_at, g.started_at, g.finished_at, g.seed_sealed`;

export const SUMMARY_COLUMNS = `g.id, g.rule_set, g.family, g.status, g.visibility, g.version, g.seat_count, g.creator_id, g.current_seat,
  g.current_player_id, g.standings, g.created_at, g.updated_at, ${micros('g.created_at')} AS created_micros,
  (SELECT count(*)::int FROM game_seats s2 WHERE s2.game_id = g.id AND (s2.player_id IS NOT NULL OR s2.computer_level IS NOT NULL)) AS seats_taken,
  (SELECT count(*)::int FROM game_seats s3 WHERE s3.game_id = g.id AND s3.computer_level IS NOT NULL) AS computer_seats`;

export const toRecord = (e: StoredEvent) => ({
  version: e.version,
  type: e.type,
  seat: e.seat,
  payload: { data: e.data, rollNumber: e.rollNumber, command: e.command } satisfies StoredPayload,
  prev_hash: e.prevHash,
  hash: e.hash,
});

/** A game_events row as the readers select it (payload: StoredPayload, as written by toRecord). */
export interface EventDbRow {
  version: number;
  type: StoredEvent['type'];
  seat: number | null;
  payload: StoredPayload;
  prevHash: string;
  hash: string;
  createdAt: Date | string;
}

/** A games row as GAME_COLUMNS select it. */
export interface GameDbRow {
  id: string;
  rule_set: string;
  family: string;
  status: GameRow['status'];
  version: number;
  visibility: GameRow['visibility'];
  creator_id: string;
  seat_count: number;
  server_seed: string;
  server_seed_hash: string;
  created_at: Date;
  updated_at: Date;
  started_at: Date | null;
  finished_at: Date | null;
  seed_sealed: boolean | null;
}

/** A games row as SUMMARY_COLUMNS select it (created_micros: a bigint, as text). */
export interface SummaryDbRow {
  id: string;
  rule_set: string;
  family: string;
  status: GameSummaryRow['status'];
  visibility: GameSummaryRow['visibility'];
  version: number;
  seat_count: number;
  seats_taken: number;
  computer_seats: number;
  creator_id: string;
  current_seat: number | null;
  current_player_id: string | null;
  standings: GameSummaryRow['standings'];
  created_at: Date;
  updated_at: Date;
  created_micros: string | number;
}

export function fromJson(gameId: string, e: EventDbRow): StoredEvent {
  const payload = e.payload;
  return {
    gameId,
    version: e.version,
    type: e.type,
    seat: e.seat,
    data: payload.data,
    rollNumber: payload.rollNumber ?? null,
    command: payload.command ?? null,
    prevHash: e.prevHash,
    hash: e.hash,
    createdAt: new Date(e.createdAt),
  };
}

export const toRow = (r: GameDbRow, vault: SeedVault): GameRow => ({
  id: r.id,
  ruleSet: r.rule_set,
  family: r.family,
  status: r.status,
  version: r.version,
  visibility: r.visibility,
  creatorId: r.creator_id,
  seatCount: r.seat_count,
  serverSeed: vault.open(r.id, r.server_seed),
  serverSeedHash: r.server_seed_hash,
  createdAt: r.created_at,
  updatedAt: r.updated_at,
  startedAt: r.started_at,
  finishedAt: r.finished_at,
  seedSealed: r.seed_sealed === true,
});

export const toSummary = (r: SummaryDbRow): GameSummaryRow => ({
  id: r.id,
  ruleSet: r.rule_set,
  family: r.family,
  status: r.status,
  visibility: r.visibility,
  version: r.version,
  seatCount: r.seat_count,
  seatsTaken: r.seats_taken,
  computerSeats: r.computer_seats,
  creatorId: r.creator_id,
  currentSeat: r.current_seat,
  currentPlayerId: r.current_player_id,
  standings: r.standings,
  createdAt: r.created_at,
  updatedAt: r.updated_at,
  createdMicros: Number(r.created_micros),
});

/** The hashed envelopes of `events` appended after `head` at `fromVersion + 1` (the store's hash chain). */
export function chainEvents(
  gameId: string,
  head: string,
  fromVersion: number,
  events: readonly GameEvent[],
): StoredEvent[] {
  let prev = head;
  return events.map((e, i) => {
    const env = appendEvent(
      prev,
      {
        gameId,
        version: fromVersion + i + 1,
        type: e.type,
        seat: e.seat,
        data: e.data,
        rollNumber: e.rollNumber,
        command: e.command,
      },
      NODE_HASHES,
    );
    prev = env.hash;
    return { ...env, command: e.command, createdAt: new Date() };
  });
}
