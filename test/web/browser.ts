/**
 * What the browser tests of the web client share: the application listening on a port, Debian's
 * Chromium through playwright-core, pages that record every console error or warning, page error,
 * failed request and request beyond the service (none is expected), and steps a person takes
 * through the page. Nothing here acts behind the page's back; `read` only reads the API to compare
 * what the page shows with what the server holds.
 */
import type { AddressInfo } from 'node:net';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { chromium } from 'playwright-core';
import { WAIT_FOR_POOL_ENV, createTestApp, type TestApp } from '../helpers/app';
import { ensureBuilt } from '../helpers/build';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

export interface BrowserSuite {
  /** The application under test (set in beforeAll). */
  readonly t: TestApp;
  /** Its address, http://127.0.0.1:<port> (set in beforeAll). */
  readonly base: string;
  /** Console errors and warnings, page errors and failed requests of every page: none is expected. */
  readonly problems: string[];
  /**
   * Noise a test provokes on purpose, let through while set: Chromium logs every failed HTTP
   * response and dropped connection itself, and a page cannot prevent it.
   */
  readonly expecting: {
    /** The network is dropped: "Failed to load resource: net::…". */
    droppingNetwork: boolean;
    /** An API refusal: "the server responded with a status of 4xx". */
    refusing: boolean;
    /** An advice table still being computed: 503 (retried by the page), and a slow attempt given up by the SDK. */
    preparingAdvice: boolean;
  };
  /** A new browser context and page at `/`. */
  newPage(viewport?: { width: number; height: number }): Promise<Page>;
  /** Another tab of `page`'s browser (the same player), opened at `href` (e.g. `#/game/<id>`). */
  newTab(page: Page, href: string): Promise<Page>;
  /** GET `path` with the token the page holds; expects 200 and gives the body. */
  read(page: Page, path: string): Promise<any>;
}

/** Starts the application and Chromium before the file's tests, and closes both after them. */
export function browserSuite(options: { env?: Record<string, string> } = {}): BrowserSuite {
  let browser: Browser;
  const contexts: BrowserContext[] = [];
  const suite = {
    t: undefined as unknown as TestApp,
    base: '',
    problems: [] as string[],
    expecting: { droppingNetwork: false, refusing: false, preparingAdvice: false },
    async newPage(viewport = { width: 1280, height: 900 }): Promise<Page> {
      const context = await browser.newContext({ viewport });
      contexts.push(context);
      const page = watched(await context.newPage());
      await page.goto(`${suite.base}/`);
      return page;
    },
    async newTab(page: Page, href: string): Promise<Page> {
      const tab = watched(await page.context().newPage());
      await tab.goto(`${suite.base}/${href}`);
      return tab;
    },
    async read(page: Page, path: string) {
      const res = await suite.t
        .http()
        .get(path)
        .set('authorization', `Bearer ${await tokenOf(page)}`)
        .expect(200);
      return res.body;
    },
  };
  /** Records the page's problems in `suite.problems`. */
  function watched(page: Page): Page {
    const { problems, expecting, base } = suite;
    page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
    page.on('console', (m) => {
      const text = m.text();
      if (expecting.droppingNetwork && /^Failed to load resource: net::ERR_/.test(text)) return;
      if (expecting.refusing && /^Failed to load resource: the server responded with a status of 4\d\d/.test(text))
        return;
      if (expecting.preparingAdvice && /^Failed to load resource: the server responded with a status of 503/.test(text))
        return;
      if (m.type() === 'error' || m.type() === 'warning') problems.push(`console ${m.type()}: ${text}`);
    });
    page.on('requestfailed', (r) => {
      // A request cancelled by the page itself, by a navigation or by a reload (a stream, a lobby
      // listing still loading when the test moves on) is net::ERR_ABORTED: not a failure of the page.
      // Refused, reset or timed-out requests are other errors and still count.
      if (r.failure()?.errorText === 'net::ERR_ABORTED') return;
      // While advice is being prepared, the SDK may give up a slow attempt and ask again.
      if (expecting.preparingAdvice && /\/advice$/.test(r.url())) return;
      if (!/\/stream|\/v1\/players\/me\/events/.test(r.url()))
        problems.push(`request failed: ${r.url()} ${r.failure()?.errorText}`);
    });
    page.on('request', (r) => {
      if (!r.url().startsWith(base) && !r.url().startsWith('blob:') && !r.url().startsWith('data:'))
        problems.push(`request beyond the service: ${r.url()}`);
    });
    return page;
  }
  beforeAll(async () => {
    ensureBuilt();
    // Chromium and two Jest workers share two cores in CI: the pages wait for the database.
    suite.t = await createTestApp({
      listen: true,
      env: { ...WAIT_FOR_POOL_ENV, ...options.env },
    });
    suite.base = `http://127.0.0.1:${(suite.t.app.getHttpServer().address() as AddressInfo).port}`;
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });
  });
  afterAll(async () => {
    for (const c of contexts) await c.close().catch(() => undefined);
    await browser?.close();
    await suite.t?.close();
  });
  return suite;
}

