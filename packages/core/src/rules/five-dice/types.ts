import type { Die } from '../core/dice';
import type { SeatStanding } from '../core/family';

/** The 13 boxes of the sheet, in sheet order (upper section first). */
export const UPPER_BOXES = ['ones', 'twos', 'threes', 'fours', 'fives', 'sixes'] as const;
export const LOWER_BOXES = [
  'threeOfAKind',
  'fourOfAKind',
  'fullHouse',
  'smallStraight',
  'largeStraight',
  'fiveOfAKind',
  'chance',
] as const;
export const BOX_IDS = [...UPPER_BOXES, ...LOWER_BOXES] as const;

export type UpperBoxId = (typeof UPPER_BOXES)[number];
export type LowerBoxId = (typeof LOWER_BOXES)[number];
export type BoxId = (typeof BOX_IDS)[number];

export const BOX_COUNT = BOX_IDS.length; // 13
export const DICE_COUNT = 5;
export const ROLLS_PER_TURN = 3;
export const MIN_SEATS = 1;
export const MAX_SEATS = 8;

export const isBoxId = (value: unknown): value is BoxId =>
  typeof value === 'string' && (BOX_IDS as readonly string[]).includes(value);

export const isUpperBox = (box: BoxId): box is UpperBoxId => (UPPER_BOXES as readonly string[]).includes(box);

/** The face an upper box counts (ones → 1 … sixes → 6). */
export const upperBoxFace = (box: UpperBoxId): Die => (UPPER_BOXES.indexOf(box) + 1) as Die;
/** The upper box counting `face`. */
export const upperBoxOf = (face: Die): UpperBoxId => UPPER_BOXES[face - 1];

/**
 * How a five of a kind is handled once the five-of-a-kind box holds 50 (or, with
 * `jokerAfterSacrifice`, holds 0):
 * - `forced`: the 000 ("Penta") joker: the upper box of the face if open, else any open lower box
 *   at full value (full house 25, straights 30/40), else any open upper box at 0;
 * - `free`: house rule: any open box; lower boxes at full value, upper boxes score as usual;
 * - `freeChoice`: the official rules as Verhoeff (1999) and Glenn (2006) read them: any open box;
 *   while the face's upper box is open the roll scores ordinarily everywhere, once it is filled the
 *   lower boxes score at full value (upper boxes as usual, so 0);
 * - `none`: no joker (002, 003): the roll is ordinary everywhere.
 */
export type JokerRule = 'forced' | 'free' | 'freeChoice' | 'none';

// A type literal (not an interface) so that it is a Record<string, unknown> (JSON options).
export type FiveDiceOptions = {
  readonly joker: JokerRule;
  /**
   * The official reading of the joker: it also applies once the five-of-a-kind box was sacrificed
   * (holds 0), without the extra bonus. Absent or false (every preset): a zero cancels the joker (000).
   * Has no effect with `joker: 'none'`.
   */
  readonly jokerAfterSacrifice?: boolean;
  /** Points for each further five of a kind while the five-of-a-kind box holds 50 (0 = no bonus). */
  readonly extraFiveOfAKindBonus: number;
  /**
   * Auto-score (document 000): when the player has not scored this many milliseconds after the
   * turn's last (third) roll, the service enters the dice in the box the game's computer level
   * chooses (command `autoScore`). Absent: off (every preset; docs/rules.md says why).
   */
  readonly autoScoreAfterMs?: number;
  /** The upper section must reach this sum … */
  readonly upperBonusThreshold: number;
  /** … to earn these points. */
  readonly upperBonusPoints: number;
};

/** Filled boxes with their points; an absent box is open. JSON-serialisable. */
export type SheetBoxes = Partial<Record<BoxId, number>>;

/** One seat's score sheet. */
export interface FiveDiceSheet {
  readonly boxes: SheetBoxes;
  /** Sum of the extra five-of-a-kind bonuses earned so far. */
  readonly extraBonus: number;
}

export interface FiveDiceTurn {
  /** Seat whose turn it is. */
  readonly seat: number;
  /** Rolls made this turn: 0 (nothing rolled yet) to 3. */
  readonly rollInTurn: number;
  /** Current dice (empty before the first roll of the turn). */
  readonly dice: readonly Die[];
}

export interface FiveDiceState {
  readonly options: FiveDiceOptions;
  readonly seatCount: number;
  readonly sheets: readonly FiveDiceSheet[];
  /** `quit[seat]` is true once that seat has quit. */
  readonly quit: readonly boolean[];
  /** The turn in progress, or null once the game is finished. */
  readonly turn: FiveDiceTurn | null;
  readonly finished: boolean;
  /** Final standings once finished (copied from the `finished` event), else null. */
  readonly finalStandings: readonly SeatStanding[] | null;
}

// ---- commands (arrive from the network: shape-checked, values untrusted) ----

export interface RollCommand {
  readonly type: 'roll';
  readonly seat: number;
  /** Indices 0..4 of the current dice to keep; empty/absent on the first roll of a turn. */
  readonly hold?: readonly number[];
}
export interface ScoreCommand {
  readonly type: 'score';
  readonly seat: number;
  readonly box: BoxId;
}
export interface QuitCommand {
  readonly type: 'quit';
  readonly seat: number;
}
export type FiveDiceCommand = RollCommand | ScoreCommand | QuitCommand;

// ---- events (stored as JSON, replayed by the offline verifier) ----

export interface RolledEvent {
  readonly type: 'rolled';
  readonly seat: number;
  /** All five dice after this roll (held dice kept in place, new faces fill the other positions in index order). */
  readonly dice: Die[];
  /** Indices kept from the previous roll (empty on the first roll). */
  readonly held: number[];
  /** 1, 2 or 3. */
  readonly rollInTurn: number;
}
export interface ScoredEvent {
  readonly type: 'scored';
  readonly seat: number;
  readonly box: BoxId;
  /** Points written into the box. */
  readonly points: number;
  /** Extra five-of-a-kind bonus earned by this roll (0 or `extraFiveOfAKindBonus`). */
  readonly bonus: number;
}
export interface QuitEvent {
  readonly type: 'quit';
  readonly seat: number;
}
export interface FinishedEvent {
  readonly type: 'finished';
  readonly standings: SeatStanding[];
}
export type FiveDiceEvent = RolledEvent | ScoredEvent | QuitEvent | FinishedEvent;
