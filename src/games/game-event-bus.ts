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
