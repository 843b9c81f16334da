/**
 * Suites that run what users run (the compiled CLI, the verifier package, the verifier page) call
 * `ensureBuilt()` first: it runs `npm run build` when a build output is missing or older than the
 * sources it comes from (`npm test` has just built, so there it costs one stat per file).
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';

export const ROOT = join(__dirname, '..', '..');

function newestSource(dir: string, skip?: string): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, entry.name);
    if (entry.isDirectory() && entry.name === skip) continue;
    if (entry.isDirectory()) newest = Math.max(newest, newestSource(p, skip));
    else if (/\.(ts|tsx|html|css|graphql)$/.test(entry.name) && !entry.name.endsWith('.spec.ts'))
      newest = Math.max(newest, statSync(p).mtimeMs);
  }
  return newest;
}

const mtime = (file: string) => {
  try {
    return statSync(file).mtimeMs;
  } catch {
    return 0;
  }
};

/** Builds (npm run build) unless every output below is newer than every source it is built from. */
export function ensureBuilt(): void {
  const outputs = [
    join(ROOT, 'dist', 'src', 'main.js'),
    join(ROOT, 'dist', 'src', 'fairness', 'cli.js'),
    join(ROOT, 'packages', 'core', 'dist', 'index.js'),
    join(ROOT, 'packages', 'verifier', 'dist', 'cli.js'),
    join(ROOT, 'packages', 'verifier', 'dist', 'verify.html'),
    join(ROOT, 'packages', 'client', 'dist', 'index.js'),
    join(ROOT, 'web', 'dist', 'index.html'),
  ];
  const sources = Math.max(
    newestSource(join(ROOT, 'src')),
    newestSource(join(ROOT, 'packages', 'core', 'src')),
    newestSource(join(ROOT, 'packages', 'verifier', 'src')),
    mtime(join(ROOT, 'packages', 'verifier', 'build.js')),
    // the SDK: its sources (generated types excluded: written by the build itself), build script and contracts
    newestSource(join(ROOT, 'packages', 'client', 'src'), 'generated'),
    mtime(join(ROOT, 'packages', 'client', 'build.mjs')),
    mtime(join(ROOT, 'openapi', 'openapi.json')),
    mtime(join(ROOT, 'src', 'schema.gql')),
    // the web client (web/build.mjs over web/src and web/index.html)
    newestSource(join(ROOT, 'web', 'src')),
    mtime(join(ROOT, 'web', 'index.html')),
    mtime(join(ROOT, 'web', 'build.mjs')),
  );
  if (Math.min(...outputs.map(mtime)) >= sources) return;
  // Jest workers run files side by side: one builds while the others wait for it (a directory is
  // created atomically), then look again.
  if (!takeBuildLock()) {
    const until = Date.now() + 280_000;
    while (existsSync(BUILD_LOCK) && Date.now() < until)
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 200);
    return ensureBuilt();
  }
  try {
    execFileSync('npm', ['run', 'build'], { cwd: ROOT, stdio: 'pipe', timeout: 280_000 });
  } finally {
    rmSync(BUILD_LOCK, { recursive: true, force: true });
  }
}

const BUILD_LOCK = join(ROOT, 'node_modules', '.fairdice-build.lock');

function takeBuildLock(): boolean {
  try {
    mkdirSync(BUILD_LOCK);
    return true;
  } catch {
    // A lock left by a killed run (older than a build can take) is taken over.
    if (Date.now() - mtime(BUILD_LOCK) > 300_000) {
      rmSync(BUILD_LOCK, { recursive: true, force: true });
      return takeBuildLock();
    }
    return false;
  }
}
