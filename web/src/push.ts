/**
 * "Notify me when it's my turn": a Web Push subscription of this browser for the signed-in player
 * (docs/async.md, "Web Push"). Turning it on asks the permission, registers the service worker
 * (/sw.js, scope /), subscribes with the service's VAPID key and stores the subscription through
 * the API; turning it off deletes it there and unsubscribes here. The stored subscription's id is
 * kept per player in localStorage, to delete it later.
 */
import { api, unwrap } from './api';

const idKey = (playerId: string) => `fairdice.pushSubscription.${playerId}`;

/** Whether this browser can receive Web Push at all (service workers, PushManager, notifications). */
export const pushSupported = (): boolean =>
  typeof navigator !== 'undefined' &&
  'serviceWorker' in navigator &&
  typeof PushManager !== 'undefined' &&
  typeof Notification !== 'undefined';

/** Thrown when the person did not allow notifications; the page says so. */
export class NotificationsNotAllowed extends Error {
  constructor() {
    super('Notifications are blocked for this site: allow them in the browser’s site settings to be told.');
  }
}

const registration = () => navigator.serviceWorker.getRegistration('/');

/** Whether pushes are on for this player in this browser: a subscription here and its id stored. */
export async function pushIsOn(playerId: string): Promise<boolean> {
  if (!pushSupported() || Notification.permission !== 'granted' || !localStorage.getItem(idKey(playerId))) return false;
  const sub = await (await registration())?.pushManager.getSubscription();
  return Boolean(sub);
}

export async function turnPushOn(playerId: string): Promise<void> {
  if ((await Notification.requestPermission()) !== 'granted') throw new NotificationsNotAllowed();
  await navigator.serviceWorker.register('/sw.js', { scope: '/' });
  const ready = await navigator.serviceWorker.ready;
  const { vapidPublicKey } = unwrap(await api.GET('/v1/push/vapid-public-key'));
  const subscription =
    (await ready.pushManager.getSubscription()) ??
    (await ready.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: vapidPublicKey }));
  const json = subscription.toJSON() as { endpoint: string; keys: { p256dh: string; auth: string } };
  const stored = unwrap(
    await api.POST('/v1/players/me/push-subscriptions', {
      body: { endpoint: json.endpoint, keys: { p256dh: json.keys.p256dh, auth: json.keys.auth } },
    }),
  );
  localStorage.setItem(idKey(playerId), stored.id);
}

export async function turnPushOff(playerId: string): Promise<void> {
  const id = localStorage.getItem(idKey(playerId));
  if (id) {
    const res = await api.DELETE('/v1/players/me/push-subscriptions/{id}', { params: { path: { id } } });
    // Already gone (deleted elsewhere, or by the service after the push service answered 410): fine.
    if (res.response.status !== 404) unwrap(res);
  }
  localStorage.removeItem(idKey(playerId));
  await (await (await registration())?.pushManager.getSubscription())?.unsubscribe();
}

/**
 * Signing out of this browser: pushes for that player stop here. The subscription is deleted while
 * the token still works; otherwise (signed out everywhere) it is at least unsubscribed here, so the
 * push service answers the next push with 410 and the service deletes it.
 */
export async function stopPushOnSignOut(playerId: string): Promise<void> {
  if (!pushSupported()) return;
  try {
    await turnPushOff(playerId);
  } catch {
    localStorage.removeItem(idKey(playerId));
    await (await (await registration())?.pushManager.getSubscription())?.unsubscribe().catch(() => false);
  }
}
