/**
 * "Notify me when it's my turn" and the service worker (issue 27, item 3), in Chromium.
 *
 * Headless Chromium cannot make a real Web Push subscription: in a browser context (incognito)
 * `PushManager.subscribe` is refused ("Registration failed - permission denied"), and in a persistent
 * profile it never settles (no reachable push service). So the browser's push service is the one
 * thing replaced: before the toggle, the page's `PushManager.prototype.subscribe`/`getSubscription`
 * are swapped for a subscription at the test's local push service (test/helpers/push-service.ts,
 * which checks VAPID and decrypts like a real one). Everything else is real: the permission (granted
 * through the DevTools protocol), the page's registration of /sw.js, the VAPID key it passes, its
 * POST and DELETE through the SDK, the service's push after the opponent's move, and the service
 * worker showing the notification when that decrypted payload is delivered to it
 * (`ServiceWorker.deliverPushMessage`). Not covered here: a click on the notification (the
 * DevTools protocol cannot click one; the page it opens is unit-tested in push-notice.spec.ts).
 */
import type { CDPSession, Page } from 'playwright-core';
import { startPushService, type TestPushService } from '../helpers/push-service';
import { describeOnce } from '../helpers/suites';
import { browserSuite, createGame, gameIdOf, playTurnByClicks, register, tokenOf, yourTurn } from './browser';

// What the functions given to page.evaluate and addInitScript use in the page, typed here (the
// root program has no DOM types; adding them would change other tests' types).
declare const window: { pushAsked: unknown[]; unsubscribed: number };
declare const localStorage: {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
  removeItem(key: string): void;
};
declare const PushManager: {
  prototype: {
    subscribe(options?: { userVisibleOnly?: boolean; applicationServerKey?: unknown }): Promise<unknown>;
    getSubscription(): Promise<unknown>;
  };
};
declare const document: { querySelector(selector: string): { disabled: boolean; checked: boolean } | null };
declare const navigator: {
  serviceWorker: {
    ready: Promise<{
      scope: string;
      active: { scriptURL: string } | null;
      getNotifications(): Promise<Array<{ title: string; body: string; tag: string; data: unknown }>>;
    }>;
  };
};

jest.setTimeout(180_000);

const web = browserSuite({ env: { JOBS_POLL_INTERVAL_MS: '100', PUSH_ALLOW_PRIVATE_NETWORKS: 'true' } });

/**
 * Replaces the browser's push service (unavailable headless) by `subscription`, in every page of
 * `page`'s context from its next navigation on; whether it is subscribed survives reloads
 * (localStorage), and what the page asked is recorded in `pushAsked` and `unsubscribed`.
 */
async function fakePushService(page: Page, subscription: { endpoint: string; keys: { p256dh: string; auth: string } }) {
  await page.context().addInitScript((sub) => {
    const w = window;
    w.pushAsked = [];
    w.unsubscribed = 0;
    const FLAG = 'test.fakePushSubscribed';
    const current = () =>
      localStorage.getItem(FLAG)
        ? {
            endpoint: sub.endpoint,
            toJSON: () => ({ endpoint: sub.endpoint, expirationTime: null, keys: sub.keys }),
            unsubscribe: () => {
              localStorage.removeItem(FLAG);
              w.unsubscribed++;
              return Promise.resolve(true);
            },
          }
        : null;
    PushManager.prototype.subscribe = function (options?: {
      userVisibleOnly?: boolean;
      applicationServerKey?: unknown;
    }) {
      w.pushAsked.push({ userVisibleOnly: options?.userVisibleOnly, key: options?.applicationServerKey });
      localStorage.setItem(FLAG, '1');
      return Promise.resolve(current()!);
    };
    PushManager.prototype.getSubscription = () => Promise.resolve(current());
  }, subscription);
}

/** The service worker registrations of the page's origin, as the DevTools protocol reports them. */
async function workerRegistrations(page: Page): Promise<{ cdp: CDPSession; ids: Map<string, string> }> {
  const cdp = await page.context().newCDPSession(page);
  const ids = new Map<string, string>();
  cdp.on('ServiceWorker.workerRegistrationUpdated', (e) => {
    for (const r of e.registrations) if (!r.isDeleted) ids.set(r.scopeURL, r.registrationId);
  });
  await cdp.send('ServiceWorker.enable');
  return { cdp, ids };
}

