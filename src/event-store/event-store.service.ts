/**
 * The event store: the ONE place that reads and writes games in the database.
 *
 * - game_events is append-only, keyed by (game_id, version). A command's events are appended
 *   together with the `games` read-model row and the changed `game_seats` rows in ONE SQL
 *   statement (data-modifying CTEs run atomically, as one implicit transaction): the games row
 *   is updated `WHERE id = <game> AND version = <expected>`, and the events and seats are inserted
 *   only from the updated row. A concurrent writer that got there first makes the update match
 *   0 rows (READ COMMITTED re-checks the predicate after waiting for the row lock), so nothing
 *   is stored and the caller gets VERSION_CONFLICT; the (game_id, version) primary key is the
 *   backstop (a unique violation is also a conflict).
 * - Each event carries the fairness envelope's hash chain (prev_hash, hash: @fairdice/core/fairness/hash-chain);
 *   the first event's prev_hash is the commitment. payload = { data, rollNumber, command }.
 * - State is rebuilt by replaying events (replayGame). A per-process cache keeps
 *   (state, version, chain head, games row, seated names) per game. A plain load reads the
 *   games row and the events after the cached version, in one round trip, so it is never stale
 *   (queries, deadlines). A command may load with { cached: true }: on a cache hit nothing is
 *   read — the append's `WHERE version = expected` detects a stale entry (VERSION_CONFLICT, the
 *   entry is evicted) and GamesService re-runs the command on a fresh load whenever a
 *   cache-only load ends in an error. The entry is also evicted when the NOTIFY listener sees a
 *   newer version committed by another instance (noteVersion), and it keeps no row/names after a
 *   seat change (the next load reads them). A read may load with { current: true }: the entry
 *   answers it only while it is known current (read-freshness.ts, decision 0150), else as a plain
 *   load.
 *
 * - Async play (src/async): the same append statement sets games.turn_deadline, upserts the
 *   jobs the command schedules (async_jobs: turn deadline, webhook fan-out) and sends
 *   NOTIFY fairdice_game_events '<gameId>:<version>,...' (delivered on commit), so a committed
 *   command always has its deadline, its notifications and its push signal, and a failed one none.
 * - Group commit (append-batcher.ts gathers, append-statement.ts writes; decision 0045): appends of concurrent commands to different
 *   games are written by ONE statement of the same shape, which checks each game's expected version
 *   on its own and sends one NOTIFY for the batch. append() resolves only after that statement
 *   committed. Inside an idempotent command's transaction the append is written on its own there.
 *
 * - Transparency log (src/transparency, docs/fairness.md §9): create() also inserts the game's
 *   "created" leaf (its commitment) and the append that ends a game its "ended" leaf (the final
 *   chain head), pending, in the same statement: no game exists without its leaf. The sequencer
 *   assigns their indexes later.
 * - The server seed is sealed (src/keys/seed-vault.ts) before it is written and opened when read.
 *
 * Raw SQL on the shared pg pool (PG_POOL): one pool.query per call, no client is held. The
 * statements are in game-statements.ts (create, load, reads, lists) and append-statement.ts; the
 * cache entries in game-cache.ts; the rows and the hash chain in game-rows.ts.
 * Inside an idempotent command's transaction (src/reliability/idempotency: creations, or any command
 * with APPEND_BATCHING=false) create/load/append run on that transaction instead (dbOr), and the
 * cache is updated only after it commits. An idempotent game command with group commit on has no
 * transaction: its append carries the key to the batch, whose statement stores the outcome.
 */
