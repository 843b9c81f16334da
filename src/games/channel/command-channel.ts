/**
 * The WebSocket command channel (/v1/ws; docs/api.md "WebSocket command channel", decision 0123):
 * one connection, authenticated once, carries a client's moves and the events of the games it
 * follows. A move frame runs the same path as REST (GamesService.move → GameCommands → the one
 * CommandHandler: same rules, idempotency, error codes), charged to the same rate-limit bucket
 * (player:<id>); its answer is REST's compact answer (`Prefer: return=minimal`) with the frame's
 * id. No Nest pipeline per frame: a zod schema for the frame, the move's own DTO class (REST's
 * ValidationPipe, called directly) for its args, then the service.
 *
 * Bounds (decision 0085, docs/operations.md "Live connections"): the WebSocket caps per address
 * (at the upgrade) and per player (at authentication), subscriptions per connection, the time to
 * authenticate; here also commands in flight per connection (WS_MAX_COMMANDS_IN_FLIGHT) and the
 * unsent bytes of a reader (WS_MAX_BUFFERED_BYTES: past it the connection is dropped, as SSE's).
 */
import type { IncomingMessage, Server } from 'node:http';
import type { Duplex } from 'node:stream';
import type { Logger as Pino } from 'pino';
import { DomainException, normalizeError, strictValidationPipe, type Problem } from '../../common/errors';
import { NoFieldsPipe } from '../../common/dto/no-fields.pipe';
import type { AuthenticatedPlayer } from '../../players/players.types';
import {
  findUnsafeNumber,
  jsonNestingExceeds,
  jsonTooDeep,
  MAX_JSON_DEPTH,
  unsafeNumber,
} from '../../reliability/http/json-body';
import type { Slot, StreamLimits } from '../../reliability/streams/stream-limits';
import { registerWebSocketLimits } from '../../reliability/streams/websocket-limits';
import type { CommandOptions, CommandResult } from '../games.types';
import type { GamesService } from '../games.service';
import { isAccessRevoked, type GameEventStream } from '../game-stream';
import { toEventView } from '../game-view';
import type { GameMove } from '../moves/move-definition';
import {
  CHANNEL_MOVES,
  CHANNEL_PATH,
  CHANNEL_PROTOCOL,
  CLIENT_FRAME,
  CLOSE,
  idOf,
  MAX_FRAME_BYTES,
  type MoveFrame,
  type SubscribeFrame,
  TOKEN_PROTOCOL_PREFIX,
  zodProblems,
} from './frames';

/** The minimal `ws` socket this module uses. */
interface Socket {
  readonly readyState: number;
  readonly bufferedAmount: number;
  send(data: string): void;
  close(code: number, reason: string): void;
  terminate(): void;
  on(event: 'message', listener: (data: Buffer, isBinary: boolean) => void): void;
  on(event: 'close', listener: () => void): void;
  on(event: 'error', listener: (err: Error) => void): void;
}

interface Wss {
  handleUpgrade(req: IncomingMessage, socket: Duplex, head: Buffer, cb: (ws: Socket) => void): void;
  close(): void;
}

// eslint-disable-next-line @typescript-eslint/no-require-imports -- ws ships no types here (graphql-ws and Nest use it too)
const { WebSocketServer } = require('ws') as {
  WebSocketServer: new (options: {
    noServer: true;
    maxPayload: number;
    handleProtocols: (protocols: Set<string>) => string | false;
  }) => Wss;
};

const OPEN = 1;

/** A charge of one request to a rate-limit bucket (src/reliability/rate-limit). */
export type RateCharge = (key: string) => Promise<{ allowed: boolean; limit: number; resetSeconds: number }>;

export interface CommandChannelSettings {
  /** Moves awaiting their answer on one connection; one more is TOO_MANY_IN_FLIGHT. */
  maxInFlight: number;
  /** Unsent bytes of one connection; past it the connection is dropped (4413). */
  maxBufferedBytes: number;
  /** Time to authenticate (WS_CONNECTION_INIT_TIMEOUT_MS); then 4408. */
  authTimeoutMs: number;
}

