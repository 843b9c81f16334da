import { isTokenRevoked, RevocableStream } from './revocable-stream';

/** A stream of pushed items that stays open until closed (as a game's live stream). */
class Source implements AsyncIterableIterator<number> {
  private readonly queue: number[] = [];
  private waiter: ((r: IteratorResult<number>) => void) | null = null;
  closed = false;
  push(n: number) {
    if (this.waiter) {
      const w = this.waiter;
      this.waiter = null;
      w({ value: n, done: false });
    } else this.queue.push(n);
  }
  next(): Promise<IteratorResult<number>> {
    if (this.queue.length) return Promise.resolve({ value: this.queue.shift()!, done: false });
    if (this.closed) return Promise.resolve({ value: undefined, done: true });
    return new Promise((r) => (this.waiter = r));
  }
  close() {
    this.closed = true;
    this.waiter?.({ value: undefined, done: true });
    this.waiter = null;
  }
  [Symbol.asyncIterator]() {
    return this;
  }
}

describe('RevocableStream', () => {
  const watched = () => {
    let revoke: () => void = () => {};
    let stopped = 0;
    const watch = (onRevoked: () => void) => {
      revoke = onRevoked;
      return () => void stopped++;
    };
    return { watch, revoke: () => revoke(), stopped: () => stopped };
  };

  it('passes items through, then on revocation yields one token-revoked item and ends (a pending read included)', async () => {
    const source = new Source();
    const w = watched();
    const stream = new RevocableStream(source, w.watch);
    source.push(1);
    expect(await stream.next()).toEqual({ value: 1, done: false });
    const pending = stream.next();
    w.revoke();
    const last = await pending;
    expect(isTokenRevoked(last.value)).toBe(true);
    expect(await stream.next()).toEqual({ value: undefined, done: true });
    expect(source.closed).toBe(true);
  });

  it('an item that arrives after the revocation is not delivered', async () => {
    const source = new Source();
    const w = watched();
    const stream = new RevocableStream(source, w.watch);
    w.revoke();
    source.push(2);
    expect(isTokenRevoked((await stream.next()).value)).toBe(true);
    expect((await stream.next()).done).toBe(true);
  });

  it('stops watching when the inner stream ends or the reader closes it', async () => {
    const a = new Source();
    const wa = watched();
    const sa = new RevocableStream(a, wa.watch);
    a.close();
    expect((await sa.next()).done).toBe(true);
    expect(wa.stopped()).toBeGreaterThan(0);
    const b = new Source();
    const wb = watched();
    new RevocableStream(b, wb.watch).close();
    expect(wb.stopped()).toBeGreaterThan(0);
    expect(b.closed).toBe(true);
  });
});
