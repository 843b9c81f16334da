/**
 * The web client's service worker (built to web/dist/sw.js, served at /sw.js with scope /): shows a
 * notification for each Web Push message (docs/async.md, "Web Push") and, on a click, focuses a tab
 * of the client already open (navigating it to the game) or opens one. It caches nothing: the
 * client has no offline mode.
 */
import { pushNotice } from './push-notice';

// The worker's own types, kept minimal (web/tsconfig.json has the DOM's, not the WebWorker lib's).
interface ExtendableEvent extends Event {
  waitUntil(p: Promise<unknown>): void;
}
interface PushEvent extends ExtendableEvent {
  readonly data: { text(): string } | null;
}
interface NotificationEvent extends ExtendableEvent {
  readonly notification: Notification & { data: unknown };
}
interface WindowClient {
  readonly url: string;
  focus(): Promise<WindowClient>;
  navigate(url: string): Promise<WindowClient | null>;
}
interface WorkerScope {
  registration: ServiceWorkerRegistration;
  location: Location;
  clients: {
    matchAll(options: { type: 'window'; includeUncontrolled: boolean }): Promise<WindowClient[]>;
    openWindow(url: string): Promise<WindowClient | null>;
    claim(): Promise<void>;
  };
  skipWaiting(): Promise<void>;
  addEventListener(type: 'push', listener: (e: PushEvent) => void): void;
  addEventListener(type: 'notificationclick', listener: (e: NotificationEvent) => void): void;
  addEventListener(type: 'install' | 'activate', listener: (e: ExtendableEvent) => void): void;
}
const worker = self as unknown as WorkerScope;

// A new version takes over at once: it holds no state an old page depends on.
worker.addEventListener('install', (e) => e.waitUntil(worker.skipWaiting()));
worker.addEventListener('activate', (e) => e.waitUntil(worker.clients.claim()));

worker.addEventListener('push', (e) => {
  const notice = pushNotice(e.data?.text() ?? null);
  e.waitUntil(
    worker.registration.showNotification(notice.title, {
      body: notice.body,
      tag: notice.tag,
      data: { url: notice.url },
    }),
  );
});

worker.addEventListener('notificationclick', (e) => {
  e.notification.close();
  const path = (e.notification.data as { url?: string } | null)?.url ?? '/';
  const url = new URL(path, worker.location.origin).href;
  e.waitUntil(
    (async () => {
      const tabs = await worker.clients.matchAll({ type: 'window', includeUncontrolled: true });
      const tab = tabs.find((t) => new URL(t.url).origin === worker.location.origin);
      if (!tab) return void (await worker.clients.openWindow(url));
      await tab.focus();
      // navigate() needs a tab this worker controls; any other opens the game in a new one.
      if (tab.url !== url) await tab.navigate(url).catch(() => worker.clients.openWindow(url));
    })(),
  );
});
