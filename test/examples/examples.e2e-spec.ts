/**
 * The examples outside bash (issue 14, item 5) play a whole game against the real server, each
 * as its own process, as a user runs them:
 * - examples/typescript/two-player.ts through @fairdice/client (bundled by esbuild, run by node);
 * - examples/python/two_player.py with python3 and nothing but the standard library.
 * No python3 on the machine is a failure, not a skip: CI must run both.
 */
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build } from 'esbuild';
import { createTestApp, type TestApp } from '../helpers/app';

// A whole game of ~60 requests per example, plus bundling: minutes on a loaded CI machine, not 5 s.
jest.setTimeout(180_000);

const root = join(__dirname, '..', '..');

/** Runs a program to its end; resolves with its output, rejects with it on a non-zero exit. */
function run(command: string, args: string[], env: Record<string, string>): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (chunk) => (out += chunk));
    child.stderr.on('data', (chunk) => (out += chunk));
    child.on('error', reject);
    child.on('exit', (code, signal) =>
      code === 0 ? resolve(out) : reject(new Error(`${command} exited ${code ?? signal}:\n${out}`)),
    );
  });
}

/** The lines both examples print, in order, for one finished game checked end to end. */
function expectAWholeGame(output: string) {
  expect(output).toMatch(/^registered Ada \(\S+\) and Bob \(\S+\)$/m);
  expect(output).toMatch(/^game \S+ created; commitment [0-9a-f]{64}$/m);
  const ranks = [...output.matchAll(/^rank (\d): (Ada|Bob) (\d+)$/gm)];
  expect(ranks.map((m) => m[2]).sort()).toEqual(['Ada', 'Bob']);
  // 26 turns of a roll and a score, plus the lobby and the end
  const streamed = /^streamed all (\d+) events, ending with gameFinished$/m.exec(output);
  expect(Number(streamed?.[1])).toBeGreaterThan(52);
  expect(output).toMatch(/^SHA-256\(serverSeed\) equals the commitment$/m);
  expect(output).toMatch(/^audit bundle: \d+ events, chain head [0-9a-f]{64}/m);
}

describe('examples play a complete two-player game against the server', () => {
  let t: TestApp;
  let baseUrl: string;
  let dir: string;

  beforeAll(async () => {
    t = await createTestApp({ listen: true });
    const address = t.app.getHttpServer().address() as { port: number };
    baseUrl = `http://127.0.0.1:${address.port}`;
    dir = mkdtempSync(join(tmpdir(), 'fairdice-examples-'));
  });
  afterAll(async () => {
    await t?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('TypeScript: examples/typescript/two-player.ts with @fairdice/client', async () => {
    const outfile = join(dir, 'two-player.cjs');
    await build({
      entryPoints: [join(root, 'examples', 'typescript', 'two-player.ts')],
      outfile,
      bundle: true,
      platform: 'node',
      format: 'cjs',
      target: 'node20',
      alias: { '@fairdice/client': join(root, 'packages', 'client', 'src', 'index.ts') },
      logLevel: 'error',
    });
    expectAWholeGame(await run(process.execPath, [outfile], { FAIRDICE_URL: baseUrl }));
  });

  it('Python (standard library only): examples/python/two_player.py', async () => {
    const version = execFileSync('python3', ['--version'], { encoding: 'utf8' }); // throws without python3
    expect(version).toMatch(/^Python 3\./);
    // -I: isolated mode, no user site-packages; -S: not even the site module. Only the standard library.
    expectAWholeGame(
      await run('python3', ['-I', '-S', join(root, 'examples', 'python', 'two_player.py')], { FAIRDICE_URL: baseUrl }),
    );
  });
});
