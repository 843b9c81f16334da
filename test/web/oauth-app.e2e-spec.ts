/**
 * OAuth for third-party apps end to end (docs/oauth.md, issue 26 "Done when"): the example app of
 * examples/oauth-app (bundled by esbuild, run by node on its own port) sends Chromium to the
 * consent page of the web client; the visitor plays as a guest there, approves, and the app —
 * with the access token of a game:create + game:play grant, through the SDK — creates a solo game
 * and rolls. Denying returns access_denied to the app; a redirect-URI mismatch is an error on the
 * consent page and never leaves it.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build } from 'esbuild';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { chromium } from 'playwright-core';
import type { Pool } from 'pg';
import { PG_POOL } from '../../src/database/pg-pool';
import { WAIT_FOR_POOL_ENV, createTestApp, registerPlayer, type TestApp } from '../helpers/app';
import { ensureBuilt, ROOT } from '../helpers/build';
import { describeOnce } from '../helpers/suites';
import { tokenOf } from './browser';

jest.setTimeout(120_000);

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const server = createServer();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      server.close(() => resolve(port));
    });
  });

/** Starts the bundled example app; resolves once it says it listens (its output is kept for failures). */
function startApp(bundle: string, env: Record<string, string>): Promise<{ child: ChildProcess; output: () => string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [bundle], {
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    const onData = (chunk: Buffer) => {
      out += chunk.toString();
      if (out.includes('Dice Roller listening on')) resolve({ child, output: () => out });
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.on('error', reject);
    child.on('exit', (code) => reject(new Error(`the example app exited ${code}:\n${out}`)));
  });
}

