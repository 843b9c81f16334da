/**
 * Plays solo five-dice games with the optimal policy (packages/core/src/rules/advice) through the
 * rules engine (decide/evolve: every move is checked for legality) and compares the average score
 * with the solver's exact expected score: mean ± standard error, and the difference in standard
 * errors. Dice come from the seeded sfc32 roller of simulate-computer.ts (reproducible).
 *   npx tsc -p tsconfig.build.json && node dist/bench/simulate-optimal.js [games] [seed] [configs...]
 * configs: penta simple bonus official (default: all four).
 */
import { performance } from 'node:perf_hooks';
import type { RollDice } from '@fairdice/core/rules/core/dice';
import { isRuleError } from '@fairdice/core/rules/core/errors';
import {
  type FiveDiceSolution,
  adviseBox,
  adviseHolds,
  expectedScoreFromStart,
  solveFiveDice,
} from '@fairdice/core/rules/advice';
import {
  DICE_COUNT,
  type FiveDiceCommand,
  type FiveDiceOptions,
  type FiveDiceState,
  ROLLS_PER_TURN,
  decide,
  evolve,
  initialState,
  totals,
} from '@fairdice/core/rules/five-dice';
import { ADVICE_CONFIGS } from './advice.bench';
import { seededRoller } from './simulate-computer';

/** One solo game with optimal play; returns the final total. */
export function playOptimalGame(sol: FiveDiceSolution, options: FiveDiceOptions, roll: RollDice): number {
  let state: FiveDiceState = initialState(options, 1);
  const act = (command: FiveDiceCommand) => {
    const events = decide(state, command, roll);
    if (isRuleError(events)) throw new Error(`illegal optimal move: ${events.code} ${events.message}`);
    for (const e of events) state = evolve(state, e);
  };
  while (!state.finished) {
    const turn = state.turn!;
    const sheet = state.sheets[0];
    if (turn.rollInTurn === 0) {
      act({ type: 'roll', seat: 0, hold: [] });
      continue;
    }
    const rollsLeft = ROLLS_PER_TURN - turn.rollInTurn;
    if (rollsLeft > 0) {
      const hold = adviseHolds(sol, sheet, turn.dice, rollsLeft as 1 | 2)[0].hold;
      if (hold.length < DICE_COUNT) {
        act({ type: 'roll', seat: 0, hold });
        continue;
      }
    }
    act({ type: 'score', seat: 0, box: adviseBox(sol, sheet, turn.dice)[0].box });
  }
  return totals(state.sheets[0], options).total;
}

export interface OptimalSimulation {
  name: string;
  games: number;
  mean: number;
  standardError: number;
  expected: number;
  /** (mean − expected) / standard error. */
  z: number;
  seconds: number;
}

export function simulateOptimal(
  name: string,
  options: FiveDiceOptions,
  games: number,
  seed: number,
): OptimalSimulation {
  const sol = solveFiveDice(options);
  const roll = seededRoller(seed);
  const t0 = performance.now();
  let sum = 0;
  let sumSq = 0;
  for (let g = 0; g < games; g++) {
    const score = playOptimalGame(sol, options, roll);
    sum += score;
    sumSq += score * score;
  }
  const mean = sum / games;
  const variance = (sumSq - games * mean * mean) / (games - 1);
  const standardError = Math.sqrt(variance / games);
  const expected = expectedScoreFromStart(sol);
  return {
    name,
    games,
    mean,
    standardError,
    expected,
    z: (mean - expected) / standardError,
    seconds: (performance.now() - t0) / 1000,
  };
}

if (require.main === module) {
  const games = Number(process.argv[2] ?? 100_000);
  const seed = Number(process.argv[3] ?? 20261201);
  const names = process.argv.length > 4 ? process.argv.slice(4) : Object.keys(ADVICE_CONFIGS);
  console.log(`five-dice optimal policy: ${games} solo games per configuration, seed ${seed}`);
  for (const name of names) {
    const r = simulateOptimal(name, ADVICE_CONFIGS[name], games, seed);
    console.log(
      `${name.padEnd(8)} mean ${r.mean.toFixed(3)} ± ${r.standardError.toFixed(3)} (SE)  exact ${r.expected.toFixed(4)}  ` +
        `difference ${(r.mean - r.expected).toFixed(3)} = ${r.z.toFixed(2)} SE  (${r.seconds.toFixed(0)} s)`,
    );
  }
}
