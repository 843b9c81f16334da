import type { FamilyId } from './core/family';
import type { FamilyOf, FamilyTypes } from './families';
import { farkleFamily } from './farkle';
import { farkle } from './farkle/options';
import { fiveDiceFamily } from './five-dice';
import { bonus, penta, simple } from './five-dice/options';

export const RULE_SET_NAMES = ['penta', 'simple', 'bonus', 'farkle'] as const;
export type RuleSetName = (typeof RULE_SET_NAMES)[number];

/** A named rule set of family F. */
export interface RuleSetPresetOf<F extends FamilyId> {
  name: RuleSetName;
  family: F;
  title: string;
  description: string;
  /** The preset's option values; a game may override some of them. */
  options: FamilyTypes[F]['options'];
  minSeats: number;
  maxSeats: number;
}

/** A named rule set, discriminated by `family` (narrowing it types `options`). */
export type RuleSetPreset = { [F in FamilyId]: RuleSetPresetOf<F> }[FamilyId];

/** The named rule sets a game can be created with (brief files in parentheses); each keeps its family's type. */
export const RULE_SETS = {
  penta: {
    name: 'penta',
    family: 'five-dice',
    title: 'Penta (forced joker)',
    minSeats: 1,
    maxSeats: 8,
    description:
      "Five dice, 13 boxes. +100 for every further five of a kind while its box holds 50, and the forced joker: upper box of the face first, then any lower box at full value, then an upper box at 0. A zero in the five-of-a-kind box cancels bonus and joker. Maximum 1575. As in 000, a new game scores by itself 3 s after the last roll of a turn (in the box of the game's computer level) unless options.autoScoreAfterMs says otherwise (null: off).",
    options: penta,
  },
  simple: {
    name: 'simple',
    family: 'five-dice',
    title: 'Simple (no joker, no bonus)',
    minSeats: 1,
    maxSeats: 8,
    description:
      'Five dice, 13 boxes, no joker and no extra five-of-a-kind bonus; a five of a kind is not a full house. Maximum 375.',
    options: simple,
  },
  bonus: {
    name: 'bonus',
    family: 'five-dice',
    title: 'Bonus (extra five of a kind, no joker)',
    minSeats: 1,
    maxSeats: 8,
    description:
      'Five dice, 13 boxes. +100 for each further five of a kind while its box holds 50, but no joker: the roll goes in any open box with ordinary scoring. Maximum 1480.',
    options: bonus,
  },
  farkle: {
    name: 'farkle',
    family: 'farkle',
    title: 'Farkle',
    minSeats: 1,
    maxSeats: 8,
    description:
      'Six dice. Set aside scoring dice, then roll the rest or bank; a roll without scoring dice loses the turn. 750 to get on the board, first to 10,000 triggers the last round. Straights, exact 10,000 and a three-farkle penalty are options.',
    options: farkle,
  },
} satisfies Readonly<Record<RuleSetName, RuleSetPreset>>;

export const isRuleSetName = (value: unknown): value is RuleSetName =>
  typeof value === 'string' && (RULE_SET_NAMES as readonly string[]).includes(value);

/**
 * A family whose id is known only at run time (`state.family`): its parameter types are the
 * unions of every family's, so a caller pairs it with the state of the same game (the game state
 * is discriminated by `family`; narrow it, e.g. with fiveDicePlay, for one family's own types).
 */
export type AnyFamily = FamilyOf<FamilyId>;

const FAMILIES: { readonly [F in FamilyId]: FamilyOf<F> } = {
  'five-dice': fiveDiceFamily,
  farkle: farkleFamily,
};

export const familyById = <F extends FamilyId>(id: F): FamilyOf<F> => FAMILIES[id];

// Every family id has its types (families.ts) and every typed family an id.
const sameIds: [FamilyId, keyof FamilyTypes] extends [keyof FamilyTypes, FamilyId] ? true : never = true;
void sameIds;
