import { Injectable, Logger, OnModuleInit } from '@nestjs/common';
import { TournamentStore, type LoadedTournament } from '../event-store/tournament-store.service';
import { GameEventBus } from '../games/game-event-bus';
import { UUID_PATTERN as UUID } from '@fairdice/core/fairness/ids';

export type TournamentListener = (t: LoadedTournament) => void;

/** The NOTIFY channel of committed tournament changes: '<tournamentId>:<version>'. */
export const TOURNAMENT_EVENTS_CHANNEL = 'fairdice_tournament_events';

/**
 * Pushes a tournament's committed changes to live subscribers (standings SSE and GraphQL
 * subscription) on every instance. A change is delivered at once on the instance that made it,
 * and signalled to the others through the game event bus's LISTEN session (PostgreSQL
 * LISTEN/NOTIFY, channel TOURNAMENT_EVENTS_CHANNEL); an instance with subscribers of that
 * tournament then reads it from the store and delivers it. After that session reconnects, every
 * followed tournament is read again (signals sent meanwhile are lost). The games' moves reach
 * every instance through the GameEventBus itself.
 */
@Injectable()
export class TournamentBus implements OnModuleInit {
  private readonly logger = new Logger('TournamentBus');
  private readonly listeners = new Map<string, Set<TournamentListener>>();
  /** Highest version delivered here, per followed tournament. */
  private readonly delivered = new Map<string, number>();
  /** Reads of signalled changes, serialized per tournament. */
  private readonly reads = new Map<string, Promise<void>>();

  constructor(
    private readonly games: GameEventBus,
    private readonly store: TournamentStore,
  ) {}

  onModuleInit(): void {
    this.games.onSignal(
      TOURNAMENT_EVENTS_CHANNEL,
      (payload) => this.onSignal(payload),
      () => {
        for (const id of this.listeners.keys()) this.readAndDeliver(id, null);
      },
    );
  }

  publish(id: string, t: LoadedTournament): void {
    this.deliver(id, t);
    this.games.signal(TOURNAMENT_EVENTS_CHANNEL, `${id}:${t.state.version}`);
  }

  subscribe(id: string, listener: TournamentListener): () => void {
    let set = this.listeners.get(id);
    if (!set) this.listeners.set(id, (set = new Set()));
    set.add(listener);
    return () => {
      set.delete(listener);
      if (set.size === 0 && this.listeners.get(id) === set) {
        this.listeners.delete(id);
        this.delivered.delete(id);
      }
    };
  }

  private deliver(id: string, t: LoadedTournament): void {
    const set = this.listeners.get(id);
    if (!set) return;
    this.delivered.set(id, Math.max(this.delivered.get(id) ?? 0, t.state.version));
    for (const l of [...set]) {
      try {
        l(t);
      } catch {
        // a broken subscriber must not affect the command or the others
      }
    }
  }

  private onSignal(payload: string): void {
    const i = payload.lastIndexOf(':');
    const id = payload.slice(0, i);
    const version = Number(payload.slice(i + 1));
    if (!UUID.test(id) || !Number.isInteger(version)) return;
    if (!this.listeners.has(id) || version <= (this.delivered.get(id) ?? 0)) return;
    this.readAndDeliver(id, version);
  }

  private readAndDeliver(id: string, signalled: number | null): void {
    const next = (this.reads.get(id) ?? Promise.resolve())
      .then(async () => {
        if (!this.listeners.has(id)) return;
        if (signalled !== null && signalled <= (this.delivered.get(id) ?? 0)) return;
        const t = await this.store.load(id);
        if (t && t.state.version > (this.delivered.get(id) ?? 0)) this.deliver(id, t);
      })
      .catch((err) => this.logger.warn(`reading tournament ${id} failed: ${(err as Error).message}`))
      .finally(() => {
        if (this.reads.get(id) === next) this.reads.delete(id);
      });
    this.reads.set(id, next);
  }
}
