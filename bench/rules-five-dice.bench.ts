/**
 * Micro-benchmarks of the five-dice rules: scoreOptions and full-game replay.
 *   npx tsc -p tsconfig.build.json && node dist/bench/rules-five-dice.bench.js
 * Also importable: `runFiveDiceMicroBenchmarks()` for a later bench runner.
 */
import { performance } from 'node:perf_hooks';
import type { Die } from '@fairdice/core/rules/core/dice';
import { replay } from '@fairdice/core/rules/core/replay';
import {
  type FiveDiceEvent,
  calculateScoreOptions,
  evolve,
  initialState,
  penta,
  playComputerGame,
  scoreOptionsFor,
  computerChoice,
} from '@fairdice/core/rules/five-dice';
import { seededRoller } from './simulate-computer';

export interface MicroBenchmarkResult {
  name: string;
  opsPerSec: number;
  usPerOp: number;
}

/** Runs `body` (which performs `opsPerCall` operations) until `minMs` elapsed, after a warm-up. */
function measure(name: string, body: () => void, opsPerCall = 1, minMs = 500): MicroBenchmarkResult {
  for (let i = 0; i < 200; i++) body();
  let calls = 0;
  const t0 = performance.now();
  let elapsed = 0;
  while (elapsed < minMs) {
    for (let i = 0; i < 100; i++) body();
    calls += 100;
    elapsed = performance.now() - t0;
  }
  const ops = calls * opsPerCall;
  return { name, opsPerSec: Math.round((ops / elapsed) * 1000), usPerOp: Number(((elapsed * 1000) / ops).toFixed(3)) };
}

let sink = 0; // keeps results alive so the JIT cannot drop the work

export function runFiveDiceMicroBenchmarks(): MicroBenchmarkResult[] {
  const roll = seededRoller(12345);
  const rolls = Array.from({ length: 1024 }, () => roll(5));
  const sheets = [
    { boxes: {}, extraBonus: 0 },
    { boxes: { fiveOfAKind: 50, ones: 3, sixes: 18, chance: 22 }, extraBonus: 0 },
    {
      boxes: {
        fiveOfAKind: 50,
        threeOfAKind: 20,
        fourOfAKind: 0,
        fullHouse: 25,
        smallStraight: 30,
        largeStraight: 0,
        chance: 22,
      },
      extraBonus: 100,
    },
  ];
  const jokerRoll = [4, 4, 4, 4, 4] as Die[];
  const games: FiveDiceEvent[][] = Array.from({ length: 64 }, () => playComputerGame(penta, roll).events);
  const eventsPerGame = games.reduce((a, g) => a + g.length, 0) / games.length;

  let i = 0;
  const results: MicroBenchmarkResult[] = [];
  results.push(
    measure('five-dice scoreOptions (random roll)', () => {
      const r = scoreOptionsFor(sheets[i % 3], rolls[i++ & 1023], penta);
      sink += r.boxes.length;
    }),
  );
  results.push(
    measure('five-dice scoreOptions (forced joker)', () => {
      const r = scoreOptionsFor(sheets[1], jokerRoll, penta);
      sink += r.boxes.length;
    }),
  );
  results.push(
    measure('five-dice calculator (validated input)', () => {
      const r = calculateScoreOptions({ dice: rolls[i++ & 1023], boxes: sheets[1].boxes }, penta);
      sink += 'boxes' in r ? r.boxes.length : 0;
    }),
  );
  results.push(
    measure('five-dice computerChoice', () => {
      sink += computerChoice(sheets[i % 3], rolls[i++ & 1023], penta).length;
    }),
  );
  let g = 0;
  results.push(
    measure(
      `five-dice replay, per event (${eventsPerGame.toFixed(1)} events/game)`,
      () => {
        const s = replay(evolve, initialState(penta, 1), games[g++ & 63]);
        sink += s.sheets[0].extraBonus;
      },
      eventsPerGame,
    ),
  );
  results.push(
    measure('five-dice replay, per full game', () => {
      const s = replay(evolve, initialState(penta, 1), games[g++ & 63]);
      sink += s.sheets[0].extraBonus;
    }),
  );
  if (sink === -1) console.log(sink);
  return results;
}

if (require.main === module) {
  for (const r of runFiveDiceMicroBenchmarks()) {
    console.log(
      `${r.name.padEnd(52)} ${r.opsPerSec.toLocaleString('en-US').padStart(12)} ops/s  ${r.usPerOp.toFixed(3).padStart(9)} µs/op`,
    );
  }
}