describeOnce('Web Push in the web client (Chromium)', () => {
  let push: TestPushService;
  beforeAll(async () => {
    push = await startPushService();
  });
  afterAll(async () => {
    await push?.close();
  });
  afterEach(() => {
    expect(web.problems.splice(0)).toEqual([]);
  });

  it('turns on pushes, stores the subscription, shows the pushed yourTurn through the service worker, and turns them off', async () => {
    const ada = await web.newPage();
    await register(ada, 'Ada');
    await createGame(ada, { ruleSet: 'penta', seats: 2 });
    const gameId = gameIdOf(ada);
    const link = await ada.locator('a.join-link').innerText();
    const bob = await web.newPage();
    await bob.context().grantPermissions(['notifications'], { origin: web.base });
    await fakePushService(bob, push.subscription('bob'));
    await bob.reload(); // init scripts run from the next document on
    await register(bob, 'Bob');
    await bob.goto(link);
    await bob.getByRole('button', { name: 'Join this game' }).click();
    await ada.getByText('Seat 2: Bob').waitFor();
    await ada.getByRole('button', { name: 'Start the game' }).click();
    await yourTurn(ada).waitFor();

    // Bob's lobby: the setting is off (nothing stored for him), then he turns it on.
    await bob.getByRole('link', { name: 'Games' }).click();
    const toggle = bob.getByRole('checkbox', { name: 'Notify me when it’s my turn' });
    await bob.waitForFunction(() => document.querySelector('.notify input')?.disabled === false);
    expect(await toggle.isChecked()).toBe(false);
    expect(await web.read(bob, '/v1/players/me/push-subscriptions')).toEqual([]);
    const { cdp, ids } = await workerRegistrations(bob);
    await toggle.click(); // the page checks it once the subscription is stored
    await bob.getByText('On in this browser, even with no page open.').waitFor();

    // The page subscribed with the service's VAPID key, user-visible only, and stored it for Bob.
    const { vapidPublicKey } = (await web.t.http().get('/v1/push/vapid-public-key').expect(200)).body;
    expect(await bob.evaluate(() => window.pushAsked)).toEqual([{ userVisibleOnly: true, key: vapidPublicKey }]);
    const stored = await web.read(bob, '/v1/players/me/push-subscriptions');
    expect(stored).toEqual([expect.objectContaining({ endpoint: `${push.base}/push/bob` })]);
    // /sw.js registered for the whole client, active, and in control of the page.
    const worker = await bob.evaluate(async () => {
      const r = await navigator.serviceWorker.ready;
      return { scope: r.scope, script: r.active?.scriptURL };
    });
    expect(worker).toEqual({ scope: `${web.base}/`, script: `${web.base}/sw.js` });

    // Ada's move hands Bob the turn: the service pushes yourTurn to his subscription.
    const pushed = push.next();
    await playTurnByClicks(ada);
    await pushed;
    expect(push.rejected).toEqual([]);
    const message = JSON.parse(push.received[0].plaintext);
    expect(message).toMatchObject({ type: 'yourTurn', data: { gameId } });

    // That payload, delivered to Bob's service worker, shows a notification that opens the game.
    const registrationId = ids.get(`${web.base}/`);
    expect(registrationId).toBeDefined();
    await cdp.send('ServiceWorker.deliverPushMessage', {
      origin: web.base,
      registrationId: registrationId!,
      data: push.received[0].plaintext,
    });
    // (Not waitForFunction: it does not await an async predicate, whose promise is already truthy.)
    const shown = await bob.evaluate(async () => {
      const registration = await navigator.serviceWorker.ready;
      for (;;) {
        const list = await registration.getNotifications();
        if (list.length) return list.map((n) => ({ title: n.title, body: n.body, tag: n.tag, data: n.data }));
        await new Promise((resolve) => setTimeout(resolve, 50)); // the worker's showNotification has no page event
      }
    });
    expect(shown).toEqual([
      {
        title: `${message.notification.title} · fairdice`,
        body: message.notification.body,
        tag: gameId,
        data: { url: `/#/game/${gameId}` },
      },
    ]);

    // A reload keeps the setting; turning it off deletes the subscription and unsubscribes.
    await bob.reload();
    const again = bob.getByRole('checkbox', { name: 'Notify me when it’s my turn' });
    await bob.waitForFunction(() => document.querySelector('.notify input')?.checked === true);
    await again.click();
    await bob.getByText('On in this browser, even with no page open.').waitFor({ state: 'detached' });
    await bob.waitForFunction(() => window.unsubscribed === 1);
    expect(await web.read(bob, '/v1/players/me/push-subscriptions')).toEqual([]);
    expect(await again.isChecked()).toBe(false);

    // On again, then "Sign out of this browser": the subscription goes with the player.
    await again.click();
    await bob.getByText('On in this browser, even with no page open.').waitFor();
    const token = await tokenOf(bob);
    const subscriptions = () =>
      web.t.http().get('/v1/players/me/push-subscriptions').set('authorization', `Bearer ${token}`).expect(200);
    expect((await subscriptions()).body).toHaveLength(1);
    await bob.getByRole('link', { name: 'Profile' }).click();
    await bob.getByRole('button', { name: 'Sign out of this browser' }).click();
    await bob.waitForFunction(() => window.unsubscribed === 2);
    await bob.waitForFunction(() => !localStorage.getItem('fairdice.token'));
    expect((await subscriptions()).body).toEqual([]);
  });
});
