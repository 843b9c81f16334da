/**
 * Several instances on ONE PostgreSQL: two server processes (`node dist/src/main.js`) on two
 * ports. A subscriber on instance A receives a move made through instance B within one second
 * (LISTEN/NOTIFY); every turn deadline fires exactly once although both instances run the job
 * worker; and a pending deadline still fires after every instance was restarted.
 *
 * Needs a real PostgreSQL (DATABASE_URL=postgresql://... when running jest) and `npm run build`.
 * Skipped on the embedded database: PGlite is ONE session, where a NOTIFY reaches only the
 * connection that sent it, so several instances cannot push to each other (docs/async.md).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import http from 'node:http';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { Pool } from 'pg';
import { eventsOf, timeoutBatches, waitFor } from './helpers';

jest.setTimeout(60_000);

const root = join(__dirname, '..', '..');
const main = join(root, 'dist', 'src', 'main.js');
const onPostgres = process.env.FAIRDICE_TEST_DB === 'postgres';

if (!onPostgres) {
  console.warn(
    '[async] multi-instance test skipped: it needs a real PostgreSQL (set DATABASE_URL); the embedded PGlite is one session and cannot carry LISTEN/NOTIFY between processes',
  );
}

interface Instance {
  name: string;
  port: number;
  base: string;
  child: ChildProcess;
  output: string[];
  stop(): Promise<void>;
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
    s.on('error', reject);
  });
}

async function startInstance(name: string): Promise<Instance> {
  const port = await freePort();
  const output: string[] = [];
  const child = spawn(process.execPath, [main], {
    cwd: root,
    env: {
      ...process.env,
      NODE_ENV: 'test',
      HOST: '127.0.0.1',
      PORT: String(port),
      DATABASE_URL: process.env.DATABASE_URL,
      DATABASE_POOL_MAX: '4',
      LOG_LEVEL: 'info',
      JOBS_POLL_INTERVAL_MS: '200',
      MIGRATE_ON_START: 'true',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  for (const stream of [child.stdout, child.stderr]) {
    let partial = '';
    stream.on('data', (c) => {
      const lines = (partial + String(c)).split('\n');
      partial = lines.pop() ?? '';
      output.push(...lines.filter(Boolean));
    });
  }
  const exited = new Promise<void>((r) => child.once('exit', () => r()));
  const base = `http://127.0.0.1:${port}`;
  await waitFor(
    async () => {
      if (child.exitCode !== null) throw new Error(`${name} exited: ${output.slice(-5).join('\n')}`);
      const res = await fetch(`${base}/health`).catch(() => null);
      return res?.ok;
    },
    30_000,
    `instance ${name} to listen`,
    100,
  );
  return {
    name,
    port,
    base,
    child,
    output,
    async stop() {
      if (child.exitCode === null) {
        child.kill('SIGTERM');
        await exited;
      }
    },
  };
}

async function api(i: Instance, method: string, path: string, token?: string, body?: unknown): Promise<any> {
  const res = await fetch(`${i.base}${path}`, {
    method,
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  if (res.status >= 300) throw new Error(`${method} ${path} on ${i.name}: HTTP ${res.status} ${text}`);
  return text ? JSON.parse(text) : null;
}

/** An SSE subscription; `events` fills as messages arrive (with their arrival time). */
function subscribe(i: Instance, gameId: string, after: number) {
  const events: Array<{ version: number; type: string; at: number; data: any }> = [];
  const req = http.get(`${i.base}/v1/games/${gameId}/stream?after=${after}`, { agent: false }, (res) => {
    let buf = '';
    res.setEncoding('utf8');
    res.on('data', (chunk: string) => {
      buf += chunk;
      let idx;
      while ((idx = buf.indexOf('\n\n')) >= 0) {
        const msg = buf.slice(0, idx);
        buf = buf.slice(idx + 2);
        const id = /^id: (\d+)$/m.exec(msg);
        const type = /^event: (.+)$/m.exec(msg);
        const data = /^data: (.+)$/m.exec(msg);
        if (id && type && data)
          events.push({ version: Number(id[1]), type: type[1], at: Date.now(), data: JSON.parse(data[1]) });
      }
    });
  });
  req.on('error', () => undefined);
  return { events, close: () => req.destroy() };
}

/** 'deadline fired' log lines of a game, across instances: version -> number of firings. */
function firings(instances: Instance[], gameId: string): Map<number, number> {
  const counts = new Map<number, number>();
  for (const i of instances) {
    for (const line of i.output) {
      const m = new RegExp(`deadline fired: game ${gameId} v(\\d+)`).exec(line);
      if (m) counts.set(Number(m[1]), (counts.get(Number(m[1])) ?? 0) + 1);
    }
  }
  return counts;
}

