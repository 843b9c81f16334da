/**
 * The web client's weight and speed (docs/web.md), and its screenshots:
 *   node dist/bench/web-client.js [--runs 10] [--screenshots docs/screenshots]
 * after `npm run build`. It measures
 *   - the production bundle: every file of web/dist, raw and gzip (zlib level 6, what a
 *     compressing proxy sends; the service itself sends them uncompressed);
 *   - the time to first interactive render in Debian's Chromium: a fresh browser context (empty
 *     cache) opens / on a server started for the run (embedded PGlite in a temporary directory);
 *     the figure is the page's `fairdice:interactive` mark (the React root mounted, its handlers
 *     attached), in ms since navigation start. Median and range of --runs loads, for a new visitor
 *     (the registration screen) and a returning player (the lobby, token in localStorage).
 * With --screenshots <dir> it also plays through the main screens at 360 px and 1280 px.
 */
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { chromium, type Browser, type Page } from 'playwright-core';
import { freePort } from './server-process';

const ROOT = join(__dirname, '..', '..');
const arg = (name: string) => {
  const i = process.argv.indexOf(name);
  return i < 0 ? undefined : process.argv[i + 1];
};
const RUNS = Number(arg('--runs') ?? 10);
const SHOTS = arg('--screenshots');

function bundleSizes() {
  const dist = join(ROOT, 'web', 'dist');
  const files = ['index.html', ...readdirSync(join(dist, 'assets')).map((f) => `assets/${f}`)];
  return files.map((f) => {
    const body = readFileSync(join(dist, f));
    return { file: f, raw: statSync(join(dist, f)).size, gzip: gzipSync(body, { level: 6 }).length };
  });
}

async function startServer(): Promise<{ url: string; stop: () => void }> {
  const port = await freePort();
  const child = spawn(process.execPath, [join(ROOT, 'dist', 'src', 'main.js')], {
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATABASE_URL: '',
      PGLITE_DATA_DIR: mkdtempSync(join(tmpdir(), 'fairdice-web-bench-')),
      RATE_LIMIT_ENABLED: 'false',
      LOG_LEVEL: 'warn',
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const url = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 300; i++) {
    const ok = await fetch(`${url}/health/ready`).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) return { url, stop: () => child.kill() };
    await new Promise((r) => setTimeout(r, 200));
  }
  child.kill();
  throw new Error('the server did not become ready');
}

async function firstRender(browser: Browser, url: string, token?: string): Promise<number> {
  const context = await browser.newContext();
  if (token) {
    const { token: t, id } = JSON.parse(token) as { token: string; id: string };
    const player = JSON.stringify({ id, displayName: 'Bench' });
    await context.addInitScript({
      content: `localStorage.setItem('fairdice.token', ${JSON.stringify(t)}); localStorage.setItem('fairdice.player', ${JSON.stringify(player)});`,
    });
  }
  const page = await context.newPage();
  await page.goto(url);
  const ms = await page.waitForFunction(() => performance.getEntriesByName('fairdice:interactive')[0]?.startTime);
  const value = await ms.jsonValue();
  await context.close();
  return value;
}

const stats = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return { median: s[Math.floor(s.length / 2)], min: s[0], max: s[s.length - 1] };
};

