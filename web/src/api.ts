/**
 * The one place the web client talks to the service: the public REST API through the typed SDK
 * (@fairdice/client), the WebSocket command channel for moves (with REST as the fallback), and
 * the game's Server-Sent Events stream. Nothing here knows the server's internals; a third-party
 * client could be written the same way.
 */
import {
  createFairdiceClient,
  FairdiceChannel,
  FairdiceError,
  type GameMoveBody,
  type GameMoveName,
  gameEventStream,
  playerEventStream,
  tournamentStandingsStream,
  unwrap,
  type components,
  type PlayerStreamMessage,
  type Tournament,
  type TournamentStandings,
} from '@fairdice/client';

export { FairdiceError, unwrap, type PlayerStreamMessage, type Tournament, type TournamentStandings };

export type GameView = components['schemas']['GameView'];
export type Seek = components['schemas']['SeekView'];
export type SeekInput = components['schemas']['CreateSeekInput'];
export type GameSummary = components['schemas']['GameSummaryView'];
export type InboxItem = components['schemas']['InboxItem'];
export type Me = components['schemas']['MeModel'];
export type RuleSet = components['schemas']['RuleSetModel'];
export type GameEvent = components['schemas']['GameEvent'];
export type BoxOption = components['schemas']['BoxOptionView'];
export type Sheet = components['schemas']['FiveDiceSheetView'];
export type Selection = components['schemas']['SelectionView'];
export type RuleSetName = components['schemas']['RuleSetName'];
export type GameAnalysis = components['schemas']['GameAnalysisView'];
export type Decision = components['schemas']['DecisionView'];
export type Challenge = components['schemas']['ChallengeView'];
export type MyChallenges = components['schemas']['MyChallengesView'];
/** Which tournament, round, game and table a game belongs to (its gameCreated event says). */
export type TournamentRef = components['schemas']['TournamentRef'];

const TOKEN_KEY = 'fairdice.token';
const PLAYER_KEY = 'fairdice.player';

export interface StoredPlayer {
  id: string;
  displayName: string;
}

export const session = {
  token: (): string | null => localStorage.getItem(TOKEN_KEY),
  player: (): StoredPlayer | null => {
    const raw = localStorage.getItem(PLAYER_KEY);
    return raw ? (JSON.parse(raw) as StoredPlayer) : null;
  },
  save(token: string, player: StoredPlayer): void {
    localStorage.setItem(TOKEN_KEY, token);
    localStorage.setItem(PLAYER_KEY, JSON.stringify(player));
  },
  clear(): void {
    localStorage.removeItem(TOKEN_KEY);
    localStorage.removeItem(PLAYER_KEY);
  },
};

const baseUrl = location.origin;
export const api = createFairdiceClient({ baseUrl, token: () => session.token() ?? '' });
/**
 * The same client without the SDK's retries, for advice and analysis: the SDK would wait out a
 * 503 TABLE_BUILDING silently (up to four attempts); asked once, the page can say that the table is
 * being computed and ask again itself after the wait the service gives (tableRetrySeconds).
 */
export const adviceApi = createFairdiceClient({ baseUrl, token: () => session.token() ?? '', retry: false });

/** The answer a page acts on: openapi-fetch's shape (`unwrap()` it), whichever way the move went. */
export interface MoveAnswer {
  data?: GameView;
  error?: unknown;
  response: Response;
}

const channelUrl = `${location.protocol === 'https:' ? 'wss:' : 'ws:'}//${location.host}/v1/ws`;
/** The open (or opening) command channel, and the token it was opened with. */
let channel: { token: string; ready: Promise<FairdiceChannel> } | null = null;
/** After a connection failed: REST only until then (ms since the epoch), so a page never waits on a dead channel. */
let channelDownUntil = 0;
/** How long the web client plays over REST after the channel could not connect. */
const CHANNEL_RETRY_MS = 30_000;

/** The command channel for the signed-in player, opened on first use; null when it is down or unusable here. */
function commandChannel(): Promise<FairdiceChannel> | null {
  const token = session.token();
  if (!token || typeof WebSocket === 'undefined' || Date.now() < channelDownUntil) return null;
  if (channel?.token === token) return channel.ready;
  channel?.ready.then((c) => c.close()).catch(() => undefined);
  const opened = { token, ready: FairdiceChannel.connect(channelUrl, token, { onClose: () => forget(opened) }) };
  const forget = (which: typeof opened) => {
    if (channel === which) channel = null;
  };
  opened.ready.catch(() => {
    forget(opened);
    channelDownUntil = Date.now() + CHANNEL_RETRY_MS;
  });
  channel = opened;
  return opened.ready;
}

/**
 * Plays a move over the WebSocket command channel (docs/api.md "WebSocket command channel"): one
 * frame, answered by its events, then the game as it now is. When the channel is down (it cannot
 * connect, or closes before the answer), the same move goes over REST (`rest`, given the headers
 * to send) with the same idempotency key, so a move the channel did apply is not applied twice.
 * A move the service refuses is refused the same way on both paths: its problem is the answer.
 */
export async function playMove<N extends GameMoveName>(
  gameId: string,
  command: N,
  args: GameMoveBody<N> | undefined,
  rest: (init: { headers: Record<string, string> }) => Promise<MoveAnswer>,
): Promise<MoveAnswer> {
  const idempotencyKey = `web-${randomSeed()}`;
  const connecting = commandChannel();
  if (connecting) {
    try {
      const open = await connecting;
      await open.move(gameId, command, args, { idempotencyKey });
      return await api.GET('/v1/games/{id}', { params: { path: { id: gameId } } });
    } catch (err) {
      if (err instanceof FairdiceError)
        return { error: err.problem, response: new Response(null, { status: err.status || 400 }) };
      // The channel is down: REST from here.
    }
  }
  return rest({ headers: { 'Idempotency-Key': idempotencyKey } });
}

