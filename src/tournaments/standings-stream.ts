/**
 * Live standings (SSE and the GraphQL subscription): the current standings first, then a new
 * snapshot whenever the tournament's stream changes or, while a tables round runs, one of the
 * round's games moves. A duplicate round's games are not watched: their scores stay secret until
 * the round ends (docs/tournaments.md §5). Snapshots are recomputed after a short coalescing tick.
 *
 * Snapshots leave in the order their computations began, never older after newer: a running
 * round's snapshot reads every live game and can finish after a later one (the round's end, the
 * tournament's finish) that reads none; such a stale snapshot is dropped, not sent last.
 */
import type { GameEventBus } from '../games/game-event-bus';
import type { LoadedTournament } from '../event-store/tournament-store.service';
import type { TournamentBus } from './tournament-bus';

/**
 * What computes a snapshot: TournamentsService (its StandingsSnapshot is `S`). A port rather than
 * the service's own type, because the service creates the stream: naming it here was an import
 * cycle (issue 25). The stream reads only `version` (to order snapshots) and passes the rest on.
 */
export interface StandingsSource<S> {
  standingsOf(t: LoadedTournament): Promise<S>;
}

/** The one waiting `next()`, as a method so that a stream of snapshots is a stream of `{ version }`. */
interface Waiter<S> {
  resolve(r: IteratorResult<S>): void;
}

export class StandingsStream<S extends { version: number } = { version: number }> implements AsyncIterableIterator<S> {
  private readonly queue: S[] = [];
  private waiting: Waiter<S> | null = null;
  private closed = false;
  private unsubs: Array<() => void> = [];
  private watchedRound = 0;
  private pending = false;
  private current: LoadedTournament;
  /** Computations begun, and the newest of them whose snapshot was pushed. */
  private begun = 0;
  private pushedUpTo = 0;

  constructor(
    private readonly service: StandingsSource<S>,
    private readonly tournaments: TournamentBus,
    private readonly games: GameEventBus,
    first: LoadedTournament,
  ) {
    this.current = first;
  }

  async start(): Promise<this> {
    this.unsubs.push(
      this.tournaments.subscribe(this.current.row.id, (t) => {
        // Publications of two commands may cross: never go back to an older version.
        if (t.state.version < this.current.state.version) return;
        this.current = t;
        this.refresh();
      }),
    );
    this.watchGames();
    await this.snapshot();
    return this;
  }

  /** Computes the standings of the tournament as it is now and pushes them unless a newer one was. */
  private async snapshot(): Promise<void> {
    const seq = ++this.begun;
    const snap = await this.service.standingsOf(this.current);
    if (seq < this.pushedUpTo) return;
    this.pushedUpTo = seq;
    this.push(snap);
  }

  private watchGames(): void {
    const s = this.current.state;
    const running = s.roundStates.find((r) => !r.finished);
    if (!running || s.format !== 'tables' || running.round === this.watchedRound) return;
    this.watchedRound = running.round;
    for (const g of running.games) this.unsubs.push(this.games.subscribe(g.gameId, () => this.refresh()));
  }

  private refresh(): void {
    if (this.closed || this.pending) return;
    this.pending = true;
    setImmediate(() => {
      this.pending = false;
      if (this.closed) return;
      this.watchGames();
      this.snapshot().catch(() => undefined);
    });
  }

  private push(s: S): void {
    if (this.closed) return;
    if (this.waiting) {
      const w = this.waiting;
      this.waiting = null;
      w.resolve({ value: s, done: false });
    } else this.queue.push(s);
  }

  next(): Promise<IteratorResult<S>> {
    const s = this.queue.shift();
    if (s) return Promise.resolve({ value: s, done: false });
    if (this.closed) return Promise.resolve({ value: undefined, done: true });
    return new Promise((resolve) => (this.waiting = { resolve }));
  }

  return(): Promise<IteratorResult<S>> {
    this.close();
    return Promise.resolve({ value: undefined, done: true });
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    for (const u of this.unsubs) u();
    this.unsubs = [];
    if (this.waiting) this.waiting.resolve({ value: undefined, done: true });
    this.waiting = null;
  }

  [Symbol.asyncIterator](): this {
    return this;
  }
}
