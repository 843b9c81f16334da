/**
 * Optional read routing to a standby (DATABASE_READ_URL; docs/operations.md "Read routing",
 * decision 0091).
 *
 * Only the public, staleness-tolerant reads go through `ReadRouter.read`: leaderboards, public
 * profiles, the open-games list, finished games' audit bundles. Everything a player acts on (game
 * state, commands, their own lists, the inbox, streams, the transparency log's sequencer) keeps
 * using the primary pool directly and never comes here.
 *
 * Every `lagCheckMs` the router asks whether the standby has replayed everything the primary had
 * flushed when the check began (LSNs, so no clock of either server is involved), and sends a read
 * to the standby only while the last check succeeded, is recent, and the standby was last seen
 * caught up at most `maxLagMs` ago: that is the bound on how stale its answers may be. Otherwise, and whenever the standby fails a read or lacks what was asked for (the
 * callback calls `target.missing()`), the read runs on the primary. The standby being down never
 * fails a read or readiness.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import type { Pool } from 'pg';
import type { Queryable } from './unit-of-work';

export type ReadSource = 'replica' | 'primary';

/**
 * Why a routed read went where it went: `replica` (served by the standby), `lag` (the standby was
 * behind by more than the bound), `unreachable` (the last lag check failed or is too old, or there
 * was none yet), `missing` (the standby lacked the row: re-read on the primary), `error` (the read
 * failed on the standby: re-run on the primary).
 */
export type ReadReason = 'replica' | 'lag' | 'unreachable' | 'missing' | 'error';

/** What the lag checks found so far (times are this process's Date.now()). */
export interface LagState {
  /** When the last check completed; null = none has yet. */
  checkedAt: number | null;
  /** Whether the last check reached both servers. */
  ok: boolean;
  /**
   * When the most recent check that found the standby caught up BEGAN: the standby then held
   * every commit made before this moment. null = never found caught up.
   */
  caughtUpAt: number | null;
}

export interface RouteDecision {
  source: ReadSource;
  reason: Exclude<ReadReason, 'missing' | 'error'>;
}

/**
 * Where the next public read goes (pure; unit-tested). The standby serves while the last check
 * succeeded, is recent (a check older than three intervals counts as failed: the monitor is stuck
 * on a standby that does not answer), and the standby was last seen caught up at most `maxLagMs`
 * ago, which bounds how old what it answers may be.
 */
export function decideRoute(
  state: LagState,
  now: number,
  options: { maxLagMs: number; lagCheckMs: number },
): RouteDecision {
  if (state.checkedAt === null || !state.ok) return { source: 'primary', reason: 'unreachable' };
  if (now - state.checkedAt > 3 * options.lagCheckMs) return { source: 'primary', reason: 'unreachable' };
  if (state.caughtUpAt === null || now - state.caughtUpAt > options.maxLagMs)
    return { source: 'primary', reason: 'lag' };
  return { source: 'replica', reason: 'replica' };
}

/**
 * How old the standby's data may be at `now` (ms), an upper bound: the time since the standby was
 * last seen caught up. null = unknown (never caught up).
 */
export const stalenessBound = (state: LagState, now: number): number | null =>
  state.caughtUpAt === null ? null : Math.max(0, now - state.caughtUpAt);

/**
 * Whether the standby has replayed everything the primary had committed when this check began:
 * the primary's flushed WAL position is read FIRST, then compared with the standby's replay
 * position. A server that is not in recovery (a promoted standby) counts as caught up.
 */
export async function standbyCaughtUp(primary: Queryable, replica: Queryable): Promise<boolean> {
  const { rows: p } = await primary.query<{ lsn: string | null }>(
    `SELECT (CASE WHEN pg_is_in_recovery() THEN pg_last_wal_replay_lsn() ELSE pg_current_wal_flush_lsn() END)::text AS lsn`,
  );
  const { rows } = await replica.query<{ recovery: boolean; caught_up: boolean | null }>(
    `SELECT pg_is_in_recovery() AS recovery, pg_last_wal_replay_lsn() >= $1::pg_lsn AS caught_up`,
    [p[0]?.lsn ?? '0/0'],
  );
  const r = rows[0];
  return r !== undefined && (!r.recovery || r.caught_up === true);
}

/** What a routed read runs on. */
export interface ReadTarget {
  source: ReadSource;
  /** SQL on this side's pool. */
  db: Queryable;
  /**
   * The standby lacks what the read needs (a row the primary may have: a game that just finished,
   * a player who just registered): run the read on the primary instead. Call only when
   * `source === 'replica'`.
   */
  missing(): never;
}

class ReplicaMiss extends Error {
  constructor() {
    super('not on the standby (yet)');
  }
}

/** What the request's routed reads were served by (collected per request, see `collectReadSources`). */
export interface ReadsServed {
  /** Reads the standby answered. */
  replica: number;
  /** Reads the primary answered. */
  primary: number;
  /** Largest staleness bound (ms) among the standby's answers; null when it answered none. */
  stalenessMs: number | null;
}

const served = new AsyncLocalStorage<ReadsServed>();

/**
 * Runs `fn` and reports which side answered the routed reads it made (for the response's
 * X-Data-Staleness-Ms header: set by the controllers of the routed REST reads).
 */
