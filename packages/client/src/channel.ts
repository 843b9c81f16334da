/**
 * The WebSocket command channel (`/v1/ws`, docs/api.md "WebSocket command channel"): one
 * connection, authenticated once, for moves (each answered by its events and the new version) and
 * the events of followed games. Works with the browser's WebSocket or `ws` in Node
 * (`webSocketImpl: require('ws')`).
 *
 *   const channel = await FairdiceChannel.connect('wss://dice.example/v1/ws', token);
 *   const { version, events } = await channel.move(gameId, 'roll', { hold: [0, 1] }, { expectedVersion: 6 });
 *   const stop = await channel.subscribe(gameId, { after: 6, onEvent: (e) => … });
 *
 * A refused move rejects with a FairdiceError carrying the problem (same codes as REST).
 */
import { FairdiceError, type Problem } from './errors';
import type { GameMoveBody, GameMoveName } from './moves';
import type { GameEvent } from './types';

/** The subprotocol of the channel, and the prefix of the one carrying the token. */
export const CHANNEL_PROTOCOL = 'fairdice.v1';
export const CHANNEL_TOKEN_PROTOCOL_PREFIX = 'fairdice.token.';

/** What the channel needs of a WebSocket (the browser's, or `ws`'s). */
interface SocketLike {
  readonly readyState: number;
  send(data: string): void;
  close(code?: number, reason?: string): void;
  onopen: ((ev: unknown) => void) | null;
  onmessage: ((ev: { data: unknown }) => void) | null;
  onclose: ((ev: { code: number; reason: string }) => void) | null;
  onerror: ((ev: unknown) => void) | null;
}
type SocketConstructor = new (url: string, protocols: string[]) => SocketLike;

export interface ChannelOptions {
  /** A WebSocket constructor where there is no global one (Node < 22: `require('ws')`). */
  webSocketImpl?: unknown;
  /**
   * true (default): the token travels as the `fairdice.token.<token>` subprotocol of the
   * handshake; false: as the first frame (`{"type":"auth"}`).
   */
  tokenInProtocol?: boolean;
  /** Called once when the connection closes (code 4413: read too slowly; 1001: the service stops). */
  onClose?: (code: number, reason: string) => void;
}

/** The answer to a move: the events it appended and the game's version after it. */
export interface MoveResult {
  gameId: string;
  version: number;
  events: GameEvent[];
  /** True: the stored outcome of an earlier move with the same idempotency key. */
  replayed: boolean;
}

export interface MoveOptions {
  /** The version you decided on: another one is VERSION_CONFLICT. */
  expectedVersion?: number;
  /** As REST's Idempotency-Key: a retry gets the first outcome. */
  idempotencyKey?: string;
}

export interface FollowOptions {
  /** Only events after this version (resume). */
  after?: number;
  onEvent: (event: GameEvent) => void;
  /** The following ended: the game ended (`reason: "ended"`), or an error (GAME_ACCESS_REVOKED). */
  onEnd?: (reason: 'ended' | 'unsubscribed' | Problem) => void;
}

type Frame = Record<string, unknown> & { type: string; id?: string | null };

const OPEN = 1;

export class FairdiceChannel {
  private seq = 0;
  private readonly pending = new Map<string, { resolve: (f: Frame) => void; reject: (e: Error) => void }>();
  private readonly follows = new Map<string, FollowOptions>();
  /** The player the token belongs to. */
  playerId = '';

  private constructor(
    private readonly ws: SocketLike,
    private readonly options: ChannelOptions,
  ) {}