export interface CommandChannelDeps {
  games: GamesService;
  authenticate: (token: string) => Promise<AuthenticatedPlayer | null>;
  limits: StreamLimits;
  addressOf: (req: IncomingMessage) => string;
  /** null: rate limits are off (RATE_LIMIT_ENABLED=false). */
  charge: RateCharge | null;
  settings: CommandChannelSettings;
  logger: Pino;
  /** Called once per connection dropped for not reading. */
  onDropped?: () => void;
}

const pathOf = (url: string | undefined) => (url ?? '').split('?')[0];

/** The token of a `fairdice.token.<token>` subprotocol, if the handshake offered one. */
function protocolToken(req: IncomingMessage): string | null {
  const header = req.headers['sec-websocket-protocol'];
  for (const p of String(header ?? '').split(',')) {
    const v = p.trim();
    if (v.startsWith(TOKEN_PROTOCOL_PREFIX)) return v.slice(TOKEN_PROTOCOL_PREFIX.length);
  }
  return null;
}

/**
 * Serves the channel on `server` at CHANNEL_PATH. Returns close(): every connection is closed
 * with 1001 (app shutdown).
 */
export function registerCommandChannel(server: Server, deps: CommandChannelDeps): { close(): void } {
  const wss = new WebSocketServer({
    noServer: true,
    maxPayload: MAX_FRAME_BYTES,
    // Select the channel's protocol; a token subprotocol is read, never selected (never echoed).
    handleProtocols: (protocols) => (protocols.has(CHANNEL_PROTOCOL) ? CHANNEL_PROTOCOL : false),
  });
  const connections = new Set<Connection>();
  const context: ChannelContext = {
    ...deps,
    validation: strictValidationPipe(),
    noFields: new NoFieldsPipe(),
  };
  // Per-address slots at the upgrade (over the cap: 4429), as for /graphql.
  registerWebSocketLimits(server, deps.limits, deps.addressOf, CHANNEL_PATH);
  server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    if (pathOf(req.url) !== CHANNEL_PATH) return;
    wss.handleUpgrade(req, socket, head, (ws) => {
      const connection = new Connection(ws, context, protocolToken(req));
      connections.add(connection);
      ws.on('close', () => connections.delete(connection));
    });
  });
  return {
    close() {
      for (const c of connections) c.shutdown();
      wss.close();
    },
  };
}

export interface ChannelContext extends CommandChannelDeps {
  validation: ReturnType<typeof strictValidationPipe>;
  noFields: NoFieldsPipe;
}

interface Following {
  id: string;
  stream: GameEventStream | null;
  slot: Slot;
  /** Set when the client unsubscribed (the pump then sends nothing more). */
  stopped: boolean;
}

const problemOf = (code: ConstructorParameters<typeof DomainException>[0], detail: string, extra?: object) =>
  normalizeError(new DomainException(code, detail, extra as Record<string, unknown> | undefined), CHANNEL_PATH).problem;

/** One client connection: authentication, then frames (exported for its unit test). */
export class Connection {
  private player: AuthenticatedPlayer | null = null;
  /** The authentication under way (frames that arrive meanwhile wait for it, in order). */
  private authenticating: Promise<void> | null = null;
  private authTimer: NodeJS.Timeout | null = null;
  private playerSlot: Slot | null = null;
  private inFlight = 0;
  private readonly following = new Map<string, Following>();
  private closed = false;

  constructor(
    private readonly ws: Socket,
    private readonly ctx: ChannelContext,
    token: string | null,
  ) {
    ws.on('message', (data, isBinary) => this.onMessage(data, isBinary));
    ws.on('close', () => this.cleanup());
    ws.on('error', () => this.cleanup());
    if (token !== null) this.authenticate(token);
    else {
      this.authTimer = setTimeout(() => {
        this.sendError(null, problemOf('UNAUTHENTICATED', `No auth frame within ${ctx.settings.authTimeoutMs} ms`));
        this.end(CLOSE.AUTH_TIMEOUT, 'Authentication timed out');
      }, ctx.settings.authTimeoutMs);
      this.authTimer.unref();
    }
  }

