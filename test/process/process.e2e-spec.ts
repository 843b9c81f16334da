/**
 * The built server as a process: bad configuration exits with one line naming the variable,
 * SIGTERM lets an in-flight request finish and ends open event streams and GraphQL WebSockets,
 * and with no DATABASE_URL games survive a restart.
 * Needs `npm run build` (npm test does it first).
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import http from 'node:http';
import { join } from 'node:path';

// eslint-disable-next-line @typescript-eslint/no-require-imports -- ws ships no types here
const WebSocket: any = require('ws');

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
    // with DATABASE_URL both keys are required (only the embedded default generates its own)
    [{ DATABASE_URL: 'postgresql://127.0.0.1:1/x', LOG_SIGNING_KEY: '' }, 'LOG_SIGNING_KEY'],
    [{ DATABASE_URL: 'postgresql://127.0.0.1:1/x', SEED_ENCRYPTION_KEYS: '' }, 'SEED_ENCRYPTION_KEYS'],
    [{ SEED_ENCRYPTION_KEYS: 'k1:short' }, 'SEED_ENCRYPTION_KEYS'],
  ])('%p → exit code 1 and one line naming %s', (env: Record<string, string>, name: string) => {
    const result = spawnSync(process.execPath, [main], {
      env: { ...process.env, ...env },
      encoding: 'utf8',
      timeout: 20000,
    });
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

  /** The fixture server (the built app, main.ts's shutdown handler); `onOutput` sees its stdout so far. */
  async function startFixture(env: Record<string, string> = {}, onOutput: (out: string) => void = () => undefined) {
    child = spawn(process.execPath, [join(root, 'test', 'fixtures', 'slow-server.js')], {
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    const port = await new Promise<number>((resolve, reject) => {
      child!.stdout!.on('data', (chunk) => {
        out += chunk;
        const m = /LISTENING (\d+)/.exec(out);
        if (m) resolve(Number(m[1]));
        onOutput(out);
      });
      child!.on('exit', (code) => reject(new Error(`server exited early (${code}): ${out}`)));
    });
    const exited = new Promise<number | null>((resolve) => child!.on('exit', (code) => resolve(code)));
    return { port, exited };
  }

  it('SIGTERM during a request lets that request finish, then the process exits 0', async () => {
    let onInFlight: () => void = () => undefined;
    const inFlight = new Promise<void>((resolve) => (onInFlight = resolve));
    const { port, exited } = await startFixture({ SLOW_MS: '1500' }, (out) => {
      if (out.includes('SLOW REQUEST STARTED')) onInFlight();
    });

    const response = new Promise<{ status: number; body: string }>((resolve, reject) => {
      http
        .get({ host: '127.0.0.1', port, path: '/slow', agent: false }, (res) => {
          let body = '';
          res.on('data', (c) => (body += c));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
        })
        .on('error', reject);
    });
    await inFlight; // the fixture's log line: the slow route has started
    child!.kill('SIGTERM');

    const { status, body } = await response;
    expect(status).toBe(200);
    expect(JSON.parse(body)).toEqual({ finished: true });
    expect(await exited).toBe(0);
  }, 30000);

  it('SIGTERM with an event stream and a GraphQL WebSocket open ends both, then the process exits 0', async () => {
    // An open stream or WebSocket never finishes by itself: the shutdown must end it, not wait out
    // its timeout (the fixture's 10 s, then exit 1).
    const { port, exited } = await startFixture();
    const base = `http://127.0.0.1:${port}`;
    const registered = await fetch(`${base}/v1/players`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ displayName: 'Streamer' }),
    });
    expect(registered.status).toBe(201);
    const { token } = (await registered.json()) as { token: string };

    const stream = await fetch(`${base}/v1/players/me/events`, {
      headers: { authorization: `Bearer ${token}`, accept: 'text/event-stream' },
    });
    expect(stream.status).toBe(200);
    expect(stream.headers.get('connection')).toBe('close');
    const reader = stream.body!.getReader();
    let text = '';
    // The stream's first bytes: it is open and subscribed.
    while (!text.includes(': connected')) text += new TextDecoder().decode((await reader.read()).value);

    // A GraphQL subscriptions connection, acknowledged (graphql-ws).
    const socket = new WebSocket(`ws://127.0.0.1:${port}/graphql`, 'graphql-transport-ws');
    const closed = new Promise<number>((resolve) => socket.on('close', (code: number) => resolve(code)));
    await new Promise<void>((resolve, reject) => {
      socket.on('open', () => socket.send(JSON.stringify({ type: 'connection_init', payload: { token } })));
      socket.on('message', (data: Buffer) => {
        if (JSON.parse(String(data)).type === 'connection_ack') resolve();
      });
      socket.on('error', reject);
    });
    child!.kill('SIGTERM');

    // The server ends the stream (the client sees its end, no error) and closes the WebSocket
    // with 1001 (going away), then exits 0.
    for (;;) {
      const { done } = await reader.read();
      if (done) break;
    }
    expect(await closed).toBe(1001);
    expect(await exited).toBe(0);
  }, 30000);
});

