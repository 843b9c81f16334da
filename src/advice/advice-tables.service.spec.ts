import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  deserializeFarkleTwoPlayer,
  deserializeSolution,
  expectedScoreFromStart,
  expectedTurns,
  solveFarkleTwoPlayer,
  solveFiveDice,
  winChanceAtTurnStart,
} from '@fairdice/core/rules/advice';
import type { FiveDiceOptions } from '@fairdice/core/rules/five-dice';
import { farkle } from '@fairdice/core/rules/farkle/options';
import { simple } from '@fairdice/core/rules/five-dice/options';
import { loadConfig } from '../config/config';
import { DomainException } from '../common/errors';
import { AdviceTablesService, PRESET_TABLE_OPTIONS } from './advice-tables.service';

// Small option sets (no upper bonus, no joker, no extra bonus) solve in a fraction of a second.
const small = (threshold: number): FiveDiceOptions => ({
  joker: 'none',
  extraFiveOfAKindBonus: 0,
  upperBonusThreshold: threshold,
  upperBonusPoints: 0,
});

/** A Farkle option set (cheaper than the preset: a lower target) the advisor models. */
const farkleTo = (target: number) => ({ ...farkle, target });
/** Five-dice option sets whose tables all have the same size: only the bonus points differ (the attack of issue 24). */
const bonusOf = (points: number): FiveDiceOptions => ({ ...small(5), upperBonusPoints: points });

const thrown = (fn: () => unknown): DomainException => {
  try {
    fn();
  } catch (error) {
    if (error instanceof DomainException) return error;
    throw error;
  }
  throw new Error('expected a DomainException');
};

