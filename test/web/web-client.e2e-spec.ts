/**
 * The reference web client (web/, served at /) driven in Debian's Chromium through playwright-core,
 * every step through the page as a person would act: typing, tabbing, pressing keys, clicking.
 * Nothing is set up behind the page's back; the API is only read to compare what the page shows
 * with what the server holds. Runs once per CI run (describeOnce), against PostgreSQL.
 */
import { readFileSync, writeFileSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { describeOnce } from '../helpers/suites';
import {
  browserSuite,
  createGame,
  gameIdOf,
  playTurnByClicks,
  register,
  rollAgainButton,
  tabTo,
  yourTurn,
} from './browser';

/** axe-core's browser build, run in a page by the DevTools protocol (which the page's CSP does not govern). */
const AXE_SOURCE = readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');

jest.setTimeout(180_000);

const web = browserSuite();
const { expecting, problems } = web;
const newPage = (viewport?: { width: number; height: number }) => web.newPage(viewport);
const serverGame = (page: Page) => web.read(page, `/v1/games/${gameIdOf(page)}`);

/**
 * Rolls with the page's Roll button and waits for the page to show the outcome: the scoring
 * selections, or (a farkle) the Roll button usable again for the next turn of a seat this page holds.
 * It first waits for the server to have the roll: until then the page's state is the one before the
 * click, whose enabled Roll button or earlier "farkled" line would be read as this roll's outcome.
 */
async function rollFarkle(page: Page): Promise<'scores' | 'farkle'> {
  const roll = /^Roll( \d dice| six dice)?$/;
  const selections = page.getByRole('group', { name: 'Scoring selections' }).getByRole('button');
  const before = (await serverGame(page)).version as number;
  await page.getByRole('button', { name: roll }).click();
  for (let i = 0; i < 300 && ((await serverGame(page)).version as number) <= before; i++)
    await page.waitForTimeout(100);
  await Promise.race([
    selections.first().waitFor(),
    page.getByRole('button', { name: roll, disabled: false }).waitFor(),
  ]);
  return (await selections.first().isVisible()) ? 'scores' : 'farkle';
}
const diceNames = async (page: Page) =>
  Promise.all(
    (await page.getByRole('group', { name: 'Dice' }).getByRole('button').all()).map((d) =>
      d.getAttribute('aria-label'),
    ),
  );

describeOnce('the web client (Chromium)', () => {
  afterEach(() => {
    // No console error, no page error, no failed request, nothing fetched beyond the service.
    expect(problems.splice(0)).toEqual([]);
  });

  it('is served at / without shadowing the API; unknown paths stay problems', async () => {
    const page = await web.t.http().get('/').expect(200);
    expect(page.headers['content-type']).toMatch(/^text\/html/);
    expect(page.headers['content-security-policy']).toContain("script-src 'self'");
    const script = /src="(\/assets\/app-[^"]+\.js)"/.exec(page.text)![1];
    const asset = await web.t.http().get(script).expect(200);
    expect(asset.headers['content-type']).toMatch(/javascript/);
    expect(asset.headers['cache-control']).toContain('immutable');
    await web.t.http().get('/assets/nope.js').expect(404);
    const unknown = await web.t.http().get('/no-such-page').expect(404);
    expect(unknown.body.code).toBe('ROUTE_NOT_FOUND');
    await web.t.http().get('/health').expect(200);
    await web.t.http().get('/verify').expect(200);
  });

  it('shows an API refusal as a sentence, not as its code, and stores nothing', async () => {
    const page = await newPage({ width: 360, height: 780 });
    await page.getByLabel('Your name').fill('   ');
    expecting.refusing = true;
    await page.getByRole('button', { name: 'Start playing' }).click();
    const alert = page.getByRole('alert');
    await alert.waitFor();
    expecting.refusing = false;
    const text = await alert.innerText();
    expect(text).toMatch(/^[A-Z][^]*[.!?]$/);
    expect(text).not.toMatch(/VALIDATION_FAILED|[A-Z]+_[A-Z]+/);
    expect(
      await page.evaluate(() => Object.keys((globalThis as unknown as { localStorage: object }).localStorage)),
    ).toEqual([]);
    // Nothing was stored: the page still asks for a name.
    await page.getByLabel('Your name').waitFor();
  });

  it('a solo `simple` game, keyboard only, to the end; a reload mid-turn resumes; its total is the server’s; it verifies in the page, and a tampered bundle fails', async () => {
    const page = await newPage();
    await tabTo(page, page.getByLabel('Your name'));
    await page.keyboard.type('Kim');
    await page.keyboard.press('Enter');
    await tabTo(page, page.getByLabel('Rule set'));
    await page.keyboard.press('s'); // the first option starting with S: Simple
    expect(await page.getByLabel('Rule set').inputValue()).toBe('simple');
    // A solo game: the form says it starts at once, and it does (no separate Start).
    await tabTo(page, page.getByRole('button', { name: 'Create and start the game' }));
    await page.keyboard.press('Enter');
    await yourTurn(page).waitFor();
    expect((await serverGame(page)).status).toBe('playing');
    expect(await page.getByRole('button', { name: /^Start/ }).count()).toBe(0);
    // The commitment is shown from the start, and equals the server's.
    const commitment = await page.getByTestId('commitment').innerText();
    expect(commitment).toBe((await serverGame(page)).commitment);

    for (let turn = 0; turn < 13; turn++) {
      // The new turn is on the page (the last score has come back): then R rolls.
      await page.locator('button:not([disabled])', { hasText: /^Roll$/ }).waitFor();
      await page.keyboard.press('r');
      await rollAgainButton(page, 2).waitFor();
      await page.keyboard.press('1'); // hold die 1
      await page.getByRole('button', { name: /^Die 1: \d, held$/ }).waitFor();
      if (turn === 4) {
        // Mid-turn, the tab is reloaded: the same dice, the same rolls left.
        const before = await diceNames(page);
        await page.reload();
        await rollAgainButton(page, 2).waitFor();
        expect(await diceNames(page)).toEqual(before.map((n) => n!.replace(', held', '')));
        await page.keyboard.press('1');
      }
      await page.keyboard.press(' ');
      await rollAgainButton(page, 1).waitFor();
      // Score: Tab to the first box the page offers, Enter, then Enter on the confirm step.
      await tabTo(page, page.locator('button.box-option:not([disabled])').first());
      await page.keyboard.press('Enter');
      const confirm = page.getByRole('button', { name: /^Confirm: score/ });
      await confirm.waitFor();
      expect(await confirm.evaluate((el) => el === el.ownerDocument.activeElement)).toBe(true);
      await page.keyboard.press('Enter');
      await confirm.waitFor({ state: 'detached' });
    }
    await page.getByRole('heading', { name: 'Result' }).waitFor();
    const shown = Number(await page.getByTestId('sheet-total').innerText());
    const server = await serverGame(page);
    expect(server.status).toBe('finished');
    expect(shown).toBe(server.standings[0].total);
    await expect(page.getByText(`Final score: ${server.standings[0].total}.`).innerText()).resolves.toBeTruthy();

    // The page verified the audit bundle itself, against the commitment it noted at the start.
    const verdict = page.getByTestId('verdict').first();
    await verdict.getByText(/^VERIFIED/).waitFor();
    // The bundle offered for download, tampered (one die changed), fails in the same page.
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('link', { name: 'Download the audit bundle' }).click(),
    ]);
    const dir = mkdtempSync(join(tmpdir(), 'fairdice-web-'));
    const file = join(dir, 'bundle.json');
    await download.saveAs(file);
    const bundle = JSON.parse(readFileSync(file, 'utf8'));
    expect(bundle.gameId).toBe(gameIdOf(page));
    const rolled = bundle.events.find((e: { type: string }) => e.type === 'rolled');
    rolled.data.dice[0] = (rolled.data.dice[0] % 6) + 1;
    const tampered = join(dir, 'tampered.json');
    writeFileSync(tampered, JSON.stringify(bundle));
    await page.getByLabel('Verify a bundle file').setInputFiles(tampered);
    await page
      .getByTestId('verdict')
      .nth(1)
      .getByText(/^FAILED/)
      .waitFor();
    // The untampered file passes the same way.
    await page.getByLabel('Verify a bundle file').setInputFiles(file);
    await page
      .getByTestId('verdict')
      .nth(1)
      .getByText(/^VERIFIED/)
      .waitFor();

    // The profile counts the game (solo best = the total), and its replay steps through versions.
    await page.getByRole('link', { name: 'Profile' }).click();
    const row = page.getByRole('row', { name: /^Simple \(five dice\)/ });
    await row.waitFor();
    expect((await row.getByRole('cell').allInnerTexts()).slice(0, 2)).toEqual(['1', String(server.standings[0].total)]);
    await page.getByRole('link', { name: 'replay' }).click();
    await page.getByText(`Version 1 of ${server.version}`).waitFor();
    for (let v = 2; v <= 4; v++) {
      await page.getByRole('button', { name: 'Next move' }).click();
      await page.getByText(`Version ${v} of ${server.version}`).waitFor();
    }
  });

  it('Hint (H) in a game that allows advice shows the best boxes with expected final scores; a game that forbids it says so', async () => {
    const page = await newPage();
    await register(page, 'Hana');
    await createGame(page, { ruleSet: 'simple' });
    await yourTurn(page).waitFor();
    await page.getByRole('button', { name: 'Roll', exact: true }).click();
    await rollAgainButton(page, 2).waitFor();
    expecting.preparingAdvice = true;
    await page.keyboard.press('h');
    // The table may still be computing: the page says so and asks again by itself.
    await page.getByText(/^Best move: /).waitFor({ timeout: 180_000 });
    expecting.preparingAdvice = false;
    const advice = (await web.read(page, `/v1/games/${gameIdOf(page)}/advice`)).fiveDice;
    expect(await page.getByText(/^Best move: /).innerText()).toContain(advice.best.expected.toFixed(1));
    const holds = page.getByRole('list', { name: 'Best holds' }).getByRole('listitem');
    expect(await holds.first().innerText()).toBe(
      `Keep ${advice.holds[0].kept.join(', ') || 'nothing'}: ${advice.holds[0].expected.toFixed(1)}`,
    );
    expect(await page.getByRole('list', { name: 'Best boxes' }).getByRole('listitem').count()).toBeGreaterThan(0);

    // A game created with advice unchecked: no Hint button, a sentence instead.
    await page.getByRole('link', { name: 'Games', exact: true }).click();
    await page.getByRole('heading', { name: 'New game' }).waitFor();
    await page.getByLabel(/Allow advice/).uncheck();
    await createGame(page, { ruleSet: 'simple' });
    await yourTurn(page).waitFor();
    await page.getByText('This game does not allow advice, so there is no hint.').waitFor();
    expect(await page.getByRole('button', { name: /^Hint/ }).count()).toBe(0);
    expect((await serverGame(page)).advice).toBe('forbidden');
  });

  it('a `penta` game against a standard computer seat: after my turn, the computer’s move arrives and it is my turn again', async () => {
    const page = await newPage();
    await register(page, 'Cai');
    await page.getByLabel('Seats', { exact: true }).fill('2');
    await page.getByLabel('Computer opponents').fill('1');
    expect(await page.getByLabel('Computer level').inputValue()).toBe('standard');
    expect(
      await page
        .getByLabel('Computer level')
        .locator('option')
        .evaluateAll((os) => os.map((o) => o.getAttribute('value'))),
    ).toEqual(['beginner', 'standard', 'optimal', 'expert']);
    await createGame(page, { ruleSet: 'penta' });
    await yourTurn(page).waitFor({ timeout: 60_000 });
    for (let turn = 1; turn <= 2; turn++) {
      await playTurnByClicks(page);
      // The computer plays its turn on the server; the page learns of it from the stream, and my
      // next turn begins: the plain Roll button is usable only at the start of a turn of mine.
      // (Not "Your turn." going away and back: the computer can move before the page draws the gap.)
      await page.getByRole('button', { name: 'Roll', exact: true, disabled: false }).waitFor({ timeout: 60_000 });
    }
    await yourTurn(page).waitFor();
    const server = await serverGame(page);
    const computerSheet = server.fiveDice.sheets.find((s: { seat: number }) => s.seat === 1);
    expect(computerSheet.boxes.filter((b: { points: number | null }) => b.points !== null)).toHaveLength(2);
    // Its sheet on the page shows the same two filled boxes.
    await page
      .getByRole('group', { name: /^Players/ })
      .getByRole('button')
      .nth(1)
      .click();
    await page
      .getByRole('caption')
      .filter({ hasText: /score sheet/ })
      .filter({ hasNotText: 'Cai' })
      .waitFor();
    expect(await page.getByLabel(/points, filled$/).count()).toBe(2);
  });

  it('a 2-player `penta` game from two browsers: each sees the other join, roll and score live', async () => {
    const ada = await newPage();
    await register(ada, 'Ada');
    await createGame(ada, { ruleSet: 'penta', seats: 2 });
    const link = await ada.locator('a.join-link').innerText();
    const bob = await newPage({ width: 360, height: 800 });
    await register(bob, 'Bob');
    await bob.goto(link);
    await bob.getByRole('button', { name: 'Join this game' }).click();
    // Ada's page learns of Bob from the stream, without a reload.
    await ada.getByText('Seat 2: Bob').waitFor();
    await ada.getByRole('button', { name: 'Start the game' }).click();
    await yourTurn(ada).waitFor();
    await bob.getByText('Waiting for Ada.').waitFor();
    // Bob leaves the game page; his inbox lists the game once it is his move, and takes him back.
    await bob.getByRole('link', { name: 'Games' }).click();
    await bob.getByText('No game is waiting for you.').waitFor();
    for (let round = 0; round < 2; round++) {
      await playTurnByClicks(ada);
      if (round === 0) {
        await bob
          .getByRole('region', { name: 'Your move' })
          .getByRole('link', { name: /^Penta \(five dice\) · 2 seats/ })
          .click({ timeout: 25_000 }); // the lobby follows Bob's event stream
        await bob.getByText('Ada scored', { exact: false }).first().waitFor();
      }
      await bob
        .getByText(/^Ada scored \d+ in /)
        .first()
        .waitFor();
      await yourTurn(bob).waitFor();
      await playTurnByClicks(bob);
      await ada
        .getByText(/^Bob scored \d+ in /)
        .first()
        .waitFor();
      await yourTurn(ada).waitFor();
    }
    // Bob's connection drops while Ada plays a turn; when it is back, his page catches up by itself.
    expecting.droppingNetwork = true;
    await bob.context().setOffline(true);
    web.t.app.getHttpServer().closeAllConnections(); // the streams drop
    await bob.getByText('Reconnecting…').waitFor();
    await playTurnByClicks(ada);
    await ada.getByText('Waiting for Bob.').waitFor();
    await bob.context().setOffline(false);
    await bob.getByText('Live', { exact: true }).waitFor();
    await yourTurn(bob).waitFor();
    expecting.droppingNetwork = false;
    await playTurnByClicks(bob);
    await yourTurn(ada).waitFor();
    // Ada's roll appears on Bob's page while her turn is on.
    await ada.getByRole('button', { name: 'Roll', exact: true }).click();
    await bob
      .getByText(/^Ada rolled [1-6 ]+\.$/)
      .first()
      .waitFor();
    // The chips carry the server's totals.
    const server = await serverGame(ada);
    for (const sheet of server.fiveDice.sheets)
      await ada
        .getByRole('button', { name: new RegExp(`^${sheet.seat === 0 ? 'Ada' : 'Bob'} ${sheet.total}`) })
        .waitFor();
  });

  it('an open game: a joiner leaves and the seat opens again live; the creator cancels and the joiner sees it; a player quits a started game', async () => {
    const ada = await newPage();
    await register(ada, 'Ada');
    await createGame(ada, { ruleSet: 'penta', seats: 2 });
    const link = await ada.locator('a.join-link').innerText();
    const bob = await newPage();
    await register(bob, 'Bob');
    await bob.goto(link);
    await bob.getByRole('button', { name: 'Join this game' }).click();
    await ada.getByText('Seat 2: Bob').waitFor();
    await bob.getByRole('button', { name: 'Leave', exact: true }).click();
    await ada.getByText('Seat 2: open').waitFor();
    expect((await serverGame(ada)).seats[1].playerId).toBeNull();
    await bob.getByRole('button', { name: 'Join this game' }).click();
    await ada.getByText('Seat 2: Bob').waitFor();
    await ada.getByRole('button', { name: 'Cancel the game' }).click();
    await bob.getByText('The creator cancelled the game.').waitFor();
    await bob.getByText('· abandoned').waitFor();
    expect((await serverGame(bob)).status).toBe('abandoned');

    // Quitting a started game: the confirm is behind "Leave this game"; the feed and the server agree.
    await ada.getByRole('link', { name: 'Games', exact: true }).click();
    await ada.getByRole('heading', { name: 'New game' }).waitFor();
    await createGame(ada, { ruleSet: 'simple' });
    await yourTurn(ada).waitFor();
    await ada.getByText('Leave this game').click();
    await ada.getByRole('button', { name: 'Quit the game' }).click();
    await ada.getByText('Ada quit.').waitFor();
    await ada.getByText('· finished').waitFor();
    const server = await serverGame(ada);
    expect(server.status).toBe('finished');
    expect(server.standings[0].quit).toBe(true);
    await ada.getByText(/^1st: Ada · \d+ \(quit\)$/).waitFor();
  });

  it('a hot-seat game: named on the create form and started at once; one screen, the device passes, the chips switch the sheet shown', async () => {
    const page = await newPage({ width: 360, height: 800 });
    await register(page, 'Host');
    await createGame(page, { ruleSet: 'simple', seats: 2, hotSeats: 1, hotSeatNames: ['Gus'] });
    const server = await serverGame(page);
    expect(server.status).toBe('playing');
    expect(server.seats.map((s: { displayName: string; hotSeat: boolean }) => [s.displayName, s.hotSeat])).toEqual([
      ['Host', false],
      ['Gus', true],
    ]);
    await page.getByText("Host's turn: pass the device to Host.").waitFor();
    await playTurnByClicks(page);
    await page.getByText("Gus's turn: pass the device to Gus.").waitFor();
    await page.getByRole('caption').filter({ hasText: 'Gus’s score sheet' }).waitFor();
    await playTurnByClicks(page);
    // The turn has passed back (a new turn shows its own player's sheet): now choose the other one.
    await page.getByText("Host's turn: pass the device to Host.").waitFor();
    await page.getByRole('button', { name: /^Gus \d/ }).click();
    await page.getByText('Gus’s score sheet').waitFor();
    await page.getByRole('button', { name: /^Host \d/ }).click();
    await page.getByText('Host’s score sheet').waitFor();
  });

  it('Farkle: select scoring dice with what they score, set aside, roll on until hot dice or a farkle', async () => {
    const page = await newPage();
    await register(page, 'Fay');
    await createGame(page, { ruleSet: 'farkle', seats: 2, hotSeats: 1 });
    // A hot seat left unnamed on the form plays under its placeholder name.
    expect((await serverGame(page)).seats[1].displayName).toBe('Player 2');
    await page
      .getByText(/^Roll-off to start/)
      .first()
      .waitFor();
    let seen: 'hot dice' | 'farkle' | null = null;
    for (let step = 0; step < 60 && !seen; step++) {
      // Either the roll scores (selections offered) or it is a farkle and the turn passes.
      if ((await rollFarkle(page)) === 'farkle') {
        seen = 'farkle';
        break;
      }
      // Select the best selection's dice by tapping them; the page says what they score.
      const best = (await serverGame(page)).farkle.bestSelection as { dice: number[]; points: number };
      for (const i of best.dice) await page.getByRole('button', { name: new RegExp(`^Die ${i + 1}: `) }).click();
      await page.getByText(`The selection scores ${best.points}.`).waitFor();
      const setAside = page.getByRole('button', { name: /^Set aside selected/ });
      await setAside.click();
      await setAside.waitFor({ state: 'detached' });
      if (await page.getByText(/^Hot dice!/).isVisible()) seen = 'hot dice';
    }
    expect(seen).not.toBeNull();
  });

  it('Farkle Hint (H): the best set-aside and then bank or roll, valued in expected turns, as the service advises', async () => {
    const page = await newPage();
    await register(page, 'Hugo');
    await createGame(page, { ruleSet: 'farkle' });
    await yourTurn(page).waitFor();
    const selections = page.getByRole('group', { name: 'Scoring selections' }).getByRole('button');
    // Roll until a roll scores (a farkle passes the turn back to this solo player).
    for (let step = 0; step < 20 && (await rollFarkle(page)) === 'farkle'; step++);
    await selections.first().waitFor();
    expecting.preparingAdvice = true;
    await page.keyboard.press('h');
    const hint = page.getByText(/^Best move: /);
    await hint.waitFor({ timeout: 180_000 });
    expecting.preparingAdvice = false;
    const askServer = async () => (await web.read(page, `/v1/games/${gameIdOf(page)}/advice`)).farkle;
    const advice = await askServer();
    const best = advice.setAsides[0];
    expect(await hint.innerText()).toBe(
      `Best move: set aside ${best.faces.join(' ')} (${best.points}), then ${best.then === 'bank' ? 'bank' : 'roll on'} (${advice.best.value.toFixed(1)} expected turns to the target)`,
    );

    // Follow the hint: set that selection aside; now the hint weighs banking against rolling on.
    await page.getByRole('button', { name: `${best.faces.join(' ')} → ${best.points}: set these aside` }).click();
    await page.getByRole('button', { name: /^Set aside selected/ }).waitFor({ state: 'detached' });
    await page.keyboard.press('h');
    const bankOrRoll = page.getByRole('list', { name: 'Bank or roll' }).getByRole('listitem');
    await bankOrRoll.first().waitFor();
    const after = await askServer();
    const value = (x: number | null) => (x === null ? 'not allowed' : `${x.toFixed(1)} expected turns to the target`);
    expect(await bankOrRoll.allInnerTexts()).toEqual([`Bank: ${value(after.bank)}`, `Roll: ${value(after.roll)}`]);
    expect(await hint.innerText()).toBe(`Best move: ${after.best.action} (${value(after.best.value)})`);
  });

  /**
   * axe-core's serious and critical findings on the page as it is now, "rule: element" each. The
   * label-in-name rule (a control's accessible name contains its visible text, WCAG 2.5.3) is not
   * on by default and is turned on.
   */
  async function axeFindings(page: Page): Promise<string[]> {
    await page.evaluate(AXE_SOURCE);
    return page.evaluate(async () => {
      type Finding = { id: string; impact: string | null; nodes: Array<{ target: string[] }> };
      const axe = (
        globalThis as unknown as { axe: { run(c: unknown, o: unknown): Promise<{ violations: Finding[] }> } }
      ).axe;
      const { violations } = await axe.run((globalThis as unknown as { document: unknown }).document, {
        rules: { 'label-content-name-mismatch': { enabled: true } },
      });
      return violations
        .filter((v) => v.impact === 'serious' || v.impact === 'critical')
        .flatMap((v) => v.nodes.map((n) => `${v.id}: ${n.target.join(' ')}`));
    });
  }

  it('moves go over the WebSocket command channel, one frame each; with the channel down they go over REST, applied once', async () => {
    /** The moves a page sends: frames on /v1/ws, and REST requests. */
    const watchMoves = (page: Page) => {
      const seen = { frames: [] as string[], rest: [] as string[] };
      page.on('websocket', (ws) => {
        if (!ws.url().endsWith('/v1/ws')) return;
        ws.on('framesent', (frame) => {
          const sent = JSON.parse(String(frame.payload)) as { type: string; command?: string };
          if (sent.type === 'move') seen.frames.push(sent.command!);
        });
      });
      page.on('request', (r) => {
        const move = /\/v1\/games\/[0-9a-f-]{36}\/(roll|score)$/.exec(r.url());
        if (move && r.method() === 'POST') seen.rest.push(move[1]);
      });
      return seen;
    };
    const oneTurn = async (page: Page) => {
      await register(page, 'Wes');
      await createGame(page, { ruleSet: 'simple' });
      await yourTurn(page).waitFor();
      await playTurnByClicks(page);
      // The next turn is on the page once the score has come back.
      await page.locator('button:not([disabled])', { hasText: /^Roll$/ }).waitFor();
      const game = await serverGame(page);
      const scored = game.fiveDice.sheets[0].boxes.filter((b: { points: number | null }) => b.points !== null);
      return { version: game.version as number, scored: scored.length };
    };

    const page = await newPage();
    const viaChannel = watchMoves(page);
    const played = await oneTurn(page);
    expect(viaChannel).toEqual({ frames: ['roll', 'score'], rest: [] });
    expect(played.scored).toBe(1);

    // The channel is down (every connection is closed at once): the same turn goes over REST.
    const down = await newPage();
    await down.context().routeWebSocket(/\/v1\/ws$/, (ws) => ws.close({ code: 1011, reason: 'down' }));
    const viaRest = watchMoves(down);
    const playedDown = await oneTurn(down);
    expect(viaRest).toEqual({ frames: [], rest: ['roll', 'score'] });
    expect(playedDown).toEqual(played);
  });

  it('accessibility: the lobby has one level-one heading; axe finds nothing serious in the lobby, a five-dice game or a Farkle game', async () => {
    const page = await newPage();
    await register(page, 'Axel');
    expect(await page.getByRole('heading', { level: 1 }).allInnerTexts()).toEqual(['Lobby']);
    expect(await axeFindings(page)).toEqual([]);

    await createGame(page, { ruleSet: 'penta' });
    await yourTurn(page).waitFor();
    await page.keyboard.press('r');
    await rollAgainButton(page).waitFor();
    expect(await axeFindings(page)).toEqual([]);

    await page.getByRole('link', { name: 'Games', exact: true }).click();
    await page.getByRole('heading', { name: 'New game' }).waitFor();
    await createGame(page, { ruleSet: 'farkle' });
    for (let step = 0; step < 20 && (await rollFarkle(page)) === 'farkle'; step++);
    await page.getByRole('group', { name: 'Scoring selections' }).getByRole('button').first().waitFor();
    expect(await axeFindings(page)).toEqual([]);
  });

  it('S moves the focus to the score sheet and the arrows move it between the boxes that score: a box scored in three keys, not 72 Tabs', async () => {
    const page = await newPage();
    await register(page, 'Sam');
    await createGame(page, { ruleSet: 'simple' });
    await yourTurn(page).waitFor();
    await page.keyboard.press('r');
    await rollAgainButton(page).waitFor();
    const focused = () =>
      page.evaluate(
        () =>
          (
            globalThis as unknown as { document: { activeElement: { getAttribute(n: string): string | null } | null } }
          ).document.activeElement?.getAttribute('aria-label') ?? null,
      );
    const scorable = await page
      .locator('table.sheet button.box-option:not([disabled])')
      .evaluateAll((boxes) => boxes.map((b) => b.getAttribute('aria-label')));
    expect(scorable.length).toBeGreaterThan(2);
    await page.keyboard.press('s');
    expect(await focused()).toBe(scorable[0]);
    await page.keyboard.press('ArrowDown');
    expect(await focused()).toBe(scorable[1]);
    await page.keyboard.press('ArrowUp');
    await page.keyboard.press('ArrowUp');
    expect(await focused()).toBe(scorable[scorable.length - 1]); // wraps around
    await page.keyboard.press('s');
    const box = scorable[0]!.split(':')[0];
    // S, Enter (the confirm step takes the focus), Enter: the first box that scores is scored.
    await page.keyboard.press('Enter');
    await page.getByRole('button', { name: `Confirm: score ${box}` }).waitFor();
    await page.keyboard.press('Enter');
    await page.getByLabel(new RegExp(`^${box}: \\d+ points, filled$`)).waitFor();
    const sheet = (await serverGame(page)).fiveDice.sheets[0].boxes as Array<{ points: number | null }>;
    expect(sheet.filter((b) => b.points !== null)).toHaveLength(1);
  });
});
