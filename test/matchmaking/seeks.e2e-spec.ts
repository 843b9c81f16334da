/**
 * Seeks and the matchmaker (docs/matchmaking.md) through the public API: two compatible seeks are
 * paired into a started rated game, announced on both players' event streams; the game is played
 * out and both ratings and histories change exactly as an independent recomputation says; a third
 * seek outside the window stays open. Bad input is refused with a stable code and stores nothing.
 */
import { createHash } from 'node:crypto';
import { createTestApp, gql, registerPlayer, type TestApp } from '../helpers/app';
import { chooseMove, poolOf, restClient } from '../helpers/games';
import { openPlayerStream, type PlayerStreamClient } from '../helpers/player-stream';
import { waitFor } from '../async/helpers';
import { recompute, type PublicResult } from '../ratings/independent-glicko2';

jest.setTimeout(90_000);

type P = Awaited<ReturnType<typeof registerPlayer>>;

describe('seeks and the matchmaker', () => {
  let t: TestApp;
  let base: string;
  const streams: PlayerStreamClient[] = [];
  beforeAll(async () => {
    t = await createTestApp({ listen: true, env: { MATCHMAKER_ENABLED: 'true', MATCHMAKER_INTERVAL_MS: '200' } });
    base = (await t.app.getUrl()).replace('[::1]', '127.0.0.1');
  });
  afterAll(async () => {
    for (const s of streams) s.close();
    await t?.close();
  });

  const seekRows = async (playerId: string) =>
    (
      await poolOf(t).query(
        `SELECT (SELECT count(*)::int FROM seeks WHERE player_id = $1) AS seeks,
                (SELECT count(*)::int FROM seek_events e JOIN seeks s ON s.id = e.seek_id WHERE s.player_id = $1) AS events`,
        [playerId],
      )
    ).rows[0];
  const post = (p: P, body: Record<string, unknown>) => t.http().post('/v1/seeks').set(p.auth).send(body);
  const seekOf = async (id: string) => (await t.http().get(`/v1/seeks/${id}`).expect(200)).body;

  describe('bad input: a stable code, nothing stored', () => {
    const SEEK = { pool: 'penta', seats: 2, rated: true, turnTimeLimitSeconds: 60 };
    it.each([
      ['an inverted rating range', { ratingMin: 1800, ratingMax: 1600 }, 400, 'INVALID_RATING_RANGE'],
      ['a rating bound out of range', { ratingMax: 9000 }, 400, 'INVALID_RATING_RANGE'],
      ['an unknown pool', { pool: 'yahtzee' }, 400, 'UNKNOWN_POOL'],
      ['one seat', { seats: 1 }, 400, 'VALIDATION_FAILED'],
      ['five seats', { seats: 5 }, 400, 'VALIDATION_FAILED'],
      ['a rated seek without a time per move', { turnTimeLimitSeconds: undefined }, 400, 'INVALID_TIME_CONTROL'],
      ['a rated seek with an odd time per move', { turnTimeLimitSeconds: 7 }, 400, 'INVALID_TIME_CONTROL'],
      ['a rated flag that is not a boolean', { rated: 'yes' }, 400, 'VALIDATION_FAILED'],
    ])('refuses %s', async (_, change, status, code) => {
      const ada = await registerPlayer(t, 'Ada');
      const body = { ...SEEK, ...change };
      const res = await post(ada, body).expect(status);
      expect(res.body.code).toBe(code);
      const g = await gql(
        t,
        'mutation($input: CreateSeekInput!) { createSeek(input: $input) { id } }',
        { input: body },
        ada.token,
      );
      expect(g.errors?.[0].extensions?.code).toBe(code);
      expect(await seekRows(ada.id)).toEqual({ seeks: 0, events: 0 });
    });

    it('refuses more open seeks than allowed, and cancelling: someone else’s, an unknown one, one already cancelled', async () => {
      const ada = await registerPlayer(t, 'Ada');
      const eve = await registerPlayer(t, 'Eve');
      // Windows nobody at 1500 can reach (the widening stops at 500): these stay open.
      const lonely = { ...SEEK, ratingMin: 3500 };
      const ids: string[] = [];
      for (let i = 0; i < 3; i++) ids.push((await post(ada, lonely).expect(201)).body.id);
      const over = await post(ada, lonely).expect(409);
      expect(over.body.code).toBe('SEEK_LIMIT_REACHED');
      const g = await gql(
        t,
        'mutation($input: CreateSeekInput!) { createSeek(input: $input) { id } }',
        { input: lonely },
        ada.token,
      );
      expect(g.errors?.[0].extensions?.code).toBe('SEEK_LIMIT_REACHED');
      expect(await seekRows(ada.id)).toEqual({ seeks: 3, events: 3 });

      const theirs = await t.http().delete(`/v1/seeks/${ids[0]}`).set(eve.auth).expect(403);
      expect(theirs.body.code).toBe('NOT_YOUR_SEEK');
      const unknown = await t.http().delete('/v1/seeks/00000000-0000-4000-8000-000000000000').set(ada.auth).expect(404);
      expect(unknown.body.code).toBe('SEEK_NOT_FOUND');
      await t.http().delete('/v1/seeks/not-a-uuid').set(ada.auth).expect(400);
      const cancelled = await t.http().delete(`/v1/seeks/${ids[0]}`).set(ada.auth).expect(200);
      expect(cancelled.body).toMatchObject({ id: ids[0], status: 'cancelled', gameId: null });
      const again = await t.http().delete(`/v1/seeks/${ids[0]}`).set(ada.auth).expect(409);
      expect(again.body.code).toBe('SEEK_NOT_OPEN');
      const gAgain = await gql(t, 'mutation($id: ID!) { cancelSeek(id: $id) { id } }', { id: ids[0] }, ada.token);
      expect(gAgain.errors?.[0].extensions?.code).toBe('SEEK_NOT_OPEN');
      const gTheirs = await gql(t, 'mutation($id: ID!) { cancelSeek(id: $id) { id } }', { id: ids[1] }, eve.token);
      expect(gTheirs.errors?.[0].extensions?.code).toBe('NOT_YOUR_SEEK');
      // One cancel event, nothing from the refusals; a slot is free again.
      expect(await seekRows(ada.id)).toEqual({ seeks: 3, events: 4 });
      const fourth = (await post(ada, lonely).expect(201)).body.id;
      // Without a token: 401, nothing stored.
      await t.http().post('/v1/seeks').send(lonely).expect(401);
      // The lobby lists the open ones only, oldest first.
      const lobby = (await t.http().get('/v1/seeks?limit=100').expect(200)).body.items.filter(
        (s: any) => s.playerId === ada.id,
      );
      expect(lobby.map((s: any) => s.id).slice(0, 2)).toEqual(ids.slice(1));
      expect(lobby).toHaveLength(3);
      // No open seek is left behind for the next files in this database.
      for (const id of [...ids.slice(1), fourth]) await t.http().delete(`/v1/seeks/${id}`).set(ada.auth).expect(200);
    });
  });

  it('pairs two compatible seeks into a started rated game, told on both streams; played out, both ratings change as recomputed; a seek outside the window stays open', async () => {
    const client = restClient(t);
    const ada = await registerPlayer(t, 'Ada');
    const bob = await registerPlayer(t, 'Bob');
    const cy = await registerPlayer(t, 'Cy');
    const tokens: Record<string, string> = { [ada.id]: ada.token, [bob.id]: bob.token };
    const sa = openPlayerStream(base, ada.token);
    const sb = openPlayerStream(base, bob.token);
    streams.push(sa, sb);
    expect((await sa.opened).status).toBe(200);
    expect((await sb.opened).status).toBe(200);

    const SEEK = { pool: 'simple', seats: 2, rated: true, turnTimeLimitSeconds: 300 };
    // Cy accepts only 2400–2600: Ada and Bob (1500, no rating yet) are outside, even widened by 500.
    const cySeek = (await post(cy, { ...SEEK, ratingMin: 2400, ratingMax: 2600 }).expect(201)).body;
    expect(cySeek).toMatchObject({ status: 'open', playerId: cy.id, rating: null, ratingMin: 2400 });
    const adaSeek = (await post(ada, SEEK).expect(201)).body;
    // Over GraphQL, as the lobby shows it.
    const g = await gql(
      t,
      'mutation($input: CreateSeekInput!) { createSeek(input: $input) { id status pool seats rated turnTimeLimitSeconds } }',
      { input: SEEK },
      bob.token,
    );
    expect(g.errors).toBeUndefined();
    const bobSeek = g.data.createSeek;

    const paired = await waitFor(
      async () => {
        const a = await seekOf(adaSeek.id);
        return a.status === 'paired' ? a : null;
      },
      20_000,
      "Ada's seek paired",
    );
    const gameId = paired.gameId;
    expect(await seekOf(bobSeek.id)).toMatchObject({ status: 'paired', gameId });
    for (const s of [sa, sb])
      await s.waitFor(
        (m) => m.some((x) => x.event === 'gameStarted' && x.data.data.gameId === gameId),
        'gameStarted on the stream',
      );

    let v = await client.get(ada.token, gameId);
    expect(v).toMatchObject({
      status: 'playing',
      rated: true,
      advice: 'forbidden',
      visibility: 'public',
      ruleSet: 'simple',
    });
    expect(v.turnTimeLimitSeconds).toBe(300);
    // The seat order is the one the commitment gives: ascending SHA-256(commitment:playerId).
    const key = (p: string) => createHash('sha256').update(`${v.commitment}:${p}`).digest('hex');
    expect(v.seats.map((s: any) => s.playerId)).toEqual([ada.id, bob.id].sort((x, y) => (key(x) < key(y) ? -1 : 1)));
    expect(v.creatorId).toBe(v.seats[0].playerId);

    // Cy's seek is still open, in the lobby, over both transports.
    expect(await seekOf(cySeek.id)).toMatchObject({ status: 'open', gameId: null });
    const lobby = await gql(t, '{ seeks(first: 100) { edges { node { id status } } } }');
    expect(lobby.errors).toBeUndefined();
    const openIds = lobby.data.seeks.edges.map((e: any) => e.node.id);
    expect(openIds).toContain(cySeek.id);
    expect(openIds).not.toContain(adaSeek.id);

    // Played out through the public API.
    while (v.status === 'playing') v = await client.move(tokens[v.currentPlayerId], v.id, chooseMove(v));
    expect(v.status).toBe('finished');
    const drawn = new Set(v.standings.map((x: { total: number }) => x.total)).size === 1;
    const ratedOf = async (p: P) => (await t.http().get(`/v1/players/${p.id}/ratings`).expect(200)).body.items;
    await waitFor(
      async () => (await ratedOf(bob)).length === 1 && (await ratedOf(ada)).length === 1,
      15_000,
      'both ratings',
    );

    const results: PublicResult[] = [];
    let cursor: string | null = null;
    do {
      const res: any = await t
        .http()
        .get(`/v1/ratings/simple/results?limit=100${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`)
        .expect(200);
      results.push(...res.body.items);
      cursor = res.body.nextCursor;
    } while (cursor);
    expect(results.filter((r) => r.gameId === gameId)).toHaveLength(1);
    const again = recompute(results);
    for (const p of [ada, bob]) {
      const [shown] = await ratedOf(p);
      const expected = again.ratings.get(p.id)!;
      expect(shown.rating).toBeCloseTo(expected.rating, 6);
      expect(shown.rd).toBeCloseTo(expected.rd, 6);
      // Both started at 1500 with the same deviation: only a drawn game leaves the rating exactly there.
      expect(shown.rating === 1500).toBe(drawn);
      const h = (await t.http().get(`/v1/players/${p.id}/ratings/simple/history`).expect(200)).body.items;
      expect(h.map((x: any) => x.gameId)).toEqual([gameId]);
      expect(h[0].before).toEqual({ rating: 1500, rd: 350, volatility: 0.06 });
      expect(h[0].after.rating).toBeCloseTo(expected.rating, 6);
    }
    // Still open after the game and the passes since.
    expect(await seekOf(cySeek.id)).toMatchObject({ status: 'open' });
    await t.http().delete(`/v1/seeks/${cySeek.id}`).set(cy.auth).expect(200);
    // A paired seek cannot be cancelled.
    const late = await t.http().delete(`/v1/seeks/${adaSeek.id}`).set(ada.auth).expect(409);
    expect(late.body.code).toBe('SEEK_NOT_OPEN');
  });
});