  /** Opens and authenticates a connection; resolves once the server is `ready`. */
  static connect(url: string, token: string, options: ChannelOptions = {}): Promise<FairdiceChannel> {
    const Impl = (options.webSocketImpl ?? (globalThis as { WebSocket?: unknown }).WebSocket) as
      SocketConstructor | undefined;
    if (!Impl) throw new Error('No WebSocket implementation: pass webSocketImpl (e.g. require("ws"))');
    const inProtocol = options.tokenInProtocol ?? true;
    const protocols = inProtocol ? [CHANNEL_PROTOCOL, CHANNEL_TOKEN_PROTOCOL_PREFIX + token] : [CHANNEL_PROTOCOL];
    const ws = new Impl(url, protocols);
    const channel = new FairdiceChannel(ws, options);
    return new Promise((resolve, reject) => {
      let ready = false;
      ws.onopen = () => {
        if (!inProtocol) ws.send(JSON.stringify({ type: 'auth', token }));
      };
      ws.onerror = () => {
        if (!ready) reject(new Error('The channel could not connect'));
      };
      ws.onclose = (ev) => {
        channel.closed(ev.code, ev.reason);
        if (!ready) reject(new Error(`The channel closed before it was ready (${ev.code} ${ev.reason})`));
      };
      ws.onmessage = (ev) => {
        const frame = JSON.parse(String(ev.data)) as Frame;
        if (!ready && frame.type === 'ready') {
          ready = true;
          channel.playerId = String(frame.playerId);
          resolve(channel);
          return;
        }
        if (!ready && frame.type === 'error') {
          reject(new FairdiceError(frame.problem as Problem));
          return;
        }
        channel.onFrame(frame);
      };
    });
  }

  /** Sends a move (a command of the move tables) and resolves with its answer. */
  async move<N extends GameMoveName>(
    gameId: string,
    command: N,
    args?: GameMoveBody<N>,
    options: MoveOptions = {},
  ): Promise<MoveResult> {
    const frame = await this.request({
      type: 'move',
      gameId,
      command,
      ...(args !== undefined ? { args } : {}),
      ...(options.expectedVersion !== undefined ? { expectedVersion: options.expectedVersion } : {}),
      ...(options.idempotencyKey !== undefined ? { idempotencyKey: options.idempotencyKey } : {}),
    });
    return {
      gameId: String(frame.gameId),
      version: Number(frame.version),
      events: frame.events as GameEvent[],
      replayed: frame.replayed === true,
    };
  }

  /** Follows a game's events; resolves once following, with the function that stops it. */
  async subscribe(gameId: string, options: FollowOptions): Promise<() => Promise<void>> {
    const id = gameId.toLowerCase();
    this.follows.set(id, options);
    try {
      await this.request({
        type: 'subscribe',
        gameId,
        ...(options.after !== undefined ? { after: options.after } : {}),
      });
    } catch (err) {
      this.follows.delete(id);
      throw err;
    }
    return async () => {
      if (!this.follows.delete(id)) return;
      await this.request({ type: 'unsubscribe', gameId });
    };
  }

  close(): void {
    this.ws.close(1000, 'bye');
  }

  private request(frame: Record<string, unknown>): Promise<Frame> {
    if (this.ws.readyState !== OPEN) return Promise.reject(new Error('The channel is closed'));
    const id = `c${++this.seq}`;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.ws.send(JSON.stringify({ ...frame, id }));
    });
  }

  private onFrame(frame: Frame): void {
    const gameId = typeof frame.gameId === 'string' ? frame.gameId : null;
    const follow = gameId === null ? undefined : this.follows.get(gameId);
    if (frame.type === 'event') {
      follow?.onEvent(frame.event as GameEvent);
      return;
    }
    if (frame.type === 'unsubscribed' && frame.reason === 'ended' && follow) {
      this.follows.delete(gameId!);
      follow.onEnd?.('ended');
    }
    if (frame.type === 'error' && follow) {
      this.follows.delete(gameId!);
      follow.onEnd?.(frame.problem as Problem);
      return;
    }
    const waiting = typeof frame.id === 'string' ? this.pending.get(frame.id) : undefined;
    if (!waiting) return;
    this.pending.delete(frame.id as string);
    if (frame.type === 'error') waiting.reject(new FairdiceError(frame.problem as Problem));
    else waiting.resolve(frame);
  }

  private closed(code: number, reason: string): void {
    for (const { reject } of this.pending.values()) reject(new Error(`The channel closed (${code} ${reason})`));
    this.pending.clear();
    this.options.onClose?.(code, reason);
  }
}
