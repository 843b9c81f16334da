/**
 * An async iterator fed by pushes (live events, pages read from the database): the one queue and
 * waiter behind the game stream (src/games/game-stream.ts) and the player event stream
 * (src/player-events/player-event-stream.ts). A subclass pushes items, calls `finish()` when no
 * item follows the queued ones, and stops its own listening in `stopListening()`.
 */
export abstract class PushQueueIterator<T> implements AsyncIterableIterator<T> {
  private readonly queue: T[] = [];
  private waiter: ((r: IteratorResult<T>) => void) | null = null;
  /** Closed: nothing more is delivered, queued items are dropped. */
  protected done = false;
  /** Finished: the queued items are still delivered, then the iterator ends. */
  protected ended = false;

  /** Stops whatever feeds the iterator (a subscription, a timer); may be called more than once. */
  protected abstract stopListening(): void;

  protected push(item: T): void {
    if (this.waiter) {
      const w = this.waiter;
      this.waiter = null;
      w({ value: item, done: false });
    } else this.queue.push(item);
  }

  /** No more items after the queued ones. */
  protected finish(): void {
    this.ended = true;
    this.stopListening();
  }

  next(): Promise<IteratorResult<T>> {
    if (this.queue.length > 0) return Promise.resolve({ value: this.queue.shift()!, done: false });
    if (this.done || this.ended) {
      this.close();
      return Promise.resolve({ value: undefined, done: true });
    }
    return new Promise((resolve) => (this.waiter = resolve));
  }

  return(): Promise<IteratorResult<T>> {
    this.close();
    return Promise.resolve({ value: undefined, done: true });
  }

  throw(err?: unknown): Promise<IteratorResult<T>> {
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
    this.stopListening();
    this.queue.length = 0;
    if (this.waiter) {
      const w = this.waiter;
      this.waiter = null;
      w({ value: undefined, done: true });
    }
  }
}
