/**
 * Challenges in the web client (issue 28 item 5; docs/challenges.md §6): Ada challenges Bob from
 * his player page; Bob's lobby shows the challenge live (from his event stream) and he accepts;
 * both land in the started, rated game: Bob by the answer, Ada by her stream's challengeAccepted.
 */
import { describeOnce } from '../helpers/suites';
import { browserSuite, register } from './browser';

jest.setTimeout(180_000);

const web = browserSuite();

describeOnce('challenges in the web client (Chromium)', () => {
  afterEach(() => {
    expect(web.problems.splice(0)).toEqual([]);
  });

  it('Ada challenges Bob from his page, Bob accepts in his lobby, and both land in the game', async () => {
    const ada = await web.newPage();
    await register(ada, 'Ada');
    const bob = await web.newPage();
    await register(bob, 'Bob');
    const bobId = (await web.read(bob, '/v1/players/me')).id as string;

    // Bob's lobby is open (following his stream) before the challenge is sent.
    const streamOpened = bob.waitForRequest((r) => r.url().includes('/v1/players/me/events'));
    await bob.reload();
    await bob.getByRole('heading', { name: 'Lobby' }).waitFor();
    await streamOpened;

    await ada.goto(`${web.base}/#/players/${bobId}`);
    await ada.getByRole('heading', { name: 'Bob' }).waitFor();
    await ada.getByRole('button', { name: 'Challenge' }).click();
    await ada.getByLabel('Game').selectOption('simple');
    await ada.getByLabel('Time per move').selectOption('3600');
    await ada.getByLabel('Rated').check();
    await ada.getByLabel('Message').fill('Best of luck');
    await ada.getByRole('button', { name: 'Send challenge' }).click();
    await ada
      .getByRole('status')
      .getByText(/^Challenge sent: Simple \(five dice\) · rated · 1 hour per move/)
      .waitFor();

    // Ada waits in her lobby, where her challenge is listed.
    await ada.getByRole('link', { name: 'Games' }).click();
    await ada.getByText(/^You challenged Bob/).waitFor();

    // Bob's lobby shows it from the stream, with the message; he accepts.
    const incoming = bob.getByRole('listitem', { name: 'Challenge from Ada' });
    await incoming.getByText('Best of luck').waitFor({ timeout: 10_000 });
    await incoming.getByRole('button', { name: 'Accept' }).click();

    await bob.waitForURL(/#\/game\/[0-9a-f-]{36}$/);
    await ada.waitForURL(/#\/game\/[0-9a-f-]{36}$/, { timeout: 10_000 });
    // Each sees both players' ratings in the chips (a first rated game: 1500, provisional).
    for (const p of [ada, bob]) await p.locator('.chip .rating', { hasText: '1500?' }).nth(1).waitFor();
    const gameId = /#\/game\/([0-9a-f-]{36})$/.exec(bob.url())![1];
    expect(ada.url()).toContain(gameId);
    const game = await web.read(bob, `/v1/games/${gameId}`);
    expect(game).toMatchObject({ status: 'playing', rated: true, turnTimeLimitSeconds: 3600 });
    expect(game.seats.map((s: { playerId: string }) => s.playerId).sort()).toEqual(
      [bobId, (await web.read(ada, '/v1/players/me')).id].sort(),
    );
  });
});
