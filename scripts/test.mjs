// `npm test`: build, then the static checks two at a time (each is one process on one core): ESLint
// (`lint:eslint`) on one lane; the format check, type-check, purity check and the rest of `npm run lint` (its
// boundaries, import cycles and knip, `lint:structure`) on the other, which takes about as long;
// then Jest (unit and e2e), two workers by default.
//
// With FAIRDICE_SKIP_ONCE_SUITES=1 (.ci/run's second pass, against the embedded database, on the
// tree its first pass has just built and checked in full) it runs only the end-to-end suites that
// exercise the database (scripts/test-passes.mjs lists what each pass runs, and why).
import { Buffer } from 'node:buffer';
import { spawn } from 'node:child_process';
import { embeddedPassIgnores } from './test-passes.mjs';

const once = process.env.FAIRDICE_SKIP_ONCE_SUITES === '1';
const callerArgs = process.argv.slice(2);
// Two workers, each on its own database (test/helpers/global-setup.ts). Jest's own default is
// one worker on a 2-core machine (cores − 1), and most of an e2e file's time is spent waiting
// on the database, a timer or a child process: two files side by side keep both cores busy.
// FAIRDICE_TEST_WORKERS or the caller's own --maxWorkers/-w/--runInBand/-i overrides it.
const workerArgs = callerArgs.some((a) => /^(--maxWorkers|-w|--runInBand|-i)(=|$)/.test(a))
  ? []
  : [`--maxWorkers=${process.env.FAIRDICE_TEST_WORKERS || 2}`];
const npmRun = (script) => ({ name: script, command: 'npm', args: ['run', script] });
// Each stage runs its lanes side by side; a lane runs its steps one after another.
const stages = once
  ? // The first pass has built this tree (suites that need the build check it: ensureBuilt).
    [[[jestStep()]]]
  : [
      [[npmRun('build')]],
      [
        [npmRun('lint:eslint')],
        [npmRun('format:check'), npmRun('typecheck'), npmRun('lint:rules'), npmRun('lint:structure')],
      ],
      [[jestStep()]],
    ];

function jestStep() {
  return {
    name: 'jest',
    command: 'jest',
    // Jest's --selectProjects and --testPathIgnorePatterns take every word after them: they go
    // last, after the caller's arguments.
    args: [
      ...workerArgs,
      ...callerArgs,
      ...(once ? ['--testPathIgnorePatterns', ...embeddedPassIgnores, '--selectProjects', 'e2e'] : []),
    ],
  };
}

if (once)
  console.log(
    '[test] FAIRDICE_SKIP_ONCE_SUITES=1: the e2e suites that exercise the database only (the build, static checks, unit tests and other suites ran in the first pass; scripts/test-passes.mjs)',
  );

const seconds = (ms) => `${(ms / 1000).toFixed(1)} s`;
const durations = [];

/**
 * Runs one step. Alone, its output goes straight to the terminal; beside another, it is held
 * and printed whole when the step ends, so the two never interleave.
 */
function run(step, alone) {
  const started = Date.now();
  return new Promise((resolve) => {
    const child = spawn(step.command, step.args, { stdio: alone ? 'inherit' : ['ignore', 'pipe', 'pipe'] });
    const held = [];
    if (!alone) {
      child.stdout.on('data', (c) => held.push(c));
      child.stderr.on('data', (c) => held.push(c));
    }
    const finish = (status, error) => {
      if (held.length) process.stdout.write(Buffer.concat(held));
      const took = seconds(Date.now() - started);
      durations.push(`${step.name} ${took}`);
      console.log(`[test] ${step.name}: ${status === 0 ? 'ok' : 'failed'} in ${took}`);
      resolve(error ? 1 : (status ?? 1));
    };
    child.once('error', (err) => {
      console.error(err);
      finish(1, err);
    });
    child.once('close', (status) => finish(status));
  });
}

for (const lanes of stages) {
  const alone = lanes.length === 1 && lanes[0].length === 1;
  // Each lane stops at its first failure; the stage fails when a lane does (after all have ended).
  const statuses = await Promise.all(
    lanes.map(async (lane) => {
      for (const step of lane) {
        const status = await run(step, alone);
        if (status !== 0) return status;
      }
      return 0;
    }),
  );
  const failed = statuses.find((s) => s !== 0);
  if (failed !== undefined) {
    console.log(`[test] steps: ${durations.join(', ')}`);
    process.exit(failed);
  }
}
console.log(`[test] steps: ${durations.join(', ')}`);
