// `npm test`: format check, build, type-check, purity check, lint, then Jest (unit and e2e).
//
// With FAIRDICE_SKIP_ONCE_SUITES=1 (.ci/run's second pass, against the embedded database, on the
// tree its first pass has just checked in full) it builds and runs only the end-to-end tests that
// touch the database, without the once-only suites: the static checks, the unit tests and the
// database-free suites below would repeat on the same files what the first pass has just shown.
import { spawnSync } from 'node:child_process';

const once = process.env.FAIRDICE_SKIP_ONCE_SUITES === '1';
// e2e suites whose outcome does not depend on which database the run uses, left out of the
// second pass: the contracts and generated schemas (test/api), the package installs
// (test/install), the docs' walk-throughs and the example programs, the built server as a
// process (it chooses its own database), and the verifier CLIs and pages (they check bundles,
// whichever database made them).
const databaseFreeSuites = [
  '/test/(api|install|docs|examples)/',
  '/test/process/process\\.',
  '/test/fairness/(cli|verifiers)\\.',
];
const npmRun = (script) => ['npm', ['run', script]];
const steps = [
  ...(once ? [] : [npmRun('format:check')]),
  npmRun('build'),
  ...(once ? [] : [npmRun('typecheck'), npmRun('lint:rules'), npmRun('lint')]),
  // Jest's --selectProjects and --testPathIgnorePatterns take every word after them: they go
  // last, after the caller's arguments.
  [
    'jest',
    [
      ...process.argv.slice(2),
      ...(once ? ['--testPathIgnorePatterns', ...databaseFreeSuites, '--selectProjects', 'e2e'] : []),
    ],
  ],
];
if (once)
  console.log(
    '[test] FAIRDICE_SKIP_ONCE_SUITES=1: build and the e2e project only (static checks and unit tests ran in the first pass)',
  );
// Each step's duration, printed as it ends and summed up at the end (where CI's time goes).
const durations = [];
const seconds = (ms) => `${(ms / 1000).toFixed(1)} s`;
for (const [command, args] of steps) {
  const name = command === 'npm' ? args[1] : command;
  const started = Date.now();
  const { status, error } = spawnSync(command, args, { stdio: 'inherit' });
  durations.push(`${name} ${seconds(Date.now() - started)}`);
  console.log(`[test] ${name}: ${status === 0 ? 'ok' : 'failed'} in ${seconds(Date.now() - started)}`);
  if (error) throw error;
  if (status !== 0) process.exit(status ?? 1);
}
console.log(`[test] steps: ${durations.join(', ')}`);
