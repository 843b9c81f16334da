import { createTestApp, gql, registerPlayer, type TestApp } from '../helpers/app';
import { playToEnd, restClient } from '../helpers/games';

/** Statistics per rule set, from finished games: solo record, multiplayer results, hot seat excluded. */
describe('player statistics', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  const statsOf = async (token: string, ruleSet: string) => {
    const me = await t.http().get('/v1/players/me').set('authorization', `Bearer ${token}`).expect(200);
    return me.body.stats.find((s: { ruleSet: string }) => s.ruleSet === ruleSet);
  };

  it('counts finished games, the solo best, wins/losses/ties, and not hot-seat games in the solo record', async () => {
    const client = restClient(t);
    const ada = await registerPlayer(t, 'Ada');
    const bob = await registerPlayer(t, 'Bob');
    const tokens: Record<string, string> = { [ada.id]: ada.token, [bob.id]: bob.token };
    const play = async (view: any) => playToEnd(t, client, view, (id) => tokens[id]);

    // A solo game of simple.
    const solo = await play(
      await client.start(ada.token, (await client.create(ada.token, { ruleSet: 'simple', seats: 1 })).id),
    );
    const soloTotal = solo.standings[0].total;

    // A hot-seat game (Ada holds both seats): finished, but neither solo record nor win/loss.
    const hot = await client.create(ada.token, { ruleSet: 'simple', seats: 2, hotSeats: 1 });
    const hotEnd = await play(await client.start(ada.token, hot.id));
    expect(hotEnd.status).toBe('finished');

    // A two-player game between Ada and Bob.
    const duel = await client.create(ada.token, { ruleSet: 'simple', seats: 2 });
    await client.join(bob.token, duel.id);
    const duelEnd = await play(await client.start(ada.token, duel.id));
    const adaRank = duelEnd.standings.find((s: { playerId: string }) => s.playerId === ada.id).rank;
    const bobRank = duelEnd.standings.find((s: { playerId: string }) => s.playerId === bob.id).rank;

    const adaStats = await statsOf(ada.token, 'simple');
    expect(adaStats).toMatchObject({ gamesFinished: 3, soloGamesFinished: 1, soloBestScore: soloTotal });
    const bobStats = await statsOf(bob.token, 'simple');
    expect(bobStats).toMatchObject({ gamesFinished: 1, soloGamesFinished: 0, soloBestScore: null });
    if (adaRank === bobRank) {
      expect([adaStats.ties, bobStats.ties]).toEqual([1, 1]);
    } else {
      const [winner, loser] = adaRank < bobRank ? [adaStats, bobStats] : [bobStats, adaStats];
      expect([winner.wins, winner.losses, loser.wins, loser.losses]).toEqual([1, 0, 0, 1]);
    }
    // Other rule sets are untouched.
    expect(await statsOf(ada.token, 'penta')).toMatchObject({ gamesFinished: 0, wins: 0 });

    // GraphQL shows the same statistics.
    const body = await gql(
      t,
      '{ me { stats { ruleSet gamesFinished soloBestScore wins losses ties } } }',
      {},
      ada.token,
    );
    expect(body.data.me.stats.find((s: { ruleSet: string }) => s.ruleSet === 'simple')).toMatchObject({
      gamesFinished: 3,
      soloBestScore: soloTotal,
    });
  }, 120_000);
});
