import type { HashedEventEnvelope } from '@fairdice/core/fairness/hash-chain';
import type { SeatStanding } from '@fairdice/core/rules/core/family';
import type { GameCommand, GameEvent, GameStatus } from '@fairdice/core/rules/game';

/** One stored event as read back from game_events: the hashed fairness envelope, typed command, time. */
export interface StoredEvent extends Omit<HashedEventEnvelope, 'command'> {
  /** The command that produced the batch (first event of a batch only; covered by the hash). */
  command: GameCommand | null;
  createdAt: Date;
}

/** What game_events.payload holds: everything of the event that has no column of its own. */
export interface StoredPayload {
  data: Record<string, unknown>;
  rollNumber: number | null;
  command: GameCommand | null;
}

export const toGameEvent = (e: StoredEvent): GameEvent => ({
  type: e.type,
  seat: e.seat,
  data: e.data,
  rollNumber: e.rollNumber,
  command: e.command,
});

/** The immutable facts of a game kept in the `games` row (never in events: the server seed). */
export interface GameRow {
  id: string;
  ruleSet: string;
  family: string;
  status: GameStatus;
  version: number;
  visibility: 'public' | 'private';
  creatorId: string;
  seatCount: number;
  /** hex; secret until the game is finished or abandoned. */
  serverSeed: string;
  serverSeedHash: string;
  createdAt: Date;
  updatedAt: Date;
  startedAt: Date | null;
  finishedAt: Date | null;
  /** A duplicate tournament game whose round is still running: its server seed (the round seed) stays secret. */
  seedSealed?: boolean;
}

/** The read-model columns a command updates together with its events. */
export interface ReadModelUpdate {
  status: GameStatus;
  currentSeat: number | null;
  currentPlayerId: string | null;
  standings: SeatStanding[] | null;
  started: boolean;
  finished: boolean;
  /** Seats whose holder changed (upserted into game_seats). */
  seats: Array<{ seat: number; playerId: string | null; hotSeat: boolean; clientSeed: string | null }>;
  /** The organizer seed now (set by setSeed while open); games.organizer_seed follows it. */
  organizerSeed?: string | null;
  /** Async play: games.turn_deadline = now() + this many seconds (null = no deadline). */
  turnDeadlineSeconds?: number | null;
  /** Async play: jobs written by the same statement as the events (see src/async/jobs). */
  jobs?: ScheduledJob[];
}

/**
 * A job row inserted atomically with the events (src/async/jobs). `key` is the singleton key:
 * a job already stored under it is replaced (payload, due time; attempts reset).
 */
export interface ScheduledJob {
  queue: string;
  key: string;
  payload: Record<string, unknown>;
  /** Due this many milliseconds after the transaction's now(). */
  delayMs: number;
}

/**
 * LISTEN/NOTIFY channel of committed events; the payload lists the games one statement wrote:
 * '<gameId>:<version>' entries separated by ',' (at most NOTIFY_ENTRIES per notification).
 */
export const GAME_EVENTS_CHANNEL = 'fairdice_game_events';

export interface NewGame {
  id: string;
  ruleSet: string;
  family: string;
  options: Record<string, unknown>;
  seatCount: number;
  visibility: 'public' | 'private';
  creatorId: string;
  turnTimeLimitSeconds: number | null;
  serverSeed: string;
  serverSeedHash: string;
  organizerSeed: string | null;
  /** Games a tournament creates: its id and round (docs/tournaments.md). */
  tournamentId?: string | null;
  tournamentRound?: number | null;
  /** The server seed stays secret after the game ends until the tournament unseals the round. */
  seedSealed?: boolean;
}

/** A row of the game lists (read model only, no replay). */
export interface GameSummaryRow {
  id: string;
  ruleSet: string;
  family: string;
  status: GameStatus;
  visibility: 'public' | 'private';
  version: number;
  seatCount: number;
  seatsTaken: number;
  creatorId: string;
  currentSeat: number | null;
  currentPlayerId: string | null;
  standings: SeatStanding[] | null;
  createdAt: Date;
  updatedAt: Date;
  /** created_at in microseconds since the epoch (exact: the page cursor's key). */
  createdMicros: number;
}

/** Where a game list page starts: after a game's (created_at, id) key, or at a deprecated offset. */
export interface ListPosition {
  after?: { createdMicros: number; id: string };
  offset?: number;
}
