import type { EventStore } from '../event-store/event-store.service';
import type { StoredEvent } from '../event-store/event-store.types';
import type { GameEventBus } from './game-event-bus';

const TERMINAL = new Set(['gameFinished', 'gameAbandoned']);
const PAGE = 100;

/**
 * The events of one game after `after`, as an async iterator: the backlog from the database,
 * then live events from the bus, with no gap and no duplicate. It subscribes to the bus FIRST
 * (buffering), then reads the backlog, then drains the buffer deduplicated by version; a gap
 * (a live event beyond the next expected version) is filled from the database. Ends after the
 * game's terminal event (gameFinished / gameAbandoned). Events never contain the server seed.
 */
export class GameEventStream implements AsyncIterableIterator<StoredEvent> {
  private readonly queue: StoredEvent[] = [];
  private pending: StoredEvent[] | null = [];
  private waiter: ((r: IteratorResult<StoredEvent>) => void) | null = null;
  private last: number;
  private done = false;
  private unsubscribe: (() => void) | null = null;
  private filling: Promise<void> = Promise.resolve();

  constructor(
    private readonly store: EventStore,
    private readonly bus: GameEventBus,
    private readonly gameId: string,
    after: number,
  ) {
    this.last = after;
  }

  /** Subscribes, then reads the backlog. Call once before iterating. */
  async start(): Promise<this> {
    this.unsubscribe = this.bus.subscribe(this.gameId, (events) => this.onLive(events));
    try {
      await this.fillFromStore();
      const buffered = this.pending ?? [];
      this.pending = null;
      this.onLive(buffered);
    } catch (err) {
      this.close();
      throw err;
    }
    return this;
  }

  private onLive(events: readonly StoredEvent[]): void {
    if (this.done) return;
    if (this.pending) {
      this.pending.push(...events);
      return;
    }
    const sorted = [...events].sort((a, b) => a.version - b.version);
    for (const e of sorted) {
      if (e.version <= this.last) continue; // already delivered (backlog or duplicate)
      if (e.version > this.last + 1) {
        // A gap: fetch what is missing from the database.
        this.filling = this.filling.then(() => this.fillFromStore()).catch(() => this.close());
        return;
      }
      this.deliver(e);
    }
  }

  private async fillFromStore(): Promise<void> {
    for (;;) {
      if (this.done) return;
      const page = await this.store.readEvents(this.gameId, this.last, PAGE);
      for (const e of page) this.deliver(e);
      if (page.length < PAGE) return;
    }
  }

  private deliver(e: StoredEvent): void {
    if (this.done || e.version !== this.last + 1) return;
    this.last = e.version;
    if (this.waiter) {
      const w = this.waiter;
      this.waiter = null;
      w({ value: e, done: false });
    } else {
      this.queue.push(e);
    }
    if (TERMINAL.has(e.type)) this.finishAfterDrain();
  }

  private finishAfterDrain(): void {
    this.unsubscribe?.();
    this.unsubscribe = null;
    this.ended = true;
  }

  private ended = false;

  next(): Promise<IteratorResult<StoredEvent>> {
    if (this.queue.length > 0) return Promise.resolve({ value: this.queue.shift()!, done: false });
    if (this.done || this.ended) {
      this.close();
      return Promise.resolve({ value: undefined, done: true });
    }
    return new Promise((resolve) => (this.waiter = resolve));
  }

  return(): Promise<IteratorResult<StoredEvent>> {
    this.close();
    return Promise.resolve({ value: undefined, done: true });
  }

  throw(err?: unknown): Promise<IteratorResult<StoredEvent>> {
    this.close();
    // eslint-disable-next-line @typescript-eslint/prefer-promise-reject-errors -- the iterator protocol: throw(err) rejects with the caller's own value
    return Promise.reject(err);
  }

  [Symbol.asyncIterator](): this {
    return this;
  }

  /** Stops listening; a pending next() resolves as done. */
  close(): void {
    if (this.done) return;
    this.done = true;
    this.unsubscribe?.();
    this.unsubscribe = null;
    this.queue.length = 0;
    if (this.waiter) {
      const w = this.waiter;
      this.waiter = null;
      w({ value: undefined, done: true });
    }
  }
}
