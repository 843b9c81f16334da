/**
 * Player event streams at scale (issue 27): `--streams` (10,000) players each hold their stream
 * (`GET /v1/players/me/events`, SSE) open on ONE server process (dist/src/main.js, a fresh bench
 * database on PostgreSQL); reported: the server's RSS before and with every stream open, hence the
 * memory per stream; then `--games` (200) two-player games where one of those players waits for an
 * opponent's move: the time from sending the move that passes the turn to the `yourTurn` message
 * arriving on the player's stream, p50 / p99 (moves one at a time: latency, not throughput).
 *
 *   npm run build && node dist/bench/player-streams.bench.js [--streams 10000] [--games 200] [--concurrency 50]
 */
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import http from 'node:http';
import { join, resolve } from 'node:path';
import { createBenchDatabase, DEFAULT_DATABASE_URL } from './db';
import { freePort, ServerProcess } from './server-process';
import { generateVapidKeys } from '../src/keys/service-keys';

const ROOT = resolve(__dirname, '..', '..');
const arg = (name: string, fallback: number) => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? Number(process.argv[i + 1]) : fallback;
};
const log = (line: string) => process.stdout.write(`[player-streams] ${line}\n`);
const rssMiB = (pid: number) =>
  Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))![1]) / 1024;

const agent = new http.Agent({ keepAlive: true, maxSockets: 64 });

function call(port: number, method: string, path: string, token?: string, body?: unknown): Promise<any> {
  return new Promise((resolve, reject) => {
    const text = body === undefined ? undefined : JSON.stringify(body);
    const req = http.request(
      {
        host: '127.0.0.1',
        port,
        method,
        path,
        agent,
        headers: {
          ...(token ? { authorization: `Bearer ${token}` } : {}),
          ...(text !== undefined ? { 'content-type': 'application/json' } : {}),
        },
      },
      (res) => {
        let data = '';
        res.setEncoding('utf8');
        res.on('data', (c: string) => (data += c));
        res.on('end', () =>
          (res.statusCode ?? 500) < 300
            ? resolve(data ? JSON.parse(data) : null)
            : reject(new Error(`${method} ${path} → ${res.statusCode} ${data.slice(0, 200)}`)),
        );
      },
    );
    req.on('error', reject);
    req.end(text);
  });
}

/** An open stream; `onTurn` is called with the game id of each yourTurn. */
function openStream(port: number, token: string, onTurn: (gameId: string) => void): Promise<() => void> {
  return new Promise((resolve, reject) => {
    const req = http.get(
      {
        host: '127.0.0.1',
        port,
        path: '/v1/players/me/events',
        agent: false,
        headers: { authorization: `Bearer ${token}` },
      },
      (res) => {
        if (res.statusCode !== 200) return reject(new Error(`stream → ${res.statusCode}`));
        res.setEncoding('utf8');
        let buf = '';
        res.on('data', (c: string) => {
          buf += c;
          let i;
          while ((i = buf.indexOf('\n\n')) >= 0) {
            const msg = buf.slice(0, i);
            buf = buf.slice(i + 2);
            if (/^event: yourTurn$/m.test(msg)) onTurn(JSON.parse(/^data: (.+)$/m.exec(msg)![1]).data.gameId);
          }
        });
        resolve(() => req.destroy());
      },
    );
    req.on('error', reject);
  });
}

async function inBatches<T>(n: number, concurrency: number, f: (i: number) => Promise<T>): Promise<T[]> {
  const out: T[] = [];
  for (let start = 0; start < n; start += concurrency)
    out.push(...(await Promise.all(Array.from({ length: Math.min(concurrency, n - start) }, (_, k) => f(start + k)))));
  return out;
}

const pct = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];

async function main(): Promise<void> {
  const streams = arg('streams', 10_000);
  const games = Math.min(arg('games', 200), streams);
  const concurrency = arg('concurrency', 50);
  const db = await createBenchDatabase(process.env.DATABASE_URL || DEFAULT_DATABASE_URL, () => undefined);
  const port = await freePort();
  const vapid = generateVapidKeys();
  const server = await ServerProcess.start({
    name: 'fairdice',
    script: join(ROOT, 'dist', 'src', 'main.js'),
    port,
    readyPath: '/health/ready',
    env: {
      DATABASE_URL: db.url,
      LOG_SIGNING_KEY: randomBytes(32).toString('hex'),
      SEED_ENCRYPTION_KEYS: `bench:${randomBytes(32).toString('hex')}`,
      VAPID_PUBLIC_KEY: vapid.publicKey,
      VAPID_PRIVATE_KEY: vapid.privateKey,
      LOG_LEVEL: 'warn',
      NODE_ENV: 'production',
      MIGRATE_ON_START: 'false',
      RATE_LIMIT_PER_MINUTE: '100000000',
      RATE_LIMIT_REGISTRATIONS_PER_MINUTE: '1000000',
      SSE_MAX_STREAMS_PER_ADDRESS: String(streams + 100),
    },
  });
  const pid = server.pid;
  try {
    log(`registering ${streams} players and ${games} opponents`);
    const players = await inBatches(streams, concurrency, (i) =>
      call(port, 'POST', '/v1/players', undefined, { displayName: `p${i}` }),
    );
    const hosts = await inBatches(games, concurrency, (i) =>
      call(port, 'POST', '/v1/players', undefined, { displayName: `h${i}` }),
    );
    // The games, up to the host's last roll: the score that passes the turn is the measured move.
    const prepared = await inBatches(games, concurrency, async (i) => {
      const host = hosts[i];
      let v = await call(port, 'POST', '/v1/games', host.token, { ruleSet: 'simple', seats: 2 });
      await call(port, 'POST', `/v1/games/${v.id}/join`, players[i].token, {});
      v = await call(port, 'POST', `/v1/games/${v.id}/start`, host.token, {});
      v = await call(port, 'POST', `/v1/games/${v.id}/roll`, host.token, {});
      const box = v.fiveDice.scoreOptions.boxes.find((b: any) => b.allowed).box as string;
      return { id: v.id as string, host, box };
    });
    global.gc?.();
    const before = rssMiB(pid);
    const waiting = new Map<string, (at: number) => void>();
    log(`opening ${streams} streams, ${concurrency} at a time`);
    const closers = await inBatches(streams, concurrency, (i) =>
      openStream(port, players[i].token, (gameId) => waiting.get(gameId)?.(performance.now())),
    );
    // Let the server settle (allocation after the last accept), then read RSS.
    await new Promise((r) => setTimeout(r, 2000));
    const during = rssMiB(pid);
    log(`server RSS MiB: before ${before.toFixed(1)}, ${streams} streams open ${during.toFixed(1)}`);
    log(`memory per open stream: ${(((during - before) * 1024) / streams).toFixed(1)} KiB`);

    const latencies: number[] = [];
    for (const g of prepared) {
      const arrived = new Promise<number>((r) => waiting.set(g.id, r));
      const t0 = performance.now();
      await call(port, 'POST', `/v1/games/${g.id}/score`, g.host.token, { box: g.box });
      latencies.push((await arrived) - t0);
      waiting.delete(g.id);
    }
    latencies.sort((a, b) => a - b);
    log(
      `yourTurn latency after the move (${latencies.length} moves, one at a time, ${streams} streams open): p50 ${pct(latencies, 50).toFixed(1)} ms, p99 ${pct(latencies, 99).toFixed(1)} ms, max ${latencies.at(-1)!.toFixed(1)} ms`,
    );
    for (const close of closers) close();
  } finally {
    agent.destroy();
    await server.stop();
    await db.drop();
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