describeOnce('OAuth: the example app connects through the consent page (Chromium)', () => {
  let t: TestApp;
  let base: string;
  let appBase: string;
  let clientId: string;
  let app: { child: ChildProcess; output: () => string };
  let browser: Browser;
  let dir: string;
  const contexts: BrowserContext[] = [];
  const problems: string[] = [];

  beforeAll(async () => {
    ensureBuilt();
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    t = await createTestApp({
      env: { JOBS_ENABLED: 'false', OAUTH_ISSUER: base, ...WAIT_FOR_POOL_ENV },
    });
    await t.app.listen({ port, host: '127.0.0.1' });

    // The app's owner registers it, with the app's callback as its one redirect URI.
    const appPort = await freePort();
    appBase = `http://127.0.0.1:${appPort}`;
    const owner = await registerPlayer(t, 'App Owner');
    const registered = await t
      .http()
      .post('/v1/oauth/clients')
      .set(owner.auth)
      .send({ name: 'Dice Roller', redirectUris: [`${appBase}/callback`] })
      .expect(201);
    clientId = registered.body.clientId;

    dir = mkdtempSync(join(tmpdir(), 'fairdice-oauth-app-'));
    const bundle = join(dir, 'oauth-app.js');
    await build({
      entryPoints: [join(ROOT, 'examples', 'oauth-app', 'server.ts')],
      bundle: true,
      platform: 'node',
      target: 'node20',
      outfile: bundle,
      logLevel: 'silent',
    });
    app = await startApp(bundle, { FAIRDICE_URL: base, CLIENT_ID: clientId, PORT: String(appPort) });
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });
  });
  afterAll(async () => {
    for (const c of contexts) await c.close().catch(() => undefined);
    await browser?.close();
    app?.child.kill();
    await t?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });
  afterEach(() => {
    expect(problems).toEqual([]);
    problems.length = 0;
  });

  async function newPage(): Promise<Page> {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    contexts.push(context);
    const page = await context.newPage();
    page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
    page.on('request', (r) => {
      if (!r.url().startsWith(base) && !r.url().startsWith(appBase)) problems.push(`request elsewhere: ${r.url()}`);
    });
    return page;
  }

  /** From the app's home page to the consent page, as a new guest named `name`. */
  async function connectAsGuest(page: Page, name: string, start = `${appBase}/`): Promise<void> {
    await page.goto(start);
    if (start === `${appBase}/`) await page.getByRole('link', { name: 'Connect with fairdice' }).click();
    await page.waitForURL((url) => url.href.startsWith(`${base}/oauth/authorize?`));
    await page.getByRole('heading', { name: 'Dice Roller wants to use your fairdice account' }).waitFor();
    // Not signed in yet: the page asks to sign in or play as a guest first.
    await page.getByLabel('Your name').fill(name);
    await page.getByRole('button', { name: 'Start playing' }).click();
    await page.getByRole('button', { name: 'Approve' }).waitFor();
  }

  const playerIdOf = (page: Page) =>
    page.evaluate(
      () =>
        JSON.parse(
          (globalThis as unknown as { localStorage: { getItem(k: string): string } }).localStorage.getItem(
            'fairdice.player',
          ),
        ).id as string,
    );

  it('completes the authorization-code + PKCE flow with consent, and the app plays a move', async () => {
    const page = await newPage();
    await connectAsGuest(page, 'Ada');
    // The consent page shows the redirect host and the scopes asked, with their descriptions.
    await expect(page.locator('.redirect-host').textContent()).resolves.toBe(new URL(appBase).host);
    const scopes = page.getByRole('list', { name: 'Scopes asked' }).getByRole('listitem');
    await expect(scopes.allTextContents()).resolves.toEqual([
      expect.stringMatching(/^game:create: Create games/),
      expect.stringMatching(/^game:play: Make moves/),
    ]);
    // The player's own token and id, read while the page is fairdice's (localStorage is per origin).
    const playerId = await playerIdOf(page);
    const playerToken = await tokenOf(page);

    await page.getByRole('button', { name: 'Approve' }).click();
    await page.waitForURL((url) => url.href.startsWith(`${appBase}/callback?`));
    const result = page.locator('#result');
    await expect(result.textContent()).resolves.toMatch(/^Rolled [1-6] [1-6] [1-6] [1-6] [1-6] in game /);
    await expect(page.locator('#scope').textContent()).resolves.toBe('game:create game:play');

    // The server holds it: a solo game of the player who approved, with the roll the app showed.
    const gameId = (await page.locator('#game').textContent()) as string;
    const game = await t.http().get(`/v1/games/${gameId}`).set('authorization', `Bearer ${playerToken}`).expect(200);
    expect(game.body.seats.map((s: { playerId: string }) => s.playerId)).toEqual([playerId]);
    expect(game.body.dice.join(' ')).toBe(await page.locator('#dice').textContent());
    // The app's token is an OAuth access token of that player, for that client.
    const sessions = await t.app
      .get<Pool>(PG_POOL)
      .query(`SELECT scopes, client_id FROM sessions WHERE player_id = $1 AND kind = 'oauth'`, [playerId]);
    expect(sessions.rows).toEqual([{ scopes: ['game:create', 'game:play'], client_id: clientId }]);
  });

  it('a denied consent sends access_denied back to the app', async () => {
    const page = await newPage();
    await connectAsGuest(page, 'Bob');
    await page.getByRole('button', { name: 'Deny' }).click();
    await page.waitForURL((url) => url.href.startsWith(`${appBase}/callback?`));
    await expect(page.locator('#result').textContent()).resolves.toBe('Not connected: access_denied');
  });

  it('a redirect-URI mismatch is an error on the consent page and is never followed', async () => {
    const page = await newPage();
    const query = new URLSearchParams({
      response_type: 'code',
      client_id: clientId,
      redirect_uri: 'https://elsewhere.example/callback',
      scope: 'game:play',
      state: 'x',
      code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
      code_challenge_method: 'S256',
    });
    await page.goto(`${base}/oauth/authorize?${query.toString()}`);
    await expect(page.getByRole('alert').textContent()).resolves.toMatch(/redirect_uri must equal/i);
    await expect(page.getByRole('button', { name: 'Approve' }).count()).resolves.toBe(0);
    expect(page.url().startsWith(`${base}/oauth/authorize?`)).toBe(true);
  });

  it('a game:read token from OAuth cannot roll (INSUFFICIENT_SCOPE)', async () => {
    const page = await newPage();
    await page.goto(`${base}/`);
    await page.getByLabel('Your name').fill('Cy');
    await page.getByRole('button', { name: 'Start playing' }).click();
    await page.getByRole('heading', { name: 'New game' }).waitFor();
    // A solo game of this player, made with the player's own token; the app may only read.
    const token = await tokenOf(page);
    const created = await t
      .http()
      .post('/v1/games')
      .set('authorization', `Bearer ${token}`)
      .send({ ruleSet: 'simple', seats: 1 })
      .expect(201);
    const gameId = created.body.id as string;
    if (created.body.status === 'open')
      await t.http().post(`/v1/games/${gameId}/start`).set('authorization', `Bearer ${token}`).send({}).expect(200);
    const before = await t.http().get(`/v1/games/${gameId}`).set('authorization', `Bearer ${token}`).expect(200);

    await page.goto(`${appBase}/connect?scope=game:read&game=${gameId}`);
    await page.waitForURL((url) => url.href.startsWith(`${base}/oauth/authorize?`));
    await page.getByRole('button', { name: 'Approve' }).click();
    await page.waitForURL((url) => url.href.startsWith(`${appBase}/callback?`));
    await expect(page.locator('#scope').textContent()).resolves.toBe('game:read');
    await expect(page.locator('#result').textContent()).resolves.toMatch(/^fairdice refused: INSUFFICIENT_SCOPE/);
    const after = await t.http().get(`/v1/games/${gameId}`).set('authorization', `Bearer ${token}`).expect(200);
    expect(after.body.version).toBe(before.body.version);
  });
});
