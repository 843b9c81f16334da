/**
 * What the game decisions share: the client-seed rule, typed lifecycle events, open seats, roll
 * numbering of a family's events, and the game's end when the family says so.
 */
import type { Die, RollDice } from '../core/dice';
import type { FamilyId } from '../core/family';
import type { FamilyTypes } from '../families';
import { RuleError, ruleError } from '../core/errors';
import { familyById } from '../registry';
import { evolveGame } from './evolve';
import {
  type GameEvent,
  type GameState,
  type LifecycleEventData,
  type LifecycleEventType,
  isLifecycleEvent,
} from './types';

/** Client seeds: 1..128 visible ASCII characters (docs/fairness.md §2.2; mirrors src/fairness/seeds.ts). */
export const CLIENT_SEED = /^[\x21-\x7e]{1,128}$/;
export const seedError = (s: unknown): RuleError | null =>
  typeof s === 'string' && CLIENT_SEED.test(s)
    ? null
    : ruleError('INVALID_SEED', 'a client seed is 1 to 128 visible ASCII characters (0x21-0x7E), no spaces');

/** A lifecycle event, its data typed by its type (LifecycleEventData). */
export const lifecycle = <T extends LifecycleEventType>(
  type: T,
  seat: number | null,
  data: LifecycleEventData[T],
): GameEvent => ({
  type,
  seat,
  data,
  rollNumber: null,
  command: null,
});

/** A seat nobody holds yet: no player and not played by the computer. */
export const isOpenSeat = (s: { playerId: string | null; computer: unknown }) =>
  s.playerId === null && s.computer === null;

/**
 * Runs a family decision with a roller that numbers each physical roll, and stamps the roll
 * number on the event that records those dice (the family says which via `rolledDice`).
 */
export function tagRolls(
  state: GameState,
  run: (roll: RollDice) => ReadonlyArray<FamilyTypes[FamilyId]['event']> | RuleError,
  roll: RollDice,
): GameEvent[] | RuleError {
  const family = familyById(state.family);
  const rolls: Die[][] = [];
  const counting: RollDice = (count, at) => {
    const dice = roll(count, at);
    rolls.push(dice);
    return dice;
  };
  const familyEvents = run(counting);
  if (familyEvents instanceof RuleError) return familyEvents;
  let next = 0;
  const events = familyEvents.map((raw): GameEvent => {
    const e = raw as Record<string, unknown> & { type: string; seat?: number };
    if (isLifecycleEvent(e.type)) throw new Error(`family event type ${e.type} collides with a lifecycle event`);
    if (typeof family.rolledDice !== 'function')
      throw new Error(`family ${family.id} does not say which events record rolls`);
    const dice = family.rolledDice(raw);
    let rollNumber: number | null = null;
    if (dice !== null) {
      const expected = rolls[next];
      if (!expected || expected.length !== dice.length || expected.some((d, i) => d !== dice[i])) {
        throw new Error(`event ${e.type} does not record roll ${next} of this command`);
      }
      rollNumber = state.rollCount + next;
      next++;
    }
    return { type: e.type, seat: typeof e.seat === 'number' ? e.seat : null, data: e, rollNumber, command: null };
  });
  if (next !== rolls.length) throw new Error(`${rolls.length} rolls made but ${next} recorded`);
  return events;
}

/** Appends `gameFinished` with the standings when the family says the game is over. */
export function withFinish(
  state: GameState,
  prefix: GameEvent[],
  events: GameEvent[] | RuleError,
): GameEvent[] | RuleError {
  if (events instanceof RuleError) return events;
  let s = state;
  const all = [...prefix, ...events];
  for (const e of events) s = evolveGame(s, e);
  if (s.play !== null && familyById(s.family).isFinished(s.play)) {
    all.push(lifecycle('gameFinished', null, { standings: familyById(s.family).standings(s.play) }));
  }
  return all;
}
