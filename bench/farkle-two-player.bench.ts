/**
 * The two-player Farkle table (docs/advice.md, "Two-player Farkle: win probability"): build time
 * (CPU and wall), size in memory and serialized, write/read time, the Bellman residual and the lead
 * caps checked on every pair of the default options, the first player's chance to win, and the
 * latency of a win-probability decision.
 *   npx tsc -p tsconfig.build.json && nice -n 10 node dist/bench/farkle-two-player.bench.js [decisions] [target] [entry]
 * Also importable: `runFarkleTwoPlayerMicroBenchmarks()` (npm run bench, suite "two-player Farkle").
 */
import { performance } from 'node:perf_hooks';
import {
  adviseTwoPlayerSetAside,
  deserializeFarkleTwoPlayer,
  type FarkleTwoPlayerSolution,
  serializeFarkleTwoPlayer,
  solveFarkleTwoPlayer,
  twoPlayerLeadCap,
  twoPlayerTurnValue,
  winChanceAtTurnStart,
} from '@fairdice/core/rules/advice';
import type { Die } from '@fairdice/core/rules/core/dice';
import { farkle, type FarkleOptions } from '@fairdice/core/rules/farkle';
import { sfc32 } from './simulate-computer';

const cpuSeconds = (from: NodeJS.CpuUsage) => {
  const u = process.cpuUsage(from);
  return (u.user + u.system) / 1e6;
};

export function buildTable(options: FarkleOptions) {
  const heap0 = process.memoryUsage();
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  const sol = solveFarkleTwoPlayer(options);
  const wallS = (performance.now() - t0) / 1000;
  const cpuS = cpuSeconds(cpu0);
  const heap1 = process.memoryUsage();
  return {
    sol,
    wallS,
    cpuS,
    rssGrowth: heap1.rss - heap0.rss,
    tableBytes: sol.win.byteLength + sol.lastTurn.byteLength + sol.iterations.byteLength,
  };
}

/** Decision latency on random positions (every one a new turn: the turn is evaluated each time) and within one turn. */
export function decisionLatency(sol: FarkleTwoPlayerSolution, count: number, seed: number) {
  const next = sfc32(0x9e3779b9, 0x243f6a88, 0xb7e15162, seed >>> 0);
  const int = (n: number) => Math.floor(next() * n);
  const goal = sol.goal;
  const entry = sol.entry;
  const banked = () => {
    const b = int(goal);
    return b > 0 && b < entry ? 0 : b; // totals a game can have
  };
  const rollOf = (n: number) => Array.from({ length: n }, () => (1 + int(6)) as Die);
  const time = (fn: () => void) => {
    const t = performance.now();
    fn();
    return (performance.now() - t) * 1000;
  };
  const cold: number[] = [];
  const warm: number[] = [];
  for (let i = 0; i < count; i++) {
    const position = { banked: banked() * 50, opponent: banked() * 50, turnPoints: int(20) * 50 };
    const roll = rollOf(1 + int(6));
    cold.push(time(() => adviseTwoPlayerSetAside(sol, position, roll)));
    const again = rollOf(1 + int(6));
    warm.push(time(() => adviseTwoPlayerSetAside(sol, { ...position, turnPoints: position.turnPoints + 50 }, again)));
  }
  const pct = (xs: number[], p: number) =>
    [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(p * xs.length))];
  const summary = (xs: number[]) => ({ p50: pct(xs, 0.5), p99: pct(xs, 0.99), max: Math.max(...xs) });
  return { cold: summary(cold), warm: summary(warm) };
}

