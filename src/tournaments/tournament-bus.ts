import { Injectable } from '@nestjs/common';
import type { LoadedTournament } from '../event-store/tournament-store.service';

export type TournamentListener = (t: LoadedTournament) => void;

/**
 * Pushes a tournament's committed changes to live subscribers on this instance (standings SSE and
 * GraphQL subscription). The tournament's own commands run on the instance that publishes; the
 * games' moves reach every instance through the GameEventBus (LISTEN/NOTIFY).
 */
@Injectable()
export class TournamentBus {
  private readonly listeners = new Map<string, Set<TournamentListener>>();

  publish(id: string, t: LoadedTournament): void {
    for (const l of [...(this.listeners.get(id) ?? [])]) {
      try {
        l(t);
      } catch {
        // a broken subscriber must not affect the command or the others
      }
    }
  }

  subscribe(id: string, listener: TournamentListener): () => void {
    let set = this.listeners.get(id);
    if (!set) this.listeners.set(id, (set = new Set()));
    set.add(listener);
    return () => {
      set.delete(listener);
      if (set.size === 0 && this.listeners.get(id) === set) this.listeners.delete(id);
    };
  }
}