import { METRICS, type Metrics } from '../metrics/metrics';
import { APP_CONFIG, type AppConfig } from '../config/config';
import { applyAll, BoundedLru, type CacheEntry, DEFAULT_GAME_CACHE_LIMITS, estimateGameEntryBytes } from './game-cache';
import { ReadFreshness } from './read-freshness';
import { Inject, Injectable, Optional } from '@nestjs/common';
import { Pool } from 'pg';
import { DomainException } from '../common/errors';
import { PG_POOL } from '../database/pg-pool';
import { SeedVault } from '../keys/seed-vault';
import { afterCommit, currentUnitOfWork, dbOr, IdempotencyKeyTaken, type Queryable } from '../database/unit-of-work';
import { AppendBatcher } from './append-batcher';
import { type AppendItem, type AppendOutcome, type Written, writeAppends } from './append-statement';
import { FANOUT_QUEUE } from './async-effects';
import { emptyGame, GameEvent, GameState } from '@fairdice/core/rules/game';
import {
  GameRow,
  GameSummaryRow,
  ListPosition,
  NewGame,
  ReadModelUpdate,
  ScheduledJob,
  StoredEvent,
} from './event-store.types';
import {
  appendItemOf,
  insertGame,
  selectEventsAfter,
  selectEventsUpTo,
  selectGameForLoad,
  selectGames,
} from './game-statements';
import { chainEvents, toRow } from './game-rows';
import { UUID_PATTERN as UUID } from '@fairdice/core/fairness/ids';

/** What append() returns. */
export interface AppendResult {
  stored: StoredEvent[];
  state: GameState;
  head: string;
  row: GameRow;
  lastRolled: Record<string, unknown> | null;
  /** An idempotent command's response as its outcome record stores it (built by `respond`). */
  response?: unknown;
}

export interface LoadedGame {
  row: GameRow;
  state: GameState;
  /** Hash of the last event (the commitment before any event). */
  head: string;
  /** Data of the most recent event of type 'rolled' (for holds), or null. */
  lastRolled: Record<string, unknown> | null;
  /** Display names of the seated players. */
  names: Record<string, string>;
  /** True when nothing was read from the database (a { cached: true } load on a cache hit): may be stale. */
  fromCache?: boolean;
}

@Injectable()
export class EventStore {
  /** Least recently used out, bounded by entries and by estimated bytes (game-cache.ts). */
  private readonly cache: BoundedLru<CacheEntry>;
  /** Group commit of appends outside a transaction (null: APPEND_BATCHING=false). */
  readonly batcher: AppendBatcher | null;
  /** Told after the commit of a command that scheduled a job due at once (see onJobDue). */
  private readonly dueListeners = new Set<() => void>();
  /** When a cached entry may answer a read (the game bus tells it whether it hears other instances). */
  readonly freshness: ReadFreshness;

  constructor(
    @Inject(PG_POOL) private readonly pool: Pool,
    private readonly vault: SeedVault,
    @Optional() @Inject(METRICS) private readonly metrics?: Metrics,
    @Optional() @Inject(APP_CONFIG) config?: AppConfig,
  ) {
    this.cache = new BoundedLru<CacheEntry>(
      config
        ? { maxEntries: config.GAME_CACHE_MAX_ENTRIES, maxBytes: config.GAME_CACHE_MAX_MB * 1024 * 1024 }
        : DEFAULT_GAME_CACHE_LIMITS,
      estimateGameEntryBytes,
    );
    this.freshness = new ReadFreshness(
      config?.GAME_READ_CACHE_MAX_AGE_MS ?? 0,
      config?.GAME_CACHE_MAX_ENTRIES ?? DEFAULT_GAME_CACHE_LIMITS.maxEntries,
    );
    this.batcher =
      (config?.APPEND_BATCHING ?? true)
        ? new AppendBatcher(pool, {
            windowMs: config?.APPEND_BATCH_WINDOW_MS ?? 0,
            maxBatch: config?.APPEND_BATCH_MAX ?? 64,
            concurrency: config?.APPEND_BATCH_CONCURRENCY ?? 2,
            onBatch: (size, seconds) => {
              this.metrics?.appendBatchSize.observe(size);
              this.metrics?.appendDuration.observe({ kind: 'batch' }, seconds);
            },
          })
        : null;
  }

