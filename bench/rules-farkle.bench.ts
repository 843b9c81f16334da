/**
 * Micro-benchmarks of the Farkle rules engine: scoring the current roll, and replaying a full game.
 *
 *   npx tsc -p tsconfig.build.json && node dist/bench/rules-farkle.bench.js
 */
import { performance } from 'node:perf_hooks';
import type { Die, RollDice } from '@fairdice/core/rules/core/dice';
import { isRuleError } from '@fairdice/core/rules/core/errors';
import {
  type FarkleCommand,
  type FarkleEvent,
  type FarkleOptions,
  type FarkleState,
  bestSelection,
  decide,
  evolve,
  farkle,
  farkleWithStraights,
  initialState,
  isFarkle,
  isFinished,
  replay,
  scoringSelections,
  start,
} from '@fairdice/core/rules/farkle';

export interface FarkleBenchResult {
  name: string;
  opsPerSec: number;
  usPerOp: number;
  iterations: number;
}

/** Runs `fn` repeatedly for about `ms` milliseconds after a warm-up; `perOp` divides each call into that many ops. */
function measure(name: string, fn: (i: number) => unknown, ms: number, perOp = 1): FarkleBenchResult {
  let sink: unknown;
  for (let i = 0; i < 200; i++) sink = fn(i); // warm-up (JIT, scoring memo)
  let calls = 0;
  let batch = 16;
  const t0 = performance.now();
  let elapsed = 0;
  while (elapsed < ms) {
    for (let i = 0; i < batch; i++) sink = fn(calls + i);
    calls += batch;
    elapsed = performance.now() - t0;
    if (elapsed < ms / 10) batch *= 2;
  }
  if (sink === Symbol.for('never')) console.log(sink);
  const iterations = calls * perOp;
  const usPerOp = (elapsed * 1000) / iterations;
  return { name, opsPerSec: Math.round(1e6 / usPerOp), usPerOp: Math.round(usPerOp * 1000) / 1000, iterations };
}

/** Deterministic dice (mulberry32), so every run benchmarks the same rolls and the same game. */
function seededRoller(seed: number): RollDice {
  let a = seed >>> 0;
  return (count) =>
    Array.from({ length: count }, () => {
      a = (a + 0x6d2b79f5) >>> 0;
      let t = a;
      t = Math.imul(t ^ (t >>> 15), t | 1);
      t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
      return (1 + Math.floor((((t ^ (t >>> 14)) >>> 0) / 4294967296) * 6)) as Die;
    });
}

/** A full game played by a simple bot (best selection; bank at 350+ once on the board or with 2 dice or fewer left). */
export function simulateFarkleGame(
  options: FarkleOptions = farkle,
  seats = 4,
  seed = 2026,
): { events: FarkleEvent[]; state: FarkleState; commands: number } {
  const roll = seededRoller(seed);
  let state = initialState(options, seats);
  const events: FarkleEvent[] = [];
  const apply = (es: FarkleEvent[]) => {
    for (const e of es) state = evolve(state, e);
    events.push(...es);
  };
  apply(start(state, roll));
  let commands = 0;
  while (!isFinished(state) && commands < 100_000) {
    const turn = state.turn!;
    const seat = turn.seat;
    let command: FarkleCommand;
    if (!turn.roll) command = { type: 'roll', seat };
    else {
      const best = bestSelection(turn.roll, options)!;
      const points = turn.points + best.points;
      const left = turn.diceLeft - best.dice.length;
      const mayBank = state.onBoard[seat] ? points >= 350 : points >= options.entryThreshold;
      command =
        mayBank && left > 0 && left <= 2
          ? { type: 'bank', seat, setAside: best.dice }
          : { type: 'roll', seat, setAside: best.dice };
      if (mayBank && points >= 1000) command = { type: 'bank', seat, setAside: best.dice };
    }
    const out = decide(state, command, roll);
    if (isRuleError(out)) throw new Error(`bot command rejected: ${out.code} ${out.message}`);
    apply(out);
    commands++;
  }
  return { events, state, commands };
}

export function runFarkleMicroBenchmarks(options: { durationMs?: number } = {}): FarkleBenchResult[] {
  const ms = options.durationMs ?? 500;
  const roll = seededRoller(7);
  const rolls6 = Array.from({ length: 1024 }, () => roll(6));
  const rollsMixed = Array.from({ length: 1024 }, (_, i) => roll(1 + (i % 6)));
  const game = simulateFarkleGame(farkle, 4, 2026);
  const json = JSON.stringify(game.events);
  const results = [
    measure('scoringSelections (6 dice, default)', (i) => scoringSelections(rolls6[i & 1023], farkle), ms),
    measure(
      'scoringSelections (6 dice, straights on)',
      (i) => scoringSelections(rolls6[i & 1023], farkleWithStraights),
      ms,
    ),
    measure('scoringSelections (1-6 dice, default)', (i) => scoringSelections(rollsMixed[i & 1023], farkle), ms),
    measure('bestSelection (6 dice)', (i) => bestSelection(rolls6[i & 1023], farkle), ms),
    measure('isFarkle (6 dice)', (i) => isFarkle(rolls6[i & 1023], farkle), ms),
    measure(
      `replay full 4-seat game (${game.events.length} events), per event`,
      () => replay(game.events, farkle, 4),
      ms,
      game.events.length,
    ),
    measure(
      `JSON.parse + replay (${game.events.length} events), per event`,
      () => replay(JSON.parse(json), farkle, 4),
      ms,
      game.events.length,
    ),
    measure(
      `simulate full game via decide+evolve (${game.commands} commands), per command`,
      () => simulateFarkleGame(farkle, 4, 2026),
      ms,
      game.commands,
    ),
  ];
  return results;
}

if (require.main === module) {
  console.table(runFarkleMicroBenchmarks());
}
