/** The per-player event stream's types (docs/async.md, *Player events*). */
import { PLAYER_NOTICE_TYPES } from '../event-store/player-notices';

/** Every type a stream delivers from the store, in the order of docs/async.md. */
export const PLAYER_EVENT_TYPES = PLAYER_NOTICE_TYPES;
export type PlayerEventType = (typeof PLAYER_EVENT_TYPES)[number];

/** The NOTIFY channel of stored player events: '<playerId>:<seq>'. */
export const PLAYER_EVENTS_CHANNEL = 'fairdice_player_events';

/** Queue of the deadlineSoon reminders, and of the periodic prune of old events. */
export const DEADLINE_SOON_QUEUE = 'deadline-soon';
export const PLAYER_EVENTS_PRUNE_QUEUE = 'player-events-prune';
export const PLAYER_EVENTS_PRUNE_KEY = 'player-events-prune';
/** Queue of the Web Push deliveries (one job per event and subscription). */
export const PUSH_QUEUE = 'push';

/** The share of the turn time limit left when deadlineSoon is raised, unless the player chose another. */
export const DEFAULT_DEADLINE_SOON_SHARE = 0.25;

/** The event types pushed (Web Push) unless the player chose others. */
export const DEFAULT_PUSH_EVENTS: readonly PlayerEventType[] = ['yourTurn', 'gameFinished'];

/** One stored event of a player's stream. */
export interface PlayerEventRecord {
  /** The player's own sequence number: strictly increasing (gaps are possible), never reused. */
  seq: number;
  type: PlayerEventType;
  /** ISO time it was stored. */
  createdAt: string;
  data: Record<string, unknown>;
}

/** The stream's message when the client's position is older than the retention: start over. */
export interface ResyncItem {
  kind: 'resync';
  /** The stream continues after this sequence number (also the SSE id of the message). */
  seq: number;
  reason: 'retention';
}

/** The stream's last message when the token that opened it no longer authenticates. */
export interface RevokedItem {
  kind: 'revoked';
}

export type PlayerStreamItem = PlayerEventRecord | ResyncItem | RevokedItem;

export const isResync = (i: PlayerStreamItem): i is ResyncItem => (i as ResyncItem).kind === 'resync';
export const isRevoked = (i: PlayerStreamItem): i is RevokedItem => (i as RevokedItem).kind === 'revoked';
