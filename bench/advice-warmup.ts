/**
 * Time to available at a first start (issue 15: the three presets within 60 s): a fresh
 * AdviceTablesService on an empty cache directory warms the presets (and Farkle) in its worker
 * threads as at start-up; the script records when each table is ready, the event loop's longest
 * stall meanwhile, the process's memory and the bytes on disk. Then a second service on the same
 * directory (a restart) loads them back.
 *   npm run build && node dist/bench/advice-warmup.js [workers]
 */
import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
import { farkle } from '@fairdice/core/rules/farkle/options';
import { loadConfig } from '../src/config/config';
import { AdviceTablesService, PRESET_TABLE_OPTIONS } from '../src/advice/advice-tables.service';

const names = ['penta', 'simple', 'bonus'];

async function warm(dir: string, workers: string) {
  const service = new AdviceTablesService(
    loadConfig({ NODE_ENV: 'production', ADVICE_CACHE_DIR: dir, ADVICE_WORKERS: workers, LOG_LEVEL: 'silent' }),
  );
  const loop = monitorEventLoopDelay({ resolution: 10 });
  loop.enable();
  const rss0 = process.memoryUsage().rss;
  const t0 = performance.now();
  service.onApplicationBootstrap();
  const ready = await Promise.all([
    ...PRESET_TABLE_OPTIONS.map((o, i) => service.whenReady(o).then(() => [names[i], performance.now() - t0] as const)),
    service.whenReady(farkle, 'farkle').then(() => ['farkle', performance.now() - t0] as const),
  ]);
  loop.disable();
  const rss = process.memoryUsage().rss - rss0;
  await service.onModuleDestroy();
  return { ready, maxStallMs: loop.max / 1e6, rssGrowthMB: rss / 1e6 };
}

async function main() {
  // The service's workers are unref'd (an idle worker never keeps a process alive): hold it open.
  const keepAlive = setInterval(() => undefined, 1000);
  const workers = process.argv[2] ?? '2';
  const dir = mkdtempSync(join(tmpdir(), 'fairdice-advice-warmup-'));
  console.log(`${cpus().length} CPUs, load average ${loadavg()[0].toFixed(1)}, ADVICE_WORKERS=${workers}`);
  const first = await warm(dir, workers);
  console.log(
    'first start (empty cache): ready after',
    first.ready.map(([n, ms]) => `${n} ${(ms / 1000).toFixed(1)} s`).join(', '),
  );
  console.log(
    `  event loop max stall ${first.maxStallMs.toFixed(1)} ms, RSS growth ${first.rssGrowthMB.toFixed(1)} MB`,
  );
  const files = readdirSync(dir);
  console.log(`  on disk: ${files.map((f) => statSync(join(dir, f)).size).join(' + ')} bytes (${files.length} files)`);
  const second = await warm(dir, workers);
  console.log(
    'restart (cache present): ready after',
    second.ready.map(([n, ms]) => `${n} ${(ms / 1000).toFixed(2)} s`).join(', '),
  );
  console.log(`  event loop max stall ${second.maxStallMs.toFixed(1)} ms`);
  rmSync(dir, { recursive: true, force: true });
  clearInterval(keepAlive);
}

void main();
