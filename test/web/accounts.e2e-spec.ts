/**
 * Accounts in the web client, in Chromium with the DevTools protocol's virtual authenticator
 * (docs/accounts.md): a guest plays, claims a username and adds a passkey in one browser context;
 * a second context, with the same passkey (synced, as a platform's passkey manager does), signs in
 * with it and lists the same player's games; a third signs in with username and password.
 *
 * WebAuthn needs a secure context and a domain as RP ID, so the pages are opened at
 * http://localhost:<port> (not 127.0.0.1) with WEBAUTHN_RP_ID=localhost.
 */
import { createServer, type AddressInfo } from 'node:net';
import type { Browser, BrowserContext, CDPSession, Page } from 'playwright-core';
import { chromium } from 'playwright-core';
import { TOKEN_SCOPES } from '../../src/players/scopes';
import { WAIT_FOR_POOL_ENV, createTestApp, type TestApp } from '../helpers/app';
import { ensureBuilt } from '../helpers/build';
import { describeOnce } from '../helpers/suites';
import { playToEnd, restClient } from '../helpers/games';
import { createGame, gameIdOf, register, tokenOf } from './browser';

jest.setTimeout(120_000);

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const PASSWORD = 'dice are nice 42';

const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const server = createServer();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      server.close(() => resolve(port));
    });
  });

