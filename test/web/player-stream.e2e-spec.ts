/**
 * The lobby follows the player's event stream (issue 27, item 3): when the opponent's move hands
 * Bob the turn, his open lobby lists the game under "Your move" and the tab title says so, from the
 * stream (`GET /v1/players/me/events`), with no polling: the test counts the page's requests.
 */
import { describeOnce } from '../helpers/suites';
import { browserSuite, createGame, playTurnByClicks, register, yourTurn } from './browser';

jest.setTimeout(180_000);

const web = browserSuite();

describeOnce('the lobby follows my event stream (Chromium)', () => {
  afterEach(() => {
    expect(web.problems.splice(0)).toEqual([]);
  });

  it("updates Bob's inbox and tab title from the stream when Ada's move hands him the turn, polling nothing", async () => {
    const ada = await web.newPage();
    await register(ada, 'Ada');
    await createGame(ada, { ruleSet: 'penta', seats: 2 });
    const link = await ada.locator('a.join-link').innerText();
    const bob = await web.newPage();
    await register(bob, 'Bob');
    await bob.goto(link);
    await bob.getByRole('button', { name: 'Join this game' }).click();
    await ada.getByText('Seat 2: Bob').waitFor();
    await ada.getByRole('button', { name: 'Start the game' }).click();
    await yourTurn(ada).waitFor();

    // Bob goes to his lobby: it loads once and opens his stream.
    const requests: string[] = [];
    bob.on('request', (r) => requests.push(new URL(r.url()).pathname));
    const streamOpened = bob.waitForRequest((r) => r.url().includes('/v1/players/me/events'));
    await bob.getByRole('link', { name: 'Games' }).click();
    await bob.getByText('No game is waiting for you.').waitFor();
    await streamOpened;
    const inboxReads = () => requests.filter((p) => p === '/v1/inbox').length;
    expect(inboxReads()).toBe(1);
    expect(await bob.title()).toBe('fairdice');

    // Ada's turn ends: Bob's lobby shows the game and the title changes, after exactly one more read
    // of the inbox, the one the stream's yourTurn caused.
    await playTurnByClicks(ada);
    await bob
      .getByRole('region', { name: 'Your move' })
      .getByRole('link', { name: /^Penta \(five dice\) · 2 seats/ })
      .waitFor({ timeout: 8_000 });
    expect(await bob.title()).toBe('(1) Your move · fairdice');
    expect(inboxReads()).toBe(2);
    expect(requests.filter((p) => p === '/v1/players/me/events')).toHaveLength(1);
  });
});