  shutdown(): void {
    this.end(CLOSE.GOING_AWAY, 'The service is shutting down');
  }

  // ---------------------------------------------------------------- sending, with back-pressure

  private send(frame: object): void {
    if (this.closed || this.ws.readyState !== OPEN) return;
    const text = JSON.stringify(frame);
    // `ws` holds what the socket has not taken yet: past the bound, the reader is dropped.
    if (this.ws.bufferedAmount + Buffer.byteLength(text) > this.ctx.settings.maxBufferedBytes) {
      this.ctx.onDropped?.();
      this.end(CLOSE.TOO_SLOW, 'Too many unread frames');
      this.ws.terminate();
      return;
    }
    this.ws.send(text);
  }

  private sendError(id: string | null, problem: Problem, extra: object = {}): void {
    this.send({ type: 'error', id, ...extra, problem });
  }

  private end(code: number, reason: string): void {
    if (this.closed) return;
    this.closed = true;
    if (this.ws.readyState === OPEN) this.ws.close(code, reason);
    this.cleanup();
  }

  private cleanup(): void {
    this.closed = true;
    if (this.authTimer) clearTimeout(this.authTimer);
    this.authTimer = null;
    this.playerSlot?.release();
    this.playerSlot = null;
    for (const f of this.following.values()) {
      f.stopped = true;
      f.stream?.close();
      f.slot.release();
    }
    this.following.clear();
  }

  // ---------------------------------------------------------------- authentication

  private authenticate(token: string): void {
    if (this.authTimer) clearTimeout(this.authTimer);
    this.authTimer = null;
    this.authenticating = this.ctx
      .authenticate(token)
      .then(
        (player) => {
          if (this.closed) return;
          if (!player) {
            this.sendError(null, problemOf('UNAUTHENTICATED', 'The token is not valid (rotated or never issued)'));
            return this.end(CLOSE.UNAUTHENTICATED, 'Unauthenticated');
          }
          const slot = this.ctx.limits.identifyWebSocket(player.id);
          if (!slot) {
            const max = this.ctx.limits.settings.wsPerPlayer;
            this.sendError(
              null,
              problemOf('TOO_MANY_STREAMS', `This player already holds ${max} WebSockets`, { limit: max }),
            );
            return this.end(CLOSE.TOO_MANY_CONNECTIONS, 'Too many connections for this player');
          }
          this.playerSlot = slot;
          this.player = player;
          this.send({
            type: 'ready',
            playerId: player.id,
            maxInFlight: this.ctx.settings.maxInFlight,
            maxFrameBytes: MAX_FRAME_BYTES,
          });
        },
        (err: unknown) => {
          this.sendError(null, this.problemOfError(err));
          this.end(1011, 'Authentication failed');
        },
      )
      .finally(() => (this.authenticating = null));
  }

  // ---------------------------------------------------------------- frames

  private onMessage(data: Buffer, isBinary: boolean): void {
    if (this.closed) return;
    if (this.authenticating) {
      // Kept in order behind the authentication.
      void this.authenticating.then(() => this.onMessage(data, isBinary));
      return;
    }
    const parsed = this.parse(data, isBinary);
    if (!this.player) {
      if (parsed.ok && parsed.frame.type === 'auth') return this.authenticate(parsed.frame.token);
      this.sendError(
        parsed.ok ? idOf(parsed.frame) : null,
        problemOf('UNAUTHENTICATED', 'The first frame must be {"type":"auth","token":"<token>"}'),
      );
      return this.end(CLOSE.UNAUTHENTICATED, 'Unauthenticated');
    }
    if (!parsed.ok) return this.sendError(parsed.id, parsed.problem);
    const frame = parsed.frame;
    switch (frame.type) {
      case 'auth':
        return this.sendError(null, problemOf('VALIDATION_FAILED', 'This connection is already authenticated'));
      case 'ping':
        return this.send({ type: 'pong', id: frame.id ?? null });
      case 'move':
        return this.move(frame, this.player);
      case 'subscribe':
        return void this.subscribe(frame, this.player);
      case 'unsubscribe': {
        const f = this.following.get(frame.gameId.toLowerCase());
        if (!f)
          return this.sendError(frame.id, problemOf('VALIDATION_FAILED', 'This connection does not follow that game'));
        this.stopFollowing(frame.gameId.toLowerCase(), f);
        return this.send({
          type: 'unsubscribed',
          id: frame.id,
          gameId: frame.gameId.toLowerCase(),
          reason: 'unsubscribed',
        });
      }
    }
  }

