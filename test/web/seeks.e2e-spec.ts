/**
 * Play now (docs/matchmaking.md §6) in Debian's Chromium: two players in two browser contexts press
 * "Play now", are paired by the matchmaker into a rated game that both pages open by themselves
 * (gameStarted on each player's event stream), play it to the end by clicks, and see their new
 * ratings in the game's chips. The API is only read, to compare with what the pages show.
 */
import type { Page } from 'playwright-core';
import { waitFor } from '../async/helpers';
import { describeOnce } from '../helpers/suites';
import { browserSuite, gameIdOf, playTurnByClicks, register } from './browser';

jest.setTimeout(240_000);

const web = browserSuite({ env: { MATCHMAKER_ENABLED: 'true', MATCHMAKER_INTERVAL_MS: '200' } });
const { problems } = web;
/** A timed game says "Your turn. Time per turn: 60 s." */
const yourTurn = (page: Page) => page.getByText(/^Your turn\./);

describeOnce('Play now (web client)', () => {
  afterEach(() => {
    expect(problems).toEqual([]);
  });

  it('two browsers press Play now, are paired into a rated game, play it to the end and see their new ratings', async () => {
    const ada = await web.newPage();
    await register(ada, 'Ada');
    const bob = await web.newPage({ width: 360, height: 800 });
    await register(bob, 'Bob');
    const adaId = (await web.read(ada, '/v1/players/me')).id as string;
    const bobId = (await web.read(bob, '/v1/players/me')).id as string;

    await ada.getByRole('button', { name: 'Play now' }).click();
    await ada.getByText(/^Looking for an opponent: Penta \(five dice\) · 2 seats · rated · 60 s per move/).waitFor();
    // Bob's lobby lists Ada's seek (read when the page opens).
    await bob.reload();
    await bob
      .getByRole('list', { name: 'Open seeks' })
      .getByText(/^Ada \(unrated\) · Penta \(five dice\) · 2 seats · rated · 60 s per move/)
      .waitFor();
    await bob.getByRole('button', { name: 'Play now' }).click();

    // Both pages open the game by themselves.
    for (const page of [ada, bob]) await page.getByRole('heading', { level: 1, name: /· in play$/ }).waitFor();
    const id = gameIdOf(ada);
    expect(gameIdOf(bob)).toBe(id);
    let game = await web.read(ada, `/v1/games/${id}`);
    expect(game).toMatchObject({ rated: true, ruleSet: 'penta', advice: 'forbidden', turnTimeLimitSeconds: 60 });
    expect(game.seats.map((s: any) => s.playerId).sort()).toEqual([adaId, bobId].sort());

    // Played to the end by clicks, each on their own page.
    const pageOf: Record<string, Page> = { [adaId]: ada, [bobId]: bob };
    while (game.status === 'playing') {
      const mover = game.currentPlayerId as string;
      await yourTurn(pageOf[mover]).waitFor();
      await playTurnByClicks(pageOf[mover]);
      game = await waitFor(
        async () => {
          const now = await web.read(ada, `/v1/games/${id}`);
          return now.status !== 'playing' || now.currentPlayerId !== mover ? now : null;
        },
        20_000,
        'the turn to pass',
      );
    }
    expect(game.status).toBe('finished');

    // The ratings: recomputed by the service once the game finished; both chips show them, rounded.
    const ratingOf = async (p: string) =>
      ((await web.read(ada, `/v1/players/${p}/ratings`)).items as any[]).find((r) => r.pool === 'penta');
    const rated = async (p: string) => ((await ratingOf(p))?.games ?? 0) >= 1;
    await waitFor(async () => (await rated(adaId)) && (await rated(bobId)), 15_000, 'both ratings');
    const [adaRating, bobRating] = [await ratingOf(adaId), await ratingOf(bobId)];
    const shown = [Math.round(adaRating.rating), Math.round(bobRating.rating)];
    // One rated game each, which narrows the deviation; a draw (equal totals: it happens) leaves
    // two equal ratings where they were, a decided game moves the winner up and the loser down.
    expect([adaRating.games, bobRating.games]).toEqual([1, 1]);
    expect(adaRating.rd).toBeLessThan(350);
    if (adaRating.draws === 1) expect(shown).toEqual([1500, 1500]);
    else
      expect(adaRating.wins === 1 ? shown[0] > 1500 && shown[1] < 1500 : shown[0] < 1500 && shown[1] > 1500).toBe(true);
    for (const page of [ada, bob]) {
      await page.getByRole('heading', { level: 1, name: /· finished$/ }).waitFor();
      for (const r of shown)
        await page
          .locator('.rating', { hasText: new RegExp(`^${r}\\??$`) })
          .first()
          .waitFor();
    }
  });
});
