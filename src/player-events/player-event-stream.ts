import { PushQueueIterator } from '../common/streams/push-queue-iterator';
import type { PlayerEventRecord, PlayerStreamItem, ResyncItem } from './player-events.types';

/** Where a stream reads a player's stored events and learns that new ones were stored. */
export interface PlayerEventSource {
  /** The player's events with seq > after, oldest first, at most `limit`. */
  read(playerId: string, after: number, limit: number): Promise<PlayerEventRecord[]>;
  /**
   * On this instance, `wake` is called whenever events of the player may have been stored, and
   * `recheck` whenever the player's tokens may have stopped working (a rotation, a revoked
   * session); returns unsubscribe.
   */
  subscribe(playerId: string, listener: PlayerStreamListener): () => void;
}

export interface PlayerStreamListener {
  wake(): void;
  recheck(): void;
}

const PAGE = 100;
/**
 * How often an idle stream checks that its token still authenticates (a rotated token or a revoked
 * session ends it): a rotation or revocation on this instance makes it check at once; this catches
 * one made on another instance.
 */
export const AUTH_RECHECK_MS = 30_000;

/**
 * One player's events after `after`, as an async iterator: the backlog from the database, then
 * every event stored later, in sequence order, with no gap and no duplicate. A wake-up only
 * triggers a read of what follows the last delivered sequence number, so a lost, repeated or
 * early signal is harmless. Before delivering anything read, every AUTH_RECHECK_MS, and when told
 * (`recheck`: a rotation or revoked session on this instance), the stream asks `authorized()`:
 * once the token that opened it no longer authenticates, it yields one `revoked` item (the events
 * read are not delivered) and ends.
 */
export class PlayerEventStream extends PushQueueIterator<PlayerStreamItem> {
  private reading: Promise<void> | null = null;
  private again = false;
  private unsubscribe: (() => void) | null = null;
  private timer: NodeJS.Timeout | null = null;

  constructor(
    private readonly source: PlayerEventSource,
    private readonly playerId: string,
    private last: number,
    private readonly authorized: () => Promise<boolean>,
    private readonly resync: ResyncItem | null = null,
  ) {
    super();
  }

  /** The last sequence number delivered (or skipped by a resync). */
  get position(): number {
    return this.last;
  }

  /** Subscribes, then reads the backlog. Call once before iterating. */
  async start(): Promise<this> {
    this.unsubscribe = this.source.subscribe(this.playerId, {
      wake: () => this.wake(),
      recheck: () => this.recheck(),
    });
    if (this.resync) {
      this.push(this.resync);
      this.last = this.resync.seq;
    }
    try {
      await this.readAll();
    } catch (err) {
      this.close();
      throw err;
    }
    this.timer = setInterval(() => this.recheck(), AUTH_RECHECK_MS);
    this.timer.unref?.();
    return this;
  }

  /** New events may exist: read them (reads never overlap; a wake during a read reads again after it). */
  wake(): void {
    if (this.done || this.ended) return;
    if (this.reading) {
      this.again = true;
      return;
    }
    this.reading = this.readAll()
      .catch(() => this.close())
      .finally(() => (this.reading = null));
  }

  /** Checks the token now: once it no longer authenticates, `revoked` is the last item. */
  recheck(): void {
    if (this.done || this.ended) return;
    this.authorized()
      .then((ok) => (ok ? undefined : this.revoke()))
      .catch(() => undefined);
  }

  private async readAll(): Promise<void> {
    for (;;) {
      this.again = false;
      if (this.done || this.ended) return;
      const page = await this.source.read(this.playerId, this.last, PAGE);
      if (page.length > 0 && !(await this.authorized())) {
        this.revoke();
        return;
      }
      for (const e of page) {
        if (e.seq <= this.last) continue;
        this.last = e.seq;
        this.push(e);
      }
      if (page.length < PAGE && !this.again) return;
    }
  }

  private revoke(): void {
    if (this.done || this.ended) return;
    this.push({ kind: 'revoked' });
    this.finish();
  }

  protected stopListening(): void {
    this.unsubscribe?.();
    this.unsubscribe = null;
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }
}
