/**
 * What the service worker (sw.ts) shows for a Web Push message, and which page a click opens. Pure,
 * so it is unit-tested (test/web/push-notice.spec.ts). The payload is the player-stream message the
 * service pushes (docs/async.md, "Web Push"): `{ seq, type, createdAt, data, notification }`, where
 * `notification` is `{ title, body, url }` with `url` the API's `/games/<id>` or `/tournaments/<id>`;
 * this client routes with the fragment, so the page to open is `/#/game/<id>` or `/#/tournament/<id>`.
 */
export interface PushNotice {
  title: string;
  body: string;
  /** Notifications of one game replace each other (the lobby's in-tab notification uses the game id too). */
  tag: string;
  /** The page a click opens, on this origin. */
  url: string;
}

const ID = /^[A-Za-z0-9-]{1,64}$/;

const text = (v: unknown): string | null => (typeof v === 'string' && v.length > 0 ? v : null);

/** The page of the client for a pushed message: its game, else its tournament, else the lobby. */
export function pageOf(data: Record<string, unknown>): string {
  const game = text(data.gameId);
  if (game && ID.test(game)) return `/#/game/${game}`;
  const tournament = text(data.tournamentId);
  if (tournament && ID.test(tournament)) return `/#/tournament/${tournament}`;
  return '/';
}

/** The notification for a pushed payload (its text, parsed or not); a payload that is not a message still says something. */
export function pushNotice(payload: string | null): PushNotice {
  let message: Record<string, unknown> = {};
  try {
    const parsed: unknown = JSON.parse(payload ?? '');
    if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) message = parsed as Record<string, unknown>;
  } catch {
    // not JSON: the generic notification below
  }
  const data = (message.data && typeof message.data === 'object' ? message.data : {}) as Record<string, unknown>;
  const n = (message.notification && typeof message.notification === 'object' ? message.notification : {}) as Record<
    string,
    unknown
  >;
  const url = pageOf(data);
  const type = text(message.type);
  return {
    title: `${text(n.title) ?? (type === 'yourTurn' ? 'Your turn' : 'News')} · fairdice`,
    body: text(n.body) ?? 'Something happened in one of your games.',
    tag: text(data.gameId) ?? text(data.tournamentId) ?? 'fairdice',
    url,
  };
}
