/**
 * Group commit (decision 0045): appends of concurrent commands to DIFFERENT games are gathered and
 * written by ONE statement (appendBatchSql), which checks each game's expected version on its own.
 *
 * - Gathering: a command's append waits in the queue while `concurrency` batches are in flight
 *   (natural batching: the next batch gathers while the database works on the current one), or for
 *   `windowMs` when a writer is free (0: just until the current event-loop turn ends). A queue of
 *   `maxBatch` items is written at once when a writer is free.
 * - Acknowledgement: each submit() settles only when its batch's statement has returned, i.e. after
 *   the statement's implicit transaction committed (or failed and rolled back as a whole).
 * - Per-game outcome: a game whose version moved on is left out by the statement itself (its
 *   UPDATE matches no row, so nothing of it is written) and only that command gets VERSION_CONFLICT.
 * - One game per batch, and one batch per game in flight: a second command for a game already in the
 *   gathering batch, or in a batch in flight, waits for the next batch (its version check then
 *   decides: it conflicts if it was decided on the state the first command replaced). So no
 *   statement writes a game twice, and concurrent batches never wait on each other's row locks.
 * - Errors: a statement error that belongs to the data (integrity, data, raise, deadlock: SQLSTATE
 *   classes 21, 22, 23, 40, 42, P0) is retried with every item on its own, so one game's unique
 *   violation never fails another game's append; any other error (connection lost, database
 *   shutting down, timeout) fails every command of the batch with that error (nothing of it
 *   committed, or, if the connection broke during COMMIT, the outcome is unknown to all of them,
 *   as for a single statement; docs/operations.md "Durability").
 */
import type { Queryable } from '../database/unit-of-work';
import { writeAppends, type AppendItem, type AppendOutcome } from './append-statement';

export interface BatcherOptions {
  windowMs: number;
  maxBatch: number;
  concurrency: number;
  /** Called with the size and duration (s) of every statement written. */
  onBatch?: (size: number, seconds: number) => void;
}

interface Pending {
  item: AppendItem;
  resolve: (o: AppendOutcome) => void;
  reject: (e: unknown) => void;
}

/**
 * SQLSTATE classes of errors caused by one item's data: retry the items one by one. 21
 * (cardinality: ON CONFLICT touching a row twice) means two items share a row the statement does
 * not merge; written one by one they cannot collide.
 */
const PER_ITEM_ERROR = /^(21|22|23|40|42|P0)/;

export class AppendBatcher {
  private queue: Pending[] = [];
  private inFlight = 0;
  /** Games, and idempotency keys ('k:<player>:<key>'), in batches being written. */
  private readonly busy = new Set<string>();
  private timer: { cancel: () => void } | null = null;
  private paused = 0;

  constructor(
    private readonly db: Queryable,
    private readonly opts: BatcherOptions,
  ) {}

  submit(item: AppendItem): Promise<AppendOutcome> {
    return new Promise((resolve, reject) => {
      this.queue.push({ item, resolve, reject });
      this.schedule();
    });
  }

  /** Commands waiting for a batch (tests: to know that N commands are gathered). */
  get pending(): number {
    return this.queue.length;
  }

  /** The games of the commands waiting for a batch (tests: to know that given commands are gathered). */
  get pendingGames(): string[] {
    return this.queue.map((p) => p.item.gameId);
  }

  /** Holds every flush until the returned function is called (tests: gather a known batch). */
  pause(): () => void {
    this.paused++;
    let done = false;
    return () => {
      if (done) return;
      done = true;
      this.paused--;
      this.schedule();
    };
  }

  private schedule(): void {
    if (this.paused > 0 || this.queue.length === 0 || this.inFlight >= this.opts.concurrency) return;
    if (this.queue.length >= this.opts.maxBatch) {
      this.flushNow();
      return;
    }
    if (this.timer) return;
    const fire = () => {
      this.timer = null;
      this.flushNow();
    };
    if (this.opts.windowMs > 0) {
      const t = setTimeout(fire, this.opts.windowMs);
      this.timer = { cancel: () => clearTimeout(t) };
    } else {
      const t = setImmediate(fire);
      this.timer = { cancel: () => clearImmediate(t) };
    }
  }

  private flushNow(): void {
    this.timer?.cancel();
    this.timer = null;
    while (this.paused === 0 && this.inFlight < this.opts.concurrency && this.queue.length > 0) {
      const batch = this.take();
      if (batch.length === 0) return; // every waiting game is in a batch in flight
      this.inFlight++;
      for (const p of batch) for (const k of claims(p.item)) this.busy.add(k);
      void this.write(batch).finally(() => {
        for (const p of batch) for (const k of claims(p.item)) this.busy.delete(k);
        this.inFlight--;
        // What gathered meanwhile goes at once: it has waited for a whole batch already.
        this.flushNow();
      });
    }
  }

  /** Up to maxBatch items, oldest first, at most one per game (and idempotency key), none in flight. */
  private take(): Pending[] {
    const batch: Pending[] = [];
    const taken = new Set<string>();
    const rest: Pending[] = [];
    for (const p of this.queue) {
      const ks = claims(p.item);
      if (batch.length < this.opts.maxBatch && ks.every((k) => !taken.has(k) && !this.busy.has(k))) {
        for (const k of ks) taken.add(k);
        batch.push(p);
      } else rest.push(p);
    }
    this.queue = rest;
    return batch;
  }

  private async write(batch: Pending[]): Promise<void> {
    const started = process.hrtime.bigint();
    try {
      const outcomes = await writeAppends(
        this.db,
        batch.map((p) => p.item),
      );
      for (const [i, o] of outcomes.entries()) if (o === undefined) batch[i].reject(respondError(batch[i].item));
      this.opts.onBatch?.(batch.length, Number(process.hrtime.bigint() - started) / 1e9);
      batch.forEach((p, i) => outcomes[i] && p.resolve(outcomes[i]));
    } catch (err) {
      const code = (err as { code?: unknown }).code;
      if (batch.length > 1 && typeof code === 'string' && PER_ITEM_ERROR.test(code)) {
        // Nothing of the batch was written: each item alone, so only the faulty one fails.
        for (const p of batch) {
          const t0 = process.hrtime.bigint();
          try {
            const [o] = await writeAppends(this.db, [p.item]);
            this.opts.onBatch?.(1, Number(process.hrtime.bigint() - t0) / 1e9);
            if (o) p.resolve(o);
            else p.reject(respondError(p.item));
          } catch (e) {
            p.reject(e);
          }
        }
        return;
      }
      for (const p of batch) p.reject(err);
    }
  }
}

const claims = (item: AppendItem): string[] =>
  item.idem ? [item.gameId, `k:${item.idem.playerId}:${item.idem.key}`] : [item.gameId];

function respondError(item: AppendItem): Error {
  return item.idem?.response instanceof Error ? item.idem.response : new Error('event store: no response built');
}
