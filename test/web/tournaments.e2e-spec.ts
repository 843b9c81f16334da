/**
 * The tournament views of the web client in Chromium: an organizer and two players, each in a
 * browser context of their own, every step through the page (create, a refused create, register,
 * close, start, play or quit the games in a second tab, withdraw, cancel). The tournament pages stay
 * open meanwhile and must show the standings change without a reload; the page does not poll, so
 * what changes came over the live standings stream. The API is only read, to compare what the
 * pages show with what the server holds. Runs once per CI run (describeOnce), against PostgreSQL.
 */
import type { Locator, Page } from 'playwright-core';
import { describeOnce } from '../helpers/suites';
import { browserSuite, playTurnByClicks, register, yourTurn } from './browser';

jest.setTimeout(240_000);

// Round-end jobs are picked up quickly, so the standings move soon after the last game ends.
const web = browserSuite({ env: { JOBS_POLL_INTERVAL_MS: '50' } });
const { expecting, problems } = web;

const tournamentIdOf = (page: Page) => /#\/tournament\/([0-9a-f-]{36})/.exec(page.url())![1];
/** A mark on the page's window: still there later means the page was never reloaded. */
const markPage = (page: Page) =>
  page.evaluate(() => ((globalThis as unknown as Record<string, unknown>).stayed = true));
const stillTheSamePage = (page: Page) =>
  page.evaluate(() => (globalThis as unknown as Record<string, unknown>).stayed === true);
const heading = (page: Page, status: string) =>
  page.getByRole('heading', { level: 1, name: new RegExp(`· ${status}$`) }).waitFor();

/** Every page's requests for live standings (the SSE stream), by page. */
const streams = new Map<Page, string[]>();

async function newPlayer(name: string): Promise<Page> {
  const page = await web.newPage();
  streams.set(page, []);
  page.on('request', (r) => {
    if (r.url().endsWith('/standings/stream')) streams.get(page)!.push(new URL(r.url()).pathname);
  });
  await register(page, name);
  return page;
}

// The CI database is shared by every test file: other tournaments are listed too.
const run = Date.now().toString(36);
const BROWSER_CUP = `Browser cup ${run}`;
const SHORT_CUP = `Short cup ${run}`;

/** The list's entry for the tournament named `name`, paging on with *More tournaments* as a person would. */
async function listed(page: Page, name: string): Promise<Locator> {
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Tournaments' }).click();
  await page.getByRole('heading', { name: 'Public tournaments and yours' }).waitFor();
  await page.getByText('Loading…').waitFor({ state: 'detached' });
  const item = page.getByRole('listitem').filter({ has: page.getByRole('link', { name, exact: true }) });
  while ((await item.count()) === 0) {
    const shown = await page.getByRole('listitem').count();
    await page.getByRole('button', { name: 'More tournaments' }).click();
    await page.getByRole('listitem').nth(shown).waitFor();
  }
  return item;
}

/** From anywhere to the tournament named `name` through the header and the list. */
async function openTournament(page: Page, name: string): Promise<void> {
  await (await listed(page, name)).getByRole('link', { name, exact: true }).click();
  await page.getByRole('heading', { level: 1, name: new RegExp(`^${name}`) }).waitFor();
}

async function createTournament(page: Page, name: string, ruleSet: string, format: string): Promise<void> {
  await page.getByLabel('Name', { exact: true }).fill(name);
  await page.getByLabel('Rule set').selectOption(ruleSet);
  await page.getByLabel('Format').selectOption(format);
  await page.getByLabel('Maximum entrants').fill('4');
  await page.getByRole('button', { name: 'Create tournament' }).click();
}

/** The standings table's rows as the page shows them: [rank, name, total, match points, best, games]. */
async function standingsRows(page: Page): Promise<string[][]> {
  const rows = await page
    .getByRole('table', { name: /standings/i })
    .locator('tbody tr')
    .all();
  return Promise.all(rows.map((r) => r.locator('td, th').allInnerTexts()));
}

