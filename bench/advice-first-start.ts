/**
 * Time to available through the real server (issue 15: advice for the three presets within 60 s
 * of the first start): starts `node dist/src/main.js` on a fresh embedded database and an empty
 * ADVICE_CACHE_DIR, polls POST /v1/advice/five-dice for each preset every 250 ms and prints when
 * the server listened and when each preset first answered 200.
 *   npm run build && node dist/bench/advice-first-start.js
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';

async function main() {
  const dir = mkdtempSync(join(tmpdir(), 'fairdice-first-start-'));
  const port = 3990 + Math.floor(Math.random() * 9);
  console.log(`load average ${loadavg()[0].toFixed(2)}`);
  const t0 = performance.now();
  const child = spawn('node', ['dist/src/main.js'], {
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      PGLITE_DATA_DIR: join(dir, 'pglite'),
      ADVICE_CACHE_DIR: join(dir, 'advice'),
      LOG_LEVEL: 'warn',
      RATE_LIMIT_ENABLED: 'false',
    },
    stdio: 'ignore',
  });
  const ready: Record<string, string> = {};
  let listening: number | null = null;
  while (Object.keys(ready).length < 3 && performance.now() - t0 < 180_000) {
    await new Promise((r) => setTimeout(r, 250));
    for (const ruleSet of ['penta', 'simple', 'bonus']) {
      if (ready[ruleSet]) continue;
      try {
        const res = await fetch(`http://127.0.0.1:${port}/v1/advice/five-dice`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ ruleSet, rollsLeft: 3 }),
        });
        listening ??= performance.now() - t0;
        if (res.status === 200) {
          const body = (await res.json()) as { expectedAtTurnStart: number };
          ready[ruleSet] = `${((performance.now() - t0) / 1000).toFixed(1)} s (${body.expectedAtTurnStart.toFixed(4)})`;
        }
      } catch {
        // not listening yet
      }
    }
  }
  console.log(`listening after ${((listening ?? NaN) / 1000).toFixed(1)} s; available after`, ready);
  const cache = join(dir, 'advice');
  console.log(
    'bytes on disk:',
    readdirSync(cache).map((f) => statSync(join(cache, f)).size),
  );
  child.kill('SIGTERM');
  await new Promise((r) => child.on('exit', r));
  rmSync(dir, { recursive: true, force: true });
}

void main();