  /**
   * Writes one command's append: through the batcher (group commit), or on its own inside an
   * idempotent command's transaction (whose commit is the acknowledgement) or with batching off.
   * fairdice_event_append_duration_seconds{kind="append"} is the command's whole wait.
   */
  private async write(item: AppendItem, events: number): Promise<AppendOutcome> {
    const end = this.metrics?.appendDuration.startTimer({ kind: 'append' });
    const uow = currentUnitOfWork();
    let outcome: AppendOutcome | undefined;
    if (this.batcher && (uow === undefined || item.idem)) {
      outcome = await this.batcher.submit(item);
    } else {
      const t0 = process.hrtime.bigint();
      [outcome] = await writeAppends(uow?.db ?? this.pool, [item]);
      this.metrics?.appendBatchSize.observe(1);
      this.metrics?.appendDuration.observe({ kind: 'batch' }, Number(process.hrtime.bigint() - t0) / 1e9);
      if (!outcome) {
        const built = item.idem?.response;
        throw built instanceof Error ? built : new Error('event store: append not written');
      }
    }
    end?.();
    if (outcome.written) this.metrics?.appendedEvents.inc(events);
    return outcome;
  }

  /** Times one write statement and records it (fairdice_event_append_*). */
  private async timed<T>(kind: 'create', events: number, write: () => Promise<T>): Promise<T> {
    const end = this.metrics?.appendDuration.startTimer({ kind });
    const result = await write();
    end?.();
    this.metrics?.appendBatchSize.observe(1);
    this.metrics?.appendedEvents.inc(events);
    return result;
  }

  /**
   * Creates the games row, every seat row and the first events, atomically. With the display names
   * of the players it seats (`known`), the cache keeps row and names: the game's next command is
   * decided without a read.
   */
  async create(
    game: NewGame,
    events: readonly GameEvent[],
    state: GameState,
    jobs: readonly ScheduledJob[] = [],
    known?: Readonly<Record<string, string>>,
  ): Promise<{ row: GameRow; stored: StoredEvent[] }> {
    const stored = chainEvents(game.id, game.serverSeedHash, 0, events);
    const stamp = this.freshness.stamp();
    const created = await this.timed('create', stored.length, () =>
      insertGame(dbOr(this.pool), game, this.vault.seal(game.id, game.serverSeed), state, stored, jobs),
    );
    const row: GameRow = {
      id: game.id,
      ruleSet: game.ruleSet,
      family: game.family,
      status: state.status,
      version: state.version,
      visibility: game.visibility,
      creatorId: game.creatorId,
      seatCount: game.seatCount,
      serverSeed: game.serverSeed,
      serverSeedHash: game.serverSeedHash,
      createdAt: created.created_at,
      updatedAt: created.updated_at,
      startedAt: null,
      finishedAt: null,
      seedSealed: game.seedSealed ?? false,
    };
    const names = known ? namesOfSeated(state, known) : null;
    afterCommit(() =>
      this.remember(game.id, {
        state,
        head: stored[stored.length - 1].hash,
        lastRolled: null,
        row: names === null ? null : { ...row },
        names,
        confirmed: stamp,
      }),
    );
    return { row, stored };
  }

  /**
   * The game's row and current state (cache + events after the cached version, one round trip).
   * With { cached: true } a complete cache entry is returned without reading (fromCache: true;
   * for commands only, whose append re-checks the version). With { current: true } only an entry
   * known to be current is (reads; decision 0150): one whose seed is not sealed (unsealing a
   * tournament round's seeds changes rows without a new version).
   */
  async load(gameId: string, opts: { cached?: boolean; current?: boolean } = {}): Promise<LoadedGame | null> {
    // The id and version are interpolated into the load's one message (game-statements.ts): checked here.
    if (!UUID.test(gameId)) throw new Error(`event store: not a UUID: ${JSON.stringify(gameId).slice(0, 60)}`);
    const cached = this.cache.get(gameId);
    const served = opts.current ? this.metrics?.gameReads : undefined;
    if (cached?.row && cached.names && (opts.cached || (opts.current && this.answersRead(gameId, cached)))) {
      served?.inc({ served_by: 'cache' });
      return {
        row: { ...cached.row },
        state: cached.state,
        head: cached.head,
        lastRolled: cached.lastRolled,
        names: { ...cached.names },
        fromCache: true,
      };
    }
    const after = cached?.state.version ?? 0;
    if (!Number.isSafeInteger(after) || after < 0) throw new Error('event store: bad version');
    served?.inc({ served_by: 'database' });
    const stamp = this.freshness.stamp();
    const { game: r, names, events } = await selectGameForLoad(dbOr(this.pool), gameId, after);
    if (!r) return null;
    let entry: CacheEntry = cached ?? { state: emptyGame(gameId), head: r.server_seed_hash, lastRolled: null };
    entry = applyAll(entry, events);
    // Each statement of the message has its own snapshot: the events may be newer than the row.
    const row = { ...toRow(r, this.vault), status: entry.state.status, version: entry.state.version };
    // Row and names are kept only when they were read at the state's version (same snapshot age).
    const consistent = r.version === entry.state.version;
    this.remember(gameId, {
      ...entry,
      row: consistent ? row : null,
      names: consistent ? names : null,
      confirmed: stamp,
    });
    return { row, state: entry.state, head: entry.head, lastRolled: entry.lastRolled, names };
  }

