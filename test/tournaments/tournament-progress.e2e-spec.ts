/**
 * A tournament round's end runs from its last game's commit (issue 24, items 1 and 12;
 * docs/tournaments.md §4):
 * - the final scores of two entrants written in ONE group-commit batch (both schedule the round's
 *   progress job) both answer 200 and the round ends;
 * - the standings reach `finished` right after the last game's commit: the job worker's poll is
 *   set to an hour here, so only the commit's own wake-up can run the round's end.
 */
import { createTestApp, registerPlayer, type TestApp } from '../helpers/app';
import { chooseMove, type Move } from '../helpers/games';
import { EventStore } from '../../src/event-store/event-store.service';
import { type P, waitFor } from './helpers';

jest.setTimeout(120_000);

const HOUR_MS = 3_600_000;

describe('tournament progress from the last game (e2e)', () => {
  let t: TestApp;
  let store: EventStore;
  beforeAll(async () => {
    t = await createTestApp({ env: { JOBS_POLL_INTERVAL_MS: String(HOUR_MS) } });
    store = t.app.get(EventStore);
  });
  afterAll(() => t?.close());

  /** A running 1-round duplicate `simple` tournament of two entrants, and each entrant's game. */
  async function twoEntrantTournament(): Promise<{ id: string; games: Array<{ p: P; gameId: string }> }> {
    const organizer = await registerPlayer(t, 'Organizer');
    const entrants = [await registerPlayer(t, 'Entrant A'), await registerPlayer(t, 'Entrant B')];
    const created = await t
      .http()
      .post('/v1/tournaments')
      .set(organizer.auth)
      .send({ name: 'Same moment', ruleSet: 'simple', format: 'duplicate', maxEntrants: 2, rounds: 1 })
      .expect(201);
    const id = created.body.id as string;
    for (const e of entrants) await t.http().post(`/v1/tournaments/${id}/entrants`).set(e.auth).send({}).expect(200);
    const started = (await t.http().post(`/v1/tournaments/${id}/start`).set(organizer.auth).expect(200)).body;
    const games = (started.roundDetails[0].games as Array<{ gameId: string; entrants: number[] }>).map((g) => ({
      p: entrants[g.entrants[0] - 1],
      gameId: g.gameId,
    }));
    return { id, games };
  }

  /** Plays `gameId` up to its last move (the score into its last open box) and returns that move. */
  async function upToLastMove(p: P, gameId: string): Promise<Move> {
    let view = (await t.http().get(`/v1/games/${gameId}`).set(p.auth).expect(200)).body;
    for (;;) {
      expect(view.status).toBe('playing');
      const m = chooseMove(view);
      const open = view.fiveDice.scoreOptions?.boxes?.filter((b: { allowed: boolean }) => b.allowed) ?? [];
      if (m.action === 'score' && open.length === 1) return m;
      const res = await t.http().post(`/v1/games/${gameId}/${m.action}`).set(p.auth).send(m.body);
      expect(res.status).toBe(200);
      view = res.body;
    }
  }

  /** The standings once they are `finished` (polled, with a bounded wait). */
  async function finishedStandings(id: string): Promise<{ status: string; rows: unknown[] }> {
    return waitFor(
      async () => (await t.http().get(`/v1/tournaments/${id}/standings`).expect(200)).body,
      (s: { status: string; rows: unknown[] }) => s.status === 'finished',
      'finished standings',
    );
  }

  it("two entrants' final scores written in one batch both answer 200, and the tournament finishes", async () => {
    const { id, games } = await twoEntrantTournament();
    const last = await Promise.all(games.map((g) => upToLastMove(g.p, g.gameId)));
    // Both final commands wait in the batcher, then go in one statement.
    const release = store.batcher!.pause();
    let responses;
    try {
      const sent = Promise.all(
        games.map((g, i) =>
          t
            .http()
            .post(`/v1/games/${g.gameId}/${last[i].action}`)
            .set(g.p.auth)
            .send(last[i].body)
            .then((r) => r),
        ),
      );
      // Another append (a background job's) may wait beside them: what counts is that both are there.
      const gathered = () => games.every((g) => store.batcher!.pendingGames.includes(g.gameId));
      for (let i = 0; i < 1000 && !gathered(); i++) await new Promise((r) => setTimeout(r, 10));
      expect(gathered()).toBe(true);
      release();
      responses = await sent;
    } finally {
      release();
    }
    expect(responses.map((r) => [r.status, r.body.code ?? r.body.status])).toEqual([
      [200, 'finished'],
      [200, 'finished'],
    ]);
    const standings = await finishedStandings(id);
    expect(standings.rows).toHaveLength(2);
  });

  it('the standings finish right after the last game ends, without waiting for a job poll', async () => {
    const { id, games } = await twoEntrantTournament();
    for (const g of games) {
      const m = await upToLastMove(g.p, g.gameId);
      const res = await t.http().post(`/v1/games/${g.gameId}/${m.action}`).set(g.p.auth).send(m.body).expect(200);
      expect(res.body.status).toBe('finished');
    }
    // The worker polls once an hour here: only the last game's commit can have run the round's end.
    const standings = await finishedStandings(id);
    expect(standings.status).toBe('finished');
    const view = (await t.http().get(`/v1/tournaments/${id}`).expect(200)).body;
    expect(view.status).toBe('finished');
    expect(view.roundDetails[0].finished).toBe(true);
  });
});