/** A sentence for a person: the problem's detail (or title), never its code. */
export function sentence(err: unknown): string {
  if (err instanceof FairdiceError) {
    const p = err.problem;
    // A validation problem: its first field's first complaint reads best ("displayName must …").
    const errors = p.errors as Array<{ field: string; problems: string[] }> | undefined;
    const first = errors?.[0]?.problems?.[0];
    const raw = first ?? (p.detail || p.title || 'The service refused the request');
    const text = raw.charAt(0).toUpperCase() + raw.slice(1);
    return /[.!?]$/.test(text) ? text : `${text}.`;
  }
  if (err instanceof TypeError) return 'The service cannot be reached. Check your connection and try again.';
  return err instanceof Error ? err.message : String(err);
}

/**
 * The seconds to wait before asking again when the service is still computing an advice table (503
 * TABLE_BUILDING, or ADVICE_BUSY while too many wait; both carry retryAfterSeconds); null for any
 * other error.
 */
export function tableRetrySeconds(err: unknown): number | null {
  if (!(err instanceof FairdiceError) || (err.code !== 'TABLE_BUILDING' && err.code !== 'ADVICE_BUSY')) return null;
  const retry = Number(err.problem.retryAfterSeconds ?? 0);
  return retry > 0 ? retry : 2;
}

/** 16 random bytes as hex: the seed a player gives after seeing the commitment (docs/fairness.md). */
export function randomSeed(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}

/** The commitment this browser saw first for a game, noted so the final audit is checked against it. */
export function notedCommitment(gameId: string, seen?: string): string | undefined {
  const key = `fairdice.commitment.${gameId}`;
  const noted = localStorage.getItem(key);
  if (noted) return noted;
  if (seen) localStorage.setItem(key, seen);
  return seen;
}

/**
 * Follows a game's events for as long as `signal` is not aborted: the SDK's stream (resumed with
 * Last-Event-ID after a drop), restarted after the last version seen if the stream gives up.
 * `onEvent` gets each event once; `onStatus` says whether the stream is live.
 */
export async function followGame(
  gameId: string,
  after: () => number,
  onEvent: (event: GameEvent) => void,
  onStatus: (live: boolean) => void,
  signal: AbortSignal,
): Promise<void> {
  while (!signal.aborted) {
    try {
      onStatus(true);
      for await (const event of gameEventStream({
        baseUrl,
        gameId,
        token: session.token() ?? undefined,
        after: after(),
        signal,
        maxReconnects: 1_000_000,
        // Every (re)connection attempt says whether the stream is up: the page shows "Reconnecting…".
        fetch: async (request) => {
          try {
            const response = await globalThis.fetch(request);
            onStatus(response.ok);
            return response;
          } catch (err) {
            onStatus(false);
            throw err;
          }
        },
      })) {
        onStatus(true);
        onEvent(event);
      }
      return; // the game ended (gameFinished / gameAbandoned)
    } catch (err) {
      if (signal.aborted) return;
      onStatus(false);
      if (err instanceof FairdiceError && [401, 403, 404].includes(err.status)) return;
      await new Promise((resolve) => setTimeout(resolve, 1000));
    }
  }
}

/**
 * Follows a tournament's live standings while `signal` is not aborted: the SDK's SSE reader
 * (reopened after a drop; every connection starts with the standings of that moment), restarted if
 * it gives up. Returns when the standings are final (finished or cancelled) or access is refused.
 */
export async function followStandings(
  tournamentId: string,
  onStandings: (standings: TournamentStandings) => void,
  onStatus: (live: boolean) => void,
  signal: AbortSignal,
): Promise<void> {
  while (!signal.aborted) {
    try {
      for await (const standings of tournamentStandingsStream({
        baseUrl,
        tournamentId,
        token: session.token() ?? undefined,
        signal,
        maxReconnects: 1_000_000,
        fetch: async (request) => {
          try {
            const response = await globalThis.fetch(request);
            onStatus(response.ok);
            return response;
          } catch (err) {
            onStatus(false);
            throw err;
          }
        },
      })) {
        onStatus(true);
        onStandings(standings);
      }
      return;
    } catch (err) {
      if (signal.aborted) return;
      onStatus(false);
      if (err instanceof FairdiceError && [401, 403, 404].includes(err.status)) return;
      await new Promise((resolve) => setTimeout(resolve, 1000));
    }
  }
}

/**
 * Follows my event stream (GET /v1/players/me/events: yourTurn, gameStarted, gameFinished,
 * seatTaken…) for as long as the returned function is not called: each message is handed to
 * `onEvent`. The SDK reopens a dropped connection with Last-Event-ID; if it gives up, this opens
 * the stream again 5 s later (and `onEvent` gets a resync-like call so the page reloads).
 */
export function followMyEvents(onEvent: (event: PlayerStreamMessage | null) => void): () => void {
  const stop = new AbortController();
  void (async () => {
    while (!stop.signal.aborted) {
      const token = session.token();
      if (!token) return;
      try {
        for await (const event of playerEventStream({ baseUrl, token, signal: stop.signal })) onEvent(event);
      } catch {
        // given up or refused: try again a little later
      }
      if (stop.signal.aborted) return;
      await new Promise((r) => setTimeout(r, 5000));
      onEvent(null);
    }
  })();
  return () => stop.abort();
}