describeOnce('the web client: tournaments (Chromium)', () => {
  afterEach(() => {
    // No console error, no page error, no failed request, nothing fetched beyond the service.
    expect(problems.splice(0)).toEqual([]);
  });

  it('an organizer creates, closes and starts a duplicate tournament in the page; two players register in theirs and watch the standings change live to the verified final result', async () => {
    const olga = await newPlayer('Olga');
    await olga.getByRole('link', { name: 'Tournaments' }).click();
    await olga.getByRole('heading', { name: 'New tournament' }).waitFor();

    // A bad input: Farkle has no duplicate format. The refusal as a sentence (not its code); nothing stored.
    expecting.refusing = true;
    await createTournament(olga, 'Farkle duplicate', 'farkle', 'duplicate');
    const alert = olga.getByRole('alert');
    await alert.waitFor();
    expecting.refusing = false;
    expect(await alert.innerText()).toBe('Farkle tournaments cannot use the duplicate format.');
    const olgaId = (await web.read(olga, '/v1/players/me')).id;
    const olgas = async () =>
      (await web.read(olga, '/v1/tournaments?limit=100')).items.filter((x: any) => x.organizerId === olgaId);
    expect(await olgas()).toEqual([]);

    await createTournament(olga, BROWSER_CUP, 'simple', 'duplicate');
    await heading(olga, 'registration open');
    const id = tournamentIdOf(olga);
    const created = await web.read(olga, `/v1/tournaments/${id}`);
    expect(created).toMatchObject({ name: BROWSER_CUP, ruleSet: 'simple', format: 'duplicate', maxEntrants: 4 });
    expect(await olga.getByTestId('tournament-commitment').innerText()).toBe(created.commitment);
    await olga.getByText('Nobody has registered yet.').waitFor();
    await markPage(olga);

    // Two players find it in the list and register in their own pages, each with a seed made there.
    const players: Record<string, Page> = {};
    for (const [i, name] of ['Ada', 'Bob'].entries()) {
      const page = await newPlayer(name);
      expect(await (await listed(page, BROWSER_CUP)).innerText()).toBe(
        `${BROWSER_CUP} · registration open · Simple (five dice) · Duplicate · ${i} of 4 entrants`,
      );
      await openTournament(page, BROWSER_CUP);
      await page.getByRole('button', { name: 'Register' }).click();
      await page.getByText(`You are entrant ${i + 1}. Your seed:`).waitFor();
      const entrant = (await web.read(page, `/v1/tournaments/${id}`)).entrants[i];
      expect(entrant).toMatchObject({ number: i + 1, displayName: name, clientSeedGenerated: false });
      expect(entrant.clientSeed).toMatch(/^[0-9a-f]{32}$/);
      await page.getByText(entrant.clientSeed, { exact: true }).waitFor();
      await markPage(page);
      players[name] = page;
    }
    const { Ada: ada, Bob: bob } = players;

    // The organizer's page shows both entrants without a reload, then closes and starts.
    const organizerTable = olga.getByRole('table', { name: /standings/i });
    await organizerTable.getByRole('row', { name: /Bob/ }).waitFor();
    await olga.getByRole('button', { name: 'Close registration' }).click();
    await heading(olga, 'registration closed');
    expect(await olga.getByRole('button', { name: 'Close registration' }).count()).toBe(0);
    await olga.getByRole('button', { name: 'Start the tournament' }).click();
    await heading(olga, 'running');
    const running = await web.read(olga, `/v1/tournaments/${id}`);
    expect(running.organizerSeed).not.toBeNull();
    const games = running.roundDetails[0].games as Array<{ gameId: string; entrants: number[] }>;
    expect(games.map((g) => g.entrants)).toEqual([[1], [2]]);

    // Each player's page, left open, shows it running and links to their own game (and not the other's).
    for (const [i, page] of [ada, bob].entries()) {
      await heading(page, 'running');
      const link = page.getByRole('link', { name: 'Round 1, game 1' });
      expect(await link.getAttribute('href')).toBe(`#/game/${games[i].gameId}`);
      expect(await page.getByRole('link', { name: /^Round / }).count()).toBe(1);
      await page.getByText('A duplicate round counts when all its games have ended').waitFor();
      expect((await standingsRows(page)).map((r) => [r[1], r[2]])).toEqual([
        ['Ada', '0'],
        ['Bob', '0'],
      ]);
    }

    // Each player opens their game in a second tab (the tournament tab stays open) and plays there:
    // Ada her whole game with the mouse, Bob one turn before he quits.
    const gameTab = async (page: Page) => {
      const href = await page.getByRole('link', { name: 'Round 1, game 1' }).getAttribute('href');
      const tab = await web.newTab(page, href!);
      await yourTurn(tab).waitFor();
      return tab;
    };
    const adaTab = await gameTab(ada);
    for (let turn = 1; turn <= 13; turn++) {
      await playTurnByClicks(adaTab);
      await adaTab.getByRole('button', { name: /^Confirm: score/ }).waitFor({ state: 'detached' });
    }
    await adaTab.getByRole('heading', { name: 'Result' }).waitFor();
    const adaGame = await web.read(ada, `/v1/games/${games[0].gameId}`);
    expect(adaGame.status).toBe('finished');
    // One game of the duplicate round ended: it counts for nobody yet.
    expect((await web.read(ada, `/v1/tournaments/${id}/standings`)).rows.map((r: any) => r.totalScore)).toEqual([0, 0]);
    const bobTab = await gameTab(bob);
    await playTurnByClicks(bobTab);
    await bobTab.getByRole('button', { name: /^Confirm: score/ }).waitFor({ state: 'detached' });
    await bobTab.getByText('Leave this game').click();
    await bobTab.getByRole('button', { name: 'Quit the game' }).click();
    await bobTab.getByText('Bob quit.').waitFor();
    const bobGame = await web.read(bob, `/v1/games/${games[1].gameId}`);
    expect(bobGame.status).toBe('finished');

    // The round ends, the tournament finishes: every open page shows the final standings by itself.
    for (const page of [ada, bob, olga]) {
      await heading(page, 'finished');
      await page.getByRole('table', { name: /^Final standings/ }).waitFor();
    }
    const standings = await web.read(ada, `/v1/tournaments/${id}/standings`);
    expect(standings.status).toBe('finished');
    const totals = new Map([
      ['Ada', adaGame.standings[0].total as number],
      ['Bob', bobGame.standings[0].total as number],
    ]);
    expect(standings.rows.map((r: any) => r.totalScore)).toEqual(
      standings.rows.map((r: any) => totals.get(r.displayName)),
    );
    const expected = standings.rows.map((r: any) => [
      String(r.rank),
      r.displayName,
      String(r.totalScore),
      String(r.matchPoints),
      String(r.bestGame),
      String(r.gamesPlayed),
    ]);
    expect(standings.rows.map((r: any) => r.gamesPlayed)).toEqual([1, 1]);
    for (const page of [ada, bob, olga]) {
      expect(await standingsRows(page)).toEqual(expected);
      expect(await stillTheSamePage(page)).toBe(true);
      expect(streams.get(page)).toContain(`/v1/tournaments/${id}/standings/stream`);
    }

    // Ended: the organizer's controls are gone; the audit bundle is offered and verified in the page.
    expect(await olga.getByRole('heading', { name: 'Organizer' }).count()).toBe(0);
    for (const page of [ada, olga]) {
      const verdict = page.getByTestId('tournament-verdict');
      await verdict.waitFor();
      expect(await verdict.innerText()).toMatch(/^Verified: every seed, draw, game and result/);
      await page.getByRole('link', { name: 'Download the tournament’s audit bundle' }).waitFor();
    }
    // A player's game page links back to the tournament.
    await bob.getByRole('link', { name: 'Round 1, game 1' }).click();
    await bob.getByRole('heading', { name: 'Result' }).waitFor();
    await bob.getByText('· round 1, game 1').waitFor();
    await bob.getByRole('link', { name: 'Back to the tournament' }).click();
    await bob.getByRole('table', { name: /^Final standings/ }).waitFor();
    expect(tournamentIdOf(bob)).toBe(id);
    expect(await ada.getByText(/^Tournament seed \(revealed\)/).innerText()).toContain(
      (await web.read(ada, `/v1/tournaments/${id}`)).tournamentSeed,
    );
  });

  it('a player withdraws with a reason and the organizer cancels with a reason, each after a confirm step', async () => {
    const oscar = await newPlayer('Oscar');
    await oscar.getByRole('link', { name: 'Tournaments' }).click();
    await createTournament(oscar, SHORT_CUP, 'penta', 'tables');
    await heading(oscar, 'registration open');
    const id = tournamentIdOf(oscar);
    expect(await web.read(oscar, `/v1/tournaments/${id}`)).toMatchObject({ format: 'tables', tableSizeMin: 2 });

    const cleo = await newPlayer('Cleo');
    await openTournament(cleo, SHORT_CUP);
    await cleo.getByRole('button', { name: 'Register' }).click();
    await cleo.getByText('You are entrant 1. Your seed:').waitFor();
    // Withdrawing takes a reason, behind a disclosure.
    await cleo.getByText('Withdraw from this tournament').click();
    const withdraw = cleo.getByRole('button', { name: 'Withdraw', exact: true });
    expect(await withdraw.isDisabled()).toBe(true);
    await cleo.getByLabel('Reason').fill('cannot play tonight');
    await withdraw.click();
    await cleo.getByText('You are entrant 1 (withdrawn: cannot play tonight).').waitFor();
    expect((await web.read(cleo, `/v1/tournaments/${id}`)).entrants[0]).toMatchObject({
      status: 'withdrawn',
      reason: 'cannot play tonight',
    });

    // Starting with too few entrants is refused with a sentence; nothing changes.
    expecting.refusing = true;
    await oscar.getByRole('button', { name: 'Start the tournament' }).click();
    await oscar
      .getByRole('alert')
      .getByText(/^The tournament needs at least 2 entrants/)
      .waitFor();
    expecting.refusing = false;
    expect((await web.read(oscar, `/v1/tournaments/${id}`)).status).toBe('registering');

    await oscar.getByText('Cancel this tournament').click();
    await oscar.getByLabel('Reason').fill('nobody came');
    await oscar.getByRole('button', { name: 'Cancel the tournament' }).click();
    await heading(oscar, 'cancelled');
    await oscar.getByText('nobody came', { exact: true }).waitFor();
    expect(await web.read(oscar, `/v1/tournaments/${id}`)).toMatchObject({
      status: 'cancelled',
      cancelReason: 'nobody came',
    });
    // Cleo's open page learns it too, and both verify the (game-less) bundle.
    await heading(cleo, 'cancelled');
    for (const page of [oscar, cleo])
      expect(await page.getByTestId('tournament-verdict').innerText()).toMatch(/^Verified/);
  });
});
