/**
 * The post-game analysis view of the web client in Chromium, every step through the page: a solo
 * `simple` game played to the end (one move a deliberate blunder-sized sacrifice), its analysis
 * opened from the finished page while the advice table is still being computed (the page waits and
 * asks again by itself), and what the page shows compared with the analysis the server gives the
 * same player. Then a two-seat Farkle game (hot seat, played through the API by the page's player,
 * some moves on purpose against the advice) and its analysis by chance to win, as the page shows it.
 * Runs once per CI run (describeOnce), against PostgreSQL.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { farkle } from '@fairdice/core/rules/farkle/options';
import { AdviceTablesService } from '../../src/advice/advice-tables.service';
import { describeOnce } from '../helpers/suites';
import { browserSuite, createGame, gameIdOf, register, rollAgainButton, tabTo, tokenOf, yourTurn } from './browser';

jest.setTimeout(300_000);

// An empty table cache of its own: the first analysis is sure to find the table being computed.
const cacheDir = mkdtempSync(join(tmpdir(), 'fairdice-web-analysis-'));
const web = browserSuite({ env: { ADVICE_CACHE_DIR: cacheDir } });
afterAll(() => rmSync(cacheDir, { recursive: true, force: true }));

interface SeatAnalysis {
  seat: number;
  decisions: number;
  optimal: number;
  inaccuracies: number;
  mistakes: number;
  blunders: number;
  totalLoss: number;
  accuracy: number;
  score: number | null;
}
interface Decision {
  version: number;
  turn: number;
  kind: 'hold' | 'box' | 'setAside';
  box: string | null;
  loss: number;
  label: string;
  kept: number[] | null;
  then: 'bank' | 'roll' | null;
  turnPoints: number | null;
  winChanceLoss: number | null;
}

/** Scores the box the page offers under `name` (e.g. /^Chance: score/) and confirms. */
async function scoreBox(page: Page, name: RegExp): Promise<void> {
  await page.getByRole('button', { name }).click();
  const confirm = page.getByRole('button', { name: /^Confirm: score/ });
  await confirm.click();
  await confirm.waitFor({ state: 'detached' });
}

