import type { Die, RollDice } from './dice';
import type { RuleError } from './errors';

export type FamilyId = 'five-dice' | 'farkle';

/** Every family command names the acting seat (0-based); the application takes it from the token. */
export interface SeatCommand {
  readonly type: string;
  readonly seat: number;
}

export interface FamilyEvent {
  readonly type: string;
}

/** Final standing of one seat. Equal totals share a rank (ties); quitters rank after finishers. */
export interface SeatStanding {
  seat: number;
  total: number;
  rank: number;
  quit: boolean;
}

/**
 * One game family (five-dice score sheet, Farkle) as a decider. Variants are options, not copies.
 * Pure: no I/O, no clock, no randomness except through the RollDice argument.
 */
export interface GameFamily<O, S, C extends SeatCommand, E extends FamilyEvent> {
  readonly id: FamilyId;
  /** Validates caller-supplied option overrides on top of `base`, or says which one is wrong. */
  resolveOptions(base: O, overrides: unknown): O | RuleError;
  /** State right after the lobby closes, before `start` events. */
  initialState(options: O, seatCount: number): S;
  /** Events emitted when the game starts (Farkle's who-starts roll-off; none for five dice). */
  start(state: S, roll: RollDice): E[];
  /** Validates a command against the state; returns the events it causes or a RuleError. Never mutates. */
  decide(state: S, command: C, roll: RollDice): E[] | RuleError;
  /** Applies one event. Never fails for events `decide` produced. */
  evolve(state: S, event: E): S;
  /** The seat whose turn it is, or null when the game is over. */
  currentSeat(state: S): number | null;
  isFinished(state: S): boolean;
  /** Standings by rank (final when finished, provisional otherwise). */
  standings(state: S): SeatStanding[];
  /**
   * The faces produced by the one physical roll this event records (for a five-dice re-roll, only
   * the re-rolled dice, in position order), or null when the event records no roll. The game
   * aggregate uses it to number rolls for the fairness stream.
   */
  rolledDice?(event: E): Die[] | null;
  /**
   * The next move the computer makes for the current seat when its turn timed out, or null when
   * the turn is complete. Deterministic (see the family's docs).
   */
  timeoutMove?(state: S): Omit<C, 'seat'> | null;
  /** True while the current seat has not acted yet in this turn (used to stop a timeout after one turn). */
  isTurnStart?(state: S): boolean;
  /**
   * Families whose games may score by themselves after a turn's last roll (five dice with
   * `autoScoreAfterMs`): the delay in ms while the current seat waits to score, else null.
   */
  autoScoreDelayMs?(state: S): number | null;
  /** The move an auto-score of `box` makes for `seat` now, or why there is none (the rules check it again). */
  autoScoreMove?(state: S, seat: number, box: string): C | RuleError;
}
