/**
 * The built server as a process: bad configuration exits with one line naming the variable,
 * and SIGTERM lets an in-flight request finish. Needs `npm run build` (npm test does it first).
 */
import { ChildProcess, spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import http from 'node:http';
import { join } from 'node:path';

const root = join(__dirname, '..', '..');
const main = join(root, 'dist', 'src', 'main.js');

beforeAll(() => {
  if (!existsSync(main)) throw new Error('dist/ is missing: run `npm run build` (npm test does it before jest)');
});

describe('configuration is validated once at start-up', () => {
  it.each([
    [{ DATABASE_URL: 'not-a-url' }, 'DATABASE_URL'],
    [{ PORT: 'abc' }, 'PORT'],
    [{ MIGRATE_ON_START: 'perhaps' }, 'MIGRATE_ON_START'],
  ])('%p → exit code 1 and one line naming %s', (env: Record<string, string>, name: string) => {
    const result = spawnSync(process.execPath, [main], { env: { ...process.env, ...env }, encoding: 'utf8', timeout: 20000 });
    expect(result.status).toBe(1);
    const lines = result.stderr.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain(name);
    expect(lines[0]).toMatch(/^Invalid configuration: /);
  });
});

describe('graceful shutdown', () => {
  let child: ChildProcess | undefined;
  afterEach(() => child?.kill('SIGKILL'));

  it('SIGTERM during a request lets that request finish, then the process exits 0', async () => {
    child = spawn(process.execPath, [join(root, 'test', 'fixtures', 'slow-server.js')], {
      env: { ...process.env, SLOW_MS: '1500' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const port = await new Promise<number>((resolve, reject) => {
      let out = '';
      child!.stdout!.on('data', (chunk) => {
        out += chunk;
        const m = /LISTENING (\d+)/.exec(out);
        if (m) resolve(Number(m[1]));
      });
      child!.on('exit', (code) => reject(new Error(`server exited early (${code}): ${out}`)));
    });
    const exited = new Promise<number | null>((resolve) => child!.on('exit', (code) => resolve(code)));

    const response = new Promise<{ status: number; body: string }>((resolve, reject) => {
      http.get({ host: '127.0.0.1', port, path: '/slow', agent: false }, (res) => {
        let body = '';
        res.on('data', (c) => (body += c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      }).on('error', reject);
    });
    await new Promise((r) => setTimeout(r, 300)); // the request is now in flight
    child.kill('SIGTERM');

    const { status, body } = await response;
    expect(status).toBe(200);
    expect(JSON.parse(body)).toEqual({ finished: true });
    expect(await exited).toBe(0);
  }, 30000);
});
