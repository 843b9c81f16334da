/**
 * `npm pack -w @fairdice/client` yields a tarball a third party can install and use (issue 14,
 * item 4): installed into an empty directory, it loads from CommonJS and from ESM, its declarations
 * type-check a consumer's code (a wrong path or body is a compile error), and the
 * installed code plays against the real server.
 */
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createTestApp, type TestApp } from '../helpers/app';
import { ensureBuilt, ROOT } from '../helpers/build';

jest.setTimeout(240_000);

const run = (command: string, args: string[], cwd: string, env: Record<string, string> = {}) =>
  execFileSync(command, args, {
    cwd,
    encoding: 'utf8',
    stdio: 'pipe',
    env: { ...process.env, ...env },
    timeout: 180_000,
  });

/** tsc's exit status and output (its errors go to stdout). */
const typecheck = (cwd: string) => {
  const r = spawnSync(
    process.execPath,
    [join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', 'tsconfig.json'],
    {
      cwd,
      encoding: 'utf8',
      timeout: 120_000,
    },
  );
  return { status: r.status, output: r.stdout + r.stderr };
};

/** Runs node asynchronously: the server under test lives in this process and must keep answering. */
const runAsync = (args: string[], cwd: string, env: Record<string, string>) =>
  new Promise<string>((resolve, reject) => {
    const child = spawn(process.execPath, args, {
      cwd,
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (c) => (out += c));
    child.stderr.on('data', (c) => (out += c));
    child.on('error', reject);
    child.on('exit', (code) => (code === 0 ? resolve(out) : reject(new Error(`exit ${code}: ${out}`))));
  });

describe('@fairdice/client tarball', () => {
  let packDir: string;
  let installDir: string;
  let tarball: string;
  let t: TestApp;

  beforeAll(async () => {
    packDir = mkdtempSync(join(tmpdir(), 'fairdice-client-pack-'));
    // Built by `npm run build` (ensureBuilt rebuilds a stale one); --ignore-scripts skips prepack's
    // rebuild, which would rewrite packages/client/src/generated while other suites import it.
    ensureBuilt();
    run('npm', ['pack', '--silent', '--ignore-scripts', '-w', '@fairdice/client', '--pack-destination', packDir], ROOT);
    [tarball] = readdirSync(packDir).filter((f) => f.endsWith('.tgz'));
    installDir = mkdtempSync(join(tmpdir(), 'fairdice-client-install-'));
    writeFileSync(
      join(installDir, 'package.json'),
      JSON.stringify({ name: 'integrator', version: '1.0.0', private: true }),
    );
    // --prefer-offline, not --offline: a clean machine's npm cache, filled by `npm ci`, holds the
    // tarballs but not every dependency's registry metadata, which the install may fetch.
    run('npm', ['install', '--prefer-offline', '--no-audit', '--no-fund', join(packDir, tarball)], installDir);
    t = await createTestApp({ listen: true });
  });
  afterAll(async () => {
    await t?.close();
    for (const dir of [packDir, installDir]) if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('holds the built code and the generated declarations, no sources or tests', () => {
    const files = run('tar', ['-tzf', join(packDir, tarball)], packDir)
      .trim()
      .split('\n');
    expect(files).toEqual(
      expect.arrayContaining([
        'package/package.json',
        'package/README.md',
        'package/dist/index.js',
        'package/dist/index.d.ts',
        'package/dist/graphql.js',
        'package/dist/generated/openapi.d.ts',
        'package/dist/generated/graphql.d.ts',
      ]),
    );
    expect(files.filter((f) => f.endsWith('.ts') && !f.endsWith('.d.ts'))).toEqual([]);
    expect(files.filter((f) => /spec/.test(f))).toEqual([]);
  });

  it('loads from CommonJS and ESM', () => {
    const cjs = run(
      process.execPath,
      [
        '-e',
        "const c = require('@fairdice/client'); console.log([typeof c.createFairdiceClient, typeof c.gameEventStream, typeof c.verifyWebhook].join())",
      ],
      installDir,
    );
    expect(cjs.trim()).toBe('function,function,function');
    const esm = run(
      process.execPath,
      [
        '--input-type=module',
        '-e',
        "import { createFairdiceClient, unwrap } from '@fairdice/client'; console.log(typeof createFairdiceClient, typeof unwrap)",
      ],
      installDir,
    );
    expect(esm.trim()).toBe('function function');
  });

  it("types a consumer's code: correct calls compile, a wrong body or path does not", () => {
    const tsconfig = {
      compilerOptions: {
        module: 'node16',
        moduleResolution: 'node16',
        target: 'es2022',
        lib: ['es2023', 'dom'],
        strict: true,
        noEmit: true,
        types: [],
      },
      include: ['*.ts'],
    };
    writeFileSync(join(installDir, 'tsconfig.json'), JSON.stringify(tsconfig));
    const good = `import { createFairdiceClient, unwrap, type Game } from '@fairdice/client';
export async function f(): Promise<Game> {
  const api = createFairdiceClient({ baseUrl: 'http://x', token: 't' });
  return unwrap(await api.POST('/v1/games/{id}/score', { params: { path: { id: 'g' } }, body: { box: 'chance' } }));
}
`;
    writeFileSync(join(installDir, 'consumer.ts'), good);
    expect(typecheck(installDir)).toEqual({ status: 0, output: '' });

    // One wrong body and one wrong path in a second file, checked in one run (tsc takes seconds).
    const [imports, body] = [good.slice(0, good.indexOf('\n') + 1), good.slice(good.indexOf('\n') + 1)];
    const wrong =
      imports +
      body.replace('function f()', 'function g()').replace("{ box: 'chance' }", '{ boxx: 1 }') +
      body.replace('function f()', 'function h()').replace('/score', '/scores');
    writeFileSync(join(installDir, 'wrong.ts'), wrong);
    const refused = typecheck(installDir);
    expect(refused.status).not.toBe(0);
    expect(refused.output).toMatch(/wrong\.ts.*'boxx'/);
    expect(refused.output).toMatch(/wrong\.ts.*"\/v1\/games\/\{id\}\/scores"/);
    expect(refused.output).not.toMatch(/consumer\.ts/);
  });

  it('the installed code talks to the real server', async () => {
    const baseUrl = `http://127.0.0.1:${(t.app.getHttpServer().address() as { port: number }).port}`;
    const script = `
      const { createFairdiceClient, unwrap } = require('@fairdice/client');
      (async () => {
        const anon = createFairdiceClient({ baseUrl: process.env.FAIRDICE_URL });
        const { token } = unwrap(await anon.POST('/v1/players', { body: { displayName: 'Installed' } }));
        const api = createFairdiceClient({ baseUrl: process.env.FAIRDICE_URL, token });
        const game = unwrap(await api.POST('/v1/games', { body: { ruleSet: 'farkle', seats: 1 } }));
        const bad = await api.POST('/v1/games', { body: { ruleSet: 'chess', seats: 1 } });
        console.log(game.status, game.family, bad.response.status, bad.error.code);
      })().catch((e) => { console.error(e); process.exit(1); });`;
    expect((await runAsync(['-e', script], installDir, { FAIRDICE_URL: baseUrl })).trim()).toBe(
      'open farkle 400 VALIDATION_FAILED',
    );
  });
});
