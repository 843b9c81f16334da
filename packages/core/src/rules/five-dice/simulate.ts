import type { RollDice } from '../core/dice';
import { isRuleError } from '../core/errors';
import { computerChoice, computerHold } from './computer';
import { decide, evolve, initialState } from './decider';
import { totals } from './scoring';
import { DICE_COUNT, type FiveDiceEvent, type FiveDiceOptions, type FiveDiceState } from './types';

export interface SimulationResult {
  readonly games: number;
  readonly average: number;
  readonly min: number;
  readonly max: number;
  /** Share of games that earned the upper bonus. */
  readonly upperBonusRate: number;
  /** Average number of turns per game scored with five of a kind showing (any box). */
  readonly fiveOfAKindPerGame: number;
}

function must(state: FiveDiceState, command: Parameters<typeof decide>[1], roll: RollDice): FiveDiceEvent[] {
  const events = decide(state, command, roll);
  if (isRuleError(events)) throw new Error(`simulation produced an illegal command: ${events.code} ${events.message}`);
  return events;
}

/**
 * Plays one solo game through decide/evolve with the computer's hold policy and choice.
 * Returns the final state and the events (pure: dice only come from `roll`).
 */
export function playComputerGame(
  options: FiveDiceOptions,
  roll: RollDice,
): { state: FiveDiceState; events: FiveDiceEvent[] } {
  let state = initialState(options, 1);
  const log: FiveDiceEvent[] = [];
  const apply = (events: FiveDiceEvent[]) => {
    for (const e of events) {
      state = evolve(state, e);
      log.push(e);
    }
  };
  while (!state.finished) {
    const turn = state.turn!;
    const sheet = state.sheets[turn.seat];
    if (turn.rollInTurn === 0) {
      apply(must(state, { type: 'roll', seat: turn.seat, hold: [] }, roll));
      continue;
    }
    const hold = computerHold(sheet, turn.dice, turn.rollInTurn, options);
    if (hold.length < DICE_COUNT) {
      apply(must(state, { type: 'roll', seat: turn.seat, hold }, roll));
    } else {
      const box = computerChoice(sheet, turn.dice, options);
      apply(must(state, { type: 'score', seat: turn.seat, box }, roll));
    }
  }
  return { state, events: log };
}

/** Average score of `games` solo games played by the computer. */
export function simulateComputer(options: FiveDiceOptions, roll: RollDice, games: number): SimulationResult {
  let total = 0;
  let min = Infinity;
  let max = -Infinity;
  let bonusGames = 0;
  let fives = 0;
  for (let g = 0; g < games; g++) {
    const { state, events } = playComputerGame(options, roll);
    const t = totals(state.sheets[0], options);
    total += t.total;
    if (t.total < min) min = t.total;
    if (t.total > max) max = t.total;
    if (t.upperBonus > 0) bonusGames++;
    let last: readonly number[] = [];
    for (const e of events) {
      if (e.type === 'rolled') last = e.dice;
      else if (e.type === 'scored' && last.every((d) => d === last[0])) fives++;
    }
  }
  return {
    games,
    average: games ? total / games : 0,
    min,
    max,
    upperBonusRate: games ? bonusGames / games : 0,
    fiveOfAKindPerGame: games ? fives / games : 0,
  };
}