if (require.main === module) {
  const decisions = Number(process.argv[2] ?? 20_000);
  const options = {
    ...farkle,
    target: Number(process.argv[3] ?? farkle.target),
    entryThreshold: Number(process.argv[4] ?? farkle.entryThreshold),
  };
  console.log(`two-player Farkle table, entry ${options.entryThreshold}, target ${options.target}`);
  const built = buildTable(options);
  const { sol } = built;
  const pairs = sol.goal * sol.goal;
  let iterations = 0;
  let most = 0;
  for (let b = 0; b < sol.goal; b++)
    for (let o = b; o < sol.goal; o++) {
      iterations += sol.iterations[b * sol.goal + o];
      most = Math.max(most, sol.iterations[b * sol.goal + o]);
    }
  const solved = (sol.goal * (sol.goal + 1)) / 2;
  console.log(
    `build: ${built.wallS.toFixed(1)} s wall, ${built.cpuS.toFixed(1)} s CPU; ${pairs} values W(b, o); ` +
      `policy-iteration steps per pair: mean ${(iterations / solved).toFixed(2)}, most ${most}`,
  );
  console.log(
    `memory: table ${(built.tableBytes / 1e6).toFixed(2)} MB (W ${sol.win.byteLength} bytes, U ${sol.lastTurn.byteLength} bytes), ` +
      `RSS growth ${(built.rssGrowth / 1e6).toFixed(1)} MB`,
  );
  let t = performance.now();
  const bytes = serializeFarkleTwoPlayer(sol);
  const writeMs = performance.now() - t;
  t = performance.now();
  const read = deserializeFarkleTwoPlayer(bytes, options);
  const readMs = performance.now() - t;
  if (!read.ok) throw new Error(read.reason);
  console.log(`serialized: ${bytes.length} bytes; write ${writeMs.toFixed(1)} ms, read ${readMs.toFixed(1)} ms`);

  const cpu0 = process.cpuUsage();
  let residual = 0;
  let capsHold = 0;
  let largestCap = 0;
  const pf6 = sol.tables[6].farkle;
  for (let b = 0; b < sol.goal; b++)
    for (let o = 0; o < sol.goal; o++) {
      residual = Math.max(residual, Math.abs(twoPlayerTurnValue(sol, b, o) - sol.win[b * sol.goal + o]));
      const cap = twoPlayerLeadCap(sol, b, o);
      largestCap = Math.max(largestCap, cap);
      if (sol.lastTurn[cap * 7 + 6] <= pf6 * sol.win[o * sol.goal + b]) capsHold++;
    }
  console.log(
    `Bellman residual on every pair: max ${residual.toExponential(2)}; lead caps where banking is optimal: ` +
      `${capsHold} of ${pairs} (largest cap ${largestCap * 50} points) (${cpuSeconds(cpu0).toFixed(1)} s CPU)`,
  );
  const first = winChanceAtTurnStart(sol, 0, 0);
  console.log(
    `first player's chance to win from the start, both playing to win: W(0, 0) = ${first.toFixed(6)}; second: ${(1 - first).toFixed(6)}`,
  );
  const lat = decisionLatency(sol, decisions, 20261203);
  const us = (x: number) => `${x.toFixed(1)} µs`;
  console.log(
    `decision latency (${decisions} random positions, adviseTwoPlayerSetAside): new turn p50 ${us(lat.cold.p50)} ` +
      `p99 ${us(lat.cold.p99)} max ${us(lat.cold.max)}; same turn p50 ${us(lat.warm.p50)} p99 ${us(lat.warm.p99)} max ${us(lat.warm.max)}`,
  );
}

/**
 * `npm run bench`, suite "two-player Farkle": the table of a 5,000 target (entry 750; a few seconds,
 * the default 10,000 takes about 22 s of CPU: run this file for it) and decision latencies.
 */
export function runFarkleTwoPlayerMicroBenchmarks(): Array<{ name: string; opsPerSec: number; usPerOp: number }> {
  const built = buildTable({ ...farkle, target: 5000 });
  const lat = decisionLatency(built.sol, 5000, 20261203);
  const row = (name: string, us: number) => ({ name, opsPerSec: Math.round(1e6 / us), usPerOp: Number(us.toFixed(3)) });
  return [
    row(`two-player Farkle table build, target 5,000 (${built.cpuS.toFixed(1)} s CPU)`, built.wallS * 1e6),
    row('two-player Farkle decision p50, new turn (adviseTwoPlayerSetAside)', lat.cold.p50),
    row('two-player Farkle decision p99, new turn', lat.cold.p99),
    row('two-player Farkle decision p99, same turn', lat.warm.p99),
  ];
}
