/**
 * Password sign-in under load (issue 26, docs/accounts.md): does argon2id's cost (m = 19 MiB,
 * t = 2, p = 1, on libuv's thread pool) leave other requests' latency unchanged? The real server
 * (dist/src/main.js, production settings) on a fresh migrated database; K readers (GET
 * /v1/players/me with their tokens) run alone for a window, then again beside S clients signing in
 * with username + password back to back. Reported: the sign-ins' rate, p50 and p99; the readers'
 * p50 and p99 in both windows and their ratio (with ÷ without); the server's CPU in both windows.
 *
 *   npm run build && node dist/bench/sign-in.bench.js [--readers 16] [--signers 4] [--seconds 10] [--warmup 3]
 *
 * DATABASE_URL names the PostgreSQL server (default postgresql://postgres@127.0.0.1:5432/postgres);
 * a fresh fairdice_bench_<ts>_<pid> database is created, migrated and dropped. Not part of `npm run bench`.
 */
import { randomBytes } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createBenchDatabase, DEFAULT_DATABASE_URL } from './db';
import { f1, f2, log } from './format';
import { HttpClient, runClosedLoop, type LoadResult } from './load';
import { freePort, ServerProcess, vapidEnv } from './server-process';

const arg = (name: string, fallback: number): number => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? Number(process.argv[i + 1]) : fallback;
};

const PASSWORD = 'a bench passphrase 42';

async function main(): Promise<void> {
  const readers = arg('readers', 16);
  const signers = arg('signers', 4);
  const seconds = arg('seconds', 10);
  const warmup = arg('warmup', 3);
  const db = await createBenchDatabase(process.env.DATABASE_URL ?? DEFAULT_DATABASE_URL, log);
  const port = await freePort();
  const server = await ServerProcess.start({
    name: 'fairdice',
    script: join(__dirname, '..', 'src', 'main.js'),
    port,
    readyPath: '/health/ready',
    env: {
      DATABASE_URL: db.url,
      ...vapidEnv(),
      LOG_SIGNING_KEY: randomBytes(32).toString('hex'),
      SEED_ENCRYPTION_KEYS: `bench:${randomBytes(32).toString('hex')}`,
      LOG_LEVEL: 'warn',
      NODE_ENV: 'production',
      MIGRATE_ON_START: 'false',
      RATE_LIMIT_PER_MINUTE: '100000000',
      RATE_LIMIT_REGISTRATIONS_PER_MINUTE: '100000',
      // Every client comes from 127.0.0.1 and signs in successfully: no lock is expected, but the
      // address count is lifted so that a slow success can never lock the run.
      SIGN_IN_ADDRESS_FREE_ATTEMPTS: '100000',
    },
  });
  try {
    const http = new HttpClient('127.0.0.1', port, readers + signers);
    const register = async (name: string) => {
      const res = await http.request('POST', '/v1/players', { displayName: name });
      if (res.status !== 201) throw new Error(`register: ${res.status} ${res.body}`);
      return JSON.parse(res.body) as { token: string };
    };
    const readerTokens = await Promise.all(Array.from({ length: readers }, (_, i) => register(`Reader ${i}`)));
    const usernames: string[] = [];
    for (let i = 0; i < signers; i++) {
      const { token } = await register(`Signer ${i}`);
      const auth = { authorization: `Bearer ${token}` };
      const username = `bench_${i}_${randomBytes(3).toString('hex')}`;
      for (const [path, body] of [
        ['/v1/accounts/me/username', { username }],
        ['/v1/accounts/me/password', { password: PASSWORD }],
      ] as const) {
        const res = await http.request('PUT', path, body, auth);
        if (res.status !== 200) throw new Error(`${path}: ${res.status} ${res.body}`);
      }
      usernames.push(username);
    }
    const reader = (i: number) => ({
      step: async () => {
        const res = await http.request('GET', '/v1/players/me', undefined, {
          authorization: `Bearer ${readerTokens[i].token}`,
        });
        if (res.status !== 200) throw new Error(`read: ${res.status}`);
      },
    });
    const signer = (i: number) => ({
      step: async () => {
        const res = await http.request('POST', '/v1/accounts/sign-in/password', {
          username: usernames[i],
          password: PASSWORD,
          deviceLabel: 'bench',
        });
        if (res.status !== 200) throw new Error(`sign-in: ${res.status} ${res.body.slice(0, 200)}`);
      },
    });
    const window = { warmupMs: warmup * 1000, durationMs: seconds * 1000 };

    log(`readers alone: ${readers} clients, ${seconds} s`);
    const alone = await runClosedLoop(reader, {
      clients: readers,
      ...window,
      onMeasureStart: () => server.beginWindow(),
    });
    const aloneCpu = server.endWindow().cpuPercent;

    log(`readers beside ${signers} clients signing in, ${seconds} s`);
    const [beside, signIns] = await Promise.all([
      runClosedLoop(reader, { clients: readers, ...window, onMeasureStart: () => server.beginWindow() }),
      runClosedLoop(signer, { clients: signers, ...window }),
    ]);
    const besideCpu = server.endWindow().cpuPercent;

    const line = (name: string, r: LoadResult, cpu: number | null) =>
      `| ${name} | ${f1(r.perSec)} | ${f2(r.p50Ms)} | ${f2(r.p99Ms)} | ${r.errors} | ${cpu === null ? '' : f1(cpu)} |`;
    const table = [
      '| window | req/s | p50 ms | p99 ms | errors | server CPU % |',
      '|---|---|---|---|---|---|',
      line(`reads alone (${readers} clients)`, alone, aloneCpu),
      line(`reads beside sign-ins (${readers} clients)`, beside, besideCpu),
      line(`password sign-ins (${signers} clients)`, signIns, null),
    ].join('\n');
    const ratio = `Reads beside sign-ins ÷ alone: p50 × ${f2(beside.p50Ms / alone.p50Ms)}, p99 × ${f2(beside.p99Ms / alone.p99Ms)}.`;
    const report = `# Password sign-in bench (${new Date().toISOString().slice(0, 10)})\n\n\`node dist/bench/sign-in.bench.js --readers ${readers} --signers ${signers} --seconds ${seconds} --warmup ${warmup}\`, PostgreSQL ${db.serverVersion}. Server CPU: 100 % = one core. The machine is shared (see bench/README.md).\n\n${table}\n\n${ratio}\n`;
    log('\n' + report);
    const dir = join(__dirname, '..', '..', 'bench', 'results');
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, `${new Date().toISOString().slice(0, 10)}-sign-in.md`), report);
  } finally {
    await server.stop();
    await db.drop();
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
