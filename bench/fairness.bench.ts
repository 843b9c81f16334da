/**
 * Micro-benchmarks of the fairness primitives: deriving one roll of 5 dice, and hashing one event envelope.
 *
 *   npx tsc -p tsconfig.build.json && node dist/bench/fairness.bench.js
 */
import { createHmac } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { deriveDice } from '@fairdice/core/fairness/derivation';
import { type EventEnvelope, eventHash } from '@fairdice/core/fairness/hash-chain';
import { commitmentOf } from '@fairdice/core/fairness/seeds';

export interface BenchResult {
  name: string;
  opsPerSec: number;
  usPerOp: number;
  iterations: number;
}

/** Runs `fn` repeatedly for about `ms` milliseconds after a warm-up, and returns its throughput. */
function measure(name: string, fn: (i: number) => unknown, ms = 500): BenchResult {
  let sink: unknown;
  for (let i = 0; i < 2_000; i++) sink = fn(i); // warm-up (JIT)
  let iterations = 0;
  let batch = 256;
  const start = performance.now();
  let elapsed = 0;
  while (elapsed < ms) {
    for (let i = 0; i < batch; i++) sink = fn(iterations + i);
    iterations += batch;
    elapsed = performance.now() - start;
    if (elapsed < ms / 10) batch *= 2;
  }
  if (sink === Symbol.for('never')) console.log(sink); // keep the result observable
  const usPerOp = (elapsed * 1000) / iterations;
  return { name, opsPerSec: Math.round(1e6 / usPerOp), usPerOp: Math.round(usPerOp * 1000) / 1000, iterations };
}

export function runFairnessMicroBenchmarks(options: { durationMs?: number } = {}): BenchResult[] {
  const ms = options.durationMs ?? 500;
  const serverSeed = Buffer.alloc(32, 0x5a);
  const gameId = '3f2504e0-4f89-41d3-9a0c-0305e82c3301';
  const clientSeeds = ['tournament-2026', 'alice:lucky#7', '00112233445566778899aabbccddeeff', 'bob-seed'];
  const envelope: EventEnvelope = {
    gameId,
    version: 42,
    type: 'DiceRolled',
    seat: 1,
    data: { dice: [3, 1, 6, 6, 2], kept: [2, 3], rollIndex: 2, turn: 7, note: 'Zoë 🎲' },
    rollNumber: 41,
    command: { type: 'play', playerId: 'p-bob', move: { type: 'roll', hold: [2, 3] } },
    prevHash: commitmentOf(serverSeed),
  };
  const message = Buffer.alloc(144, 0x2a);
  const results = [
    // Baseline for reading the other figures on a given machine: one bare HMAC-SHA256 of a 144-byte message.
    measure('baseline: one HMAC-SHA256 (144 B)', () => createHmac('sha256', serverSeed).update(message).digest(), ms),
    measure(
      'deriveDice (5 dice)',
      (i) => deriveDice({ serverSeed, clientSeeds, gameId, rollNumber: i >>> 0, count: 5 }),
      ms,
    ),
    measure(
      'deriveDice (100 dice)',
      (i) => deriveDice({ serverSeed, clientSeeds, gameId, rollNumber: i >>> 0, count: 100 }),
      ms,
    ),
    measure('eventHash (DiceRolled envelope)', (i) => eventHash({ ...envelope, version: (i % 1_000_000) + 1 }), ms),
  ];
  return results;
}

if (require.main === module) {
  console.table(
    runFairnessMicroBenchmarks().map((r) => ({
      name: r.name,
      'ops/s': r.opsPerSec,
      'µs/op': r.usPerOp,
      iterations: r.iterations,
    })),
  );
}