describeOnce('the web client: accounts (Chromium, virtual authenticator)', () => {
  let t: TestApp;
  let base: string;
  let browser: Browser;
  const contexts: BrowserContext[] = [];
  const problems: string[] = [];

  beforeAll(async () => {
    ensureBuilt();
    const port = await freePort();
    base = `http://localhost:${port}`;
    t = await createTestApp({
      env: { WEBAUTHN_RP_ID: 'localhost', WEBAUTHN_ORIGINS: base, ...WAIT_FOR_POOL_ENV },
    });
    await t.app.listen({ port, host: '127.0.0.1' });
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });
  });
  afterAll(async () => {
    for (const c of contexts) await c.close().catch(() => undefined);
    await browser?.close();
    await t?.close();
  });

  /** A new context and page at / with a virtual platform authenticator (resident keys, UV). */
  async function device(): Promise<{ page: Page; cdp: CDPSession; authenticatorId: string }> {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    contexts.push(context);
    const page = await context.newPage();
    page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
    page.on('request', (r) => {
      if (!r.url().startsWith(base)) problems.push(`request beyond the service: ${r.url()}`);
    });
    const cdp = await context.newCDPSession(page);
    await cdp.send('WebAuthn.enable');
    const { authenticatorId } = await cdp.send('WebAuthn.addVirtualAuthenticator', {
      options: {
        protocol: 'ctap2',
        transport: 'internal',
        hasResidentKey: true,
        hasUserVerification: true,
        isUserVerified: true,
        automaticPresenceSimulation: true,
      },
    });
    await page.goto(`${base}/`);
    return { page, cdp, authenticatorId };
  }

  it('registers a passkey in one context and signs in with it in another, where the same games are listed', async () => {
    const first = await device();
    await register(first.page, 'Ada');
    await createGame(first.page, { ruleSet: 'penta' });
    const gameId = /#\/game\/([0-9a-f-]{36})/.exec(first.page.url())![1];

    await first.page.getByRole('link', { name: 'Account' }).click();
    await first.page.getByRole('heading', { name: 'Your account' }).waitFor();
    await first.page.getByRole('textbox', { name: /^Username \(3 to 24/ }).fill('ada_in_chromium');
    await first.page.getByRole('button', { name: 'Save username' }).click();
    await first.page.getByRole('status').filter({ hasText: 'Username saved.' }).waitFor();
    await first.page.getByLabel('Name of the new passkey').fill('Laptop');
    await first.page.getByRole('button', { name: 'Add a passkey' }).click();
    await first.page.getByRole('status').filter({ hasText: 'Passkey Laptop added.' }).waitFor();
    await first.page.getByRole('list', { name: 'Your passkeys' }).getByText('Laptop').waitFor();

    // The passkey as a passkey manager would sync it to the second device.
    const { credentials } = await first.cdp.send('WebAuthn.getCredentials', { authenticatorId: first.authenticatorId });
    expect(credentials).toHaveLength(1);
    expect(credentials[0].isResidentCredential).toBe(true);
    const second = await device();
    await second.cdp.send('WebAuthn.addCredential', {
      authenticatorId: second.authenticatorId,
      credential: credentials[0],
    });

    await second.page.getByRole('button', { name: 'Sign in with a passkey' }).click();
    await second.page.getByRole('heading', { name: 'New game' }).waitFor();
    await second.page.locator(`a[href="#/game/${gameId}"]`).first().waitFor();
    await second.page.getByLabel('Signed in as').filter({ hasText: 'Ada' }).waitFor();

    // The first device lists the second among its devices and can sign it out.
    await first.page.reload();
    await first.page.getByRole('heading', { name: 'Your account' }).waitFor();
    const devices = first.page.getByRole('list', { name: 'Your devices' });
    await devices.getByRole('listitem').first().waitFor();
    expect(await devices.getByRole('listitem').count()).toBe(1);
    expect(problems).toEqual([]);
  });

  it('signs in with username and password in a third context', async () => {
    const first = await device();
    await register(first.page, 'Bea');
    await first.page.getByRole('link', { name: 'Account' }).click();
    await first.page.getByRole('textbox', { name: /^Username \(3 to 24/ }).fill('bea_in_chromium');
    await first.page.getByRole('button', { name: 'Save username' }).click();
    await first.page.getByRole('status').filter({ hasText: 'Username saved.' }).waitFor();
    await first.page.getByLabel(/^New password/).fill(PASSWORD);
    await first.page.getByRole('button', { name: 'Save password' }).click();
    await first.page.getByRole('status').filter({ hasText: 'Password saved.' }).waitFor();

    const third = await device();
    await third.page.getByRole('textbox', { name: 'Username', exact: true }).fill('BEA_in_chromium');
    await third.page.getByLabel('Password', { exact: true }).fill(PASSWORD);
    await third.page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await third.page.getByRole('heading', { name: 'New game' }).waitFor();
    await third.page.getByLabel('Signed in as').filter({ hasText: 'Bea' }).waitFor();
    expect(problems).toEqual([]);
  });

  it('asks a guest to secure the account once a game has finished, until it is secured or put off', async () => {
    const guest = await device();
    await register(guest.page, 'Cid');
    await createGame(guest.page, { ruleSet: 'simple' });
    const gameId = gameIdOf(guest.page);
    // Not while the game is on.
    expect(await guest.page.getByRole('heading', { name: 'Keep your games' }).count()).toBe(0);
    // The game is played out with the page's own token; the page follows it to its end.
    const token = await tokenOf(guest.page);
    const client = restClient(t);
    await playToEnd(t, client, await client.get(token, gameId), () => token);
    await guest.page.getByRole('heading', { name: 'Result' }).waitFor();
    const prompt = guest.page.getByRole('complementary', { name: 'Keep your games' });
    await prompt.waitFor();
    await prompt.getByRole('link', { name: 'Secure your account' }).click();
    await guest.page.getByRole('heading', { name: 'Your account' }).waitFor();
    await guest.page.getByRole('textbox', { name: /^Username \(3 to 24/ }).fill('cid_in_chromium');
    await guest.page.getByRole('button', { name: 'Save username' }).click();
    await guest.page.getByRole('status').filter({ hasText: 'Username saved.' }).waitFor();
    // A username alone does not sign in anywhere else: still asked.
    await guest.page.goto(`${base}/#/game/${gameId}`);
    await prompt.waitFor();
    await guest.page.goto(`${base}/#/account`);
    await guest.page.getByLabel(/^New password/).fill(PASSWORD);
    await guest.page.getByRole('button', { name: 'Save password' }).click();
    await guest.page.getByRole('status').filter({ hasText: 'Password saved.' }).waitFor();
    const accountRead = guest.page.waitForResponse((r) => new URL(r.url()).pathname === '/v1/accounts/me');
    await guest.page.goto(`${base}/#/game/${gameId}`);
    await guest.page.getByRole('heading', { name: 'Result' }).waitFor();
    await accountRead;
    // Two frames after the answer: the page has rendered what it made of it.
    await guest.page.evaluate(() => {
      const frame = (globalThis as unknown as { requestAnimationFrame: (f: () => void) => void }).requestAnimationFrame;
      return new Promise((done) => frame(() => frame(() => done(null))));
    });
    expect(await prompt.count()).toBe(0);

    // Another guest puts it off: it stays off in that browser.
    const other = await device();
    await register(other.page, 'Dot');
    await createGame(other.page, { ruleSet: 'simple' });
    const otherId = gameIdOf(other.page);
    const otherToken = await tokenOf(other.page);
    await playToEnd(t, client, await client.get(otherToken, otherId), () => otherToken);
    const otherPrompt = other.page.getByRole('complementary', { name: 'Keep your games' });
    await otherPrompt.getByRole('button', { name: 'Not now' }).click();
    await otherPrompt.waitFor({ state: 'detached' });
    await other.page.reload();
    // Put off: the page does not even ask for the account, so the prompt is absent with the result.
    await other.page.getByRole('heading', { name: 'Result' }).waitFor();
    expect(await otherPrompt.count()).toBe(0);
    expect(problems).toEqual([]);
  });

  it('creates an access token with the scopes ticked, lists it and revokes it; the token works within them only', async () => {
    const first = await device();
    await register(first.page, 'Cal');
    await first.page.getByRole('link', { name: 'Account' }).click();
    await first.page.getByRole('heading', { name: 'Access tokens' }).waitFor();
    // The page offers exactly the service's scopes.
    const boxes = first.page.locator('input[name="scope"]');
    const offered: Array<string | null> = [];
    for (let i = 0; i < (await boxes.count()); i++) offered.push(await boxes.nth(i).getAttribute('value'));
    expect(offered).toEqual(Object.keys(TOKEN_SCOPES));
    await first.page.getByLabel('Name of the new token').fill('Score bot');
    await first.page.getByRole('checkbox', { name: /^game:read / }).check();
    await first.page.getByRole('checkbox', { name: /^game:play / }).check();
    await first.page.getByLabel(/^Expires after/).fill('30');
    await first.page.getByRole('button', { name: 'Create an access token' }).click();
    await first.page.getByRole('status').filter({ hasText: 'Access token Score bot created.' }).waitFor();
    const token = (await first.page.getByLabel('New access token').textContent())!;
    expect(token).toMatch(/^fd_/);
    const tokens = first.page.getByRole('list', { name: 'Your access tokens' });
    await tokens.getByText('Score bot: game:read, game:play').waitFor();

    // The token reads games but may not touch the account.
    await t
      .http()
      .get('/v1/games')
      .set({ authorization: `Bearer ${token}` })
      .expect(200);
    const denied = await t
      .http()
      .get('/v1/accounts/me')
      .set({ authorization: `Bearer ${token}` })
      .expect(403);
    expect(denied.body.requiredScope).toBe('account:read');

    await tokens.getByRole('button', { name: 'Revoke Score bot' }).click();
    await first.page.getByRole('status').filter({ hasText: 'Access token Score bot revoked.' }).waitFor();
    expect(await tokens.getByRole('listitem').count()).toBe(0);
    await t
      .http()
      .get('/v1/games')
      .set({ authorization: `Bearer ${token}` })
      .expect(401);
    expect(problems).toEqual([]);
  });
});
