/**
 * Five-dice optimal advice (packages/core/src/rules/advice): table build time, CPU, memory and
 * serialized bytes, then the latency of warm decisions (best holds with 2 or 1 rolls left, best
 * box) over random sheets and dice. Target: a warm decision ≤ 0.1 ms at p99 (issue 15).
 *   npx tsc -p tsconfig.build.json && node dist/bench/advice.bench.js [preset|official] [decisions]
 * Also importable: `runAdviceMicroBenchmarks()` (npm run bench, suite "advice").
 */
import { loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import type { Die } from '@fairdice/core/rules/core/dice';
import {
  type FiveDiceSolution,
  adviseBox,
  adviseHolds,
  deserializeSolution,
  serializeSolution,
  solveFiveDice,
} from '@fairdice/core/rules/advice';
import { BOX_IDS, type BoxId, FIVE_DICE_PRESETS, type FiveDiceOptions, penta } from '@fairdice/core/rules/five-dice';
import { sfc32 } from './simulate-computer';

export const ADVICE_CONFIGS: Record<string, FiveDiceOptions> = {
  ...FIVE_DICE_PRESETS,
  official: { ...penta, joker: 'freeChoice', jokerAfterSacrifice: true },
};

export interface BuildFigures {
  name: string;
  buildMs: number;
  buildCpuMs: number;
  widgets: number;
  /** Bytes of the in-memory value table (Float64Array) and the process's ArrayBuffer growth. */
  tableBytes: number;
  arrayBufferDeltaBytes: number;
  rssDeltaBytes: number;
  serializedBytes: number;
  serializeMs: number;
  deserializeMs: number;
  solution: FiveDiceSolution;
}

export function buildTable(name: string, options: FiveDiceOptions): BuildFigures {
  const mem0 = process.memoryUsage();
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  const solution = solveFiveDice(options);
  const buildMs = performance.now() - t0;
  const cpu = process.cpuUsage(cpu0);
  const mem1 = process.memoryUsage();
  const t1 = performance.now();
  const bytes = serializeSolution(solution);
  const serializeMs = performance.now() - t1;
  const t2 = performance.now();
  const read = deserializeSolution(bytes, options);
  const deserializeMs = performance.now() - t2;
  if (!read.ok) throw new Error(read.reason);
  return {
    name,
    buildMs,
    buildCpuMs: (cpu.user + cpu.system) / 1000,
    widgets: solution.widgets,
    tableBytes: solution.values.byteLength,
    arrayBufferDeltaBytes: mem1.arrayBuffers - mem0.arrayBuffers,
    rssDeltaBytes: mem1.rss - mem0.rss,
    serializedBytes: bytes.length,
    serializeMs,
    deserializeMs,
    solution,
  };
}

/** A random sheet at a random point of the game (boxes with possible values), dice and rolls left. */
function randomDecision(next: () => number) {
  const boxes: Partial<Record<BoxId, number>> = {};
  const filled = Math.floor(next() * 13);
  const order = BOX_IDS.slice().sort(() => next() - 0.5);
  for (const box of order.slice(0, filled)) {
    const upper = BOX_IDS.indexOf(box);
    if (upper < 6) boxes[box] = Math.floor(next() * 6) * (upper + 1);
    else if (box === 'fiveOfAKind') boxes[box] = next() < 0.3 ? 50 : 0;
    else if (box === 'fullHouse') boxes[box] = next() < 0.5 ? 25 : 0;
    else if (box === 'smallStraight') boxes[box] = next() < 0.5 ? 30 : 0;
    else if (box === 'largeStraight') boxes[box] = next() < 0.5 ? 40 : 0;
    else boxes[box] = next() < 0.3 ? 0 : 5 + Math.floor(next() * 26);
  }
  const dice = Array.from({ length: 5 }, () => (1 + Math.floor(next() * 6)) as Die);
  const rollsLeft = Math.floor(next() * 3) as 0 | 1 | 2;
  return { sheet: { boxes }, dice, rollsLeft };
}

export interface DecisionFigures {
  decisions: number;
  p50Us: number;
  p99Us: number;
  maxUs: number;
  meanUs: number;
}

/** Times `count` warm decisions one by one (after 500 warm-up decisions). */
export function timeDecisions(solution: FiveDiceSolution, count = 20_000, seed = 15): DecisionFigures {
  const next = sfc32(0x9e3779b9, 0x243f6a88, 0xb7e15162, seed);
  const cases = Array.from({ length: count + 500 }, () => randomDecision(next));
  const samples: number[] = [];
  let sink = 0;
  cases.forEach((c, i) => {
    const t0 = performance.now();
    const r =
      c.rollsLeft === 0 ? adviseBox(solution, c.sheet, c.dice) : adviseHolds(solution, c.sheet, c.dice, c.rollsLeft);
    const us = (performance.now() - t0) * 1000;
    sink += r[0].expected;
    if (i >= 500) samples.push(us);
  });
  if (!Number.isFinite(sink)) throw new Error('advice returned a non-finite value');
  samples.sort((a, b) => a - b);
  const at = (q: number) => samples[Math.min(samples.length - 1, Math.floor(q * samples.length))];
  return {
    decisions: samples.length,
    p50Us: at(0.5),
    p99Us: at(0.99),
    maxUs: samples[samples.length - 1],
    meanUs: samples.reduce((a, b) => a + b, 0) / samples.length,
  };
}

/** For bench/run.ts: one table build (penta) and the warm-decision latency, as micro rows. */
export function runAdviceMicroBenchmarks(): Array<{ name: string; opsPerSec: number; usPerOp: number }> {
  const b = buildTable('penta', penta);
  const d = timeDecisions(b.solution, 20_000);
  const row = (name: string, us: number) => ({ name, opsPerSec: Math.round(1e6 / us), usPerOp: Number(us.toFixed(3)) });
  return [
    row(
      `five-dice optimal table build, penta (${(b.serializedBytes / 1e6).toFixed(2)} MB serialized)`,
      b.buildMs * 1000,
    ),
    row('five-dice warm decision p50 (holds or box, random states)', d.p50Us),
    row('five-dice warm decision p99 (target ≤ 100 µs)', d.p99Us),
  ];
}

if (require.main === module) {
  const names = process.argv[2] ? [process.argv[2]] : Object.keys(ADVICE_CONFIGS);
  const count = Number(process.argv[3] ?? 20_000);
  console.log(
    `node ${process.version}, load average ${loadavg()
      .map((x) => x.toFixed(2))
      .join(' ')}`,
  );
  for (const name of names) {
    const options = ADVICE_CONFIGS[name];
    if (!options) throw new Error(`unknown configuration ${name} (known: ${Object.keys(ADVICE_CONFIGS).join(', ')})`);
    const b = buildTable(name, options);
    const d = timeDecisions(b.solution, count);
    const mb = (n: number) => `${(n / 1e6).toFixed(2)} MB`;
    console.log(
      `${name.padEnd(8)} build ${(b.buildMs / 1000).toFixed(2)} s (CPU ${(b.buildCpuMs / 1000).toFixed(2)} s, ${b.widgets} widgets)  ` +
        `table ${mb(b.tableBytes)} (ArrayBuffers +${mb(b.arrayBufferDeltaBytes)}, RSS +${mb(b.rssDeltaBytes)})  ` +
        `serialized ${b.serializedBytes} bytes (write ${b.serializeMs.toFixed(0)} ms, read ${b.deserializeMs.toFixed(0)} ms)  ` +
        `decision p50 ${d.p50Us.toFixed(1)} µs p99 ${d.p99Us.toFixed(1)} µs max ${d.maxUs.toFixed(0)} µs (${d.decisions})`,
    );
  }
}
