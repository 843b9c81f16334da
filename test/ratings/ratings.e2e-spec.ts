import { createTestApp, gql, registerPlayer, type TestApp } from '../helpers/app';
import { chooseMove, countCreatedBy, poolOf, restClient } from '../helpers/games';
import { waitFor } from '../async/helpers';
import { RatingUpdatesService } from '../../src/ratings/rating-updates.service';
import { GamesService } from '../../src/games/games.service';
import { verifyBundle } from '@fairdice/core/fairness/verifier';
import { recompute, type PublicResult, type Values } from './independent-glicko2';

const RATED = { ruleSet: 'simple', seats: 2, rated: true, turnTimeLimitSeconds: 3600 };

/** Rated play (docs/ratings.md): rated games, their rating updates, the public results, leaderboards, profiles. */
describe('ratings', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ env: { RATING_LEADERBOARD_MIN_GAMES: '1' } });
  });
  afterAll(() => t.close());

  const ratedRows = async (playerId: string) => {
    const { rows } = await poolOf(t).query(
      `SELECT (SELECT count(*)::int FROM ratings WHERE player_id = $1) AS ratings,
              (SELECT count(*)::int FROM rating_updates WHERE player_id = $1) AS updates`,
      [playerId],
    );
    return rows[0];
  };

  it.each([
    ['hot seats', { seats: 2, hotSeats: 1 }, 'hot seats'],
    ['a computer seat', { computerSeats: [{ seat: 1, level: 'standard' }] }, 'computer seats'],
    ['advice allowed', { advice: 'allowed' }, 'forbids advice'],
    ['no time limit', { turnTimeLimitSeconds: undefined }, 'time limit'],
    ['non-default options', { options: { upperBonusPoints: 50 } }, 'default options'],
    ['private visibility', { visibility: 'private' }, 'public'],
    ['one seat', { seats: 1 }, 'at least 2 seats'],
  ])('refuses a rated game with %s (VALIDATION_FAILED, field rated), storing nothing', async (_, change, words) => {
    const ada = await registerPlayer(t, 'Ada');
    const before = await countCreatedBy(t, ada.id);
    const body: Record<string, unknown> = { ...RATED, ...change };
    const res = await t.http().post('/v1/games').set(ada.auth).send(body).expect(400);
    expect(res.body.code).toBe('VALIDATION_FAILED');
    expect(res.body.errors).toEqual([{ field: 'rated', problems: [expect.stringContaining(words)] }]);
    expect(await countCreatedBy(t, ada.id)).toEqual(before);
    // GraphQL answers the same code.
    const g = await gql(
      t,
      'mutation($input: CreateGameInput!) { createGame(input: $input) { id } }',
      { input: body },
      ada.token,
    );
    expect(g.errors?.[0].extensions?.code).toBe('VALIDATION_FAILED');
    expect(await countCreatedBy(t, ada.id)).toEqual(before);
  });

  it('refuses a rated flag that is not a boolean, and unknown pools', async () => {
    const ada = await registerPlayer(t, 'Ada');
    const res = await t
      .http()
      .post('/v1/games')
      .set(ada.auth)
      .send({ ...RATED, rated: 'yes' })
      .expect(400);
    expect(res.body.code).toBe('VALIDATION_FAILED');
    expect(await countCreatedBy(t, ada.id)).toEqual({ games: 0, events: 0 });
    const pool = await t.http().get('/v1/ratings/yahtzee/results').expect(404);
    expect(pool.body.code).toBe('RULE_SET_NOT_FOUND');
    await t.http().get('/v1/leaderboards/nope/ratings').expect(404);
    await t.http().get(`/v1/players/${ada.id}/ratings/nope/history`).expect(404);
    const missing = await t.http().get('/v1/players/00000000-0000-4000-8000-000000000000/ratings').expect(404);
    expect(missing.body.code).toBe('PLAYER_NOT_FOUND');
    const cursor = await t.http().get('/v1/ratings/simple/results?cursor=garbage').expect(400);
    expect(cursor.body.code).toBe('INVALID_CURSOR');
  });

  it('two rated games played through the API change ratings and histories exactly as an independent recomputation says', async () => {
    const client = restClient(t);
    const ada = await registerPlayer(t, 'Ada');
    const bob = await registerPlayer(t, 'Bob');
    const cy = await registerPlayer(t, 'Cy');
    const tokens: Record<string, string> = { [ada.id]: ada.token, [bob.id]: bob.token, [cy.id]: cy.token };

    // Game 1: Ada and Bob, played to the end.
    const g1 = await client.create(ada.token, RATED);
    expect(g1).toMatchObject({ rated: true, advice: 'forbidden', visibility: 'public' });
    await client.join(bob.token, g1.id);
    let v = await client.start(ada.token, g1.id);
    while (v.status === 'playing') v = await client.move(tokens[v.currentPlayerId], v.id, chooseMove(v));
    expect(v.status).toBe('finished');
    const end1 = v;
    await waitFor(async () => (await ratedRows(ada.id)).updates === 1, 15_000, 'the rating update of game 1');

    // Game 2: three seats; Cy quits at once (a forfeit: loses to both), Ada and Bob play on.
    const g2 = await client.create(bob.token, { ...RATED, seats: 3 });
    await client.join(ada.token, g2.id);
    await client.join(cy.token, g2.id);
    v = await client.start(bob.token, g2.id);
    let cyQuit = false;
    while (v.status === 'playing') {
      if (!cyQuit && v.currentPlayerId === cy.id) {
        v = await client.move(cy.token, v.id, { action: 'quit', body: {} });
        cyQuit = true;
        continue;
      }
      v = await client.move(tokens[v.currentPlayerId], v.id, chooseMove(v));
    }
    expect(cyQuit).toBe(true);
    const end2 = v;
    await waitFor(async () => (await ratedRows(cy.id)).updates === 1, 15_000, 'the rating update of game 2');

    // The public list, every page (limit 1: the cursor is followed).
    const results: any[] = [];
    let cursor: string | null = null;
    do {
      const res: any = await t
        .http()
        .get(`/v1/ratings/simple/results?limit=1${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`)
        .expect(200);
      results.push(...res.body.items);
      cursor = res.body.nextCursor;
    } while (cursor);
    const mine = results.filter((r) => r.gameId === g1.id || r.gameId === g2.id);
    expect(mine.map((r) => r.gameId)).toEqual([g1.id, g2.id]);
    // The results are the games' final totals; Cy forfeited.
    const seatsOf = (end: any) =>
      end.standings
        .map((s: any) => ({ seat: s.seat, playerId: s.playerId, total: s.total, forfeited: s.quit }))
        .sort((a: any, b: any) => a.seat - b.seat);
    expect(mine[0].seats).toEqual(seatsOf(end1));
    expect(mine[1].seats).toEqual(seatsOf(end2));
    expect(mine[1].seats.find((s: any) => s.playerId === cy.id).forfeited).toBe(true);
    expect(mine[0].finishedAt).toBe(end1.finishedAt);

    // Each rated result is a provably fair game: its audit bundle verifies, with the same totals and Cy's quit.
    for (const [r, end] of [
      [mine[0], end1],
      [mine[1], end2],
    ] as const) {
      const bundle = (await t.http().get(`/v1/games/${r.gameId}/audit`).expect(200)).body;
      const report = verifyBundle(bundle, { expectedHead: end.chainHead });
      expect(report.checks.filter((c) => c.status === 'fail')).toEqual([]);
      expect(report.ok).toBe(true);
      expect(bundle.finalStandings.map((s: any) => [s.seat, s.score])).toEqual(
        r.seats
          .map((s: any) => [s.seat, s.total])
          .sort((a: number[], b: number[]) => {
            const ra = bundle.finalStandings.findIndex((x: any) => x.seat === a[0]);
            const rb = bundle.finalStandings.findIndex((x: any) => x.seat === b[0]);
            return ra - rb;
          }),
      );
    }

    // The event stream says so too: gameCreated carries rated: true (REST and GraphQL), an unrated game's does not.
    const created = (await t.http().get(`/v1/games/${g1.id}/events?limit=1`).expect(200)).body.items[0];
    expect(created.data.rated).toBe(true);
    expect(created.command.rated).toBe(true);
    const ev = await gql(
      t,
      `query($id: ID!) { gameEvents(gameId: $id, limit: 1) { items { type ... on GameCreatedEvent { rated }
         issuedCommand { ... on CreateCommand { rated } } } } }`,
      { id: g1.id },
    );
    expect(ev.errors).toBeUndefined();
    expect(ev.data.gameEvents.items[0]).toMatchObject({ rated: true, issuedCommand: { rated: true } });

    // Recompute everything from the list with the test's own implementation.
    const again = recompute(results as PublicResult[]);
    const close = (a: Values, b: Values) => {
      expect(a.rating).toBeCloseTo(b.rating, 6);
      expect(a.rd).toBeCloseTo(b.rd, 6);
      expect(a.volatility).toBeCloseTo(b.volatility, 9);
    };
    for (const r of results) {
      const mineChanges = again.changes.get(r.seq)!;
      expect(r.changes).toHaveLength(r.seats.length);
      for (const c of r.changes) {
        close(c.before, mineChanges.get(c.playerId)!.before);
        close(c.after, mineChanges.get(c.playerId)!.after);
      }
    }
    for (const p of [ada, bob, cy]) {
      const res = await t.http().get(`/v1/players/${p.id}/ratings`).expect(200);
      expect(res.body.items).toHaveLength(1);
      const shown = res.body.items[0];
      const expected = again.ratings.get(p.id)!;
      close(shown, expected);
      expect(shown).toMatchObject({ pool: 'simple', games: expected.games, provisional: true });
      expect(shown.rating).not.toBe(1500);
      // The history: one line per game, newest first, chaining before → after.
      const h = await t.http().get(`/v1/players/${p.id}/ratings/simple/history`).expect(200);
      const played = mine.filter((r) => r.seats.some((s: any) => s.playerId === p.id));
      expect(h.body.items.map((x: any) => x.gameId)).toEqual(played.map((r) => r.gameId).reverse());
      for (const line of h.body.items) {
        const c = again.changes.get(line.seq)!.get(p.id)!;
        close(line.before, c.before);
        close(line.after, c.after);
      }
      if (h.body.items.length === 2) close(h.body.items[0].before, h.body.items[1].after);
    }
    // Cy forfeited to both: his rating went down.
    const cyNow = again.ratings.get(cy.id)!;
    expect(cyNow.rating).toBeLessThan(1500);

    // The leaderboard lists all three by rating; the profile over GraphQL shows the same.
    const lb = await t.http().get('/v1/leaderboards/simple/ratings?limit=100').expect(200);
    const lines = lb.body.items.filter((l: any) => [ada.id, bob.id, cy.id].includes(l.playerId));
    expect(lines.map((l: any) => l.playerId)).toEqual(
      [ada, bob, cy].map((p) => p.id).sort((a, b) => again.ratings.get(b)!.rating - again.ratings.get(a)!.rating),
    );
    const ratings = lb.body.items.map((l: any) => l.rating);
    expect(ratings).toEqual([...ratings].sort((a, b) => b - a));
    const profile = await gql(t, 'query($id: ID!) { player(id: $id) { ratings { pool rating rd games } } }', {
      id: cy.id,
    });
    expect(profile.errors).toBeUndefined();
    expect(profile.data.player.ratings).toHaveLength(1);
    expect(profile.data.player.ratings[0]).toMatchObject({ pool: 'simple', games: 1 });
    expect(profile.data.player.ratings[0].rating).toBeCloseTo(cyNow.rating, 6);
    const list = await gql(
      t,
      '{ ratedResults(pool: simple, first: 100) { edges { node { gameId seats { playerId } } } } }',
    );
    expect(list.errors).toBeUndefined();
    expect(list.data.ratedResults.edges.map((e: any) => e.node.gameId)).toEqual(results.map((r) => r.gameId));

    // Exactly once: concurrent applications of a game (the job, a retry, another instance) apply it once.
    const g3 = await client.create(ada.token, RATED);
    await client.join(bob.token, g3.id);
    v = await client.start(ada.token, g3.id);
    while (v.status === 'playing') v = await client.move(tokens[v.currentPlayerId], v.id, chooseMove(v));
    const applied = await Promise.all([1, 2, 3].map(() => t.app.get(RatingUpdatesService).rateFinishedGame(g3.id)));
    expect(applied.filter(Boolean).length).toBeLessThanOrEqual(1);
    await waitFor(async () => (await ratedRows(ada.id)).updates === 3, 15_000, 'the rating update of game 3');
    const { rows: once } = await poolOf(t).query(
      `SELECT (SELECT count(*)::int FROM rated_games WHERE game_id = $1) AS games,
              (SELECT count(*)::int FROM rating_updates WHERE game_id = $1) AS updates`,
      [g3.id],
    );
    expect(once[0]).toEqual({ games: 1, updates: 2 });

    // Applying a game again later changes nothing.
    const service = t.app.get(RatingUpdatesService);
    expect(await service.rateFinishedGame(g1.id)).toBe(false);
    expect(await ratedRows(ada.id)).toEqual({ ratings: 1, updates: 3 });
  });

  it('a player who ran out of time loses the game for rating, whatever the totals', async () => {
    const client = restClient(t);
    const ada = await registerPlayer(t, 'Ada');
    const bob = await registerPlayer(t, 'Bob');
    const tokens: Record<string, string> = { [ada.id]: ada.token, [bob.id]: bob.token };
    const g = await client.create(ada.token, RATED);
    await client.join(bob.token, g.id);
    let v = await client.start(ada.token, g.id);
    let timedOut = false;
    while (v.status === 'playing') {
      if (!timedOut && v.currentPlayerId === bob.id) {
        // Bob's time runs out once: the deadline job's own call (the service completes his turn).
        expect(await t.app.get(GamesService).timeout(g.id, v.version)).not.toBeNull();
        timedOut = true;
        v = await client.get(ada.token, g.id);
        continue;
      }
      v = await client.move(tokens[v.currentPlayerId], v.id, chooseMove(v));
    }
    expect(timedOut).toBe(true);
    await waitFor(async () => (await ratedRows(bob.id)).updates === 1, 15_000, 'the rating update');
    const res = await t.http().get(`/v1/players/${bob.id}/ratings/simple/history`).expect(200);
    expect(res.body.items[0]).toMatchObject({ gameId: g.id, wins: 0, draws: 0, losses: 1 });
    expect(res.body.items[0].after.rating).toBeLessThan(1500);
    const adaLine = await t.http().get(`/v1/players/${ada.id}/ratings/simple/history`).expect(200);
    expect(adaLine.body.items[0]).toMatchObject({ wins: 1, losses: 0 });
    // A rematch of a rated game is rated, with the same settings.
    const again = await t.http().post(`/v1/games/${g.id}/rematch`).set(bob.auth).expect(201);
    expect(again.body).toMatchObject({ rated: true, advice: 'forbidden', turnTimeLimitSeconds: 3600, rematchOf: g.id });
  });
});