/** Presses Tab until `target` has the focus (keyboard only). */
export async function tabTo(page: Page, target: Locator): Promise<void> {
  for (let i = 0; i < 80; i++) {
    if (await target.evaluate((el) => el === el.ownerDocument.activeElement)) return;
    await page.keyboard.press('Tab');
  }
  throw new Error(`Tab never reached ${target.toString()}`);
}

export async function register(page: Page, name: string): Promise<void> {
  await page.getByLabel('Your name').fill(name);
  await page.getByRole('button', { name: 'Start playing' }).click();
  await page.getByRole('heading', { name: 'New game' }).waitFor();
}

/** The create form's button: it says so when every seat is the creator's or the computer's. */
export const createButton = (page: Page) => page.getByRole('button', { name: /^Create (game|and start the game)$/ });

/**
 * Creates a game through the lobby's form. A game whose seats are all this page's (hot seats) or the
 * computer's starts at once: this waits for it to be in play; any other waits for its open seats.
 */
export async function createGame(
  page: Page,
  options: { ruleSet: string; seats?: number; hotSeats?: number; hotSeatNames?: string[] },
) {
  await page.getByLabel('Rule set').selectOption(options.ruleSet);
  if (options.seats) await page.getByLabel('Seats', { exact: true }).fill(String(options.seats));
  if (options.hotSeats) await page.getByLabel(/^Hot seats/).fill(String(options.hotSeats));
  for (const [i, name] of (options.hotSeatNames ?? []).entries())
    await page.getByLabel(`Name of hot seat ${i + 1} (seat ${i + 2})`).fill(name);
  const startsAtOnce = (await createButton(page).innerText()) === 'Create and start the game';
  await createButton(page).click();
  await page.getByRole('heading', { level: 1, name: startsAtOnce ? /· in play$/ : /· waiting for players$/ }).waitFor();
}

export const gameIdOf = (page: Page) => /#\/(?:game|analysis|replay)\/([0-9a-f-]{36})/.exec(page.url())![1];
export const tokenOf = (page: Page) =>
  page.evaluate(() =>
    (globalThis as unknown as { localStorage: { getItem(k: string): string } }).localStorage.getItem('fairdice.token'),
  );
export const yourTurn = (page: Page) => page.getByText('Your turn.', { exact: true });

/**
 * The five-dice roll button once it can be pressed (`left` rolls left, when given). The new dice can
 * be on the page before the command's own answer (the game stream is quicker), and until that answer
 * the button is disabled and R or Space does nothing.
 */
export const rollAgainButton = (page: Page, left?: number) =>
  page.getByRole('button', {
    name: left === undefined ? /^Roll again/ : new RegExp(`^Roll again \\(${left} left\\)`),
    disabled: false,
  });

/** One five-dice turn with the mouse: roll, score the first box the page offers, confirm. */
export async function playTurnByClicks(page: Page): Promise<void> {
  await page.getByRole('button', { name: 'Roll', exact: true }).click();
  await rollAgainButton(page).waitFor();
  await page.locator('button.box-option:not([disabled])').first().click();
  await page.getByRole('button', { name: /^Confirm: score/ }).click();
}
