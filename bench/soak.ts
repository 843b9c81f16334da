/**
 * Soak (issue 17): the server under full load for several minutes, watching what a short
 * benchmark cannot see: whether the job queue's backlog stays bounded, and whether a timed game's
 * turn deadline still fires on time while the service is saturated.
 *
 *   npm run build && node dist/bench/soak.js [--minutes 5] [--clients 16] [--pool 10]
 *   (DATABASE_URL: the server to use; a fresh fairdice_bench_<ts> database is created and dropped)
 *
 * - K closed-loop REST clients play solo `simple` games (bench/players.ts), as in `npm run bench`.
 * - Every 20 s a two-player game with a 3 s turn limit is started and left alone; the first
 *   timeout's lateness is how long after its deadline (games.turn_deadline) the timeout event was
 *   written. Several probes run during the soak.
 * - Every 10 s the due jobs per queue are counted (the backlog) and the server's RSS sampled.
 * Prints a summary and writes bench/results/<date>-soak.md.
 */
import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { Pool } from 'pg';
import { createBenchDatabase, DEFAULT_DATABASE_URL } from './db';
import { HttpClient, runClosedLoop } from './load';
import { newPlayStats, registerPlayer, RestPlayer, retrySetup } from './players';
import { freePort, ServerProcess, vapidEnv } from './server-process';

const ROOT = resolve(__dirname, '..', '..');
const arg = (name: string, fallback: number) => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? Number(process.argv[i + 1]) : fallback;
};
const log = (line: string) => process.stdout.write(`[soak ${new Date().toISOString().slice(11, 19)}] ${line}\n`);

function rssMiB(pid: number): number {
  const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m ? Number(m[1]) / 1024 : NaN;
}

