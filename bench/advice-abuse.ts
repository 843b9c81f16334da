/**
 * The advice-cache abuse of issue 24 (item 6), replayed against the real server: one client fires
 * REQUESTS distinct option sets at POST /v1/advice/five-dice (`simple` with new upper-bonus
 * points and threshold each time; the 2 × REQUESTS sets are all different), first anonymously, then as PLAYERS signed-in players, and the
 * script reports what the server answered, the bytes in ADVICE_CACHE_DIR and the server's RSS.
 * Meanwhile, and after, a preset's advice must still answer 200.
 *
 *   npm run build && node dist/bench/advice-abuse.js [REQUESTS=10000] [PLAYERS=3] [ADVICE_CACHE_MAX_BYTES]
 *
 * The server runs as in production (presets warmed at start-up, 2 workers) on a fresh embedded
 * database and an empty cache directory; the generic request rate limit is off so that the
 * advice limits are what is measured. Sleeps here are a benchmark's polling, not a test's.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from './server-process';

const REQUESTS = Number(process.argv[2] ?? 10_000);
const PLAYERS = Number(process.argv[3] ?? 3);
const CACHE_MAX_BYTES = process.argv[4];
const CONCURRENCY = 16;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

const diskBytes = (dir: string): { files: number; bytes: number } => {
  let files = 0;
  let bytes = 0;
  for (const f of readdirSync(dir, { withFileTypes: true }))
    if (f.isFile()) {
      files++;
      bytes += statSync(join(dir, f.name)).size;
    }
  return { files, bytes };
};

const rssMiB = (pid: number, field: 'VmRSS' | 'VmHWM'): number => {
  const m = readFileSync(`/proc/${pid}/status`, 'utf8').match(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm'));
  return m ? Math.round(Number(m[1]) / 1024) : NaN;
};

async function main() {
  const dir = mkdtempSync(join(tmpdir(), 'fairdice-advice-abuse-'));
  const cache = join(dir, 'advice');
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const child = spawn('node', ['dist/src/main.js'], {
    env: {
      ...process.env,
      NODE_ENV: 'production',
      PORT: String(port),
      HOST: '127.0.0.1',
      PGLITE_DATA_DIR: join(dir, 'pglite'),
      ADVICE_CACHE_DIR: cache,
      ...(CACHE_MAX_BYTES ? { ADVICE_CACHE_MAX_BYTES: CACHE_MAX_BYTES } : {}),
      LOG_LEVEL: 'warn',
      RATE_LIMIT_ENABLED: 'false',
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const advise = async (body: unknown, token?: string) => {
    const res = await fetch(`${base}/v1/advice/five-dice`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
      body: JSON.stringify(body),
    });
    const json = (await res.json()) as { code?: string };
    return `${res.status}${json.code ? ' ' + json.code : ''}`;
  };
  const preset = { ruleSet: 'simple', rollsLeft: 3 };
  try {
    // Up, and the presets warmed (as a real deployment is before the abuse starts).
    for (let i = 0; ; i++) {
      const answer = await advise(preset).catch(() => 'down');
      if (answer === '200') break;
      if (i > 1200) throw new Error(`the preset never answered 200 (last: ${answer})`);
      await sleep(250);
    }
    const tokens: string[] = [];
    for (let i = 0; i < PLAYERS; i++) {
      const res = await fetch(`${base}/v1/players`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ displayName: `abuser-${i}` }),
      });
      tokens.push(((await res.json()) as { token: string }).token);
    }
    const before = diskBytes(cache);
    console.log(`presets ready: ${before.files} files, ${before.bytes} bytes; RSS ${rssMiB(child.pid!, 'VmRSS')} MiB`);

    // Distinct option sets: upperBonusPoints 100-999 (the presets use 35) × upperBonusThreshold 40-105.
    let n = 0;
    const distinct = () => {
      const i = n++;
      return { upperBonusPoints: 100 + (i % 900), upperBonusThreshold: 40 + Math.floor(i / 900) };
    };
    const phase = async (label: string, token: () => string | undefined) => {
      const answers = new Map<string, number>();
      const presetAnswers = new Map<string, number>();
      let sent = 0;
      const started = Date.now();
      const worker = async () => {
        while (sent < REQUESTS) {
          const i = ++sent;
          const options = distinct();
          const answer = await advise({ ruleSet: 'simple', options, rollsLeft: 3 }, token());
          answers.set(answer, (answers.get(answer) ?? 0) + 1);
          if (i % 500 === 0) {
            const p = await advise(preset);
            presetAnswers.set(p, (presetAnswers.get(p) ?? 0) + 1);
          }
        }
      };
      await Promise.all(Array.from({ length: CONCURRENCY }, worker));
      const seconds = (Date.now() - started) / 1000;
      console.log(
        `${label}: ${REQUESTS} distinct option sets in ${seconds.toFixed(1)} s:`,
        Object.fromEntries(answers),
      );
      console.log(`  a preset's advice meanwhile:`, Object.fromEntries(presetAnswers));
    };
    await phase('anonymous', () => undefined);
    const afterAnonymous = diskBytes(cache);
    console.log(`  cache: ${afterAnonymous.files} files, ${afterAnonymous.bytes} bytes`);
    let next = 0;
    await phase(`signed in (${PLAYERS} players, in turn)`, () => tokens[next++ % tokens.length]);
    // The builds the budgets paid for finish in the background: wait until the cache stops changing.
    let last = diskBytes(cache);
    for (let still = 0; still < 8;) {
      await sleep(2500);
      const now = diskBytes(cache);
      still = now.bytes === last.bytes && now.files === last.files ? still + 1 : 0;
      last = now;
    }
    console.log(
      `cache after both phases: ${last.files} files, ${last.bytes} bytes (${(last.bytes / 2 ** 20).toFixed(1)} MiB)`,
    );
    console.log(`server RSS ${rssMiB(child.pid!, 'VmRSS')} MiB, peak ${rssMiB(child.pid!, 'VmHWM')} MiB`);
    console.log(`a preset's advice at the end: ${await advise(preset)}`);
  } finally {
    child.kill('SIGTERM');
    await new Promise((r) => child.on('exit', r));
    rmSync(dir, { recursive: true, force: true });
  }
}

void main();