  /**
   * Appends `events` (already decided on the state at `expectedVersion`) and updates the read
   * model, atomically. Throws VERSION_CONFLICT when the game moved on meanwhile (nothing stored).
   */
  async append(
    loaded: LoadedGame,
    events: readonly GameEvent[],
    update: ReadModelUpdate,
    respond?: (result: AppendResult) => unknown,
  ): Promise<AppendResult> {
    const gameId = loaded.row.id;
    const stamp = this.freshness.stamp();
    const stored = chainEvents(gameId, loaded.head, loaded.state.version, events);
    const item = appendItemOf(gameId, loaded.state, stored, update);
    const entry = applyAll({ state: loaded.state, head: loaded.head, lastRolled: loaded.lastRolled }, stored);
    const resultAt = (w: Written): AppendResult => ({
      stored,
      state: entry.state,
      head: entry.head,
      lastRolled: entry.lastRolled,
      row: {
        ...loaded.row,
        status: entry.state.status,
        version: entry.state.version,
        updatedAt: w.updatedAt,
        startedAt: w.startedAt,
        finishedAt: w.finishedAt,
      },
    });
    // An idempotent command without a transaction (group commit): its outcome is stored by the
    // append's statement. The success response is built from the statement's timestamp: the games
    // row's timestamps then are what the statement writes when the version matches.
    const idem = this.batcher && respond ? currentUnitOfWork()?.idempotent : undefined;
    if (idem && respond) {
      const build = respond;
      const problem = idem.problemOf(conflict());
      item.idem = {
        playerId: idem.playerId,
        key: idem.key,
        hash: idem.hash,
        lockKey: idem.lockKey,
        ttlHours: idem.ttlHours,
        okStatus: idem.successStatus,
        conflictStatus: problem.status,
        conflictBody: problem.body,
        respond: (now) =>
          build(
            resultAt({
              updatedAt: now,
              startedAt: update.started ? (loaded.row.startedAt ?? now) : loaded.row.startedAt,
              finishedAt: update.finished ? (loaded.row.finishedAt ?? now) : loaded.row.finishedAt,
            }),
          ),
      };
    }
    let u: AppendOutcome;
    try {
      u = await this.write(item, stored.length);
    } catch (err) {
      if ((err as { code?: string }).code === '23505') throw conflict();
      throw err;
    }
    if (idem) {
      idem.recorded = u.recorded;
      // Another request holds this key, or stored an outcome for it meanwhile: nothing was written.
      if (!u.locked || (!u.written && !u.recorded)) throw new IdempotencyKeyTaken();
    }
    if (u.written === null) {
      this.cache.delete(gameId);
      throw conflict();
    }
    const result = resultAt(u.written);
    if (item.idem) result.response = item.idem.response;
    const row = result.row;
    // A seat change that seats a player the store has no name for: the next load reads them
    // (a start's client seeds, a player leaving, keep the names known).
    const names = update.seats.length === 0 ? { ...loaded.names } : namesOfSeated(entry.state, loaded.names);
    afterCommit(() =>
      this.remember(gameId, {
        ...entry,
        row: names === null ? null : { ...row },
        names,
        confirmed: stamp,
      }),
    );
    if ((update.jobs ?? []).some((j) => j.delayMs <= 0 && j.queue !== FANOUT_QUEUE))
      afterCommit(() => this.dueListeners.forEach((listener) => listener()));
    return result;
  }