describe('the embedded database persists', () => {
  let child: ChildProcess | undefined;
  afterEach(() => child?.kill('SIGKILL'));

  const freePort = () =>
    new Promise<number>((resolve) => {
      const server = net.createServer().listen(0, '127.0.0.1', () => {
        const { port } = server.address() as net.AddressInfo;
        server.close(() => resolve(port));
      });
    });

  /** `npm start`'s process with no DATABASE_URL, on a data directory of the test's own. */
  async function startServer(dataDir: string, port: number): Promise<ChildProcess> {
    const proc = spawn(process.execPath, [main], {
      env: {
        ...process.env,
        DATABASE_URL: '',
        // no keys configured: the embedded default generates them into its data directory
        LOG_SIGNING_KEY: '',
        SEED_ENCRYPTION_KEYS: '',
        PGLITE_DATA_DIR: dataDir,
        PORT: String(port),
        HOST: '127.0.0.1',
        LOG_LEVEL: 'warn',
      },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    for (let i = 0; i < 240; i++) {
      if (proc.exitCode !== null) throw new Error(`server exited with ${proc.exitCode}`);
      const ok = await fetch(`http://127.0.0.1:${port}/health/ready`).then(
        (r) => r.ok,
        () => false,
      );
      if (ok) return proc;
      await new Promise((r) => setTimeout(r, 500));
    }
    throw new Error('server did not become ready');
  }

  const stop = (proc: ChildProcess) =>
    new Promise<number | null>((resolve) => {
      proc.on('exit', (code) => resolve(code));
      proc.kill('SIGTERM');
    });

  it('a game created before a restart is there after it (npm start with no DATABASE_URL)', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'fairdice-pglite-'));
    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    const json = { 'content-type': 'application/json' };

    child = await startServer(dataDir, port);
    const reg = (await (
      await fetch(`${base}/v1/players`, { method: 'POST', headers: json, body: JSON.stringify({ displayName: 'Ada' }) })
    ).json()) as any;
    const auth = { ...json, authorization: `Bearer ${reg.token}` };
    const game = (await (
      await fetch(`${base}/v1/games`, {
        method: 'POST',
        headers: auth,
        body: JSON.stringify({ ruleSet: 'simple', seats: 1 }),
      })
    ).json()) as any;
    await fetch(`${base}/v1/games/${game.id}/start`, { method: 'POST', headers: auth, body: '{}' });
    const rolled = (await (
      await fetch(`${base}/v1/games/${game.id}/roll`, { method: 'POST', headers: auth, body: '{}' })
    ).json()) as any;
    expect(rolled.dice).toHaveLength(5);
    // the game's commitment is in the log (asking for its proof integrates a pending leaf)
    const proof = (await (await fetch(`${base}/v1/games/${game.id}/log-proof`)).json()) as any;
    expect(proof.entries.map((e: any) => [e.kind, e.value])).toEqual([['created', game.commitment]]);
    const head = (await (await fetch(`${base}/v1/transparency/tree-head`)).json()) as any;
    expect(head.treeSize).toBeGreaterThanOrEqual(1);
    expect(head.publicKey).toMatch(/^[0-9a-f]{64}$/);
    expect(existsSync(join(dataDir, 'fairdice-keys.json'))).toBe(true);
    expect(await stop(child)).toBe(0);

    child = await startServer(dataDir, port);
    const after = (await (await fetch(`${base}/v1/games/${game.id}`, { headers: auth })).json()) as any;
    expect({ version: after.version, dice: after.dice, status: after.status }).toEqual({
      version: rolled.version,
      dice: rolled.dice,
      status: 'playing',
    });
    // the same generated keys after the restart: the sealed seed opens (the game rolls on), the log key is the same
    const again = (await (
      await fetch(`${base}/v1/games/${game.id}/roll`, {
        method: 'POST',
        headers: auth,
        body: JSON.stringify({ hold: [0] }),
      })
    ).json()) as any;
    expect(again.version).toBeGreaterThan(rolled.version);
    const head2 = (await (await fetch(`${base}/v1/transparency/tree-head`)).json()) as any;
    expect(head2.publicKey).toBe(head.publicKey);
    expect(head2.treeSize).toBeGreaterThanOrEqual(head.treeSize);
    expect(await stop(child)).toBe(0);
    child = undefined;
    rmSync(dataDir, { recursive: true, force: true });
  }, 300_000);
});
