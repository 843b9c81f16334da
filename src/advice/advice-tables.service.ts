import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join, resolve } from 'node:path';
import type { Worker } from 'node:worker_threads';
import { Inject, Injectable, Logger, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import { optionsFingerprint, type FarkleSolution, type FiveDiceSolution } from '@fairdice/core/rules/advice';
import type { FiveDiceOptions } from '@fairdice/core/rules/five-dice';
import type { FarkleOptions } from '@fairdice/core/rules/farkle';
import { bonus, penta, simple } from '@fairdice/core/rules/five-dice/options';
import { farkle } from '@fairdice/core/rules/farkle/options';
import { type AppConfig, APP_CONFIG } from '../config/config';
import { DomainException } from '../common/errors';
import type { TableJob, TableJobResult } from './table-worker';
import { startTableWorker } from './worker-entry';

type Kind = 'five-dice' | 'farkle';
type Solution<K extends Kind> = K extends 'five-dice' ? FiveDiceSolution : FarkleSolution;
type OptionsOf<K extends Kind> = K extends 'five-dice' ? FiveDiceOptions : FarkleOptions;

interface Entry {
  kind: Kind;
  key: string;
  options: FiveDiceOptions | FarkleOptions;
  status: 'queued' | 'building' | 'ready';
  solution?: FiveDiceSolution | FarkleSolution;
  ready: Promise<FiveDiceSolution | FarkleSolution>;
  settle: { resolve(s: FiveDiceSolution | FarkleSolution): void; reject(e: unknown): void };
  startedAt?: number;
  /** A cached file existed when the entry was made: loading takes about a second, not a solve. */
  cached: boolean;
  /** Set on every use; the least recently used table leaves memory first. */
  usedAt: number;
}

interface Slot {
  worker: Worker;
  job: { id: number; entry: Entry } | null;
}

/** What the tables service is doing (the health/metrics view and the tests read it). */
export interface AdviceTablesStatus {
  workers: number;
  queued: number;
  building: number;
  ready: number;
}

/** Seconds a build is assumed to take before one has been measured (a five-dice solve under load). */
const DEFAULT_BUILD_SECONDS = 20;
/** Seconds assumed for reading a cached table back (measured: 0.05–0.25 s). */
const LOAD_SECONDS = 1;

/** JSON with object keys sorted at every level: equal options, equal text. */
const canonical = (value: unknown): string =>
  value !== null && typeof value === 'object' && !Array.isArray(value)
    ? `{${Object.keys(value)
        .sort()
        .map((k) => `${JSON.stringify(k)}:${canonical((value as Record<string, unknown>)[k])}`)
        .join(',')}}`
    : JSON.stringify(value);

/** The five-dice presets, warmed at start-up. */
export const PRESET_TABLE_OPTIONS: readonly FiveDiceOptions[] = [penta, simple, bonus];
/** @deprecated The first name of PRESET_TABLE_OPTIONS (kept for code written against it). */
export const FIVE_DICE_PRESETS = PRESET_TABLE_OPTIONS;

/**
 * The solved advice tables (docs/advice.md "Tables"): five-dice tables per option set and the
 * Farkle table, built in worker threads with a bounded queue, cached on disk and in memory.
 * Nothing here blocks the event loop: `get` answers at once with the table or TABLE_BUILDING
 * (503 + Retry-After); background jobs await `whenReady`.
 */
@Injectable()
export class AdviceTablesService implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger('AdviceTables');
  private readonly entries = new Map<string, Entry>();
  private readonly queue: Entry[] = [];
  private readonly slots: Slot[] = [];
  private readonly workerCount: number;
  private readonly queueMax: number;
  private readonly memoryTables: number;
  private readonly cacheDir: string;
  private nextJobId = 1;
  private closed = false;
  /** Last measured seconds per kind and source, for Retry-After. */
  private buildSeconds: Record<Kind, number> = { 'five-dice': DEFAULT_BUILD_SECONDS, farkle: 2 };

  constructor(@Inject(APP_CONFIG) private readonly config: AppConfig) {
    this.workerCount = config.ADVICE_WORKERS ?? Math.min(2, availableParallelism());
    this.queueMax = config.ADVICE_QUEUE_MAX;
    this.memoryTables = config.ADVICE_MEMORY_TABLES;
    this.cacheDir = resolve(config.ADVICE_CACHE_DIR);
  }

  /** Start-up: the presets are queued in the background; start-up and requests never wait for them. */
  onApplicationBootstrap(): void {
    if (!this.config.ADVICE_WARM_PRESETS) return;
    for (const options of PRESET_TABLE_OPTIONS) this.ensure('five-dice', options);
    this.ensure('farkle', farkle);
  }

  async onModuleDestroy(): Promise<void> {
    this.closed = true;
    const closing = new DomainException('ADVICE_BUSY', 'The service is shutting down', { retryAfterSeconds: 5 });
    for (const entry of this.entries.values()) if (entry.status !== 'ready') entry.settle.reject(closing);
    this.queue.length = 0;
    await Promise.all(this.slots.splice(0).map((slot) => slot.worker.terminate()));
  }

  /** The five-dice table for `options`, or throws TABLE_BUILDING (it is then queued) or ADVICE_BUSY. */
  fiveDice(options: FiveDiceOptions): FiveDiceSolution {
    return this.get('five-dice', options);
  }

  /** The Farkle table for `options`, or throws TABLE_BUILDING (it is then queued) or ADVICE_BUSY. */
  farkle(options: FarkleOptions): FarkleSolution {
    return this.get('farkle', options);
  }

  /** The table once built: for background jobs (computer seats) that may wait. Rejects with ADVICE_BUSY when the queue is full. */
  whenReady(options: FiveDiceOptions): Promise<FiveDiceSolution>;
  whenReady(options: FarkleOptions, kind: 'farkle'): Promise<FarkleSolution>;
  async whenReady(
    options: FiveDiceOptions | FarkleOptions,
    kind: Kind = 'five-dice',
  ): Promise<FiveDiceSolution | FarkleSolution> {
    const entry = this.ensure(kind, options);
    entry.usedAt = Date.now();
    return entry.ready;
  }

  /** Where the five-dice table for `options` is cached: <ADVICE_CACHE_DIR>/<sha256(fingerprint)>.fdot. */
  cacheFile(options: FiveDiceOptions): string {
    return join(this.cacheDir, `${createHash('sha256').update(optionsFingerprint(options)).digest('hex')}.fdot`);
  }

  status(): AdviceTablesStatus {
    const all = [...this.entries.values()];
    return {
      workers: this.slots.length,
      queued: all.filter((e) => e.status === 'queued').length,
      building: all.filter((e) => e.status === 'building').length,
      ready: all.filter((e) => e.status === 'ready').length,
    };
  }

  get<K extends Kind>(kind: K, options: OptionsOf<K>): Solution<K> {
    const entry = this.ensure(kind, options);
    entry.usedAt = Date.now();
    if (entry.status === 'ready') return entry.solution as Solution<K>;
    const retryAfterSeconds = this.retryAfter(entry);
    throw new DomainException(
      'TABLE_BUILDING',
      `The ${kind} advice table for these options is being computed; retry in ${retryAfterSeconds} s`,
      { retryAfterSeconds },
      { 'retry-after': String(retryAfterSeconds) },
    );
  }

  private key(kind: Kind, options: FiveDiceOptions | FarkleOptions): string {
    return kind === 'five-dice' ? optionsFingerprint(options as FiveDiceOptions) : `farkle ${canonical(options)}`;
  }

  /** The entry for these options, queued for a worker if it is not known yet. */
  private ensure(kind: Kind, options: FiveDiceOptions | FarkleOptions): Entry {
    const key = this.key(kind, options);
    const known = this.entries.get(key);
    if (known) return known;
    if (this.closed || this.queue.length >= this.queueMax) {
      const retryAfterSeconds = Math.max(1, Math.ceil(this.buildSeconds['five-dice']));
      throw new DomainException(
        'ADVICE_BUSY',
        `Too many advice tables are waiting to be computed; retry in ${retryAfterSeconds} s`,
        { retryAfterSeconds },
        { 'retry-after': String(retryAfterSeconds) },
      );
    }
    let settle!: Entry['settle'];
    const ready = new Promise<FiveDiceSolution | FarkleSolution>((resolve, reject) => (settle = { resolve, reject }));
    // A rejection nobody awaits is not an error: `get` callers see the state, not the promise.
    ready.catch(() => undefined);
    const cached = kind === 'five-dice' && existsSync(this.cacheFile(options as FiveDiceOptions));
    const entry: Entry = { kind, key, options, status: 'queued', ready, settle, usedAt: Date.now(), cached };
    this.entries.set(key, entry);
    this.queue.push(entry);
    this.pump();
    return entry;
  }

  /** Hands queued tables to idle workers (starting workers up to ADVICE_WORKERS). */
  private pump(): void {
    while (this.queue.length > 0 && !this.closed) {
      let slot = this.slots.find((s) => s.job === null);
      if (!slot && this.slots.length < this.workerCount) slot = this.spawn();
      if (!slot) return;
      const entry = this.queue.shift()!;
      entry.status = 'building';
      entry.startedAt = Date.now();
      const id = this.nextJobId++;
      slot.job = { id, entry };
      const job: TableJob =
        entry.kind === 'five-dice'
          ? {
              id,
              kind: 'five-dice',
              options: entry.options as FiveDiceOptions,
              file: this.cacheFile(entry.options as FiveDiceOptions),
            }
          : { id, kind: 'farkle', options: entry.options as FarkleOptions };
      slot.worker.postMessage(job);
    }
  }

  private spawn(): Slot {
    const slot: Slot = { worker: startTableWorker(), job: null };
    slot.worker.on('message', (result: TableJobResult) => this.finished(slot, result));
    // A worker that dies fails its table (the next request queues it again) and is replaced on demand.
    slot.worker.on('error', (error) => this.lost(slot, error));
    slot.worker.on('exit', (code) => {
      if (!this.closed) this.lost(slot, new Error(`advice worker exited with code ${code}`));
    });
    // Idle workers do not keep the process alive.
    slot.worker.unref();
    this.slots.push(slot);
    return slot;
  }

  private finished(slot: Slot, result: TableJobResult): void {
    const job = slot.job;
    slot.job = null;
    if (!job || job.id !== result.id) return;
    const { entry } = job;
    if (!result.ok) {
      this.logger.error(`advice table failed (${entry.key}): ${result.error}`);
      this.entries.delete(entry.key);
      entry.settle.reject(new Error(result.error));
    } else {
      entry.status = 'ready';
      entry.solution = result.solution;
      entry.settle.resolve(result.solution);
      if (result.kind === 'five-dice') {
        if (result.source === 'solved') this.buildSeconds['five-dice'] = result.ms / 1000;
        if (result.writeError) this.logger.warn(`advice table not cached (${entry.key}): ${result.writeError}`);
        this.logger.log(
          `advice table ${result.source === 'disk' ? 'loaded' : 'solved'} in ${Math.round(result.ms)} ms (${entry.key})`,
        );
      } else this.buildSeconds.farkle = result.ms / 1000;
      this.evict();
    }
    this.pump();
  }

  private lost(slot: Slot, error: unknown): void {
    const index = this.slots.indexOf(slot);
    if (index < 0) return;
    this.slots.splice(index, 1);
    if (slot.job) {
      this.logger.error(`advice worker failed (${slot.job.entry.key}): ${String(error)}`);
      this.entries.delete(slot.job.entry.key);
      slot.job.entry.settle.reject(error);
    }
    void slot.worker.terminate();
    this.pump();
  }

  /** Keeps at most ADVICE_MEMORY_TABLES five-dice tables in memory (a dropped one reloads from disk). */
  private evict(): void {
    const ready = [...this.entries.values()].filter((e) => e.status === 'ready' && e.kind === 'five-dice');
    ready.sort((a, b) => a.usedAt - b.usedAt);
    for (const entry of ready.slice(0, Math.max(0, ready.length - this.memoryTables))) this.entries.delete(entry.key);
  }

  /** Seconds until the table is probably ready: its build's remainder, plus the builds queued before it. */
  private retryAfter(entry: Entry): number {
    const per = entry.cached ? LOAD_SECONDS : this.buildSeconds[entry.kind];
    let seconds: number;
    if (entry.status === 'building') seconds = per - (Date.now() - (entry.startedAt ?? Date.now())) / 1000;
    else {
      const ahead = this.queue.indexOf(entry);
      seconds = per * (Math.floor(Math.max(0, ahead) / Math.max(1, this.workerCount)) + 1);
    }
    return Math.min(120, Math.max(1, Math.ceil(seconds)));
  }
}
