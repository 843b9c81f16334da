/**
 * Live standings (SSE and the GraphQL subscription): the current standings first, then a new
 * snapshot whenever the tournament's stream changes or, while a tables round runs, one of the
 * round's games moves. A duplicate round's games are not watched: their scores stay secret until
 * the round ends (docs/tournaments.md §5). Snapshots are recomputed after a short coalescing tick.
 */
import type { GameEventBus } from '../games/game-event-bus';
import type { LoadedTournament } from '../event-store/tournament-store.service';
import type { StandingsSnapshot, TournamentsService } from './tournaments.service';
import type { TournamentBus } from './tournament-bus';

export class StandingsStream implements AsyncIterableIterator<StandingsSnapshot> {
  private readonly queue: StandingsSnapshot[] = [];
  private waiting: ((r: IteratorResult<StandingsSnapshot>) => void) | null = null;
  private closed = false;
  private unsubs: Array<() => void> = [];
  private watchedRound = 0;
  private pending = false;
  private current: LoadedTournament;

  constructor(
    private readonly service: TournamentsService,
    private readonly tournaments: TournamentBus,
    private readonly games: GameEventBus,
    first: LoadedTournament,
  ) {
    this.current = first;
  }

  async start(): Promise<this> {
    this.unsubs.push(
      this.tournaments.subscribe(this.current.row.id, (t) => {
        this.current = t;
        this.refresh();
      }),
    );
    this.watchGames();
    this.push(await this.service.standingsOf(this.current));
    return this;
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
      this.service.standingsOf(this.current).then(
        (snap) => this.push(snap),
        () => undefined,
      );
    });
  }

  private push(s: StandingsSnapshot): void {
    if (this.closed) return;
    if (this.waiting) {
      const w = this.waiting;
      this.waiting = null;
      w({ value: s, done: false });
    } else this.queue.push(s);
  }

  next(): Promise<IteratorResult<StandingsSnapshot>> {
    const s = this.queue.shift();
    if (s) return Promise.resolve({ value: s, done: false });
    if (this.closed) return Promise.resolve({ value: undefined, done: true });
    return new Promise((resolve) => (this.waiting = resolve));
  }

  return(): Promise<IteratorResult<StandingsSnapshot>> {
    this.close();
    return Promise.resolve({ value: undefined, done: true });
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    for (const u of this.unsubs) u();
    this.unsubs = [];
    if (this.waiting) this.waiting({ value: undefined, done: true });
    this.waiting = null;
  }

  [Symbol.asyncIterator](): this {
    return this;
  }
}
