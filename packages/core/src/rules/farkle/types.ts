import type { Die } from '../core/dice';
import type { FarkleOptions } from './options';

// ---------------------------------------------------------------- commands (untrusted input)

/** Roll: the first roll of a turn rolls 6 dice; later rolls need a set-aside from the current roll. */
export interface FarkleRollCommand {
  readonly type: 'roll';
  readonly seat: number;
  /** Convenience: set these indices aside first (emits a separate setAside event). */
  readonly setAside?: readonly number[];
}

export interface FarkleSetAsideCommand {
  readonly type: 'setAside';
  readonly seat: number;
  /** Indices into the current roll. */
  readonly dice: readonly number[];
}

/** Bank the turn's points (requires a set-aside from the current roll). */
export interface FarkleBankCommand {
  readonly type: 'bank';
  readonly seat: number;
  /** Convenience: set these indices aside first (emits a separate setAside event). */
  readonly setAside?: readonly number[];
}

/** Leave the game on one's own turn; the total so far stays, the seat ranks after the finishers. */
export interface FarkleQuitCommand {
  readonly type: 'quit';
  readonly seat: number;
}

/**
 * End the turn without banking: the turn's points are lost. The computer uses it when a timed-out
 * turn cannot be banked (below the entry threshold); the public API does not offer it to players.
 */
export interface FarklePassCommand {
  readonly type: 'pass';
  readonly seat: number;
}

export type FarkleCommand =
  FarkleRollCommand | FarkleSetAsideCommand | FarkleBankCommand | FarkleQuitCommand | FarklePassCommand;

// ---------------------------------------------------------------- events (stored as JSON)

/** One round of the who-starts roll-off: `dice[i]` is the die of `seats[i]`. */
export interface FarkleRollOffEvent {
  readonly type: 'rollOff';
  readonly round: number;
  readonly seats: number[];
  readonly dice: Die[];
}

export interface FarkleTurnStartedEvent {
  readonly type: 'turnStarted';
  readonly seat: number;
}

export interface FarkleRolledEvent {
  readonly type: 'rolled';
  readonly seat: number;
  readonly dice: Die[];
}

export interface FarkleSetAsideEvent {
  readonly type: 'setAside';
  readonly seat: number;
  /** Indices into the current roll, ascending. */
  readonly dice: number[];
  readonly faces: Die[];
  readonly points: number;
  /** Turn points after this set-aside. */
  readonly turnPoints: number;
  /** All dice of the turn are now set aside: the next roll is six fresh dice. */
  readonly hotDice: boolean;
}

/** The roll scored nothing: the turn's points are lost. */
export interface FarkleFarkledEvent {
  readonly type: 'farkled';
  readonly seat: number;
  readonly lost: number;
  /** Consecutive farkles of this seat including this one. */
  readonly streak: number;
}

/** Three-farkle penalty: `points` actually deducted (the total never goes below 0). */
export interface FarklePenaltyEvent {
  readonly type: 'penalty';
  readonly seat: number;
  readonly points: number;
  readonly total: number;
}

export interface FarkleBankedEvent {
  readonly type: 'banked';
  readonly seat: number;
  readonly points: number;
  readonly total: number;
}

/** exactTarget: the bank would have overshot the target, so the turn's points are lost. */
export interface FarkleBustedEvent {
  readonly type: 'busted';
  readonly seat: number;
  readonly lost: number;
}

/** The turn ended without banking (a timed-out turn that could not be banked): its points are lost. */
export interface FarklePassedEvent {
  readonly type: 'passed';
  readonly seat: number;
  readonly lost: number;
}

/** `seat` reached the target; `seats` are the players who still get one last turn, in play order. */
export interface FarkleLastRoundEvent {
  readonly type: 'lastRound';
  readonly seat: number;
  readonly seats: number[];
}

export interface FarkleQuitEvent {
  readonly type: 'quit';
  readonly seat: number;
  /** Turn points given up by quitting mid-turn. */
  readonly lost: number;
}

/** The game is over; nothing may follow. Standings are derived from the state. */
export interface FarkleFinishedEvent {
  readonly type: 'finished';
  readonly reason: 'target' | 'quit';
}

export type FarkleEvent =
  | FarkleRollOffEvent
  | FarkleTurnStartedEvent
  | FarkleRolledEvent
  | FarkleSetAsideEvent
  | FarkleFarkledEvent
  | FarklePenaltyEvent
  | FarkleBankedEvent
  | FarkleBustedEvent
  | FarklePassedEvent
  | FarkleLastRoundEvent
  | FarkleQuitEvent
  | FarkleFinishedEvent;

// ---------------------------------------------------------------- state

export interface FarkleTurn {
  readonly seat: number;
  /** The current roll, null before the first roll of the turn. */
  readonly roll: Die[] | null;
  /** Indices set aside from the current roll, null if none yet. */
  readonly setAside: number[] | null;
  /** Points accumulated this turn (including the current roll's set-aside). */
  readonly points: number;
  /** Dice that the next roll would throw: 6 minus dice set aside since the turn (or hot dice) began; 0 means hot dice. */
  readonly diceLeft: number;
}

export interface FarkleState {
  readonly options: FarkleOptions;
  readonly seatCount: number;
  /** 'waiting' until `start` events are applied, then 'playing', then 'finished'. */
  readonly phase: 'waiting' | 'playing' | 'finished';
  readonly rollOffRound: number;
  /** Seats still contending in the roll-off (all seats before it begins). */
  readonly rollOffSeats: number[];
  readonly starter: number | null;
  readonly turn: FarkleTurn | null;
  readonly totals: number[];
  /** True once a seat has banked a turn (entry threshold met). */
  readonly onBoard: boolean[];
  readonly quit: boolean[];
  readonly farkleStreak: number[];
  /** Set once someone reached the target: seats that still get their last turn. */
  readonly lastRound: { readonly trigger: number; readonly remaining: number[] } | null;
  readonly finishReason: 'target' | 'quit' | null;
}