describeOnce('the web client: post-game analysis (Chromium)', () => {
  afterEach(() => {
    // No console error, no page error, no failed request, nothing fetched beyond the service.
    expect(web.problems.splice(0)).toEqual([]);
  });

  it('a finished solo `simple` game: the analysis shows the server’s accuracy, loss and every decision, and labels a deliberate sacrifice a mistake or worse', async () => {
    const page = await web.newPage();
    await register(page, 'Lea');
    await createGame(page, { ruleSet: 'simple' });
    await yourTurn(page).waitFor();
    // The analysis is not offered while the game is on.
    expect(await page.getByRole('link', { name: 'Analysis of this game' }).count()).toBe(0);

    const rollButton = page.locator('button:not([disabled])', { hasText: /^Roll$/ });
    for (let turn = 1; turn <= 13; turn++) {
      await rollButton.waitFor();
      await rollButton.click();
      await rollAgainButton(page, 2).waitFor();
      if (turn === 1) {
        // The deliberate bad move: on an empty sheet, give up Five of a kind with 0 while every other
        // box is open (an expected loss of at least 3.5 points for any roll but a five of a kind,
        // which is rolled again).
        const sacrifice = page.getByRole('button', { name: 'Five of a kind: score 0 now' });
        for (let again = 0; again < 2 && (await sacrifice.count()) === 0; again++) {
          await page.keyboard.press('r');
          // With no roll left the button stays disabled: then its name is the signal.
          if (again === 0) await rollAgainButton(page, 1).waitFor();
          else await page.getByRole('button', { name: /^Roll again \(0 left\)/ }).waitFor();
        }
        await scoreBox(page, /^Five of a kind: score 0 now$/);
        continue;
      }
      if (turn % 2 === 0) {
        // Keep die 1 and roll the others once more: a hold decision of its own.
        await page.keyboard.press('1');
        await page.getByRole('button', { name: /^Die 1: \d, held$/ }).waitFor();
        await page.keyboard.press('r');
        await rollAgainButton(page, 1).waitFor();
      }
      await page.locator('button.box-option:not([disabled])').first().click();
      const confirm = page.getByRole('button', { name: /^Confirm: score/ });
      await confirm.click();
      await confirm.waitFor({ state: 'detached' });
    }
    await page.getByRole('heading', { name: 'Result' }).waitFor();
    const gameId = gameIdOf(page);

    // From the finished page to the analysis. The table is still being computed: the page says so
    // and asks again by itself.
    web.expecting.preparingAdvice = true;
    await page.getByRole('link', { name: 'Analysis of this game' }).click();
    await page.getByText(/^The analysis is being prepared, try again in \d+ s\./).waitFor();
    const players = page.getByRole('table', { name: 'Accuracy per player' });
    await players.waitFor({ timeout: 240_000 });
    web.expecting.preparingAdvice = false;

    const server = (await web.read(page, `/v1/games/${gameId}/analysis`)) as {
      seats: SeatAnalysis[];
      decisions: Decision[];
    };
    const [seat] = server.seats;
    expect(seat.score).toBe((await web.read(page, `/v1/games/${gameId}`)).standings[0].total);
    // Lea's row: the server's figures, as the page rounds them.
    const row = players.getByRole('row', { name: /^Lea/ });
    expect(await row.getByRole('cell').allInnerTexts()).toEqual([
      `${seat.accuracy.toFixed(1)} %`,
      seat.totalLoss.toFixed(2),
      String(seat.decisions),
      String(seat.optimal),
      String(seat.inaccuracies),
      String(seat.mistakes),
      String(seat.blunders),
      String(seat.score),
    ]);
    // One row per decision, in the server's order.
    const decisions = page.getByRole('table', { name: /^Decisions/ });
    const rows = decisions.locator('tbody tr');
    expect(await rows.count()).toBe(server.decisions.length);
    expect(seat.decisions).toBe(server.decisions.length);
    await decisions.getByText(`Decisions: ${server.decisions.length} of ${server.decisions.length} shown`).waitFor();
    // Every turn has its box; every turn scored after its first roll has a hold of all five.
    expect(server.decisions.filter((d) => d.kind === 'box')).toHaveLength(13);

    // The sacrifice: its row says what was done and labels it a mistake or a blunder, as the server does.
    const sacrificed = server.decisions.findIndex((d) => d.kind === 'box' && d.box === 'fiveOfAKind');
    expect(server.decisions[sacrificed].turn).toBe(1);
    expect(['mistake', 'blunder']).toContain(server.decisions[sacrificed].label);
    const sacrificeRow = rows.nth(sacrificed);
    const cells = await sacrificeRow.getByRole('cell').allInnerTexts();
    expect(cells.slice(0, 2)).toEqual(['Lea', '1']);
    expect(cells[2]).toMatch(/^(Mistake|Blunder)$/);
    expect(cells[2].toLowerCase()).toBe(server.decisions[sacrificed].label);
    expect(cells[3]).toBe(server.decisions[sacrificed].loss.toFixed(2));
    expect(cells.slice(4, 7)).toEqual(['Box', expect.stringMatching(/^[1-6]( [1-6]){4}$/), 'Scored Five of a kind']);
    expect(cells[7]).toMatch(/^Score (?!Five of a kind)/); // the best move was another box

    // Keyboard: "Show" → mistakes and blunders leaves exactly the server's mistakes and blunders.
    await tabTo(page, page.getByLabel('Show', { exact: true }));
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('ArrowDown');
    expect(await page.getByLabel('Show', { exact: true }).inputValue()).toBe('mistakes');
    const bad = server.decisions.filter((d) => d.label === 'mistake' || d.label === 'blunder');
    await decisions.getByText(`Decisions: ${bad.length} of ${server.decisions.length} shown`).waitFor();
    expect(await rows.count()).toBe(bad.length);
    expect((await rows.locator('.move-label').allInnerTexts()).map((l) => l.toLowerCase())).toEqual(
      bad.map((d) => d.label),
    );

    // At 360 px the page does not scroll sideways; the wide tables scroll inside their own box.
    await page.setViewportSize({ width: 360, height: 800 });
    expect(
      await page.evaluate(() => {
        const root = (
          globalThis as unknown as { document: { documentElement: { scrollWidth: number; clientWidth: number } } }
        ).document.documentElement;
        return root.scrollWidth <= root.clientWidth;
      }),
    ).toBe(true);
    await page.setViewportSize({ width: 1280, height: 900 });

    // Each decision links to the replay at the position it was taken in.
    const decision = server.decisions[sacrificed];
    await page.getByRole('link', { name: `Replay decision ${sacrificed + 1}`, exact: true }).click();
    const last = (await web.read(page, `/v1/games/${gameId}`)).version;
    await page.getByText(`Version ${decision.version - 1} of ${last}`).waitFor();

    // The profile's finished games offer the analysis too.
    await page.getByRole('link', { name: 'Profile' }).click();
    await page.getByRole('link', { name: 'analysis', exact: true }).click();
    await players.getByRole('row', { name: /^Lea/ }).waitFor();
  });
  it('a finished two-seat Farkle game: the analysis by chance to win, as the server gives it', async () => {
    const page = await web.newPage();
    await register(page, 'Noa');
    const auth = { Authorization: `Bearer ${await tokenOf(page)}` };
    const http = () => web.t.http();
    const options = { target: 1000, entryThreshold: 0 }; // a two-player table solved in well under a second
    const created = (
      await http().post('/v1/games').set(auth).send({ ruleSet: 'farkle', seats: 2, hotSeats: 1, options }).expect(201)
    ).body;
    let view = (await http().post(`/v1/games/${created.id}/start`).set(auth).send({}).expect(200)).body;
    web.expecting.preparingAdvice = true;
    for (let step = 0; view.status === 'playing'; step++) {
      if (step > 2000) throw new Error('the game did not end');
      const res = await http().get(`/v1/games/${view.id}/advice?objective=winProbability`).set(auth);
      if (res.status === 503) {
        // The first ask queued the two-player table: wait for it to be solved, then ask again.
        await web.t.app.get(AdviceTablesService).whenReady({ ...farkle, ...options }, 'farkle-2p');
        continue;
      }
      expect(res.status).toBe(200);
      const advice = res.body.farkle;
      if (advice.dice === null) {
        view = (await http().post(`/v1/games/${view.id}/roll`).set(auth).send({}).expect(200)).body;
        continue;
      }
      // Every third decision against the advice: the last set-aside listed, then its other choice.
      const against = step % 3 === 0 && advice.setAsides.length > 1;
      const chosen = against ? advice.setAsides[advice.setAsides.length - 1] : advice.setAsides[0];
      const then = against && chosen.bank !== null && chosen.then === 'roll' ? 'bank' : chosen.then;
      view = (await http().post(`/v1/games/${view.id}/set-aside`).set(auth).send({ dice: chosen.dice }).expect(200))
        .body;
      view = (await http().post(`/v1/games/${view.id}/${then}`).set(auth).send({}).expect(200)).body;
    }
    web.expecting.preparingAdvice = false;

    await page.goto(`${web.base}/#/analysis/${view.id}`);
    const players = page.getByRole('table', { name: 'Accuracy per player' });
    await players.waitFor({ timeout: 120_000 });
    const server = (await web.read(page, `/v1/games/${view.id}/analysis`)) as {
      seats: SeatAnalysis[];
      decisions: Decision[];
    };
    expect(server.decisions.length).toBeGreaterThan(0);
    expect(server.decisions.every((d) => d.kind === 'setAside' && d.winChanceLoss !== null)).toBe(true);
    await page.getByText(/the chance to win it gave up, in percentage points/).waitFor();
    const first = players.getByRole('row').nth(1);
    const seat = server.seats[0];
    expect((await first.getByRole('cell').allInnerTexts()).slice(0, 2)).toEqual([
      `${seat.accuracy.toFixed(1)} %`,
      `${(100 * seat.totalLoss).toFixed(2)} pts`,
    ]);
    const rows = page.getByRole('table', { name: /^Decisions/ }).locator('tbody tr');
    expect(await rows.count()).toBe(server.decisions.length);
    // The worst decision's row: its label, its loss in points of chance, what was played.
    const worst = server.decisions.reduce((a, b, i) => (b.loss > server.decisions[a].loss ? i : a), 0);
    const d = server.decisions[worst];
    const cells = await rows.nth(worst).getByRole('cell').allInnerTexts();
    expect(cells[2].toLowerCase()).toBe(d.label);
    expect(cells[3]).toBe(`${(100 * d.winChanceLoss!).toFixed(2)} pts`);
    expect(cells[4]).toBe(`Set aside (${d.turnPoints} in the turn)`);
    expect(cells[6]).toBe(`Set aside ${d.kept!.join(', ')}, then ${d.then === 'bank' ? 'banked' : 'rolled on'}`);
  });
});
