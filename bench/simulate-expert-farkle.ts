/**
 * Level `expert` against level `optimal` in two-player Farkle (docs/advice.md, "Two-player Farkle:
 * win probability"): games played through the computer policies of packages/core/src/rules/computer
 * and the rules' decide/evolve (every move checked for legality), seeded sfc32 dice
 * (bench/simulate-computer.ts). The roll-off decides which seat starts; the policies are then
 * seated so that `expert` starts every even-numbered game and `optimal` every odd one. A tie
 * counts half. Reports expert's share with a 95 % confidence interval, and the starter's share.
 *   npx tsc -p tsconfig.build.json && nice -n 10 node dist/bench/simulate-expert-farkle.js [games] [seed] [target] [entry]
 */
import { performance } from 'node:perf_hooks';
import { solveFarkle, solveFarkleTwoPlayer, winChanceAtTurnStart } from '@fairdice/core/rules/advice';
import { farkleMove, type OptimalTables } from '@fairdice/core/rules/computer';
import { isRuleError } from '@fairdice/core/rules/core/errors';
import { decide, evolve, farkle, type FarkleState, initialState, start } from '@fairdice/core/rules/farkle';
import type { ComputerLevel } from '@fairdice/core/rules/game';
import { seededRoller } from './simulate-computer';

/** Mean of per-game scores in {0, ½, 1} with its 95 % confidence interval (normal approximation). */
export function shareWithInterval(scores: { sum: number; sumSq: number; n: number }) {
  const mean = scores.sum / scores.n;
  const se = Math.sqrt(Math.max(0, scores.sumSq / scores.n - mean * mean) / scores.n);
  return { mean, low: mean - 1.96 * se, high: mean + 1.96 * se, se };
}

if (require.main === module) {
  const games = Number(process.argv[2] ?? 20_000);
  const seed = Number(process.argv[3] ?? 20261203);
  const options = {
    ...farkle,
    target: Number(process.argv[4] ?? farkle.target),
    entryThreshold: Number(process.argv[5] ?? farkle.entryThreshold),
  };
  const t0 = performance.now();
  const tables: OptimalTables = { farkle: solveFarkle(options), farkleTwoPlayer: solveFarkleTwoPlayer(options) };
  const solveS = (performance.now() - t0) / 1000;
  const roll = seededRoller(seed);
  const expert = { sum: 0, sumSq: 0, n: 0 };
  const starter = { sum: 0, sumSq: 0, n: 0 };
  const expertStarting = { sum: 0, sumSq: 0, n: 0 };
  const expertSecond = { sum: 0, sumSq: 0, n: 0 };
  let moves = 0;
  let ties = 0;
  const t1 = performance.now();
  for (let g = 0; g < games; g++) {
    let state: FarkleState = initialState(options, 2);
    for (const e of start(state, roll)) state = evolve(state, e);
    const first = state.turn!.seat;
    const expertSeat = g % 2 === 0 ? first : 1 - first;
    const level = (seat: number): ComputerLevel => (seat === expertSeat ? 'expert' : 'optimal');
    for (let guard = 0; state.phase !== 'finished'; guard++) {
      if (guard > 100_000) throw new Error('a game did not end');
      const seat = state.turn!.seat;
      const move = farkleMove(state, level(seat), tables);
      if (move === null) throw new Error('no move in a game being played');
      const events = decide(state, { ...move, seat }, roll);
      if (isRuleError(events)) throw new Error(`${level(seat)} made an illegal move: ${events.message}`);
      for (const e of events) state = evolve(state, e);
      moves++;
    }
    const mine = state.totals[expertSeat];
    const theirs = state.totals[1 - expertSeat];
    const score = mine > theirs ? 1 : mine === theirs ? 0.5 : 0;
    if (mine === theirs) ties++;
    const add = (acc: typeof expert, s: number) => {
      acc.sum += s;
      acc.sumSq += s * s;
      acc.n++;
    };
    add(expert, score);
    add(g % 2 === 0 ? expertStarting : expertSecond, score);
    add(starter, expertSeat === first ? score : 1 - score);
  }
  const wallS = (performance.now() - t1) / 1000;
  const pct = (x: number) => (100 * x).toFixed(2);
  const line = (name: string, r: ReturnType<typeof shareWithInterval>) =>
    `${name} ${pct(r.mean)} % (95 % CI ${pct(r.low)} – ${pct(r.high)} %)`;
  console.log(
    `two-player Farkle (entry ${options.entryThreshold}, target ${options.target}), seed ${seed}: ${games} games ` +
      `expert vs optimal, ${moves} moves, ${ties} ties (tables ${solveS.toFixed(1)} s, games ${wallS.toFixed(0)} s)`,
  );
  console.log(line('expert win share (ties ½):', shareWithInterval(expert)));
  console.log(line('  expert starting:', shareWithInterval(expertStarting)));
  console.log(line('  expert second:', shareWithInterval(expertSecond)));
  console.log(line('starter win share:', shareWithInterval(starter)));
  console.log(
    `exact chance to win of the first player when both play expert: W(0, 0) = ${winChanceAtTurnStart(tables.farkleTwoPlayer!, 0, 0).toFixed(6)}`,
  );
}
