import type { FamilyId, SeatStanding } from '../core/family';
import type { RuleSetName } from '../registry';

export type GameStatus = 'open' | 'playing' | 'finished' | 'abandoned';
export type Visibility = 'public' | 'private';

export interface SeatState {
  seat: number;
  /** The player holding the seat; for hot seats, the creator (who plays them from one screen). */
  playerId: string | null;
  hotSeat: boolean;
  /** Public entropy this seat contributes to the dice (fixed when the game starts). */
  clientSeed: string | null;
}

/** The whole game as rebuilt from its events: the lobby, then the family's own state. */
export interface GameState {
  id: string;
  ruleSet: RuleSetName;
  family: FamilyId;
  /** Resolved options of the family (preset plus overrides). */
  options: Record<string, unknown>;
  seatCount: number;
  visibility: Visibility;
  creatorId: string;
  /** SHA-256 (hex) of the server seed, published at creation. */
  commitment: string;
  organizerSeed: string | null;
  turnTimeLimitSeconds: number | null;
  seats: SeatState[];
  status: GameStatus;
  /** Number of events applied (the version of the last one). */
  version: number;
  /** Dice rolls made so far: the next roll's number in the fairness stream. */
  rollCount: number;
  /** The family's state once the game started. */
  play: unknown;
  standings: SeatStanding[] | null;
}

/**
 * A stored event, as the rules see it: the envelope without game id, version and hashes.
 * `command` is set on the first event of the batch a command produced, so a verifier can
 * re-run every command and check that it yields exactly the stored events.
 */
export interface GameEvent {
  type: string;
  seat: number | null;
  data: Record<string, unknown>;
  rollNumber: number | null;
  command: GameCommand | null;
}

export interface CreateCommand {
  type: 'create';
  gameId: string;
  ruleSet: RuleSetName;
  /** Overrides of the preset's options. */
  options: Record<string, unknown>;
  seatCount: number;
  visibility: Visibility;
  creatorId: string;
  /** How many seats after the creator's are hot seats played by the creator (0 = none). */
  hotSeats: number;
  commitment: string;
  organizerSeed: string | null;
  /** Client seeds of the creator's seat and then of each hot seat, in seat order. */
  clientSeeds: string[];
  turnTimeLimitSeconds: number | null;
}

export interface JoinCommand {
  type: 'join';
  playerId: string;
  clientSeed: string;
  seat?: number;
}
export interface LeaveCommand {
  type: 'leave';
  playerId: string;
}
export interface StartCommand {
  type: 'start';
  playerId: string;
}
export interface CancelCommand {
  type: 'cancel';
  playerId: string;
}
/** A move of the family (roll, score, set aside, bank, quit...), for the seat whose turn it is. */
export interface PlayCommand {
  type: 'play';
  playerId: string;
  move: Record<string, unknown> & { type: string };
}
/** The turn's time ran out: the rules complete it (used by the deadline scheduler). */
export interface TimeoutCommand {
  type: 'timeout';
  seat: number;
}

export type GameCommand =
  CreateCommand | JoinCommand | LeaveCommand | StartCommand | CancelCommand | PlayCommand | TimeoutCommand;

/** Event types owned by the game aggregate (the families' event types never use these). */
export const LIFECYCLE_EVENT_TYPES = [
  'gameCreated',
  'seatTaken',
  'seatLeft',
  'gameStarted',
  'gameAbandoned',
  'gameFinished',
] as const;
export type LifecycleEventType = (typeof LIFECYCLE_EVENT_TYPES)[number];
export const isLifecycleEvent = (type: string): type is LifecycleEventType =>
  (LIFECYCLE_EVENT_TYPES as readonly string[]).includes(type);