async function screenshots(browser: Browser, url: string, dir: string) {
  mkdirSync(dir, { recursive: true });
  for (const width of [360, 1280]) {
    const context = await browser.newContext({ viewport: { width, height: width === 360 ? 780 : 860 } });
    const page = await context.newPage();
    const shot = (name: string) =>
      page.screenshot({ path: join(dir, `${name}-${width}.png`), fullPage: width === 360 });
    await page.goto(url);
    await shot('register');
    await page.getByLabel('Your name').fill(width === 360 ? 'Mo' : 'Ada');
    await page.getByRole('button', { name: 'Start playing' }).click();
    await page.getByRole('heading', { name: 'New game' }).waitFor();
    await page
      .getByText(/No game is waiting|Your move/)
      .first()
      .waitFor();
    await shot('lobby');
    await page.getByLabel('Rule set').selectOption('penta');
    await page.getByLabel('Seats', { exact: true }).fill('2');
    await page.getByLabel(/Hot seats/).fill('1');
    await page.getByRole('button', { name: 'Create game' }).click();
    await page.getByRole('button', { name: 'Start the game' }).click();
    for (let turn = 0; turn < 4; turn++) await playTurn(page);
    await page.getByRole('button', { name: 'Roll', exact: true }).click();
    await page.getByRole('button', { name: /^Roll again/ }).waitFor();
    await page.keyboard.press('1');
    await page.keyboard.press('2');
    await shot('five-dice');
    await page.locator('button.box-option:not([disabled])').first().click();
    await page.getByRole('button', { name: /^Confirm/ }).waitFor();
    await shot('confirm');
    await page.getByRole('button', { name: /^Confirm/ }).click();
    // Farkle, hot seat: one roll with its scoring selections.
    await page.goto(`${url}/#/`);
    await page.getByLabel('Rule set').selectOption('farkle');
    await page.getByLabel('Seats', { exact: true }).fill('2');
    await page.getByLabel(/Hot seats/).fill('1');
    await page.getByRole('button', { name: 'Create game' }).click();
    await page.getByRole('button', { name: 'Start the game' }).click();
    await page.getByRole('button', { name: 'Roll', exact: true }).click();
    await page
      .getByText(/Select scoring dice|farkled/)
      .first()
      .waitFor();
    await shot('farkle');
    // A solo simple game to the end: result and the in-browser verification.
    await page.goto(`${url}/#/`);
    await page.getByLabel('Rule set').selectOption('simple');
    await page.getByRole('button', { name: 'Create game' }).click();
    await page.getByRole('button', { name: 'Start the game' }).click();
    for (let turn = 0; turn < 13; turn++) await playTurn(page);
    await page
      .getByTestId('verdict')
      .first()
      .getByText(/^VERIFIED/)
      .waitFor();
    await page.getByTestId('verdict').first().scrollIntoViewIfNeeded();
    await shot('verified');
    await page.goto(`${url}/#/profile`);
    await page.getByRole('table').first().waitFor();
    await shot('profile');
    // The analysis of that game (the server warms the preset tables at start; it may still be computing).
    await page.getByRole('link', { name: 'analysis', exact: true }).click();
    await page.getByRole('table', { name: 'Accuracy per player' }).waitFor({ timeout: 120_000 });
    await shot('analysis');
    // A tournament created and entered in the page: settings, commitment, entry and standings.
    await page.getByRole('link', { name: 'Tournaments' }).click();
    await page.getByLabel('Name', { exact: true }).fill(width === 360 ? 'Pocket cup' : 'Winter simple open');
    await page.getByLabel('Rule set').selectOption('simple');
    await page.getByRole('button', { name: 'Create tournament' }).click();
    await page.getByRole('button', { name: 'Register' }).click();
    await page.getByRole('table', { name: /standings/i }).waitFor();
    await shot('tournament');
    await context.close();
  }
}

async function playTurn(page: Page) {
  await page.locator('button:not([disabled])', { hasText: /^Roll$/ }).click();
  await page.getByRole('button', { name: /^Roll again/ }).waitFor();
  await page.locator('button.box-option:not([disabled])').first().click();
  const confirm = page.getByRole('button', { name: /^Confirm/ });
  await confirm.click();
  await confirm.waitFor({ state: 'detached' });
}

async function main() {
  const sizes = bundleSizes();
  const server = await startServer();
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: ['--no-sandbox'],
  });
  try {
    const registered = await fetch(`${server.url}/v1/players`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ displayName: 'Bench' }),
    }).then((r) => r.json() as Promise<{ token: string; player: { id: string } }>);
    const token = JSON.stringify({ token: registered.token, id: registered.player.id });
    await firstRender(browser, server.url); // warm the server and the OS file cache, not recorded
    const fresh: number[] = [];
    const returning: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      fresh.push(await firstRender(browser, server.url));
      returning.push(await firstRender(browser, server.url, token));
    }
    console.log('| file | raw bytes | gzip bytes |\n|---|---:|---:|');
    for (const s of sizes) console.log(`| ${s.file} | ${s.raw} | ${s.gzip} |`);
    const total = sizes.reduce((n, s) => ({ raw: n.raw + s.raw, gzip: n.gzip + s.gzip }), { raw: 0, gzip: 0 });
    console.log(`| **total** | ${total.raw} | ${total.gzip} |\n`);
    const f = stats(fresh);
    const r = stats(returning);
    console.log(`first interactive render, ${RUNS} cold loads each (ms since navigation start):`);
    console.log(
      `  new visitor (registration): median ${f.median.toFixed(0)} (min ${f.min.toFixed(0)}, max ${f.max.toFixed(0)})`,
    );
    console.log(
      `  returning player (lobby):   median ${r.median.toFixed(0)} (min ${r.min.toFixed(0)}, max ${r.max.toFixed(0)})`,
    );
    if (SHOTS) {
      await screenshots(browser, server.url, SHOTS);
      console.log(`screenshots written to ${SHOTS}`);
    }
  } finally {
    await browser.close();
    server.stop();
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
