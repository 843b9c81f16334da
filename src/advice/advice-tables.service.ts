import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join, resolve } from 'node:path';
import type { Worker } from 'node:worker_threads';
import { Inject, Injectable, Logger, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import { LRUCache } from 'lru-cache';
import {
  optionsFingerprint,
  twoPlayerFingerprint,
  type FarkleSolution,
  type FarkleTwoPlayerSolution,
  type FiveDiceSolution,
} from '@fairdice/core/rules/advice';
import type { FiveDiceOptions } from '@fairdice/core/rules/five-dice';
import type { FarkleOptions } from '@fairdice/core/rules/farkle';
import { bonus, penta, simple } from '@fairdice/core/rules/five-dice/options';
import { farkle } from '@fairdice/core/rules/farkle/options';
import { type AppConfig, APP_CONFIG } from '../config/config';
import { DomainException } from '../common/errors';
import type { TableJob, TableJobResult } from './table-worker';
import type { AdviceCaller, AdviceTablesStatus, AnySolution, Kind, OptionsOf, Solution } from './advice-tables.types';
import { TableDiskCache } from './table-disk-cache';
import { startTableWorker } from './worker-entry';

export type { AdviceCaller, AdviceTablesStatus } from './advice-tables.types';

interface Entry {
  kind: Kind;
  key: string;
  options: FiveDiceOptions | FarkleOptions;
  status: 'queued' | 'building' | 'ready';
  solution?: AnySolution;
  ready: Promise<AnySolution>;
  settle: { resolve(s: AnySolution): void; reject(e: unknown): void };
  startedAt?: number;
  /** A cached file existed when the entry was made: loading takes about a second, not a solve. */
  cached: boolean;
  /** A preset's table (pinned in memory and on disk) or one a game in progress needs: served before custom builds. */
  priority: boolean;
  /** The table's cache file (five-dice and two-player Farkle; null for solo Farkle, kept in memory only). */
  file: string | null;
  /** The player whose budget paid for this custom build (null: a preset's, a game's, or already cached). */
  paidBy: string | null;
  /**
   * Queued by the start-up warm-up only, and not cached on disk: nobody needs it yet, so it is
   * built only while the event loop is idle (decision 0141). Any request for it clears this.
   */
  speculative: boolean;
}

interface Slot {
  worker: Worker;
  job: { id: number; entry: Entry } | null;
  /** Stops the worker once it has been idle for ADVICE_WORKER_IDLE_MS. */
  idleTimer: NodeJS.Timeout | null;
  /** Stopped on purpose (idle): its exit is not a failure. */
  retired: boolean;
  /** Its thread was lowered to ADVICE_WORKER_NICE for a warm-up job (raising it back needs a privilege). */
  niced: boolean;
}

/** How often the event loop's utilization is sampled while speculative tables wait. */
const IDLE_SAMPLE_MS = 1000;

/** Seconds a build is assumed to take before one has been measured (a five-dice solve under load). */
const DEFAULT_BUILD_SECONDS = 20;
/** The same for the two-player Farkle table of the default options (44 s measured in a worker under load, docs/advice.md "Tables"). */
const DEFAULT_TWO_PLAYER_SECONDS = 45;
/** The cache files' extensions: five-dice tables, two-player Farkle tables. */
const FILE_EXTENSION: Record<'five-dice' | 'farkle-2p', string> = { 'five-dice': 'fdot', 'farkle-2p': 'f2pt' };
/** Seconds assumed for reading a cached table back (measured: 0.05–0.25 s). */
const LOAD_SECONDS = 1;
/** The window of ADVICE_CUSTOM_BUILDS_PER_HOUR. */
const BUDGET_WINDOW_MS = 3_600_000;
/** Players whose build budget is remembered at most (the oldest window is forgotten first). */
const BUDGET_PLAYERS = 100_000;
/** A player's custom builds queued or building at once at most: one player cannot fill the custom queue. */
export const CUSTOM_BUILDS_IN_FLIGHT = 2;

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
/** The Farkle preset's options: its tables (solo and two-player) are pinned like the five-dice presets'. */
export const FARKLE_PRESET_OPTIONS: FarkleOptions = farkle;

/**
 * The solved advice tables (docs/advice.md "Tables"): five-dice tables per option set, the solo
 * Farkle table and the two-player Farkle table per Farkle option set, built in worker threads with a bounded queue, cached on disk and in memory.
 * Nothing here blocks the event loop: `get` answers at once with the table or TABLE_BUILDING
 * (503 + Retry-After); background jobs await `whenReady`.
 */
@Injectable()
export class AdviceTablesService implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger('AdviceTables');
  /** Tables queued or building, and the presets' ready tables (pinned: never dropped). */
  private readonly entries = new Map<string, Entry>();
  /** Other ready tables, at most ADVICE_MEMORY_TABLES: the least recently used leaves memory first. */
  private readonly memory: LRUCache<string, Entry>;
  /** Custom tables' files on disk by size, at most ADVICE_CACHE_MAX_BYTES: the least recently used is deleted. */
  private readonly disk: TableDiskCache;
  /** New custom tables built per player in the current hour (ADVICE_CUSTOM_BUILDS_PER_HOUR). */
  private readonly budgets = new LRUCache<string, { count: number; resetAt: number }>({ max: BUDGET_PLAYERS });
  /** Presets and games in progress go first; custom builds wait behind them. */
  private readonly priorityQueue: Entry[] = [];
  private readonly customQueue: Entry[] = [];
  private readonly slots: Slot[] = [];
  private readonly workerCount: number;
  /** Workers custom builds may hold at once: one is kept for presets and games when there are two or more. */
  private readonly customWorkers: number;
  private readonly queueMax: number;
  private readonly cacheDir: string;
  private readonly presetKeys: ReadonlySet<string>;
  private nextJobId = 1;
  private closed = false;
  /** Last measured seconds per kind and source, for Retry-After. */
  private buildSeconds: Record<Kind, number> = {
    'five-dice': DEFAULT_BUILD_SECONDS,
    farkle: 2,
    'farkle-2p': DEFAULT_TWO_PLAYER_SECONDS,
  };
  /** Whether the event loop was idle over the last sample (speculative tables may start). */
  private idle = false;
  private idleSampler: NodeJS.Timeout | null = null;
  private lastUtilization = performance.eventLoopUtilization();

  constructor(@Inject(APP_CONFIG) private readonly config: AppConfig) {
    this.workerCount = config.ADVICE_WORKERS ?? Math.min(2, availableParallelism());
    this.customWorkers = Math.max(1, this.workerCount - 1);
    this.queueMax = config.ADVICE_QUEUE_MAX;
    this.cacheDir = resolve(config.ADVICE_CACHE_DIR);
    this.presetKeys = new Set([
      ...PRESET_TABLE_OPTIONS.map((o) => this.key('five-dice', o)),
      this.key('farkle', FARKLE_PRESET_OPTIONS),
      this.key('farkle-2p', FARKLE_PRESET_OPTIONS),
    ]);
    this.memory = new LRUCache<string, Entry>({ max: config.ADVICE_MEMORY_TABLES });
    this.disk = new TableDiskCache(
      this.cacheDir,
      config.ADVICE_CACHE_MAX_BYTES,
      new Set([...PRESET_TABLE_OPTIONS.map((o) => this.cacheFile(o)), this.twoPlayerCacheFile(FARKLE_PRESET_OPTIONS)]),
      this.logger,
      Object.values(FILE_EXTENSION),
    );
    this.disk.index();
  }

  /**
   * Start-up: the presets are queued in the background; start-up and requests never wait for them.
   * A preset cached on disk is loaded at once (a fraction of a second, in a low-priority worker);
   * one that must be solved, and solo Farkle, wait until the event loop is idle (decision 0141).
   * The default options' two-player Farkle table is a preset too (decision 0144).
   */
  onApplicationBootstrap(): void {
    if (!this.config.ADVICE_WARM_PRESETS) return;
    for (const options of PRESET_TABLE_OPTIONS)
      this.ensure('five-dice', options, true, !existsSync(this.cacheFile(options)));
    this.ensure('farkle', FARKLE_PRESET_OPTIONS, true, true);
    this.ensure('farkle-2p', FARKLE_PRESET_OPTIONS, true, !existsSync(this.twoPlayerCacheFile(FARKLE_PRESET_OPTIONS)));
  }

  async onModuleDestroy(): Promise<void> {
    this.closed = true;
    if (this.idleSampler) clearInterval(this.idleSampler);
    for (const slot of this.slots) if (slot.idleTimer) clearTimeout(slot.idleTimer);
    const closing = new DomainException('ADVICE_BUSY', 'The service is shutting down', { retryAfterSeconds: 5 });
    for (const entry of this.entries.values()) if (entry.status !== 'ready') entry.settle.reject(closing);
    this.priorityQueue.length = 0;
    this.customQueue.length = 0;
    await Promise.all(this.slots.splice(0).map((slot) => slot.worker.terminate()));
  }

  /**
   * The five-dice table for `options` for a game in progress (or a finished one's analysis), or
   * throws TABLE_BUILDING (it is then queued, ahead of custom builds) or ADVICE_BUSY.
   */
  fiveDice(options: FiveDiceOptions): FiveDiceSolution {
    return this.get('five-dice', options);
  }

  /** The Farkle table for `options` for a game, or throws TABLE_BUILDING (it is then queued) or ADVICE_BUSY. */
  farkle(options: FarkleOptions): FarkleSolution {
    return this.get('farkle', options);
  }

  /**
   * The two-player Farkle table (win chances) for `options` for a game, or throws TABLE_BUILDING
   * (it is then queued) or ADVICE_BUSY. The options must pass assertTwoPlayerSolvable first.
   */
  farkleTwoPlayer(options: FarkleOptions): FarkleTwoPlayerSolution {
    return this.get('farkle-2p', options);
  }

  /**
   * The table for the stateless advisers (docs/advice.md "Custom options"). A preset's table, or one
   * already in memory, building or cached on disk, is served to anyone. A new table for other
   * options is built only for a signed-in player (anonymous: 401 UNAUTHENTICATED, nothing queued)
   * within ADVICE_CUSTOM_BUILDS_PER_HOUR (429 ADVICE_BUILD_LIMITED with Retry-After), behind the
   * presets' and games' tables. Throws TABLE_BUILDING while it builds, as `get`.
   */
  forAdvisor<K extends Kind>(kind: K, options: OptionsOf<K>, caller: AdviceCaller): Solution<K> {
    const key = this.key(kind, options);
    const known = this.presetKeys.has(key) || this.lookup(key) !== undefined || this.onDisk(kind, options);
    if (known) return this.get(kind, options, false);
    if (caller.playerId === null)
      throw new DomainException(
        'UNAUTHENTICATED',
        'Advice for options outside the presets needs a table to be computed: sign in (a bearer token) to have it built',
      );
    const now = Date.now();
    const budget = this.budgets.get(caller.playerId);
    const used = budget && budget.resetAt > now ? budget : { count: 0, resetAt: now + BUDGET_WINDOW_MS };
    const pending = [...this.entries.values()].filter((e) => e.paidBy === caller.playerId);
    if (pending.length >= CUSTOM_BUILDS_IN_FLIGHT) {
      const retryAfterSeconds = Math.min(...pending.map((e) => this.retryAfter(e)));
      throw new DomainException(
        'ADVICE_BUILD_LIMITED',
        `You have ${pending.length} advice tables being computed; ask for another when one is ready, in about ${retryAfterSeconds} s`,
        { retryAfterSeconds, limit: CUSTOM_BUILDS_IN_FLIGHT },
        { 'retry-after': String(retryAfterSeconds) },
      );
    }
    if (used.count >= this.config.ADVICE_CUSTOM_BUILDS_PER_HOUR) {
      const retryAfterSeconds = Math.max(1, Math.ceil((used.resetAt - now) / 1000));
      throw new DomainException(
        'ADVICE_BUILD_LIMITED',
        `You may have ${this.config.ADVICE_CUSTOM_BUILDS_PER_HOUR} new advice tables built per hour for custom options; retry in ${retryAfterSeconds} s`,
        { retryAfterSeconds, limit: this.config.ADVICE_CUSTOM_BUILDS_PER_HOUR },
        { 'retry-after': String(retryAfterSeconds) },
      );
    }
    // Charged once the build is queued: a refusal (ADVICE_BUSY) costs nothing.
    this.ensure(kind, options, false).paidBy = caller.playerId;
    this.budgets.set(caller.playerId, { count: used.count + 1, resetAt: used.resetAt });
    return this.get(kind, options, false);
  }

  /** The table once built: for background jobs (computer seats) that may wait. Rejects with ADVICE_BUSY when the queue is full. */
  whenReady(options: FiveDiceOptions): Promise<FiveDiceSolution>;
  whenReady(options: FarkleOptions, kind: 'farkle'): Promise<FarkleSolution>;
  whenReady(options: FarkleOptions, kind: 'farkle-2p'): Promise<FarkleTwoPlayerSolution>;
  async whenReady(options: FiveDiceOptions | FarkleOptions, kind: Kind = 'five-dice'): Promise<AnySolution> {
    // Waiting does not move a queued custom build up (only a game's or a preset's request does).
    const entry = this.lookup(this.key(kind, options)) ?? this.ensure(kind, options, true);
    this.touch(entry);
    return entry.ready;
  }

  /** Where the five-dice table for `options` is cached: <ADVICE_CACHE_DIR>/<sha256(fingerprint)>.fdot. */
  cacheFile(options: FiveDiceOptions): string {
    return this.fileFor(optionsFingerprint(options), 'five-dice');
  }

  /** Where the two-player Farkle table for `options` is cached: <ADVICE_CACHE_DIR>/<sha256(fingerprint)>.f2pt. */
  twoPlayerCacheFile(options: FarkleOptions): string {
    return this.fileFor(twoPlayerFingerprint(options), 'farkle-2p');
  }

  private fileFor(fingerprint: string, kind: 'five-dice' | 'farkle-2p'): string {
    return join(this.cacheDir, `${createHash('sha256').update(fingerprint).digest('hex')}.${FILE_EXTENSION[kind]}`);
  }

  /** The table's cache file, or null for solo Farkle (kept in memory only). */
  private cacheFileOf(kind: Kind, options: FiveDiceOptions | FarkleOptions): string | null {
    if (kind === 'five-dice') return this.cacheFile(options as FiveDiceOptions);
    if (kind === 'farkle-2p') return this.twoPlayerCacheFile(options as FarkleOptions);
    return null;
  }

  status(): AdviceTablesStatus {
    const all = [...this.entries.values(), ...this.memory.values()];
    return {
      workers: this.slots.length,
      queued: all.filter((e) => e.status === 'queued').length,
      building: all.filter((e) => e.status === 'building').length,
      ready: all.filter((e) => e.status === 'ready').length,
      diskBytes: this.disk.bytes,
    };
  }

  /** The table, or throws TABLE_BUILDING (then queued; `priority`: ahead of custom builds) or ADVICE_BUSY. */
  get<K extends Kind>(kind: K, options: OptionsOf<K>, priority = true): Solution<K> {
    const entry = this.ensure(kind, options, priority);
    this.touch(entry);
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
    if (kind === 'five-dice') return optionsFingerprint(options as FiveDiceOptions);
    if (kind === 'farkle-2p') return `farkle-2p ${twoPlayerFingerprint(options as FarkleOptions)}`;
    return `farkle ${canonical(options)}`;
  }

  private lookup(key: string): Entry | undefined {
    return this.entries.get(key) ?? this.memory.get(key);
  }

  private onDisk(kind: Kind, options: FiveDiceOptions | FarkleOptions): boolean {
    const file = this.cacheFileOf(kind, options);
    return file !== null && existsSync(file);
  }

  /** A use: the table's file becomes the most recently used on disk (memory's LRU is bumped by lookup). */
  private touch(entry: Entry): void {
    if (entry.file) this.disk.touch(entry.file);
  }

  /**
   * The entry for these options, queued for a worker if it is not known yet. A priority request
   * for a table queued as a custom build moves it up to the priority queue. `speculative`: the
   * warm-up's (built only when idle); any other request for the table makes it wanted now.
   */
  private ensure(kind: Kind, options: FiveDiceOptions | FarkleOptions, priority: boolean, speculative = false): Entry {
    const key = this.key(kind, options);
    priority ||= this.presetKeys.has(key);
    const known = this.lookup(key);
    if (known) {
      if (!speculative && known.speculative) {
        known.speculative = false;
        this.pump();
      }
      if (priority && !known.priority && known.status === 'queued') {
        this.customQueue.splice(this.customQueue.indexOf(known), 1);
        this.priorityQueue.push(known);
        known.priority = true;
        this.pump();
      }
      return known;
    }
    const queue = priority ? this.priorityQueue : this.customQueue;
    if (this.closed || queue.length >= this.queueMax) {
      const retryAfterSeconds = Math.max(1, Math.ceil(this.buildSeconds['five-dice']));
      throw new DomainException(
        'ADVICE_BUSY',
        `Too many advice tables are waiting to be computed; retry in ${retryAfterSeconds} s`,
        { retryAfterSeconds },
        { 'retry-after': String(retryAfterSeconds) },
      );
    }
    let settle!: Entry['settle'];
    const ready = new Promise<AnySolution>((resolve, reject) => (settle = { resolve, reject }));
    // A rejection nobody awaits is not an error: `get` callers see the state, not the promise.
    ready.catch(() => undefined);
    const file = this.cacheFileOf(kind, options);
    const cached = file !== null && existsSync(file);
    const entry: Entry = {
      kind,
      key,
      options,
      status: 'queued',
      ready,
      settle,
      cached,
      priority,
      file,
      paidBy: null,
      speculative,
    };
    this.entries.set(key, entry);
    queue.push(entry);
    this.pump();
    return entry;
  }

  /**
   * Hands queued tables to idle workers (starting workers up to ADVICE_WORKERS): priority tables
   * first; custom builds hold at most `customWorkers` workers, so one stays free for the others.
   */
  private pump(): void {
    while (!this.closed) {
      const customBusy = this.slots.filter((s) => s.job && !s.job.entry.priority).length;
      // A speculative table waits while the event loop is busy (decision 0141).
      const wanted = this.priorityQueue.findIndex((e) => this.idle || !e.speculative);
      const [queue, index] =
        wanted >= 0
          ? [this.priorityQueue, wanted]
          : this.customQueue.length > 0 && customBusy < this.customWorkers
            ? [this.customQueue, 0]
            : [null, -1];
      this.sampleIdleness();
      if (!queue) return;
      let slot = this.slots.find((s) => s.job === null);
      if (!slot && this.slots.length < this.workerCount) slot = this.spawn();
      if (!slot) return;
      const [entry] = queue.splice(index, 1);
      if (slot.idleTimer) clearTimeout(slot.idleTimer);
      slot.idleTimer = null;
      entry.status = 'building';
      entry.startedAt = Date.now();
      const id = this.nextJobId++;
      slot.job = { id, entry };
      // A warm-up build runs at ADVICE_WORKER_NICE; a table someone waits for, at normal priority.
      const nice = entry.speculative ? this.config.ADVICE_WORKER_NICE : 0;
      slot.niced ||= nice > 0;
      const job: TableJob =
        entry.kind === 'five-dice'
          ? {
              id,
              kind: 'five-dice',
              options: entry.options as FiveDiceOptions,
              file: entry.file,
              nice,
              bonusChance: this.presetKeys.has(entry.key),
            }
          : entry.kind === 'farkle-2p'
            ? { id, kind: 'farkle-2p', options: entry.options as FarkleOptions, file: entry.file, nice }
            : { id, kind: 'farkle', options: entry.options as FarkleOptions, nice };
      slot.worker.postMessage(job);
    }
  }

  /**
   * While speculative tables wait, samples the event loop's utilization every second: they may
   * start once it was below ADVICE_WARM_IDLE_UTILIZATION over the last sample.
   */
  private sampleIdleness(): void {
    const waiting =
      this.priorityQueue.some((e) => e.speculative) || this.slots.some((s) => s.job?.entry.speculative === true);
    if (!waiting || this.closed) {
      if (this.idleSampler) clearInterval(this.idleSampler);
      this.idleSampler = null;
      return;
    }
    if (this.idleSampler) return;
    this.lastUtilization = performance.eventLoopUtilization();
    this.idleSampler = setInterval(() => {
      const now = performance.eventLoopUtilization();
      const { utilization } = performance.eventLoopUtilization(now, this.lastUtilization);
      this.lastUtilization = now;
      const idle = utilization < this.config.ADVICE_WARM_IDLE_UTILIZATION;
      if (!idle) this.preemptSpeculative();
      if (idle === this.idle) return;
      this.idle = idle;
      if (idle) this.pump();
    }, IDLE_SAMPLE_MS);
    this.idleSampler.unref();
  }

  private spawn(): Slot {
    const slot: Slot = {
      worker: startTableWorker(),
      job: null,
      idleTimer: null,
      retired: false,
      niced: false,
    };
    slot.worker.on('message', (result: TableJobResult) => this.finished(slot, result));
    // A worker that dies fails its table (the next request queues it again) and is replaced on demand.
    slot.worker.on('error', (error) => this.lost(slot, error));
    slot.worker.on('exit', (code) => {
      if (!this.closed && !slot.retired) this.lost(slot, new Error(`advice worker exited with code ${code}`));
    });
    // Idle workers do not keep the process alive.
    slot.worker.unref();
    this.slots.push(slot);
    return slot;
  }

  private finished(slot: Slot, result: TableJobResult): void {
    const job = slot.job;
    slot.job = null;
    // A thread lowered for the warm-up is not raised back (that needs a privilege): it is let go,
    // and a table someone waits for gets a new worker at normal priority.
    if (slot.niced) this.retire(slot);
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
      if (result.kind === 'five-dice' || result.kind === 'farkle-2p') {
        if (result.source === 'solved') this.buildSeconds[result.kind] = result.ms / 1000;
        if (result.writeError) this.logger.warn(`advice table not cached (${entry.key}): ${result.writeError}`);
        else if (entry.file) this.disk.cached(entry.file, result.bytes);
        this.logger.log(
          `advice table ${result.source === 'disk' ? 'loaded' : 'solved'} in ${Math.round(result.ms)} ms (${entry.key})`,
        );
      } else this.buildSeconds.farkle = result.ms / 1000;
      // The presets stay in `entries` for good; any other table moves to the bounded memory LRU.
      if (!this.presetKeys.has(entry.key)) {
        this.entries.delete(entry.key);
        this.memory.set(entry.key, entry);
      }
    }
    this.pump();
    if (slot.job === null && !slot.retired) {
      // An idle worker holds tens of MiB (its own V8 heap and code): let it go (decision 0140).
      slot.idleTimer = setTimeout(() => this.retire(slot), this.config.ADVICE_WORKER_IDLE_MS);
      slot.idleTimer.unref();
    }
  }

  /**
   * The server got busy while a speculative table was being built: that worker is stopped and the
   * table queued again, to be built from the start at the next idle moment (a solve cannot pause;
   * what it had done is lost, but not a millisecond more is taken from moves).
   */
  private preemptSpeculative(): void {
    for (const slot of [...this.slots]) {
      const entry = slot.job?.entry;
      if (!entry?.speculative) continue;
      slot.job = null;
      slot.retired = true;
      this.slots.splice(this.slots.indexOf(slot), 1);
      if (slot.idleTimer) clearTimeout(slot.idleTimer);
      void slot.worker.terminate();
      entry.status = 'queued';
      entry.startedAt = undefined;
      this.priorityQueue.unshift(entry);
    }
  }

  /** Stops an idle worker; the next table starts a new one. */
  private retire(slot: Slot): void {
    slot.idleTimer = null;
    if (slot.job !== null || slot.retired) return;
    slot.retired = true;
    const index = this.slots.indexOf(slot);
    if (index >= 0) this.slots.splice(index, 1);
    void slot.worker.terminate();
  }

  private lost(slot: Slot, error: unknown): void {
    const index = this.slots.indexOf(slot);
    if (index < 0) return;
    this.slots.splice(index, 1);
    if (slot.idleTimer) clearTimeout(slot.idleTimer);
    if (slot.job) {
      this.logger.error(`advice worker failed (${slot.job.entry.key}): ${String(error)}`);
      this.entries.delete(slot.job.entry.key);
      slot.job.entry.settle.reject(error);
    }
    void slot.worker.terminate();
    this.pump();
  }

  /** Seconds until the table is probably ready: its build's remainder, plus the builds queued before it. */
  private retryAfter(entry: Entry): number {
    const per = entry.cached ? LOAD_SECONDS : this.buildSeconds[entry.kind];
    let seconds: number;
    if (entry.status === 'building') seconds = per - (Date.now() - (entry.startedAt ?? Date.now())) / 1000;
    else if (entry.priority) {
      const ahead = this.priorityQueue.indexOf(entry);
      seconds = per * (Math.floor(Math.max(0, ahead) / Math.max(1, this.workerCount)) + 1);
    } else {
      const ahead = this.priorityQueue.length + this.customQueue.indexOf(entry);
      seconds = per * (Math.floor(Math.max(0, ahead) / this.customWorkers) + 1);
    }
    return Math.min(120, Math.max(1, Math.ceil(seconds)));
  }
}
