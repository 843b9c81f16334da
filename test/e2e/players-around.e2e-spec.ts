import { createTestApp, gql, registerPlayer, type TestApp } from '../helpers/app';
import { playToEnd, restClient, type Client } from '../helpers/games';
import { GamesService } from '../../src/games/games.service';

/**
 * Issue 13, item 6: public profiles, solo leaderboards, rematches and hot-seat names, through
 * REST and GraphQL, with their bad inputs (a clear code and nothing stored).
 */
describe('profiles, leaderboards, rematch and hot-seat names', () => {
  let t: TestApp;
  let client: Client;
  beforeAll(async () => {
    t = await createTestApp();
    client = restClient(t);
  });
  afterAll(() => t.close());

  const auth = (token: string) => ({ authorization: `Bearer ${token}` });
  const myGameIds = async (token: string): Promise<string[]> => {
    const res = await t.http().get('/v1/games?scope=mine&limit=100').set(auth(token)).expect(200);
    return res.body.items.map((g: { id: string }) => g.id);
  };
  const soloGame = async (token: string, extra: Record<string, unknown>) =>
    client.start(token, (await client.create(token, { ruleSet: 'simple', seats: 1, ...extra })).id);
  const finish = (view: any, token: string) => playToEnd(t, client, view, () => token);

  describe('hot-seat names', () => {
    it('names each hot seat in the view, the events and the standings (REST and GraphQL)', async () => {
      const ada = await registerPlayer(t, 'Ada');
      const game = await client.create(ada.token, {
        ruleSet: 'simple',
        seats: 3,
        hotSeats: 2,
        hotSeatNames: ['Bea', '  Cy  '],
      });
      expect(game.seats.map((s: any) => [s.displayName, s.hotSeat, s.playerId])).toEqual([
        ['Ada', false, ada.id],
        ['Bea', true, ada.id],
        ['Cy', true, ada.id],
      ]);
      const events = await t.http().get(`/v1/games/${game.id}/events`).set(auth(ada.token)).expect(200);
      const taken = events.body.items.filter((e: any) => e.type === 'seatTaken').map((e: any) => e.data.name ?? null);
      expect(taken).toEqual([null, 'Bea', 'Cy']);
      const end = await finish(await client.start(ada.token, game.id), ada.token);
      expect(end.standings.map((s: any) => s.displayName).sort()).toEqual(['Ada', 'Bea', 'Cy']);

      const body = await gql(
        t,
        `mutation { createGame(input: { ruleSet: simple, seats: 2, hotSeats: 1, hotSeatNames: ["Dot"] }) {
           seats { displayName hotSeat } } }`,
        {},
        ada.token,
      );
      expect(body.data.createGame.seats).toEqual([
        { displayName: 'Ada', hotSeat: false },
        { displayName: 'Dot', hotSeat: true },
      ]);
    });

    it('without names every hot seat still shows the creator (as before)', async () => {
      const ada = await registerPlayer(t, 'Ada');
      const game = await client.create(ada.token, { ruleSet: 'simple', seats: 2, hotSeats: 1 });
      expect(game.seats.map((s: any) => s.displayName)).toEqual(['Ada', 'Ada']);
    });

    it.each([
      [{ hotSeats: 2, hotSeatNames: ['Bea'] }, 'INVALID_OPTIONS'],
      [{ hotSeats: 0, hotSeatNames: ['Bea'] }, 'INVALID_OPTIONS'],
      [{ hotSeats: 1, hotSeatNames: [''] }, 'VALIDATION_FAILED'],
      [{ hotSeats: 1, hotSeatNames: ['   '] }, 'VALIDATION_FAILED'],
      [{ hotSeats: 1, hotSeatNames: ['Be\u0007a'] }, 'VALIDATION_FAILED'],
      [{ hotSeats: 1, hotSeatNames: ['x'.repeat(41)] }, 'VALIDATION_FAILED'],
      [{ hotSeats: 1, hotSeatNames: [42] }, 'VALIDATION_FAILED'],
      [{ hotSeats: 1, hotSeatNames: 'Bea' }, 'VALIDATION_FAILED'],
    ])('refuses %j with %s and creates nothing', async (input, code) => {
      const ada = await registerPlayer(t, 'Ada');
      const res = await t
        .http()
        .post('/v1/games')
        .set(auth(ada.token))
        .send({ ruleSet: 'simple', seats: 3, ...input });
      expect([400, 422]).toContain(res.status);
      expect(res.body.code).toBe(code);
      expect(await myGameIds(ada.token)).toEqual([]);
    });

    it('GraphQL refuses a count that does not match the hot seats, creating nothing', async () => {
      const ada = await registerPlayer(t, 'Ada');
      const body = await gql(
        t,
        'mutation { createGame(input: { ruleSet: simple, seats: 3, hotSeats: 2, hotSeatNames: ["Bea"] }) { id } }',
        {},
        ada.token,
      );
      expect(body.errors?.[0].extensions?.code).toBe('INVALID_OPTIONS');
      expect(await myGameIds(ada.token)).toEqual([]);
    });
  });

  describe('public profiles', () => {
    it('shows anyone the name and per-rule-set statistics (REST and GraphQL)', async () => {
      const ada = await registerPlayer(t, 'Ada');
      const solo = await finish(await soloGame(ada.token, {}), ada.token);
      const res = await t.http().get(`/v1/players/${ada.id}`).expect(200); // no token
      expect(res.body).toMatchObject({ id: ada.id, displayName: 'Ada' });
      expect(res.body.stats.find((s: any) => s.ruleSet === 'simple')).toMatchObject({
        gamesFinished: 1,
        soloGamesFinished: 1,
        soloBestScore: solo.standings[0].total,
      });
      expect(res.body).not.toHaveProperty('token');
      const body = await gql(
        t,
        'query($id: ID!) { player(id: $id) { id displayName stats { ruleSet soloBestScore } } }',
        {
          id: ada.id,
        },
      );
      expect(body.data.player.displayName).toBe('Ada');
      expect(body.data.player.stats.find((s: any) => s.ruleSet === 'simple').soloBestScore).toBe(
        solo.standings[0].total,
      );
    }, 60_000);

    it('answers an unknown player with PLAYER_NOT_FOUND and a malformed id with VALIDATION_FAILED', async () => {
      const unknown = await t.http().get('/v1/players/00000000-0000-4000-8000-000000000000').expect(404);
      expect(unknown.body.code).toBe('PLAYER_NOT_FOUND');
      const bad = await t.http().get('/v1/players/not-a-uuid').expect(400);
      expect(bad.body.code).toBe('VALIDATION_FAILED');
      const g1 = await gql(t, '{ player(id: "00000000-0000-4000-8000-000000000000") { id } }');
      expect(g1.errors?.[0].extensions?.code).toBe('PLAYER_NOT_FOUND');
      const g2 = await gql(t, '{ player(id: "nope") { id } }');
      expect(g2.errors?.[0].extensions?.code).toBe('VALIDATION_FAILED');
    });
  });

  describe('solo leaderboards', () => {
    it('ranks best qualifying solo scores only: advice forbidden, public, no computer move', async () => {
      const ada = await registerPlayer(t, 'LbAda');
      const bob = await registerPlayer(t, 'LbBob');
      const cy = await registerPlayer(t, 'LbCy');
      const dee = await registerPlayer(t, 'LbDee');
      const ada1 = await finish(await soloGame(ada.token, { advice: 'forbidden' }), ada.token);
      const ada2 = await finish(await soloGame(ada.token, { advice: 'forbidden' }), ada.token);
      const bobCounted = await finish(await soloGame(bob.token, { advice: 'forbidden' }), bob.token);
      await finish(await soloGame(bob.token, { advice: 'allowed' }), bob.token); // advice allowed: never counts
      await finish(await soloGame(dee.token, { advice: 'forbidden', visibility: 'private' }), dee.token); // private
      // Cy's turn times out once: the computer completes it, so the game does not count.
      const cyGame = await soloGame(cy.token, { advice: 'forbidden' });
      const cyView = await client.move(cy.token, cyGame.id, { action: 'roll', body: { hold: [] } });
      expect(await t.app.get(GamesService).timeout(cyGame.id, cyView.version)).not.toBeNull();
      await finish(await client.get(cy.token, cyGame.id), cy.token);

      // Every page, by cursor (2 lines a page): ordered, no line twice, Link rel="next" matches nextCursor.
      const lines: any[] = [];
      let cursor: string | null = null;
      do {
        const res: any = await t
          .http()
          .get(`/v1/leaderboards/simple/solo?limit=2${cursor ? `&cursor=${cursor}` : ''}`)
          .expect(200);
        lines.push(...res.body.items);
        cursor = res.body.nextCursor;
        if (cursor) expect(res.headers.link).toContain(`cursor=${cursor}`);
        else expect(res.headers.link).toBeUndefined();
      } while (cursor);
      expect(new Set(lines.map((l) => l.playerId)).size).toBe(lines.length);
      for (let i = 1; i < lines.length; i++) {
        expect(lines[i].score).toBeLessThanOrEqual(lines[i - 1].score);
        expect(lines[i].rank).toBe(lines[i].score === lines[i - 1].score ? lines[i - 1].rank : i + 1);
      }
      const byPlayer = new Map(lines.map((l) => [l.playerId, l]));
      const adaBest = Math.max(ada1.standings[0].total, ada2.standings[0].total);
      expect(byPlayer.get(ada.id)).toMatchObject({ displayName: 'LbAda', score: adaBest });
      expect([ada1.id, ada2.id]).toContain(byPlayer.get(ada.id).gameId);
      expect(byPlayer.get(bob.id)).toMatchObject({ score: bobCounted.standings[0].total, gameId: bobCounted.id });
      expect(byPlayer.has(cy.id)).toBe(false);
      expect(byPlayer.has(dee.id)).toBe(false);

      // GraphQL: the same lines, as a connection.
      const body = await gql(
        t,
        '{ soloLeaderboard(ruleSet: simple, first: 100) { edges { cursor node { rank playerId score gameId } } pageInfo { hasNextPage } } }',
      );
      const gqlLines = body.data.soloLeaderboard.edges.map((e: any) => e.node);
      expect(gqlLines.find((l: any) => l.playerId === bob.id)).toMatchObject({ score: bobCounted.standings[0].total });
      expect(gqlLines.some((l: any) => l.playerId === cy.id)).toBe(false);
      // Other rule sets are separate boards.
      const penta = await t.http().get('/v1/leaderboards/penta/solo?limit=100').expect(200);
      expect(penta.body.items.some((l: any) => l.playerId === ada.id)).toBe(false);
    }, 180_000);

    it('refuses an unknown rule set, a foreign or malformed cursor and a bad limit', async () => {
      const unknown = await t.http().get('/v1/leaderboards/chess/solo').expect(404);
      expect(unknown.body.code).toBe('RULE_SET_NOT_FOUND');
      const garbage = await t.http().get('/v1/leaderboards/simple/solo?cursor=%%%').expect(400);
      expect(garbage.body.code).toBe('INVALID_CURSOR');
      const ada = await registerPlayer(t, 'Ada');
      const games = await t.http().get('/v1/games?scope=open&limit=1').set(auth(ada.token)).expect(200);
      if (games.body.nextCursor) {
        const foreign = await t.http().get(`/v1/leaderboards/simple/solo?cursor=${games.body.nextCursor}`).expect(400);
        expect(foreign.body.code).toBe('INVALID_CURSOR');
      }
      for (const limit of ['0', '101', 'x']) {
        const res = await t.http().get(`/v1/leaderboards/simple/solo?limit=${limit}`).expect(400);
        expect(res.body.code).toBe('VALIDATION_FAILED');
      }
      const g = await gql(t, '{ soloLeaderboard(ruleSet: simple, after: "bogus") { edges { cursor } } }');
      expect(g.errors?.[0].extensions?.code).toBe('INVALID_CURSOR');
      const g2 = await gql(t, '{ soloLeaderboard(ruleSet: simple, first: 0) { edges { cursor } } }');
      expect(g2.errors?.[0].extensions?.code).toBe('VALIDATION_FAILED');
    });
  });

  describe('rematch', () => {
    it('a seated player starts a new game with the same options; the others join; new commitment', async () => {
      const ada = await registerPlayer(t, 'Ada');
      const bob = await registerPlayer(t, 'Bob');
      const tokens: Record<string, string> = { [ada.id]: ada.token, [bob.id]: bob.token };
      const old = await client.create(ada.token, {
        ruleSet: 'simple',
        seats: 2,
        visibility: 'private',
        advice: 'forbidden',
        turnTimeLimitSeconds: 3600,
        options: { upperBonusPoints: 50 },
      });
      await client.join(bob.token, old.id);
      const ended = await playToEnd(t, client, await client.start(ada.token, old.id), (id) => tokens[id]);

      const res = await t.http().post(`/v1/games/${ended.id}/rematch`).set(auth(bob.token)).expect(201);
      const again = res.body;
      expect(again).toMatchObject({
        rematchOf: old.id,
        status: 'open',
        creatorId: bob.id,
        ruleSet: 'simple',
        seatCount: 2,
        visibility: 'private',
        advice: 'forbidden',
        turnTimeLimitSeconds: 3600,
        options: ended.options,
        serverSeed: null,
      });
      expect(again.id).not.toBe(old.id);
      expect(again.commitment).not.toBe(old.commitment);
      expect(again.seats.map((s: any) => [s.playerId, s.clientSeed])).toEqual([
        [bob.id, null],
        [null, null],
      ]);
      const joined = await client.join(ada.token, again.id);
      expect(joined.seats[1].playerId).toBe(ada.id);

      // GraphQL: Ada asks too (a second rematch is a new game).
      const body = await gql(
        t,
        'mutation($id: ID!) { rematch(gameId: $id) { id rematchOf creatorId } }',
        { id: old.id },
        ada.token,
      );
      expect(body.data.rematch).toMatchObject({ rematchOf: old.id, creatorId: ada.id });
    }, 120_000);

    it('keeps the hot seats and their names when their creator asks', async () => {
      const ada = await registerPlayer(t, 'Ada');
      const old = await client.create(ada.token, { ruleSet: 'simple', seats: 2, hotSeats: 1, hotSeatNames: ['Bea'] });
      const ended = await finish(await client.start(ada.token, old.id), ada.token);
      const again = (await t.http().post(`/v1/games/${ended.id}/rematch`).set(auth(ada.token)).expect(201)).body;
      expect(again.seats.map((s: any) => [s.displayName, s.hotSeat])).toEqual([
        ['Ada', false],
        ['Bea', true],
      ]);
    }, 60_000);

    it('refuses unfinished games, outsiders and bodies, storing nothing', async () => {
      const ada = await registerPlayer(t, 'Ada');
      const cy = await registerPlayer(t, 'Cy');
      const open = await client.create(ada.token, { ruleSet: 'simple', seats: 2 });
      const notFinished = await t.http().post(`/v1/games/${open.id}/rematch`).set(auth(ada.token)).expect(409);
      expect(notFinished.body.code).toBe('GAME_NOT_FINISHED');
      const done = await finish(await soloGame(ada.token, {}), ada.token);
      const outsider = await t.http().post(`/v1/games/${done.id}/rematch`).set(auth(cy.token)).expect(403);
      expect(outsider.body.code).toBe('NOT_SEATED');
      const hidden = await finish(await soloGame(ada.token, { visibility: 'private' }), ada.token);
      const notFound = await t.http().post(`/v1/games/${hidden.id}/rematch`).set(auth(cy.token)).expect(404);
      expect(notFound.body.code).toBe('GAME_NOT_FOUND');
      const body = await t
        .http()
        .post(`/v1/games/${done.id}/rematch`)
        .set(auth(ada.token))
        .send({ seats: 3 })
        .expect(400);
      expect(body.body.code).toBe('VALIDATION_FAILED');
      const badId = await t.http().post('/v1/games/nope/rematch').set(auth(ada.token)).expect(400);
      expect(badId.body.code).toBe('VALIDATION_FAILED');
      await t.http().post(`/v1/games/${done.id}/rematch`).expect(401);
      const g = await gql(t, 'mutation($id: ID!) { rematch(gameId: $id) { id } }', { id: open.id }, ada.token);
      expect(g.errors?.[0].extensions?.code).toBe('GAME_NOT_FINISHED');
      expect((await myGameIds(ada.token)).sort()).toEqual([open.id, done.id, hidden.id].sort());
      expect(await myGameIds(cy.token)).toEqual([]);
    }, 60_000);
  });
});
