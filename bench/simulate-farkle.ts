/**
 * Plays solo Farkle games (default rules: 750 to get on the board, 10,000 target) with the
 * turn-minimising policy (packages/core/src/rules/advice/farkle-solver.ts) through the rules
 * engine (decide/evolve), and compares the mean number of turns with the solver's expectation.
 *   npx tsc -p tsconfig.build.json && node dist/bench/simulate-farkle.js [games] [seed]
 */
import { performance } from 'node:perf_hooks';
import type { RollDice } from '@fairdice/core/rules/core/dice';
import { isRuleError } from '@fairdice/core/rules/core/errors';
import { type FarkleSolution, adviseSetAside, expectedTurns, solveFarkle } from '@fairdice/core/rules/advice';
import {
  type FarkleCommand,
  type FarkleState,
  decide,
  evolve,
  farkle,
  initialState,
  start,
} from '@fairdice/core/rules/farkle';
import { seededRoller } from './simulate-computer';

/** One solo game with the optimal policy; returns the number of turns it took. */
export function playOptimalFarkle(sol: FarkleSolution, roll: RollDice): number {
  let state: FarkleState = initialState(sol.options, 1);
  let turns = 0;
  const apply = (events: ReturnType<typeof start>) => {
    for (const e of events) {
      if (e.type === 'turnStarted') turns++;
      state = evolve(state, e);
    }
  };
  const act = (command: FarkleCommand) => {
    const events = decide(state, command, roll);
    if (isRuleError(events)) throw new Error(`illegal move: ${events.code} ${events.message}`);
    apply(events);
  };
  apply(start(state, roll));
  while (state.phase !== 'finished') {
    const turn = state.turn!;
    if (!turn.roll) {
      act({ type: 'roll', seat: 0 });
      continue;
    }
    const best = adviseSetAside(sol, { banked: state.totals[0], turnPoints: turn.points }, turn.roll)[0];
    act({ type: best.best === 'bank' ? 'bank' : 'roll', seat: 0, setAside: best.dice });
  }
  return turns;
}

if (require.main === module) {
  const games = Number(process.argv[2] ?? 100_000);
  const seed = Number(process.argv[3] ?? 20261201);
  const t0 = performance.now();
  const sol = solveFarkle(farkle);
  const solveMs = performance.now() - t0;
  const roll = seededRoller(seed);
  let sum = 0;
  let sumSq = 0;
  const t1 = performance.now();
  for (let g = 0; g < games; g++) {
    const n = playOptimalFarkle(sol, roll);
    sum += n;
    sumSq += n * n;
  }
  const mean = sum / games;
  const se = Math.sqrt((sumSq - games * mean * mean) / (games - 1) / games);
  const exact = expectedTurns(sol, 0);
  console.log(
    `farkle (entry 750, target 10,000): solve ${solveMs.toFixed(0)} ms; ${games} solo games, seed ${seed}: ` +
      `mean ${mean.toFixed(4)} ± ${se.toFixed(4)} turns (SE)  exact ${exact.toFixed(4)}  ` +
      `difference ${(mean - exact).toFixed(4)} = ${((mean - exact) / se).toFixed(2)} SE  (${((performance.now() - t1) / 1000).toFixed(0)} s)`,
  );
}