  private parse(
    data: Buffer,
    isBinary: boolean,
  ): { ok: true; frame: ReturnType<typeof CLIENT_FRAME.parse> } | { ok: false; id: string | null; problem: Problem } {
    if (isBinary)
      return { ok: false, id: null, problem: problemOf('MALFORMED_REQUEST', 'Frames are JSON text frames') };
    const text = data.toString('utf8');
    if (jsonNestingExceeds(text, MAX_JSON_DEPTH))
      return { ok: false, id: null, problem: this.problemOfError(jsonTooDeep()) };
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      return { ok: false, id: null, problem: problemOf('MALFORMED_REQUEST', 'The frame is not JSON') };
    }
    const unsafe = findUnsafeNumber(value);
    if (unsafe) return { ok: false, id: idOf(value), problem: this.problemOfError(unsafeNumber(unsafe)) };
    const result = CLIENT_FRAME.safeParse(value);
    if (!result.success) {
      const errors = zodProblems(result.error);
      const detail = errors.map((e) => `${e.field}: ${e.problems.join(', ')}`).join('; ');
      return { ok: false, id: idOf(value), problem: problemOf('VALIDATION_FAILED', detail, { errors }) };
    }
    return { ok: true, frame: result.data };
  }

  private problemOfError(err: unknown): Problem {
    const { problem, unexpected } = normalizeError(err, CHANNEL_PATH);
    if (unexpected)
      this.ctx.logger.error({ err, context: 'CommandChannel' }, 'unexpected error on the command channel');
    return problem;
  }

  // ---------------------------------------------------------------- moves

  private move(frame: MoveFrame, player: AuthenticatedPlayer): void {
    const move = CHANNEL_MOVES.get(frame.command);
    if (!move)
      return this.sendError(
        frame.id,
        problemOf('UNSUPPORTED_OPERATION', `No command named ${frame.command}`, {
          commands: [...CHANNEL_MOVES.keys()],
        }),
      );
    const max = this.ctx.settings.maxInFlight;
    if (this.inFlight >= max)
      return this.sendError(
        frame.id,
        problemOf('TOO_MANY_IN_FLIGHT', `${max} commands of this connection await their answer; wait for one`, {
          limit: max,
        }),
      );
    this.inFlight++;
    this.runMove(frame, move, player)
      .then(
        ({ result, replayed }) => this.send(answerFrame(frame.id, result, replayed)),
        (err: unknown) => this.sendError(frame.id, this.problemOfError(versionConflict(err))),
      )
      .finally(() => this.inFlight--)
      .catch(() => undefined); // sending the answer cannot fail the process
  }

  private async runMove(
    frame: MoveFrame,
    move: GameMove,
    player: AuthenticatedPlayer,
  ): Promise<{ result: CommandResult; replayed: boolean }> {
    await this.charge(player);
    const input = await this.input(move, frame.args);
    let replayed = false;
    const opts: CommandOptions = {
      idempotencyKey: frame.idempotencyKey ?? undefined,
      ifMatch:
        frame.expectedVersion === undefined || frame.expectedVersion === null ? undefined : [frame.expectedVersion],
      onReplay: () => (replayed = true),
      compact: true,
    };
    const result = await this.ctx.games.move(move, player, frame.gameId, input, opts);
    return { result, replayed };
  }

  /** The move's input checked as its REST body: the same DTO class and pipe (or no fields at all). */
  private async input(move: GameMove, args: Record<string, unknown> | undefined): Promise<object> {
    const body = move.rest.body;
    if (!body) return this.ctx.noFields.transform(args);
    return (await this.ctx.validation.transform(args ?? {}, { type: 'body', metatype: body.type })) as object;
  }

  /** One request against the player's rate-limit bucket, as a REST request. */
  private async charge(player: AuthenticatedPlayer): Promise<void> {
    if (!this.ctx.charge) return;
    const d = await this.ctx.charge('player:' + player.id);
    if (!d.allowed)
      throw new DomainException(
        'RATE_LIMITED',
        `More than ${d.limit} requests in a minute; retry after ${d.resetSeconds} s`,
        { limit: d.limit, retryAfterSeconds: d.resetSeconds },
      );
  }

  // ---------------------------------------------------------------- following games

  private async subscribe(frame: SubscribeFrame, player: AuthenticatedPlayer): Promise<void> {
    const gameId = frame.gameId.toLowerCase();
    if (this.following.has(gameId))
      return this.sendError(frame.id, problemOf('VALIDATION_FAILED', 'This connection already follows that game'));
    const slot = this.ctx.limits.openSubscription(this.following.size);
    if (!slot) {
      const max = this.ctx.limits.settings.subscriptionsPerConnection;
      return this.sendError(
        frame.id,
        problemOf('TOO_MANY_STREAMS', `This connection already follows ${max} games; unsubscribe first`, {
          limit: max,
        }),
      );
    }
    const f: Following = { id: frame.id, stream: null, slot, stopped: false };
    this.following.set(gameId, f);
    let stream: GameEventStream;
    try {
      await this.charge(player);
      stream = await this.ctx.games.stream(player, frame.gameId, frame.after ?? 0);
    } catch (err) {
      this.stopFollowing(gameId, f);
      return this.sendError(frame.id, this.problemOfError(err));
    }
    if (f.stopped) return void stream.close();
    f.stream = stream;
    this.send({ type: 'subscribed', id: frame.id, gameId });
    for await (const item of stream) {
      if (f.stopped) break;
      if (isAccessRevoked(item)) {
        this.sendError(
          frame.id,
          problemOf('GAME_ACCESS_REVOKED', 'You may no longer see this game; it is no longer followed', {
            version: item.version,
          }),
          { gameId },
        );
        this.stopFollowing(gameId, f);
        return;
      }
      this.send({ type: 'event', gameId, event: toEventView(item) });
    }
    if (f.stopped) return;
    // The game ended (its terminal event was the last one sent).
    this.stopFollowing(gameId, f);
    this.send({ type: 'unsubscribed', id: frame.id, gameId, reason: 'ended' });
  }

  private stopFollowing(gameId: string, f: Following): void {
    f.stopped = true;
    f.stream?.close();
    f.slot.release();
    if (this.following.get(gameId) === f) this.following.delete(gameId);
  }
}

/** The answer of a move: REST's compact answer (a rematch's is the new game's); a whole game should the service answer one. */
function answerFrame(id: string, result: CommandResult, replayed: boolean): object {
  if ('events' in result && !('id' in result))
    return { type: 'result', id, replayed, gameId: result.gameId, version: result.version, events: result.events };
  return { type: 'result', id, replayed, gameId: result.id, version: result.version, game: result };
}

/**
 * `expectedVersion` is the version the client decided on: another one is VERSION_CONFLICT (as a
 * race lost at the append), not REST's If-Match 412.
 */
function versionConflict(err: unknown): unknown {
  if (!(err instanceof DomainException) || err.code !== 'PRECONDITION_FAILED') return err;
  const current = err.details?.currentVersion;
  return new DomainException(
    'VERSION_CONFLICT',
    `The game is at version ${String(current)}, not the expected one; reload it and decide again`,
    { currentVersion: current },
  );
}
