/**
 * The default Farkle options' two-player table through the service (issue 31): a fresh
 * AdviceTablesService on an empty cache directory builds it in a worker thread (as a game, an
 * adviser or the warm-up would), writes it to the disk cache; a second service on the same
 * directory (a restart) reads it back. Prints the wall times, the file's bytes, the event loop's
 * longest stall and the first player's chance to win from the start.
 *   npm run build && nice -n 10 node dist/bench/advice-two-player-table.js
 */
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
import { winChanceAtTurnStart } from '@fairdice/core/rules/advice';
import { farkle } from '@fairdice/core/rules/farkle/options';
import { loadConfig } from '../src/config/config';
import { AdviceTablesService } from '../src/advice/advice-tables.service';

async function timed(dir: string) {
  const service = new AdviceTablesService(
    loadConfig({ NODE_ENV: 'production', ADVICE_CACHE_DIR: dir, ADVICE_WORKERS: '1', LOG_LEVEL: 'silent' }),
  );
  const loop = monitorEventLoopDelay({ resolution: 10 });
  loop.enable();
  const t0 = performance.now();
  const table = await service.whenReady(farkle, 'farkle-2p');
  const ms = performance.now() - t0;
  loop.disable();
  const bytes = statSync(service.twoPlayerCacheFile(farkle)).size;
  await service.onModuleDestroy();
  return { ms, bytes, stallMs: loop.max / 1e6, first: winChanceAtTurnStart(table, 0, 0) };
}

async function main() {
  // The workers are unref'd: keep the process alive while they work.
  const keep = setInterval(() => undefined, 1000);
  const dir = mkdtempSync(join(tmpdir(), 'fairdice-2p-bench-'));
  try {
    console.log(`load average at start ${loadavg()[0].toFixed(1)}`);
    const built = await timed(dir);
    const read = await timed(dir);
    console.log(`built (empty cache) ready after ${(built.ms / 1000).toFixed(1)} s, ${built.bytes} bytes on disk`);
    console.log(`restart (file present) ready after ${(read.ms / 1000).toFixed(2)} s`);
    console.log(`event loop's longest stall ${Math.max(built.stallMs, read.stallMs).toFixed(0)} ms`);
    console.log(`first player's chance to win ${built.first} (read back: ${read.first})`);
  } finally {
    clearInterval(keep);
    rmSync(dir, { recursive: true, force: true });
  }
}

void main();
