import type { GameView, RuleSetName } from './api';

/** Runs a game command for a board; true when the server accepted it (the page then shows its answer). */
export type Act = (
  command: () => Promise<{ data?: GameView; error?: unknown; response: Response }>,
) => Promise<boolean>;

export const RULE_SET_TITLES: Record<RuleSetName, string> = {
  penta: 'Penta (five dice)',
  simple: 'Simple (five dice)',
  bonus: 'Bonus (five dice)',
  farkle: 'Farkle',
};

export const BOX_NAMES: Record<string, string> = {
  ones: 'Ones',
  twos: 'Twos',
  threes: 'Threes',
  fours: 'Fours',
  fives: 'Fives',
  sixes: 'Sixes',
  threeOfAKind: 'Three of a kind',
  fourOfAKind: 'Four of a kind',
  fullHouse: 'Full house',
  smallStraight: 'Small straight',
  largeStraight: 'Large straight',
  fiveOfAKind: 'Five of a kind',
  chance: 'Chance',
};
export const boxName = (box: string) => BOX_NAMES[box] ?? box;
export const UPPER = ['ones', 'twos', 'threes', 'fours', 'fives', 'sixes'];

export function deadlineText(deadline: string | null | undefined): string {
  if (!deadline) return 'no deadline';
  const ms = new Date(deadline).getTime() - Date.now();
  if (ms <= 0) return 'deadline passed';
  const minutes = Math.round(ms / 60_000);
  if (minutes < 60) return `${minutes} min left`;
  const hours = Math.round(minutes / 60);
  return hours < 48 ? `${hours} h left` : `${Math.round(hours / 24)} days left`;
}

export const ordinal = (n: number) => `${n}${n === 1 ? 'st' : n === 2 ? 'nd' : n === 3 ? 'rd' : 'th'}`;

/** Players' ratings in a rated game's pool, by player id, for the chips (docs/ratings.md). */
export type ChipRatings = Record<string, { rating: number; provisional: boolean }>;

/** A rating as a chip shows it: rounded, with "?" while provisional (as Lichess shows it). */
export function ratingLabel(game: GameView, seat: number, ratings?: ChipRatings): string | null {
  const id = game.seats[seat]?.playerId;
  const r = id ? ratings?.[id] : undefined;
  return r ? `${Math.round(r.rating)}${r.provisional ? '?' : ''}` : null;
}

/** A seat's player name; with the seat number when one name holds several seats (hot seat). */
export function seatName(game: GameView, seat: number): string {
  const s = game.seats[seat];
  if (s?.computer) return s.displayName ?? `Computer (seat ${seat + 1})`;
  if (!s?.playerId) return `Open seat ${seat + 1}`;
  if (!s.displayName) return `Seat ${seat + 1}`;
  const shared = game.seats.filter((o) => o.displayName === s.displayName).length > 1;
  return shared ? `${s.displayName} (seat ${seat + 1})` : s.displayName;
}
