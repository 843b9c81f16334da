import type { LoadedTournament, TournamentStore } from '../event-store/tournament-store.service';
import { InProcessGameEventBus } from '../games/game-event-bus';
import { StandingsStream } from './standings-stream';
import { TournamentBus } from './tournament-bus';
import type { StandingsSnapshot } from './tournaments.service';

const tournament = (version: number, status: string) =>
  ({
    row: { id: 't1' },
    state: { id: 't1', version, status, format: 'tables', roundStates: [] },
  }) as unknown as LoadedTournament;

/** A service whose standings computations finish when the test says so, in any order. */
function slowService() {
  const calls: Array<{ t: LoadedTournament; finish: () => void }> = [];
  const service = {
    standingsOf: (t: LoadedTournament) =>
      new Promise<StandingsSnapshot>((resolve) => {
        const snap = { tournamentId: 't1', version: t.state.version, status: t.state.status } as StandingsSnapshot;
        calls.push({ t, finish: () => resolve(snap) });
      }),
  };
  return { service, calls };
}

const tick = () => new Promise((r) => setImmediate(r));
const flush = async () => {
  for (let i = 0; i < 3; i++) await tick();
};

/** A stream over the slow service, its first snapshot (version 1, closed) already sent. */
async function openStream() {
  const { service, calls } = slowService();
  const games = new InProcessGameEventBus();
  // One instance: the store is read only for other instances' signals, which never come here.
  const bus = new TournamentBus(games, {} as TournamentStore);
  const started = new StandingsStream(service, bus, games, tournament(1, 'closed')).start();
  calls[0].finish();
  return { stream: await started, bus, calls };
}

describe('StandingsStream', () => {
  it('never sends an older snapshot after a newer one, whatever order the computations finish in', async () => {
    const { stream, bus, calls } = await openStream();

    bus.publish('t1', tournament(2, 'running'));
    await flush(); // the running snapshot's computation begins (slow: it reads live games)
    bus.publish('t1', tournament(3, 'finished'));
    await flush();
    expect(calls.map((c) => c.t.state.version)).toEqual([1, 2, 3]);
    calls[2].finish(); // the finished snapshot is ready first
    await flush();
    calls[1].finish(); // then the stale running one
    await flush();

    const sent: Array<{ version: number; status: string }> = [];
    await stream.return(); // closes; what was queued is still read first
    for await (const s of { [Symbol.asyncIterator]: () => ({ next: () => stream.next() }) }) sent.push(s);
    expect(sent.map((s) => [s.version, s.status])).toEqual([
      [1, 'closed'],
      [3, 'finished'],
    ]);
  });

  it('keeps both snapshots when they finish in order, and ignores a publication older than the one it has', async () => {
    const { stream, bus, calls } = await openStream();
    bus.publish('t1', tournament(2, 'running'));
    await flush();
    calls[1].finish();
    await flush();
    bus.publish('t1', tournament(1, 'closed')); // crossed with the newer one: dropped
    await flush();
    expect(calls).toHaveLength(2);
    const first = await stream.next();
    const second = await stream.next();
    expect([first.value?.version, second.value?.version]).toEqual([1, 2]);
    stream.close();
  });
});
