// `npm test`: format check, build, type-check, purity check, lint, then Jest (unit and e2e).
//
// With FAIRDICE_SKIP_ONCE_SUITES=1 (.ci/run's second pass, against the embedded database, on the
// tree its first pass has just checked in full) it builds and runs only the end-to-end tests
// without the once-only suites: the static checks and the unit tests do not touch a database, so
// a second run would repeat them on the same files (about 3 minutes of a CI run).
import { spawnSync } from 'node:child_process';

const once = process.env.FAIRDICE_SKIP_ONCE_SUITES === '1';
const npmRun = (script) => ['npm', ['run', script]];
const steps = [
  ...(once ? [] : [npmRun('format:check')]),
  npmRun('build'),
  ...(once ? [] : [npmRun('typecheck'), npmRun('lint:rules'), npmRun('lint')]),
  // Jest's --selectProjects takes every word after it: it goes last, after the caller's arguments.
  ['jest', [...process.argv.slice(2), ...(once ? ['--selectProjects', 'e2e'] : [])]],
];
if (once)
  console.log(
    '[test] FAIRDICE_SKIP_ONCE_SUITES=1: build and the e2e project only (static checks and unit tests ran in the first pass)',
  );
for (const [command, args] of steps) {
  const { status, error } = spawnSync(command, args, { stdio: 'inherit' });
  if (error) throw error;
  if (status !== 0) process.exit(status ?? 1);
}