(onPostgres ? describe : describe.skip)('several instances on one PostgreSQL', () => {
  let a: Instance;
  let b: Instance;
  let pool: Pool;
  const all: Instance[] = [];

  beforeAll(async () => {
    if (!existsSync(main))
      throw new Error('dist/ is missing: run `npm run build` first (npm test does it before jest)');
    pool = new Pool({ connectionString: process.env.DATABASE_URL, max: 2 });
    [a, b] = await Promise.all([startInstance('A'), startInstance('B')]);
    all.push(a, b);
  });
  afterAll(async () => {
    await Promise.all(all.map((i) => i.stop()));
    await pool?.end();
  });

  it('pushes a move made through B to a subscriber on A within a second; each deadline fires once', async () => {
    const ada = await api(a, 'POST', '/v1/players', undefined, { displayName: 'Ada' });
    const bob = await api(b, 'POST', '/v1/players', undefined, { displayName: 'Bob' });
    let view = await api(a, 'POST', '/v1/games', ada.token, { ruleSet: 'penta', seats: 2, turnTimeLimitSeconds: 2 });
    await api(b, 'POST', `/v1/games/${view.id}/join`, bob.token, {});
    view = await api(b, 'POST', `/v1/games/${view.id}/start`, ada.token, {});
    const sub = subscribe(a, view.id, view.version);
    try {
      await new Promise((r) => setTimeout(r, 300)); // the subscription is open
      const sent = Date.now();
      const moved = await api(b, 'POST', `/v1/games/${view.id}/roll`, ada.token, {});
      const got = await waitFor(() => sub.events.find((e) => e.version === moved.version), 3000, 'the move on A');
      expect(got.type).toBe('rolled');
      expect(got.at - sent).toBeLessThan(1000);

      // Nobody moves: the deadlines of seat 0, then seat 1 fire, each ONCE.
      const batches = await waitFor(
        async () => {
          const bs = timeoutBatches(await eventsOf(pool, view.id));
          return bs.length >= 2 ? bs : null;
        },
        20_000,
        'two timed-out turns',
      );
      expect(batches.slice(0, 2).map((bt) => bt[0].command)).toEqual([
        { type: 'timeout', seat: 0 },
        { type: 'timeout', seat: 1 },
      ]);
      for (const bt of batches.slice(0, 2)) {
        expect(bt.filter((e) => e.type === 'scored')).toHaveLength(1);
        expect(bt.every((e) => e.data.reason === 'timeout')).toBe(true);
      }
      // The log lines of the processes arrive a little after the rows: wait for them, then count.
      const versions = batches.slice(0, 2).map((bt) => bt[0].version - 1);
      await waitFor(() => versions.every((v) => firings(all, view.id).has(v)), 5000, "the 'deadline fired' log lines");
      await new Promise((r) => setTimeout(r, 300));
      const fired = firings(all, view.id);
      for (const v of versions) expect(fired.get(v)).toBe(1);
      expect([...fired.values()].every((n) => n === 1)).toBe(true);
      // Both instances took part in the work, or at least the subscriber on A saw every timeout event.
      const stored = await eventsOf(pool, view.id, view.version);
      await waitFor(() => sub.events.length >= stored.length, 3000, 'the timeout events on A');
      expect(sub.events.slice(0, stored.length).map((e) => e.version)).toEqual(stored.map((e) => e.version));

      await api(
        a,
        'POST',
        `/v1/games/${view.id}/quit`,
        (await api(a, 'GET', `/v1/games/${view.id}`, ada.token)).currentPlayerId === ada.player.id
          ? ada.token
          : bob.token,
        {},
      );
    } finally {
      sub.close();
    }
  });

  it('a pending deadline fires after every instance was restarted', async () => {
    const ada = await api(a, 'POST', '/v1/players', undefined, { displayName: 'Ada2' });
    const bob = await api(a, 'POST', '/v1/players', undefined, { displayName: 'Bob2' });
    let view = await api(a, 'POST', '/v1/games', ada.token, { ruleSet: 'simple', seats: 2, turnTimeLimitSeconds: 3 });
    await api(a, 'POST', `/v1/games/${view.id}/join`, bob.token, {});
    view = await api(a, 'POST', `/v1/games/${view.id}/start`, ada.token, {});
    await Promise.all([a.stop(), b.stop()]);
    expect(timeoutBatches(await eventsOf(pool, view.id))).toHaveLength(0);
    const c = await startInstance('C');
    all.push(c);
    const batches = await waitFor(
      async () => {
        const bs = timeoutBatches(await eventsOf(pool, view.id));
        return bs.length >= 1 ? bs : null;
      },
      15_000,
      'the deadline after the restart',
    );
    expect(batches[0][0].command).toEqual({ type: 'timeout', seat: 0 });
    expect(batches[0][0].version).toBe(view.version + 1);
    await api(c, 'POST', `/v1/games/${view.id}/quit`, bob.token, {});
  });
});
