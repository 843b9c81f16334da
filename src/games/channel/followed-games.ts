/**
 * The games a connection follows (subscribe / unsubscribe frames): each is a slot of the
 * per-connection subscription cap and a GameEventStream pumped into `event` frames until the
 * game ends, the client unsubscribes, its access is revoked or the connection closes.
 */
import type { Problem } from '../../common/errors';
import type { AuthenticatedPlayer } from '../../players/players.types';
import type { Slot } from '../../reliability/streams/stream-limits';
import { isAccessRevoked, type GameEventStream } from '../game-stream';
import { toEventView } from '../game-view';
import type { ChannelContext } from './channel-context';
import { problemOf, problemOfError } from './channel-problems';
import type { SubscribeFrame } from './frames';
import { chargePlayer } from './move-frames';

/** Where frames go: the connection, with its back-pressure. */
export interface FrameSink {
  send(frame: object): void;
  sendError(id: string | null, problem: Problem, extra?: object): void;
}

interface Following {
  id: string;
  stream: GameEventStream | null;
  slot: Slot;
  /** Set when the client unsubscribed (the pump then sends nothing more). */
  stopped: boolean;
}

export class FollowedGames {
  private readonly following = new Map<string, Following>();

  constructor(
    private readonly ctx: ChannelContext,
    private readonly out: FrameSink,
  ) {}

  async subscribe(frame: SubscribeFrame, player: AuthenticatedPlayer): Promise<void> {
    const gameId = frame.gameId.toLowerCase();
    if (this.following.has(gameId))
      return this.out.sendError(frame.id, problemOf('VALIDATION_FAILED', 'This connection already follows that game'));
    const slot = this.ctx.limits.openSubscription(this.following.size);
    if (!slot) {
      const max = this.ctx.limits.settings.subscriptionsPerConnection;
      return this.out.sendError(
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
      await chargePlayer(this.ctx, player);
      stream = await this.ctx.games.stream(player, frame.gameId, frame.after ?? 0);
    } catch (err) {
      this.stop(gameId, f);
      return this.out.sendError(frame.id, problemOfError(this.ctx, err));
    }
    if (f.stopped) return void stream.close();
    f.stream = stream;
    this.out.send({ type: 'subscribed', id: frame.id, gameId });
    for await (const item of stream) {
      if (f.stopped) break;
      if (isAccessRevoked(item)) {
        this.out.sendError(
          frame.id,
          problemOf('GAME_ACCESS_REVOKED', 'You may no longer see this game; it is no longer followed', {
            version: item.version,
          }),
          { gameId },
        );
        this.stop(gameId, f);
        return;
      }
      this.out.send({ type: 'event', gameId, event: toEventView(item) });
    }
    if (f.stopped) return;
    // The game ended (its terminal event was the last one sent).
    this.stop(gameId, f);
    this.out.send({ type: 'unsubscribed', id: frame.id, gameId, reason: 'ended' });
  }

  unsubscribe(frameId: string, requestedGameId: string): void {
    const gameId = requestedGameId.toLowerCase();
    const f = this.following.get(gameId);
    if (!f)
      return this.out.sendError(frameId, problemOf('VALIDATION_FAILED', 'This connection does not follow that game'));
    this.stop(gameId, f);
    this.out.send({ type: 'unsubscribed', id: frameId, gameId, reason: 'unsubscribed' });
  }

  /** The connection closed: every stream closed, every slot released. */
  stopAll(): void {
    for (const f of this.following.values()) {
      f.stopped = true;
      f.stream?.close();
      f.slot.release();
    }
    this.following.clear();
  }

  private stop(gameId: string, f: Following): void {
    f.stopped = true;
    f.stream?.close();
    f.slot.release();
    if (this.following.get(gameId) === f) this.following.delete(gameId);
  }
}
