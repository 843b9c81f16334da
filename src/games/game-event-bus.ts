import { Injectable } from '@nestjs/common';
import type { StoredEvent } from '../event-store/event-store.types';

export type GameEventListener = (events: readonly StoredEvent[]) => void;

/**
 * Pushes committed events to live subscribers (SSE, GraphQL subscriptions). Published only AFTER
 * the transaction committed. This in-process implementation serves one instance; several
 * instances would swap in one backed by PostgreSQL LISTEN/NOTIFY behind the same interface.
 */
export abstract class GameEventBus {
  abstract publish(gameId: string, events: readonly StoredEvent[]): void;
  /** Returns the unsubscribe function. */
  abstract subscribe(gameId: string, listener: GameEventListener): () => void;

  /**
   * Change signals of other aggregates (tournaments) between instances, on the bus's one LISTEN
   * session. `signal` is sent after the change committed; each instance's `onSignal` handler gets
   * the payload, and `onResync` runs after the session came back (signals sent meanwhile are
   * lost). On one instance (the in-process bus) there is no other instance to tell.
   */
  signal(channel: string, payload: string): void {
    void channel;
    void payload;
  }
  onSignal(channel: string, handler: (payload: string) => void, onResync: () => void): void {
    void channel;
    void handler;
    void onResync;
  }
}

@Injectable()
export class InProcessGameEventBus extends GameEventBus {
  private readonly listeners = new Map<string, Set<GameEventListener>>();

  publish(gameId: string, events: readonly StoredEvent[]): void {
    const set = this.listeners.get(gameId);
    if (!set) return;
    for (const listener of [...set]) {
      try {
        listener(events);
      } catch {
        // a broken subscriber must not affect the command or other subscribers
      }
    }
  }

  subscribe(gameId: string, listener: GameEventListener): () => void {
    let set = this.listeners.get(gameId);
    if (!set) this.listeners.set(gameId, (set = new Set()));
    set.add(listener);
    return () => {
      set.delete(listener);
      if (set.size === 0 && this.listeners.get(gameId) === set) this.listeners.delete(gameId);
    };
  }
}
