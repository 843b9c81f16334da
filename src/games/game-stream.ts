import type { EventStore } from '../event-store/event-store.service';
import { type StoredEvent, toGameEvent } from '../event-store/event-store.types';
import { evolveGame, type GameState } from '@fairdice/core/rules/game';
import { PushQueueIterator } from '../common/streams/push-queue-iterator';
import type { GameEventBus } from './game-event-bus';

/**
 * The subscriber's access, re-checked on every event after the one the stream was opened at:
 * `state` is the game when the stream opened (its visibility was checked then); the stream
 * evolves it with each later event and asks `mayView` of the state after the event.
 */
export interface StreamAccess {
  state: GameState;
  mayView(state: GameState): boolean;
}

/** The stream's last item when the subscriber may no longer see the game (then it ends). */
export interface AccessRevoked {
  kind: 'access-revoked';
  gameId: string;
  /** The version of the event that took the access away (not delivered). */
  version: number;
}

export const isAccessRevoked = (item: unknown): item is AccessRevoked =>
  typeof item === 'object' && item !== null && (item as AccessRevoked).kind === 'access-revoked';

export type StreamItem = StoredEvent | AccessRevoked;

const TERMINAL = new Set(['gameFinished', 'gameAbandoned']);
const PAGE = 100;

/**
 * The events of one game after `after`, as an async iterator: the backlog from the database,
 * then live events from the bus, with no gap and no duplicate. It subscribes to the bus FIRST
 * (buffering), then reads the backlog, then drains the buffer deduplicated by version; a gap
 * (a live event beyond the next expected version) is filled from the database. Ends after the
 * game's terminal event (gameFinished / gameAbandoned). Events never contain the server seed.
 *
 * With `access`, every event after the opening version is first applied to the access state:
 * when the subscriber may no longer see the game (a player left a private game), that event is
 * not delivered; the stream yields one AccessRevoked item and ends.
 */
export class GameEventStream extends PushQueueIterator<StreamItem> {
  private pending: StoredEvent[] | null = [];
  private last: number;
  /** Events up to here are read (to keep the access state current) but not delivered: the client's `after`. */
  private readonly skipThrough: number;
  private unsubscribe: (() => void) | null = null;
  private filling: Promise<void> = Promise.resolve();

  constructor(
    private readonly store: EventStore,
    private readonly bus: GameEventBus,
    private readonly gameId: string,
    after: number,
    private readonly access: StreamAccess | null = null,
  ) {
    super();
    this.skipThrough = after;
    // Start no later than the access state, so that every event after it passes through deliver().
    this.last = access ? Math.min(after, access.state.version) : after;
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
    if (this.done || this.ended || e.version !== this.last + 1) return;
    this.last = e.version;
    if (this.access && e.version > this.access.state.version) {
      this.access.state = evolveGame(this.access.state, toGameEvent(e));
      if (!this.access.mayView(this.access.state)) {
        this.push({ kind: 'access-revoked', gameId: this.gameId, version: e.version });
        this.finish();
        return;
      }
    }
    if (e.version > this.skipThrough) this.push(e);
    if (TERMINAL.has(e.type)) this.finish();
  }

  protected stopListening(): void {
    this.unsubscribe?.();
    this.unsubscribe = null;
  }
}