export async function collectReadSources<T>(fn: () => Promise<T>): Promise<{ value: T; served: ReadsServed }> {
  const record: ReadsServed = { replica: 0, primary: 0, stalenessMs: null };
  const value = await served.run(record, fn);
  return { value, served: record };
}

/** Response header on REST answers that the standby served (any part of): its staleness bound in ms. */
export const STALENESS_HEADER = 'X-Data-Staleness-Ms';

/**
 * Runs a routed REST read and, when the standby answered any of it, sets X-Data-Staleness-Ms on
 * the reply (structural type: database does not import Fastify).
 */
export async function withStalenessHeader<T>(
  reply: { header(name: string, value: string): unknown },
  fn: () => Promise<T>,
): Promise<T> {
  const { value, served: s } = await collectReadSources(fn);
  if (s.stalenessMs !== null) reply.header(STALENESS_HEADER, String(s.stalenessMs));
  return value;
}

export interface ReadRouterOptions {
  /** The standby; null = no routing (every read on the primary). */
  url: string | null;
  maxLagMs: number;
  lagCheckMs: number;
}

/** Counts of routed reads, by side and reason (the metrics read them at scrape time). */
export type ReadCounts = Record<ReadReason, number>;

export class ReadRouter {
  private readonly replicaPool: Pool | null;
  private state: LagState = { checkedAt: null, ok: false, caughtUpAt: null };
  private timer: NodeJS.Timeout | null = null;
  private checking: Promise<void> | null = null;
  private closed = false;
  private readonly counts: ReadCounts = { replica: 0, lag: 0, unreachable: 0, missing: 0, error: 0 };
  private readonly checkListeners = new Set<() => void>();

  constructor(
    private readonly primaryPool: Pool,
    private readonly options: ReadRouterOptions,
    createPool: (url: string) => Pool,
  ) {
    this.replicaPool = options.url ? createPool(options.url) : null;
  }

  /** True when DATABASE_READ_URL is set. */
  get enabled(): boolean {
    return this.replicaPool !== null;
  }

  /** The last lag check (for metrics and tests). */
  lag(): LagState {
    return { ...this.state };
  }

  readCounts(): ReadCounts {
    return { ...this.counts };
  }

  /** How stale the standby may be now (ms), or null when it has never been found caught up. */
  staleness(): number | null {
    return stalenessBound(this.state, Date.now());
  }

  /** Whether the last lag check reached both servers. */
  reachable(): boolean {
    return this.state.ok;
  }

  /** Starts the periodic lag check (the first one at once, not awaited: a down standby delays nothing). */
  start(): void {
    if (!this.replicaPool || this.timer || this.closed) return;
    void this.check();
    this.timer = setInterval(() => void this.check(), this.options.lagCheckMs);
    this.timer.unref();
  }

  /** One lag check now (tests call it to wait for a fresh measurement). */
  check(): Promise<void> {
    if (!this.replicaPool) return Promise.resolve();
    if (this.checking) return this.checking;
    const startedAt = Date.now();
    this.checking = standbyCaughtUp(this.primaryPool, this.replicaPool)
      .then(
        (caughtUp) => {
          this.state = { checkedAt: Date.now(), ok: true, caughtUpAt: caughtUp ? startedAt : this.state.caughtUpAt };
        },
        () => {
          this.state = { ...this.state, checkedAt: Date.now(), ok: false };
        },
      )
      .finally(() => {
        this.checking = null;
        for (const listener of this.checkListeners) listener();
      });
    return this.checking;
  }

  /** Calls `listener` after every completed lag check; returns the unsubscribe function. */
  onCheck(listener: () => void): () => void {
    this.checkListeners.add(listener);
    return () => this.checkListeners.delete(listener);
  }

  /**
   * Runs a public, staleness-tolerant read on the standby when it is usable, else on the primary.
   * An error on the standby re-runs the read on the primary, unless `isAnswer(error)` says it is
   * the read's answer (a client error such as an unknown rule set).
   */
  async read<T>(
    fn: (target: ReadTarget) => Promise<T>,
    opts: { isAnswer?: (err: unknown) => boolean } = {},
  ): Promise<T> {
    const primary: ReadTarget = {
      source: 'primary',
      db: this.primaryPool,
      missing: () => {
        throw new Error('ReadTarget.missing() called on the primary');
      },
    };
    if (!this.replicaPool) return fn(primary);
    const record = served.getStore();
    const now = Date.now();
    const decision = decideRoute(this.state, now, this.options);
    if (decision.source === 'primary') {
      this.counts[decision.reason]++;
      if (record) record.primary++;
      return fn(primary);
    }
    const staleness = stalenessBound(this.state, now);
    try {
      const value = await fn({
        source: 'replica',
        db: this.replicaPool,
        missing: () => {
          throw new ReplicaMiss();
        },
      });
      this.counts.replica++;
      if (record) {
        record.replica++;
        record.stalenessMs = Math.max(record.stalenessMs ?? 0, staleness ?? 0);
      }
      return value;
    } catch (err) {
      if (!(err instanceof ReplicaMiss) && opts.isAnswer?.(err)) {
        this.counts.replica++;
        throw err;
      }
      this.counts[err instanceof ReplicaMiss ? 'missing' : 'error']++;
      if (record) record.primary++;
      return fn(primary);
    }
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.checking?.catch(() => undefined);
    if (this.replicaPool && !this.replicaPool.ended) await this.replicaPool.end().catch(() => undefined);
  }
}
