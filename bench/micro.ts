/** The micro-benchmark suites, run in the bench process before any server starts. */
import { runAdviceMicroBenchmarks } from './advice.bench';
import { runFairnessMicroBenchmarks } from './fairness.bench';
import { runFarkleTwoPlayerMicroBenchmarks } from './farkle-two-player.bench';
import { log } from './format';
import { runGameAggregateMicroBenchmarks } from './game-aggregate.bench';
import { runGraphqlValidationMicroBenchmarks } from './graphql-validation.bench';
import type { Options } from './options';
import { runFarkleMicroBenchmarks } from './rules-farkle.bench';
import { runFiveDiceMicroBenchmarks } from './rules-five-dice.bench';
import { runRatingsMicroBenchmarks } from './ratings.bench';
import { runMatchmakerMicroBenchmarks } from './matchmaker.bench';

export interface MicroRow {
  suite: string;
  name: string;
  opsPerSec: number;
  usPerOp: number;
}

export function runMicro(opts: Options): { rows: MicroRow[]; failures: string[] } {
  const rows: MicroRow[] = [];
  const failures: string[] = [];
  const suites: Array<[string, () => Array<{ name: string; opsPerSec: number; usPerOp: number }>]> = [
    ['five-dice', () => runFiveDiceMicroBenchmarks()],
    ['farkle', () => runFarkleMicroBenchmarks({ durationMs: opts.microMs })],
    ['fairness', () => runFairnessMicroBenchmarks({ durationMs: opts.microMs })],
    ['game aggregate', () => runGameAggregateMicroBenchmarks({ durationMs: opts.microMs })],
    ['graphql validation', () => runGraphqlValidationMicroBenchmarks({ durationMs: opts.microMs })],
    ['advice', () => runAdviceMicroBenchmarks()],
    ['two-player Farkle', () => runFarkleTwoPlayerMicroBenchmarks()],
    ['ratings', () => runRatingsMicroBenchmarks({ durationMs: opts.microMs })],
    ['matchmaker', () => runMatchmakerMicroBenchmarks()],
  ];
  for (const [suite, run] of suites) {
    log(`micro: ${suite}`);
    try {
      for (const r of run()) rows.push({ suite, name: r.name, opsPerSec: r.opsPerSec, usPerOp: r.usPerOp });
    } catch (err) {
      const msg = `${suite}: ${err instanceof Error ? err.message : String(err)}`;
      failures.push(msg);
      log(`  micro suite failed: ${msg}`);
    }
  }
  return { rows, failures };
}
