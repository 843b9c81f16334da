/**
 * A duplicate round's scores stay out of every public read model until the round ends (docs/
 * tournaments.md §4–5: a score tells the other entrants about the shared dice). Entrant A finishes
 * round 1 while B still plays: A's profile (REST and GraphQL, anonymous, as B, and A's own /me),
 * the solo leaderboard and the tournament's standings show nothing of A's game; once B finishes and
 * the round is revealed, A's score appears. Both play the same dice the same way, so their equal
 * totals then show the tie: a shared first place, match points split, no tournament win.
 */
import { createTestApp, registerPlayer, type TestApp } from '../helpers/app';
import { chooseMove } from '../helpers/games';
import { verifyTournamentBundle } from '@fairdice/core/fairness/tournament-verifier';
import { play, waitFor, type P } from './helpers';

jest.setTimeout(60_000);

describe('sealed duplicate rounds in the read models', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => {
    await t?.close();
  });

  const simpleStats = (stats: any[]) => stats.find((s) => s.ruleSet === 'simple');
  const gql = async (query: string, variables: Record<string, unknown>, p?: P) => {
    const req = t.http().post('/graphql');
    if (p) req.set(p.auth);
    const res = await req.send({ query, variables }).expect(200);
    expect(res.body.errors).toBeUndefined();
    return res.body.data;
  };

  it("shows no statistic of A's finished game until the round is revealed, then shows it", async () => {
    const organizer = await registerPlayer(t, 'Organizer');
    const [a, b] = await Promise.all([registerPlayer(t, 'Entrant A'), registerPlayer(t, 'Entrant B')]);
    const id = (
      await t
        .http()
        .post('/v1/tournaments')
        .set(organizer.auth)
        .send({ name: 'Sealed reads', ruleSet: 'simple', format: 'duplicate', maxEntrants: 2, rounds: 1 })
        .expect(201)
    ).body.id;
    for (const e of [a, b]) await t.http().post(`/v1/tournaments/${id}/entrants`).set(e.auth).send({}).expect(200);
    const started = (await t.http().post(`/v1/tournaments/${id}/start`).set(organizer.auth).expect(200)).body;
    const games = started.roundDetails[0].games as Array<{ gameId: string; entrants: number[] }>;
    const numberOf = new Map(started.entrants.map((e: any) => [e.playerId, e.number]));
    const gameOf = (p: P) => games.find((g) => g.entrants[0] === numberOf.get(p.id))!.gameId;

    const finalA = await play(t, a, gameOf(a), chooseMove);
    expect(finalA.status).toBe('finished');
    const totalA = finalA.standings.find((s: any) => s.seat === 0).total as number;
    expect(typeof totalA).toBe('number');

    // --- B still plays: A's game is sealed.
    const nothing = { gamesFinished: 0, soloGamesFinished: 0, soloBestScore: null, wins: 0, losses: 0, ties: 0 };
    const anonymous = (await t.http().get(`/v1/players/${a.id}`).expect(200)).body;
    expect(simpleStats(anonymous.stats)).toMatchObject(nothing);
    const asB = (await t.http().get(`/v1/players/${a.id}`).set(b.auth).expect(200)).body;
    expect(simpleStats(asB.stats)).toMatchObject(nothing);
    const me = (await t.http().get('/v1/players/me').set(a.auth).expect(200)).body;
    expect(simpleStats(me.stats)).toMatchObject(nothing);
    const statsQuery = `query($id: ID!) { player(id: $id) { stats { ruleSet gamesFinished soloGamesFinished soloBestScore wins losses ties } } }`;
    expect(simpleStats((await gql(statsQuery, { id: a.id })).player.stats)).toMatchObject(nothing);
    const meQuery = `{ me { stats { ruleSet gamesFinished soloGamesFinished soloBestScore } } }`;
    expect(simpleStats((await gql(meQuery, {}, a)).me.stats)).toMatchObject({
      gamesFinished: 0,
      soloGamesFinished: 0,
      soloBestScore: null,
    });
    const board = (await t.http().get('/v1/leaderboards/simple/solo?limit=100').expect(200)).body;
    expect(board.items.filter((i: any) => i.playerId === a.id)).toEqual([]);
    const standings = (await t.http().get(`/v1/tournaments/${id}/standings`).expect(200)).body;
    expect(JSON.stringify(standings)).not.toContain(`"total":${totalA}`);
    expect(standings.rows.every((r: any) => r.matchPoints === 0)).toBe(true);

    // --- B finishes: the round is revealed, and A's score counts.
    await play(t, b, gameOf(b), chooseMove);
    await waitFor(
      async () => (await t.http().get(`/v1/tournaments/${id}`).expect(200)).body,
      (v: any) => v.status === 'finished',
      'the tournament to finish',
    );
    const after = (await t.http().get(`/v1/players/${a.id}`).expect(200)).body;
    expect(simpleStats(after.stats)).toMatchObject({ gamesFinished: 1, soloGamesFinished: 1, soloBestScore: totalA });

    // Both played the same dice with the same strategy: equal totals are a tie, not a win by
    // registration order. A shared first place, match points split, no win on the leaderboard.
    const final = (await t.http().get(`/v1/tournaments/${id}/standings`).expect(200)).body;
    expect(final.status).toBe('finished');
    expect(final.rows.map((r: any) => [r.rank, r.tied, r.totalScore, r.matchPoints])).toEqual([
      [1, true, totalA, 1],
      [1, true, totalA, 1],
    ]);
    const lines = (await t.http().get('/v1/leaderboards/simple/tournaments?limit=100').expect(200)).body.items;
    for (const p of [a, b])
      expect(lines.find((l: any) => l.playerId === p.id)).toMatchObject({ wins: 0, podiums: 1, bestRank: 1 });
    // The audit bundle's standings verify with the shared rank; a bundle saved before shared ranks
    // (no `tied`, ranked by position) still verifies; a shared rank changed does not.
    const bundle = JSON.parse((await t.http().get(`/v1/tournaments/${id}/audit`).expect(200)).text);
    expect(verifyTournamentBundle(bundle).ok).toBe(true);
    const legacy = JSON.parse(JSON.stringify(bundle));
    legacy.standings = legacy.standings.map(({ tied: _tied, ...row }: any, i: number) => ({ ...row, rank: i + 1 }));
    expect(verifyTournamentBundle(legacy).failure).toBeNull();
    const forged = JSON.parse(JSON.stringify(bundle));
    forged.standings[1].rank = 2;
    expect(verifyTournamentBundle(forged)).toMatchObject({ ok: false, failure: { name: 'standings' } });

    const profile = (await t.http().get(`/v1/players/${a.id}`).expect(200)).body;
    expect(profile.tournaments[0]).toMatchObject({ tournamentId: id, rank: 1, tied: true });
  });
});
