/**
 * One client connection of the command channel: its authentication (the token subprotocol or the
 * first frame, within WS_CONNECTION_INIT_TIMEOUT_MS; one slot of the per-player cap), the
 * dispatch of its frames, the bound on its commands in flight, and sending with back-pressure
 * (WS_MAX_BUFFERED_BYTES). Moves run in move-frames.ts, followed games in followed-games.ts.
 */
import type { Problem } from '../../common/errors';
import type { AuthenticatedPlayer } from '../../players/players.types';
import type { Slot } from '../../reliability/streams/stream-limits';
import { type ChannelContext, OPEN, type Socket } from './channel-context';
import { problemOf, problemOfError } from './channel-problems';
import { hasScope, insufficientScope, type RequiredScope } from '../../players/require-scope';
import { FollowedGames, type FrameSink } from './followed-games';
import { parseFrame } from './frame-parsing';
import { CHANNEL_MOVES, CLOSE, idOf, MAX_FRAME_BYTES, type MoveFrame } from './frames';
import { answerFrame, runMove, versionConflict } from './move-frames';

const scopeProblem = (scope: RequiredScope): Problem => {
  const e = insufficientScope(scope);
  return problemOf(e.code, e.message, e.details);
};

/** One client connection: authentication, then frames (exported for its unit test). */
export class Connection implements FrameSink {
  private player: AuthenticatedPlayer | null = null;
  /** The authentication under way (frames that arrive meanwhile wait for it, in order). */
  private authenticating: Promise<void> | null = null;
  private authTimer: NodeJS.Timeout | null = null;
  private playerSlot: Slot | null = null;
  private inFlight = 0;
  private readonly following: FollowedGames;
  private closed = false;
  /** Stops watching the token (a revoked token ends the connection). */
  private unwatch: (() => void) | null = null;

  constructor(
    private readonly ws: Socket,
    private readonly ctx: ChannelContext,
    token: string | null,
  ) {
    this.following = new FollowedGames(ctx, this);
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

  send(frame: object): void {
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

  sendError(id: string | null, problem: Problem, extra: object = {}): void {
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
    this.unwatch?.();
    this.unwatch = null;
    this.following.stopAll();
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
          // A rotated, revoked or expired token ends the connection (docs/accounts.md "Scoped tokens").
          this.unwatch =
            this.ctx.watchToken?.(token, player.id, () => {
              this.sendError(
                null,
                problemOf(
                  'UNAUTHENTICATED',
                  'The token of this connection no longer authenticates (rotated, revoked or expired)',
                ),
              );
              this.end(CLOSE.UNAUTHENTICATED, 'Token revoked');
            }) ?? null;
          this.send({
            type: 'ready',
            playerId: player.id,
            maxInFlight: this.ctx.settings.maxInFlight,
            maxFrameBytes: MAX_FRAME_BYTES,
          });
        },
        (err: unknown) => {
          this.sendError(null, problemOfError(this.ctx, err));
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
    const parsed = parseFrame(this.ctx, data, isBinary);
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
        if (!hasScope(this.player.scopes, 'game:read')) return this.sendError(frame.id, scopeProblem('game:read'));
        return void this.following.subscribe(frame, this.player);
      case 'unsubscribe':
        return this.following.unsubscribe(frame.id, frame.gameId);
    }
  }

  // ---------------------------------------------------------------- moves, at most maxInFlight at a time

  private move(frame: MoveFrame, player: AuthenticatedPlayer): void {
    const move = CHANNEL_MOVES.get(frame.command);
    if (!move)
      return this.sendError(
        frame.id,
        problemOf('UNSUPPORTED_OPERATION', `No command named ${frame.command}`, {
          commands: [...CHANNEL_MOVES.keys()],
        }),
      );
    // Each move needs the scope its table declares (game:play for a turn's moves, game:create around play).
    if (!hasScope(player.scopes, move.scope)) return this.sendError(frame.id, scopeProblem(move.scope));
    const max = this.ctx.settings.maxInFlight;
    if (this.inFlight >= max)
      return this.sendError(
        frame.id,
        problemOf('TOO_MANY_IN_FLIGHT', `${max} commands of this connection await their answer; wait for one`, {
          limit: max,
        }),
      );
    this.inFlight++;
    runMove(this.ctx, frame, move, player)
      .then(
        ({ result, replayed }) => this.send(answerFrame(frame.id, result, replayed)),
        (err: unknown) => this.sendError(frame.id, problemOfError(this.ctx, versionConflict(err))),
      )
      .finally(() => this.inFlight--)
      .catch(() => undefined); // sending the answer cannot fail the process
  }
}