async function main(): Promise<void> {
  const minutes = arg('minutes', 5);
  const clients = arg('clients', 16);
  const poolSize = arg('pool', 10);
  const db = await createBenchDatabase(process.env.DATABASE_URL || DEFAULT_DATABASE_URL, () => undefined);
  const pool = new Pool({ connectionString: db.url, max: 2 });
  const port = await freePort();
  const server = await ServerProcess.start({
    name: 'fairdice',
    script: join(ROOT, 'dist', 'src', 'main.js'),
    port,
    readyPath: '/health/ready',
    env: {
      DATABASE_URL: db.url,
      LOG_SIGNING_KEY: randomBytes(32).toString('hex'),
      SEED_ENCRYPTION_KEYS: `soak:${randomBytes(32).toString('hex')}`,
      ...vapidEnv(),
      DATABASE_POOL_MAX: String(poolSize),
      LOG_LEVEL: 'warn',
      NODE_ENV: 'production',
      MIGRATE_ON_START: 'false',
      RATE_LIMIT_PER_MINUTE: '100000000',
      RATE_LIMIT_REGISTRATIONS_PER_MINUTE: '100000',
    },
  });
  const http = new HttpClient('127.0.0.1', port, clients + 4);
  const backlog: { at: number; due: Record<string, number>; rssMiB: number }[] = [];
  const lateness: number[] = [];
  let stopping = false;
  try {
    const players = await Promise.all(
      Array.from({ length: clients }, (_, i) => retrySetup('register', () => registerPlayer(http, i), log)),
    );
    const probers = await Promise.all(
      [0, 1].map((i) => retrySetup('register', () => registerPlayer(http, 10_000 + i), log)),
    );
    const stats = newPlayStats();
    const t0 = Date.now();

    const sampler = setInterval(() => {
      void pool
        .query<{ queue: string; n: number }>(
          `SELECT queue, count(*)::int AS n FROM async_jobs WHERE run_at <= now() GROUP BY queue`,
        )
        .then(({ rows }) => {
          backlog.push({
            at: (Date.now() - t0) / 1000,
            due: Object.fromEntries(rows.map((r) => [r.queue, r.n])),
            rssMiB: rssMiB(server.pid),
          });
        })
        .catch(() => undefined);
    }, 10_000);

    // A timed game every 20 s, left alone: how late does its first timeout come?
    const probe = async () => {
      const [a, b] = probers.map((p) => ({ authorization: `Bearer ${p.token}` }));
      const created = await http.request(
        'POST',
        '/v1/games',
        { ruleSet: 'simple', seats: 2, turnTimeLimitSeconds: 3 },
        a,
      );
      const id = JSON.parse(created.body).id as string;
      await http.request('POST', `/v1/games/${id}/join`, {}, b);
      const started = await http.request('POST', `/v1/games/${id}/start`, {}, a);
      const version = JSON.parse(started.body).version as number;
      for (let i = 0; i < 600 && !stopping; i++) {
        await new Promise((r) => setTimeout(r, 100));
        const { rows } = await pool.query<{ late_ms: number }>(
          `SELECT extract(epoch FROM e.created_at - (g.started_at + interval '3 seconds')) * 1000 AS late_ms
             FROM game_events e JOIN games g ON g.id = e.game_id
            WHERE e.game_id = $1 AND e.version = $2 + 1`,
          [id, version],
        );
        if (rows[0]) {
          lateness.push(Number(rows[0].late_ms));
          return;
        }
      }
    };
    const probes: Promise<void>[] = [];
    const prober = setInterval(() => probes.push(probe().catch(() => undefined)), 20_000);

    log(`${clients} clients for ${minutes} min on ${db.name}`);
    const result = await runClosedLoop((i) => new RestPlayer(http, players[i], stats), {
      clients,
      warmupMs: 0,
      durationMs: minutes * 60_000,
      onMeasureStart: () => server.beginWindow(),
    });
    clearInterval(prober);
    stopping = true;
    await Promise.all(probes);
    clearInterval(sampler);
    const end = (
      await pool.query<{ queue: string; n: number }>(`SELECT queue, count(*)::int AS n FROM async_jobs GROUP BY queue`)
    ).rows;
    const mem = server.endWindow();
    const sorted = [...lateness].sort((x, y) => x - y);
    const maxDue = Math.max(0, ...backlog.map((b) => Object.values(b.due).reduce((s, n) => s + n, 0)));
    const summary = [
      `# fairdice soak, ${new Date().toISOString().slice(0, 10)}`,
      '',
      `\`node dist/bench/soak.js --minutes ${minutes} --clients ${clients} --pool ${poolSize}\`, fresh database, server NODE_ENV=production.`,
      '',
      `- Moves and other requests: ${result.requests} in ${result.seconds.toFixed(0)} s = ${result.perSec.toFixed(0)}/s, ${result.errors} errors, p99 ${result.p99Ms.toFixed(1)} ms; ${stats.gamesFinished} games finished.`,
      `- Server peak RSS ${mem.peakMiB.toFixed(1)} MiB (${mem.source}), CPU ${mem.cpuPercent.toFixed(0)} % of one core.`,
      `- Job backlog (due jobs, all queues): at most ${maxDue} during the run; at the end ${end.map((r) => `${r.queue} ${r.n}`).join(', ') || 'none'} stored.`,
      `- Turn deadline lateness over ${sorted.length} probes (3 s limit): median ${sorted.length ? sorted[Math.floor(sorted.length / 2)].toFixed(0) : '–'} ms, max ${sorted.length ? sorted[sorted.length - 1].toFixed(0) : '–'} ms.`,
      '',
      '| t (s) | due jobs by queue | server RSS MiB |',
      '|---:|---|---:|',
      ...backlog.map(
        (b) =>
          `| ${b.at.toFixed(0)} | ${
            Object.entries(b.due)
              .map(([q, n]) => `${q} ${n}`)
              .join(', ') || '0'
          } | ${b.rssMiB.toFixed(0)} |`,
      ),
      '',
    ].join('\n');
    process.stdout.write(`\n${summary}\n`);
    const dir = join(ROOT, 'bench', 'results');
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, `${new Date().toISOString().slice(0, 10)}-soak.md`), summary);
  } finally {
    http.close();
    await server.stop();
    await pool.end();
    await db.drop();
  }
}

void main().catch((err) => {
  process.stderr.write(`soak failed: ${err instanceof Error ? err.stack : String(err)}\n`);
  process.exit(1);
});
