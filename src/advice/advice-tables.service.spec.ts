import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { deserializeSolution, expectedScoreFromStart, expectedTurns, solveFiveDice } from '@fairdice/core/rules/advice';
import type { FiveDiceOptions } from '@fairdice/core/rules/five-dice';
import { farkle } from '@fairdice/core/rules/farkle/options';
import { loadConfig } from '../config/config';
import { DomainException } from '../common/errors';
import { AdviceTablesService } from './advice-tables.service';

// Small option sets (no upper bonus, no joker, no extra bonus) solve in a fraction of a second.
const small = (threshold: number): FiveDiceOptions => ({
  joker: 'none',
  extraFiveOfAKindBonus: 0,
  upperBonusThreshold: threshold,
  upperBonusPoints: 0,
});

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
    const on = service({ ADVICE_WARM_PRESETS: 'true', ADVICE_WORKERS: '1' });
    on.onApplicationBootstrap(); // returns at once
    expect(on.status()).toMatchObject({ building: 1, queued: 3 });
  });
});