describe('AdviceTablesService', () => {
  let dir: string;
  const services: AdviceTablesService[] = [];
  const service = (env: Record<string, string> = {}) => {
    const s = new AdviceTablesService(loadConfig({ NODE_ENV: 'test', ADVICE_CACHE_DIR: dir, ...env }));
    services.push(s);
    return s;
  };

  beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'fairdice-advice-'))));
  afterEach(async () => {
    await Promise.all(services.splice(0).map((s) => s.onModuleDestroy()));
    rmSync(dir, { recursive: true, force: true });
  });

  it('answers TABLE_BUILDING with Retry-After at once, builds in a worker, then serves the table and caches it on disk', async () => {
    const tables = service();
    const options = small(1);
    const building = thrown(() => tables.fiveDice(options));
    expect(building.code).toBe('TABLE_BUILDING');
    expect(building.details?.retryAfterSeconds).toBeGreaterThanOrEqual(1);
    expect(building.headers?.['retry-after']).toBe(String(building.details?.retryAfterSeconds));

    const table = await tables.whenReady(options);
    const expected = solveFiveDice(options);
    expect(expectedScoreFromStart(table)).toBe(expectedScoreFromStart(expected));
    expect(tables.fiveDice(options)).toBe(table);
    const file = tables.cacheFile(options);
    const read = deserializeSolution(readFileSync(file), options);
    expect(read.ok).toBe(true);
    expect(tables.status()).toMatchObject({ queued: 0, building: 0, ready: 1 });
  });

  it('reuses the cached file after a restart and rebuilds a corrupt one', async () => {
    const options = small(2);
    const first = await service().whenReady(options);
    const file = service().cacheFile(options);
    const written = statSync(file).mtimeMs;

    const again = await service().whenReady(options);
    expect(Array.from(again.values.subarray(0, 500))).toEqual(Array.from(first.values.subarray(0, 500)));
    expect(statSync(file).mtimeMs).toBe(written); // read, not rewritten

    const bytes = readFileSync(file);
    bytes[bytes.length - 1] ^= 0xff; // one value byte: the hash check fails
    writeFileSync(file, bytes);
    const rebuilt = await service().whenReady(options);
    expect(expectedScoreFromStart(rebuilt)).toBe(expectedScoreFromStart(first));
    expect(deserializeSolution(readFileSync(file), options).ok).toBe(true);
  });

  it('bounds the queue: past ADVICE_QUEUE_MAX waiting tables a new one gets ADVICE_BUSY, nothing queued', async () => {
    const tables = service({ ADVICE_WORKERS: '1', ADVICE_QUEUE_MAX: '1' });
    const a = tables.whenReady(small(3)); // to the worker
    const b = tables.whenReady(small(4)); // waits in the queue
    const busy = await tables.whenReady(small(5)).catch((error: unknown) => error);
    expect(busy).toBeInstanceOf(DomainException);
    expect((busy as DomainException).code).toBe('ADVICE_BUSY');
    expect((busy as DomainException).headers?.['retry-after']).toMatch(/^\d+$/);
    expect(tables.status()).toMatchObject({ workers: 1, building: 1, queued: 1 });
    await Promise.all([a, b]);
    expect(existsSync(tables.cacheFile(small(5)))).toBe(false);
    // Once the queue drained, the refused table can be asked for again.
    await tables.whenReady(small(5));
  });

  it('builds the Farkle table in the worker too', async () => {
    const tables = service();
    expect(thrown(() => tables.farkle(farkle)).code).toBe('TABLE_BUILDING');
    const solution = await tables.whenReady(farkle, 'farkle');
    expect(expectedTurns(solution, 0)).toBeCloseTo(18.8739, 4);
    expect(tables.farkle(farkle)).toBe(solution);
  });

  it('keeps Farkle tables of option sets that differ only in a nested option apart', async () => {
    const tables = service();
    const withStraight = { ...farkle, straights: { ...farkle.straights, full: 1500 } };
    const [plain, straight] = await Promise.all([
      tables.whenReady(farkle, 'farkle'),
      tables.whenReady(withStraight, 'farkle'),
    ]);
    expect(straight).not.toBe(plain);
    expect(expectedTurns(straight, 0)).toBeLessThan(expectedTurns(plain, 0));
  });

  it('asks to retry in about a second when the table only has to be read from disk', async () => {
    await service().whenReady(small(6));
    const restarted = service();
    const loading = thrown(() => restarted.fiveDice(small(6)));
    expect(loading.code).toBe('TABLE_BUILDING');
    expect(loading.details?.retryAfterSeconds).toBe(1);
  });

  it('warms the presets in the background at start-up only when ADVICE_WARM_PRESETS is on', () => {
    const off = service();
    off.onApplicationBootstrap();
    expect(off.status()).toMatchObject({ queued: 0, building: 0, ready: 0 });
    const on = service({ ADVICE_WARM_PRESETS: 'true', ADVICE_WORKERS: '1', ADVICE_WARM_IDLE_UTILIZATION: '1' });
    on.onApplicationBootstrap(); // returns at once
    // Three five-dice presets, solo Farkle and the default options' two-player Farkle table.
    expect(on.status()).toMatchObject({ queued: 5 });
  });

  describe('warm-up without theft (decision 0141)', () => {
    /** Resolves once `check` holds (checked every 20 ms, leaving the event loop idle between), or fails after 20 s. */
    const until = async (check: () => boolean) => {
      const deadline = Date.now() + 20_000;
      while (!check()) {
        if (Date.now() > deadline) throw new Error('condition not reached in 20 s');
        await new Promise((r) => setTimeout(r, 20));
      }
    };
    const niceOfThreads = () =>
      readdirSync('/proc/self/task').map((tid) => {
        const stat = readFileSync(`/proc/self/task/${tid}/stat`, 'utf8');
        return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[16]);
      });

    it('builds a table that is not on disk only once the event loop is idle; a request for it starts it at once', async () => {
      // Never idle (utilization is never below 0): the warm-up's tables wait.
      const busy = service({ ADVICE_WARM_PRESETS: 'true', ADVICE_WORKERS: '1', ADVICE_WARM_IDLE_UTILIZATION: '0' });
      busy.onApplicationBootstrap();
      expect(busy.status()).toMatchObject({ queued: 5, building: 0, workers: 0 });
      // A game asks for one: it is wanted now.
      expect(thrown(() => busy.fiveDice(simple)).code).toBe('TABLE_BUILDING');
      expect(busy.status()).toMatchObject({ queued: 4, building: 1, workers: 1 });

      // Always idle (utilization below 1): the warm-up starts on the first sample.
      const idle = service({ ADVICE_WARM_PRESETS: 'true', ADVICE_WORKERS: '1', ADVICE_WARM_IDLE_UTILIZATION: '1' });
      idle.onApplicationBootstrap();
      expect(idle.status()).toMatchObject({ building: 0 });
      await until(() => idle.status().building === 1);
    }, 30_000);

    it('stops a speculative build when the server gets busy, and starts it again at the next idle moment', async () => {
      const tables = service({ ADVICE_WARM_PRESETS: 'true', ADVICE_WORKERS: '1', ADVICE_WARM_IDLE_UTILIZATION: '0.5' });
      tables.onApplicationBootstrap();
      await until(() => tables.status().building === 1);
      // Load: the event loop busy for a whole sample (1.5 s of synchronous work).
      const end = Date.now() + 1500;
      while (Date.now() < end) Math.sqrt(Math.random());
      await until(() => tables.status().building === 0);
      expect(tables.status()).toMatchObject({ queued: 5, workers: 0 });
      await until(() => tables.status().building === 1);
    }, 30_000);

    it('loads a preset cached on disk at once, without waiting for idle', () => {
      const tables = service({ ADVICE_WARM_PRESETS: 'true', ADVICE_WORKERS: '1', ADVICE_WARM_IDLE_UTILIZATION: '0' });
      writeFileSync(tables.cacheFile(simple), 'a cached table');
      tables.onApplicationBootstrap();
      expect(tables.status()).toMatchObject({ building: 1, queued: 4 });
    });

    it('loads the default two-player Farkle table cached on disk at once, too', () => {
      const tables = service({ ADVICE_WARM_PRESETS: 'true', ADVICE_WORKERS: '1', ADVICE_WARM_IDLE_UTILIZATION: '0' });
      writeFileSync(tables.twoPlayerCacheFile(farkle), 'a cached table');
      tables.onApplicationBootstrap();
      expect(tables.status()).toMatchObject({ building: 1, queued: 4 });
    });

    it('runs a warm-up build at ADVICE_WORKER_NICE, a wanted table at normal priority', async () => {
      const count = (nice: number) => niceOfThreads().filter((n) => n === nice).length;
      const before = count(7);
      const warm = service({
        ADVICE_WARM_PRESETS: 'true',
        ADVICE_WORKERS: '1',
        ADVICE_WORKER_NICE: '7',
        ADVICE_WARM_IDLE_UTILIZATION: '1',
      });
      warm.onApplicationBootstrap();
      await until(() => warm.status().building === 1 && count(7) > before);
      await warm.onModuleDestroy();
      await until(() => count(7) === before);
      // A table someone waits for: no thread of ours at nice 7 meanwhile.
      const wanted = service({ ADVICE_WORKERS: '1', ADVICE_WORKER_NICE: '7' });
      const table = wanted.whenReady(small(6));
      await until(() => wanted.status().building === 1);
      expect(count(7)).toBe(before);
      await table;
    }, 30_000);

    it('stops a worker after ADVICE_WORKER_IDLE_MS idle, and starts one again for the next table', async () => {
      const tables = service({ ADVICE_WORKERS: '1', ADVICE_WORKER_IDLE_MS: '50' });
      const options = small(4);
      const table = await tables.whenReady(options);
      await until(() => tables.status().workers === 0);
      await expect(tables.whenReady(small(5))).resolves.toBeDefined();
      expect(tables.fiveDice(options)).toBe(table);
    }, 30_000);
  });

  describe('the two-player Farkle table (issue 31)', () => {
    const small = farkleTo(1500);

    it('is built in a worker (TABLE_BUILDING first), cached on disk, read back after a restart, rebuilt when corrupt', async () => {
      const tables = service();
      const building = thrown(() => tables.farkleTwoPlayer(small));
      expect(building.code).toBe('TABLE_BUILDING');
      expect(building.headers?.['retry-after']).toBe(String(building.details?.retryAfterSeconds));
      const table = await tables.whenReady(small, 'farkle-2p');
      expect(tables.farkleTwoPlayer(small)).toBe(table);
      const expected = solveFarkleTwoPlayer(small);
      expect(winChanceAtTurnStart(table, 0, 0)).toBe(winChanceAtTurnStart(expected, 0, 0));
      const file = tables.twoPlayerCacheFile(small);
      expect(file.endsWith('.f2pt')).toBe(true);
      expect(deserializeFarkleTwoPlayer(readFileSync(file), small).ok).toBe(true);
      expect(tables.status().diskBytes).toBe(statSync(file).size);

      const written = statSync(file).mtimeMs;
      const restarted = service();
      expect(thrown(() => restarted.farkleTwoPlayer(small)).details?.retryAfterSeconds).toBe(1); // only a read
      const again = await restarted.whenReady(small, 'farkle-2p');
      expect(Array.from(again.win)).toEqual(Array.from(expected.win));
      expect(statSync(file).mtimeMs).toBe(written);

      const bytes = readFileSync(file);
      bytes[bytes.length - 1] ^= 0xff;
      writeFileSync(file, bytes);
      const rebuilt = await service().whenReady(small, 'farkle-2p');
      expect(winChanceAtTurnStart(rebuilt, 0, 0)).toBe(winChanceAtTurnStart(expected, 0, 0));
      expect(deserializeFarkleTwoPlayer(readFileSync(file), small).ok).toBe(true);
    });

    it('keeps solo and two-player tables of the same options apart', async () => {
      const tables = service();
      const [solo, duel] = await Promise.all([tables.whenReady(small, 'farkle'), tables.whenReady(small, 'farkle-2p')]);
      expect(expectedTurns(solo, 0)).toBeGreaterThan(1);
      expect(winChanceAtTurnStart(duel, 0, 0)).toBeGreaterThan(0.5);
      expect(tables.farkle(small)).toBe(solo);
      expect(tables.farkleTwoPlayer(small)).toBe(duel);
    });

    it('counts its files within ADVICE_CACHE_MAX_BYTES with the five-dice ones, never the default options’ file', async () => {
      await service().whenReady(farkleTo(1000), 'farkle-2p');
      const one = statSync(service().twoPlayerCacheFile(farkleTo(1000))).size;
      // The default options' file (pinned, like the five-dice presets') is neither counted nor deleted.
      writeFileSync(service().twoPlayerCacheFile(farkle), 'the preset');
      const bounded = service({ ADVICE_CACHE_MAX_BYTES: String(one + 10) });
      expect(bounded.status().diskBytes).toBe(one);
      await bounded.whenReady(farkleTo(950), 'farkle-2p');
      // Only the newer custom file fits: the older one was deleted, the preset's kept.
      expect(existsSync(bounded.twoPlayerCacheFile(farkleTo(1000)))).toBe(false);
      expect(existsSync(bounded.twoPlayerCacheFile(farkleTo(950)))).toBe(true);
      expect(existsSync(bounded.twoPlayerCacheFile(farkle))).toBe(true);
      expect(bounded.status().diskBytes).toBe(statSync(bounded.twoPlayerCacheFile(farkleTo(950))).size);
    });

    it('needs a signed-in caller and a budget for a new table, as the other kinds', async () => {
      const tables = service({ ADVICE_CUSTOM_BUILDS_PER_HOUR: '1' });
      expect(thrown(() => tables.forAdvisor('farkle-2p', farkleTo(1200), { playerId: null })).code).toBe(
        'UNAUTHENTICATED',
      );
      expect(tables.status()).toMatchObject({ queued: 0, building: 0 });
      expect(thrown(() => tables.forAdvisor('farkle-2p', farkleTo(1200), { playerId: 'ada' })).code).toBe(
        'TABLE_BUILDING',
      );
      await tables.whenReady(farkleTo(1200), 'farkle-2p');
      expect(thrown(() => tables.forAdvisor('farkle-2p', farkleTo(1250), { playerId: 'ada' })).code).toBe(
        'ADVICE_BUILD_LIMITED',
      );
      // Built (and on disk): served to anyone, also after a restart.
      expect(tables.forAdvisor('farkle-2p', farkleTo(1200), { playerId: null })).toBe(
        await tables.whenReady(farkleTo(1200), 'farkle-2p'),
      );
      const restarted = service();
      expect(thrown(() => restarted.forAdvisor('farkle-2p', farkleTo(1200), { playerId: null })).code).toBe(
        'TABLE_BUILDING',
      );
    });
  });

  describe('bounds (issue 24, item 6)', () => {
    const fdot = () => readdirSync(dir).filter((f) => f.endsWith('.fdot'));
    const bytesOnDisk = () => fdot().reduce((sum, f) => sum + statSync(join(dir, f)).size, 0);
    const ada = { playerId: 'ada' };
    const anonymous = { playerId: null };

    it('keeps the custom tables on disk within ADVICE_CACHE_MAX_BYTES, deleting the least recently used file', async () => {
      await service().whenReady(bonusOf(10));
      const size = statSync(service().cacheFile(bonusOf(10))).size;
      rmSync(service().cacheFile(bonusOf(10)));
      const bound = Math.floor(2.5 * size); // room for two tables
      const tables = service({ ADVICE_CACHE_MAX_BYTES: String(bound) });
      await tables.whenReady(bonusOf(11));
      await tables.whenReady(bonusOf(12));
      tables.fiveDice(bonusOf(11)); // used again: bonusOf(12) is now the least recently used
      await tables.whenReady(bonusOf(13));
      expect(bytesOnDisk()).toBeLessThanOrEqual(bound);
      const name = (options: FiveDiceOptions) => tables.cacheFile(options).slice(dir.length + 1);
      expect(fdot().sort()).toEqual([name(bonusOf(11)), name(bonusOf(13))].sort());
      for (const points of [14, 15, 16]) {
        await tables.whenReady(bonusOf(points));
        expect(bytesOnDisk()).toBeLessThanOrEqual(bound);
      }
      expect(fdot().sort()).toEqual([name(bonusOf(15)), name(bonusOf(16))].sort());
      expect(tables.status().diskBytes).toBe(bytesOnDisk());
      // A restart with a smaller bound deletes the oldest files down to it.
      service({ ADVICE_CACHE_MAX_BYTES: String(Math.floor(1.5 * size)) });
      expect(fdot()).toEqual([name(bonusOf(16))]);
    }, 30_000); // seven small solves one after the other

    it('keeps at most ADVICE_MEMORY_TABLES tables in memory, five-dice and Farkle together', async () => {
      const tables = service({ ADVICE_MEMORY_TABLES: '1' });
      await tables.whenReady(small(20));
      await tables.whenReady(farkleTo(3000), 'farkle');
      await tables.whenReady(small(21));
      await tables.whenReady(farkleTo(3500), 'farkle');
      expect(tables.status().ready).toBe(1);
      // The dropped Farkle table is asked for again: it is built again, not served from nowhere.
      expect(thrown(() => tables.farkle(farkleTo(3000))).code).toBe('TABLE_BUILDING');
    });

    it('refuses an anonymous caller a new table for custom options (UNAUTHENTICATED), queues and writes nothing, but serves what exists', async () => {
      const tables = service();
      const refused = thrown(() => tables.forAdvisor('five-dice', small(30), anonymous));
      expect(refused.code).toBe('UNAUTHENTICATED');
      expect(thrown(() => tables.forAdvisor('farkle', farkleTo(4000), anonymous)).code).toBe('UNAUTHENTICATED');
      expect(tables.status()).toMatchObject({ queued: 0, building: 0, ready: 0 });
      expect(existsSync(tables.cacheFile(small(30)))).toBe(false);
      // A preset is built for anyone; a custom table already built (in memory or on disk) is served.
      expect(thrown(() => tables.forAdvisor('five-dice', simple, anonymous)).code).toBe('TABLE_BUILDING');
      const built = await tables.whenReady(small(31));
      expect(tables.forAdvisor('five-dice', small(31), anonymous)).toBe(built);
      const restarted = service();
      expect(thrown(() => restarted.forAdvisor('five-dice', small(31), anonymous)).code).toBe('TABLE_BUILDING');
      await restarted.whenReady(small(31)); // read back from disk
      expect(expectedScoreFromStart(restarted.forAdvisor('five-dice', small(31), anonymous))).toBe(
        expectedScoreFromStart(built),
      );
    });

    it("refuses a player's custom builds past ADVICE_CUSTOM_BUILDS_PER_HOUR with 429 ADVICE_BUILD_LIMITED and Retry-After", async () => {
      const tables = service({ ADVICE_CUSTOM_BUILDS_PER_HOUR: '2' });
      expect(thrown(() => tables.forAdvisor('five-dice', small(40), ada)).code).toBe('TABLE_BUILDING');
      expect(thrown(() => tables.forAdvisor('farkle', farkleTo(4500), ada)).code).toBe('TABLE_BUILDING');
      // Asking again for a table being built costs nothing.
      expect(thrown(() => tables.forAdvisor('five-dice', small(40), ada)).code).toBe('TABLE_BUILDING');
      await Promise.all([tables.whenReady(small(40)), tables.whenReady(farkleTo(4500), 'farkle')]);
      const limited = thrown(() => tables.forAdvisor('five-dice', small(41), ada));
      expect(limited.code).toBe('ADVICE_BUILD_LIMITED');
      const retryAfter = Number(limited.headers?.['retry-after']);
      expect(retryAfter).toBeGreaterThan(3500);
      expect(retryAfter).toBeLessThanOrEqual(3600);
      expect(limited.details).toMatchObject({ retryAfterSeconds: retryAfter, limit: 2 });
      expect(tables.status()).toMatchObject({ queued: 0, building: 0 });
      // Another player has a budget of their own.
      expect(thrown(() => tables.forAdvisor('five-dice', small(41), { playerId: 'bob' })).code).toBe('TABLE_BUILDING');
      await tables.whenReady(small(41));
      // Once built, ada is served the table her budget could not pay for.
      expect(tables.forAdvisor('five-dice', small(41), ada)).toBe(await tables.whenReady(small(41)));
    });

    it('lets a player have two custom builds queued or building at once (one player cannot fill the queue)', async () => {
      const tables = service({ ADVICE_WORKERS: '1' });
      thrown(() => tables.forAdvisor('five-dice', small(45), ada));
      thrown(() => tables.forAdvisor('five-dice', small(46), ada));
      const limited = thrown(() => tables.forAdvisor('five-dice', small(47), ada));
      expect(limited.code).toBe('ADVICE_BUILD_LIMITED');
      expect(limited.details).toMatchObject({ limit: 2 });
      expect(Number(limited.headers?.['retry-after'])).toBeGreaterThanOrEqual(1);
      expect(tables.status()).toMatchObject({ queued: 1, building: 1 });
      await tables.whenReady(small(45));
      expect(thrown(() => tables.forAdvisor('five-dice', small(47), ada)).code).toBe('TABLE_BUILDING');
      await Promise.all([tables.whenReady(small(46)), tables.whenReady(small(47))]);
      expect(existsSync(tables.cacheFile(small(48)))).toBe(false);
    });

    it('serves the presets and games in progress before custom builds: a worker is kept for them', async () => {
      const tables = service({ ADVICE_WORKERS: '2', ADVICE_CUSTOM_BUILDS_PER_HOUR: '10' });
      for (const threshold of [50, 51, 52])
        thrown(() => tables.forAdvisor('five-dice', small(threshold), { playerId: `p${threshold}` }));
      // Two workers, but custom builds hold one at most.
      expect(tables.status()).toMatchObject({ building: 1, queued: 2 });
      expect(thrown(() => tables.forAdvisor('five-dice', simple, anonymous)).code).toBe('TABLE_BUILDING');
      expect(tables.status()).toMatchObject({ building: 2, queued: 2 }); // the preset started at once
      await Promise.all([50, 51, 52].map((threshold) => tables.whenReady(small(threshold))));
    });

    it('with one worker, a game in progress goes before the custom builds queued earlier', async () => {
      const tables = service({ ADVICE_WORKERS: '1' });
      const order: string[] = [];
      const custom = [60, 61, 62].map((threshold) => {
        thrown(() => tables.forAdvisor('five-dice', small(threshold), { playerId: `p${threshold}` }));
        return tables.whenReady(small(threshold)).then(() => order.push(`custom ${threshold}`));
      });
      // Asked with the game's priority (computer seats, game advice): ahead of 61 and 62.
      expect(thrown(() => tables.fiveDice(small(63))).code).toBe('TABLE_BUILDING');
      const game = tables.whenReady(small(63)).then(() => order.push('game'));
      await Promise.all([...custom, game]);
      expect(order).toEqual(['custom 60', 'game', 'custom 61', 'custom 62']);
    });

    it('never drops the presets from memory or their files from disk', async () => {
      const tables = service({ ADVICE_MEMORY_TABLES: '1', ADVICE_CACHE_MAX_BYTES: '1' });
      const preset = PRESET_TABLE_OPTIONS[1];
      const table = await tables.whenReady(preset);
      await tables.whenReady(small(70));
      await tables.whenReady(small(71));
      expect(tables.fiveDice(preset)).toBe(table);
      expect(existsSync(tables.cacheFile(preset))).toBe(true);
      expect(existsSync(tables.cacheFile(small(70)))).toBe(false);
      expect(fdot()).toEqual([tables.cacheFile(preset).slice(dir.length + 1)]);
    }, 60_000); // a preset's table: seconds of CPU
  });
});