  /**
   * `listener` runs after the commit of every append that scheduled a job due at once (a
   * tournament round's progress, a computer seat's turn): the job queue of this instance claims it
   * then instead of at its next poll. Fan-out jobs do not count: most are not written (no webhook
   * receives them), and their deliveries are not waited on by anyone. Returns the unsubscribe.
   */
  onJobDue(listener: () => void): () => void {
    this.dueListeners.add(listener);
    return () => this.dueListeners.delete(listener);
  }

  /** Events with version > after, oldest first, at most `limit`. */
  async readEvents(gameId: string, after: number, limit: number): Promise<StoredEvent[]> {
    return selectEventsAfter(this.pool, gameId, after, limit);
  }

  /** Events with version <= upTo (a full replay reads them all). */
  async readEventsUpTo(gameId: string, upTo: number, db: Queryable = this.pool): Promise<StoredEvent[]> {
    return selectEventsUpTo(db, gameId, upTo);
  }

  /**
   * Games the player holds a seat in, newest first: ORDER BY created_at DESC, id DESC (a key no
   * move changes, so paging is stable while games are played; decision 0025). `from` is either the
   * key of the last game of the previous page (keyset) or a deprecated offset.
   */
  async listMine(playerId: string, limit: number, from: ListPosition = {}): Promise<GameSummaryRow[]> {
    return selectGames(
      this.pool,
      'EXISTS (SELECT 1 FROM game_seats s WHERE s.game_id = g.id AND s.player_id = $1)',
      [playerId],
      limit,
      from,
    );
  }

  /** Open public games, newest first (same order and paging as listMine). */
  async listOpen(limit: number, from: ListPosition = {}, db: Queryable = this.pool): Promise<GameSummaryRow[]> {
    return selectGames(db, `g.status = 'open' AND g.visibility = 'public'`, [], limit, from);
  }

  /** Another instance committed `version` of the game (NOTIFY): a cached older state is evicted. */
  noteVersion(gameId: string, version: number): void {
    this.freshness.note(gameId, version);
    const cached = this.cache.get(gameId);
    if (cached && cached.state.version < version) this.cache.delete(gameId);
  }

  /** Forgets the cached state (tests compare cache and full replay). */
  forget(gameId?: string): void {
    if (gameId) this.cache.delete(gameId);
    else this.cache.clear();
  }

  /** Whether a complete entry may answer a read without PostgreSQL (decision 0150). */
  private answersRead(gameId: string, entry: CacheEntry): boolean {
    // Unsealing a tournament round's seeds changes rows without a new version: always read those.
    if (entry.row?.seedSealed) return false;
    return this.freshness.isCurrent(gameId, entry.state.version, entry.confirmed);
  }

  private remember(gameId: string, entry: CacheEntry): void {
    // Commits of one game can finish out of order in this process: never replace a newer entry.
    const current = this.cache.get(gameId);
    if (current && current.state.version > entry.state.version) return;
    this.cache.set(gameId, entry);
  }
}

const conflict = () =>
  new DomainException(
    'VERSION_CONFLICT',
    'The game changed meanwhile (another command was applied first); reload it and retry',
  );

/** The display names of the players seated in `state`, from `known`; null when one is not known. */
export function namesOfSeated(
  state: GameState,
  known: Readonly<Record<string, string>>,
): Record<string, string> | null {
  const names: Record<string, string> = {};
  for (const seat of state.seats) {
    if (seat.playerId === null) continue;
    const name = known[seat.playerId];
    if (name === undefined) return null;
    names[seat.playerId] = name;
  }
  return names;
}
