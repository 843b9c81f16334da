/**
 * One client floods the GraphQL WebSocket endpoint (issue 24, item 7): `--connections` (3,000)
 * graphql-ws connections from loopback to a running server (dist/src/main.js, a fresh bench
 * database), `--concurrency` opening at a time, each kept open. Counts the connections accepted
 * (connection_ack) and refused (close code 4429), and reports the server's RSS and open file
 * descriptors (/proc/<pid>/fd) before, with everything open, and after every socket closed.
 *
 *   npm run build && node dist/bench/websocket-flood.js [--connections 3000] [--concurrency 100] [--cap 50]
 *
 * `--cap` sets WS_MAX_CONNECTIONS_PER_ADDRESS (default: the service's default); a cap above
 * `--connections` shows the unbounded case.
 */
import { randomBytes } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import http from 'node:http';
import { join, resolve } from 'node:path';
import { createBenchDatabase, DEFAULT_DATABASE_URL } from './db';
import { freePort, ServerProcess, vapidEnv } from './server-process';

// eslint-disable-next-line @typescript-eslint/no-require-imports -- ws ships no types here
const WebSocket: any = require('ws');

const ROOT = resolve(__dirname, '..', '..');
const arg = (name: string, fallback: number | undefined) => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? Number(process.argv[i + 1]) : fallback;
};
const log = (line: string) => process.stdout.write(`[ws-flood] ${line}\n`);

const rssMiB = (pid: number) =>
  Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))![1]) / 1024;
const fds = (pid: number) => readdirSync(`/proc/${pid}/fd`).length;

function metrics(port: number): Promise<string> {
  return new Promise((resolve, reject) => {
    http
      .get({ host: '127.0.0.1', port, path: '/metrics', agent: false }, (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (c: string) => (body += c));
        res.on('end', () => resolve(body));
      })
      .on('error', reject);
  });
}

const series = (text: string, name: string) => {
  const line = text.split('\n').find((l) => l.startsWith(name + ' '));
  return line ? Number(line.slice(name.length + 1)) : 0;
};

type Outcome = 'accepted' | 'refused' | 'other';

/** Opens one graphql-ws connection; resolves once it is acknowledged or closed. */
function connect(port: number, open: Array<{ close(): void }>): Promise<Outcome> {
  return new Promise((done) => {
    const ws = new WebSocket(`ws://127.0.0.1:${port}/graphql`, 'graphql-transport-ws');
    let settled = false;
    const settle = (o: Outcome) => {
      if (settled) return;
      settled = true;
      done(o);
    };
    ws.on('open', () => ws.send(JSON.stringify({ type: 'connection_init', payload: {} })));
    ws.on('message', (data: Buffer) => {
      if (JSON.parse(String(data)).type === 'connection_ack') {
        open.push(ws);
        settle('accepted');
      }
    });
    ws.on('close', (code: number) => settle(code === 4429 ? 'refused' : 'other'));
    ws.on('error', () => settle('other'));
  });
}

async function until(port: number, name: string, value: number): Promise<void> {
  for (let i = 0; i < 600; i++) {
    if (series(await metrics(port), name) === value) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`${name} did not reach ${value}`);
}

async function main(): Promise<void> {
  const total = arg('connections', 3000)!;
  const concurrency = arg('concurrency', 100)!;
  const cap = arg('cap', undefined);
  const db = await createBenchDatabase(process.env.DATABASE_URL || DEFAULT_DATABASE_URL, () => undefined);
  const port = await freePort();
  const server = await ServerProcess.start({
    name: 'fairdice',
    script: join(ROOT, 'dist', 'src', 'main.js'),
    port,
    readyPath: '/health/ready',
    env: {
      DATABASE_URL: db.url,
      LOG_SIGNING_KEY: randomBytes(32).toString('hex'),
      SEED_ENCRYPTION_KEYS: `bench:${randomBytes(32).toString('hex')}`,
      ...vapidEnv(),
      LOG_LEVEL: 'warn',
      NODE_ENV: 'production',
      MIGRATE_ON_START: 'false',
      JOBS_ENABLED: 'false',
      ...(cap !== undefined ? { WS_MAX_CONNECTIONS_PER_ADDRESS: String(cap) } : {}),
    },
  });
  const pid = server.pid;
  try {
    await metrics(port); // warm the route
    const before = { rss: rssMiB(pid), fds: fds(pid) };
    const open: Array<{ close(): void }> = [];
    const counts: Record<Outcome, number> = { accepted: 0, refused: 0, other: 0 };
    for (let started = 0; started < total; started += concurrency) {
      const batch = Math.min(concurrency, total - started);
      for (const o of await Promise.all(Array.from({ length: batch }, () => connect(port, open)))) counts[o]++;
    }
    // Every refused socket is closed on both ends before the figures are read.
    await until(port, 'fairdice_live_connections{kind="websocket"}', counts.accepted);
    const text = await metrics(port);
    const during = { rss: rssMiB(pid), fds: fds(pid) };
    for (const ws of open) ws.close();
    await until(port, 'fairdice_live_connections{kind="websocket"}', 0);
    const after = { rss: rssMiB(pid), fds: fds(pid) };

    log(`cap WS_MAX_CONNECTIONS_PER_ADDRESS=${cap ?? 'default'}; ${total} connections, ${concurrency} at a time`);
    log(`accepted ${counts.accepted}, refused (4429) ${counts.refused}, other ${counts.other}`);
    log(
      `refusals counted in /metrics: ${series(text, 'fairdice_live_connections_refused_total{kind="websocket",reason="per_address"}')}`,
    );
    log(
      `server RSS MiB: before ${before.rss.toFixed(1)}, all sent ${during.rss.toFixed(1)}, all closed ${after.rss.toFixed(1)}`,
    );
    log(`server open fds: before ${before.fds}, all sent ${during.fds}, all closed ${after.fds}`);
  } finally {
    await server.stop();
    await db.drop();
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
