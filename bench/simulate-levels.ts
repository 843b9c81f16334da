/**
 * Average solo score of each computer level (docs/advice.md "Computer players"), five dice, played
 * through the policies of packages/core/src/rules/computer and the rules' decide/evolve (every move
 * checked for legality). Seeded sfc32 dice (bench/simulate-computer.ts): reproducible.
 *   npx tsc -p tsconfig.build.json && node dist/bench/simulate-levels.js [games] [seed] [preset]
 * Level optimal solves its table first (seconds of CPU).
 */
import { fiveDiceMove, type OptimalTables } from '@fairdice/core/rules/computer';
import { RuleError } from '@fairdice/core/rules/core/errors';
import { solveFiveDice } from '@fairdice/core/rules/advice';
import {
  FIVE_DICE_PRESETS,
  type FiveDicePresetName,
  type FiveDiceState,
  fiveDiceFamily,
  computeStandings,
} from '@fairdice/core/rules/five-dice';
import type { ComputerLevel } from '@fairdice/core/rules/game';
import { seededRoller } from './simulate-computer';

export function simulateLevel(preset: FiveDicePresetName, level: ComputerLevel, games: number, seed: number) {
  const options = FIVE_DICE_PRESETS[preset];
  const tables: OptimalTables = level === 'optimal' ? { fiveDice: solveFiveDice(options) } : {};
  const roll = seededRoller(seed);
  let sum = 0;
  let sumSq = 0;
  for (let g = 0; g < games; g++) {
    let state = fiveDiceFamily.initialState(options, 1);
    for (let guard = 0; !state.finished && guard < 100; guard++) {
      const move = fiveDiceMove(state, level, tables);
      if (move === null) break;
      const events = fiveDiceFamily.decide(state, { ...move, seat: 0 }, roll);
      if (events instanceof RuleError) throw new Error(`${level} made an illegal move: ${events.message}`);
      state = events.reduce<FiveDiceState>((s, e) => fiveDiceFamily.evolve(s, e), state);
    }
    const total = computeStandings(state)[0].total;
    sum += total;
    sumSq += total * total;
  }
  const mean = sum / games;
  return { mean, se: Math.sqrt((sumSq / games - mean * mean) / games) };
}

if (require.main === module) {
  const games = Number(process.argv[2] ?? 2000);
  const seed = Number(process.argv[3] ?? 20261211);
  const preset = (process.argv[4] ?? 'simple') as FiveDicePresetName;
  console.log(`five-dice computer levels: ${games} solo ${preset} games each, seed ${seed}`);
  for (const level of ['beginner', 'standard', 'optimal'] as const) {
    const t0 = performance.now();
    const r = simulateLevel(preset, level, games, seed);
    const s = ((performance.now() - t0) / 1000).toFixed(1);
    console.log(`${level.padEnd(8)} mean ${r.mean.toFixed(2)} ± ${r.se.toFixed(2)} (SE)  (${s} s)`);
  }
}
