/**
 * What readiness needs beyond "the database answers" (issue 11, item 8): an instance whose pool
 * is exhausted (commands stalled on a lock hold every connection) or whose event loop is blocked
 * answers slowly or not at all, so it should stop getting traffic until it recovers.
 *
 * - Pool wait: every pool.connect() (pool.query() goes through it too) is timed from the call to
 *   the moment it gets a client. Reported: the longest wait still in progress, or the longest wait
 *   completed in the last WINDOW_MS.
 * - Event-loop delay: perf_hooks.monitorEventLoopDelay; reported: the largest delay seen in the
 *   current and the previous window of WINDOW_MS.
 */
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
import type { Pool } from 'pg';

export const WINDOW_MS = 5000;

export class PoolWaitMonitor {
  private readonly waiting = new Set<{ since: number }>();
  private recentMax = 0;
  private previousMax = 0;
  private windowStart = performance.now();

  /** The longest pool wait in progress or completed in the last window (ms). */
  worstWaitMs(now = performance.now()): number {
    this.rotate(now);
    let worst = Math.max(this.recentMax, this.previousMax);
    for (const w of this.waiting) worst = Math.max(worst, now - w.since);
    return Math.round(worst);
  }

  begin(): () => void {
    const entry = { since: performance.now() };
    this.waiting.add(entry);
    return () => {
      if (!this.waiting.delete(entry)) return;
      const now = performance.now();
      this.rotate(now);
      this.recentMax = Math.max(this.recentMax, now - entry.since);
    };
  }

  private rotate(now: number): void {
    if (now - this.windowStart < WINDOW_MS) return;
    this.previousMax = now - this.windowStart < 2 * WINDOW_MS ? this.recentMax : 0;
    this.recentMax = 0;
    this.windowStart = now;
  }
}

const monitors = new WeakMap<Pool, PoolWaitMonitor>();

/** Times every connect() of `pool` (idempotent). */
export function monitorPoolWaits(pool: Pool): PoolWaitMonitor {
  const existing = monitors.get(pool);
  if (existing) return existing;
  const monitor = new PoolWaitMonitor();
  monitors.set(pool, monitor);
  const connect = pool.connect.bind(pool) as (cb?: (...args: unknown[]) => void) => Promise<unknown> | void;
  (pool as unknown as { connect: unknown }).connect = (callback?: (...args: unknown[]) => void) => {
    const end = monitor.begin();
    if (typeof callback === 'function')
      return connect((...args: unknown[]) => {
        end();
        callback(...args);
      });
    return (connect() as Promise<unknown>).then(
      (client) => {
        end();
        return client;
      },
      (error: unknown) => {
        end();
        throw error;
      },
    );
  };
  return monitor;
}

/** The largest event-loop delay (ms) seen in the current and the previous window. */
export class EventLoopMonitor {
  private readonly histogram = monitorEventLoopDelay({ resolution: 20 });
  private previousMax = 0;
  private timer: NodeJS.Timeout | null = null;

  /** Starts measuring (after start-up: compiling and building the schema block the loop once, legitimately). */
  start(): void {
    if (this.timer) return;
    this.histogram.enable();
    this.timer = setInterval(() => {
      this.previousMax = this.histogram.max / 1e6;
      this.histogram.reset();
    }, WINDOW_MS);
    this.timer.unref();
  }

  worstDelayMs(): number {
    const current = this.histogram.count > 0 ? this.histogram.max / 1e6 : 0;
    return Math.round(Math.max(current, this.previousMax));
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    this.histogram.disable();
  }
}
