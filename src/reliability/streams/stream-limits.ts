/**
 * Bounds on long-lived connections (docs/operations.md, *Threat model*, "Live connections"):
 * GraphQL WebSockets per client address and per player, subscriptions per WebSocket, and SSE
 * streams per client address. Every slot is counted while it is open and given back when it
 * closes, so the gauges in /metrics return to 0 when the clients are gone. Per instance: each
 * instance bounds its own sockets (a client behind a load balancer may hold the cap on each).
 *
 * Over a cap: a WebSocket is closed with code 4429 (reason names the cap), a subscription gets an
 * error with extensions.code TOO_MANY_STREAMS, an SSE request gets 429 TOO_MANY_STREAMS with
 * Retry-After.
 */
import { DomainException } from '../../common/errors';

/** WebSocket close code for a connection over a cap (graphql-ws uses 44xx for 4xx-like closes). */
export const WS_CLOSE_TOO_MANY_CONNECTIONS = 4429;

/** Retry-After (seconds) of a refused SSE stream: a slot frees when one of the client's streams ends. */
export const STREAM_RETRY_AFTER_SECONDS = 5;

export interface StreamLimitSettings {
  wsPerAddress: number;
  wsPerPlayer: number;
  subscriptionsPerConnection: number;
  ssePerAddress: number;
  /** A WebSocket that sends no connection_init within this time is closed (graphql-ws: 4408). */
  connectionInitTimeoutMs: number;
}

export type StreamKind = 'websocket' | 'subscription' | 'sse';
export type RefusalReason = 'per_address' | 'per_player' | 'per_connection';

/** What the metrics read and record (src/metrics). */
export interface StreamCounts {
  websockets: number;
  subscriptions: number;
  sse: number;
}

/** Counts per key; a key is dropped at 0 so that closed clients leave nothing behind. */
class Tally {
  private readonly counts = new Map<string, number>();
  total = 0;

  get(key: string): number {
    return this.counts.get(key) ?? 0;
  }

  add(key: string): void {
    this.counts.set(key, this.get(key) + 1);
    this.total++;
  }

  remove(key: string): void {
    const n = this.get(key) - 1;
    if (n > 0) this.counts.set(key, n);
    else this.counts.delete(key);
    this.total--;
  }

  get keys(): number {
    return this.counts.size;
  }
}

/** A held slot; release() is idempotent. */
export interface Slot {
  release(): void;
}

const once = (f: () => void): Slot => {
  let done = false;
  return {
    release() {
      if (done) return;
      done = true;
      f();
    },
  };
};

export class StreamLimits {
  private readonly wsByAddress = new Tally();
  private readonly wsByPlayer = new Tally();
  private readonly sseByAddress = new Tally();
  private subscriptionsOpen = 0;
  /** Called on every refusal (metrics). */
  onRefused: (kind: StreamKind, reason: RefusalReason) => void = () => undefined;
  /** Resolves a bearer token to its player id (set once the players service exists). */
  playerOf: ((token: string) => Promise<string | null>) | null = null;
  /**
   * Watches a connection's token (PlayersService.watchToken, set by app.factory): `onRevoked` once
   * it stops authenticating; returns stop. null: not watched.
   */
  watchToken: ((token: string, playerId: string, onRevoked: () => void) => () => void) | null = null;

  constructor(readonly settings: StreamLimitSettings) {}

  /** A WebSocket from `address`: a slot, or null when the address holds the cap already. */
  openWebSocket(address: string): Slot | null {
    if (this.wsByAddress.get(address) >= this.settings.wsPerAddress) {
      this.onRefused('websocket', 'per_address');
      return null;
    }
    this.wsByAddress.add(address);
    return once(() => this.wsByAddress.remove(address));
  }

  /** The WebSocket's player (known at connection_init): a slot, or null over the per-player cap. */
  identifyWebSocket(playerId: string): Slot | null {
    if (this.wsByPlayer.get(playerId) >= this.settings.wsPerPlayer) {
      this.onRefused('websocket', 'per_player');
      return null;
    }
    this.wsByPlayer.add(playerId);
    return once(() => this.wsByPlayer.remove(playerId));
  }

  /** A subscription on a connection that already has `active` running: a slot, or null. */
  openSubscription(active: number): Slot | null {
    if (active >= this.settings.subscriptionsPerConnection) {
      this.onRefused('subscription', 'per_connection');
      return null;
    }
    this.subscriptionsOpen++;
    return once(() => this.subscriptionsOpen--);
  }

  /** An SSE stream from `address`; over the cap: 429 TOO_MANY_STREAMS with Retry-After. */
  openSse(address: string): Slot {
    if (this.sseByAddress.get(address) >= this.settings.ssePerAddress) {
      this.onRefused('sse', 'per_address');
      throw new DomainException(
        'TOO_MANY_STREAMS',
        `This client already holds ${this.settings.ssePerAddress} event streams; close one first`,
        { limit: this.settings.ssePerAddress, retryAfterSeconds: STREAM_RETRY_AFTER_SECONDS },
        { 'retry-after': String(STREAM_RETRY_AFTER_SECONDS) },
      );
    }
    this.sseByAddress.add(address);
    return once(() => this.sseByAddress.remove(address));
  }

  counts(): StreamCounts {
    return { websockets: this.wsByAddress.total, subscriptions: this.subscriptionsOpen, sse: this.sseByAddress.total };
  }

  /** Distinct keys still tracked (0 once every client is gone: nothing is kept for closed ones). */
  trackedKeys(): number {
    return this.wsByAddress.keys + this.wsByPlayer.keys + this.sseByAddress.keys;
  }
}

/** Nest injection token of the instance's StreamLimits. */
export const STREAM_LIMITS = Symbol('STREAM_LIMITS');
