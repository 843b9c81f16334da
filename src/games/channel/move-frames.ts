/**
 * A move frame's run: REST's path (GamesService.move → GameCommands → the one CommandHandler)
 * with the move's own DTO class for its args, the player's rate-limit bucket, and REST's compact
 * answer. The in-flight bound is the connection's (connection.ts).
 */
import { DomainException } from '../../common/errors';
import type { AuthenticatedPlayer } from '../../players/players.types';
import type { CommandOptions, CommandResult } from '../games.types';
import type { GameMove } from '../moves/move-definition';
import type { ChannelContext } from './channel-context';
import type { MoveFrame } from './frames';

export async function runMove(
  ctx: ChannelContext,
  frame: MoveFrame,
  move: GameMove,
  player: AuthenticatedPlayer,
): Promise<{ result: CommandResult; replayed: boolean }> {
  await chargePlayer(ctx, player);
  const input = await moveInput(ctx, move, frame.args);
  let replayed = false;
  const opts: CommandOptions = {
    idempotencyKey: frame.idempotencyKey ?? undefined,
    ifMatch:
      frame.expectedVersion === undefined || frame.expectedVersion === null ? undefined : [frame.expectedVersion],
    onReplay: () => (replayed = true),
    compact: true,
  };
  const result = await ctx.games.move(move, player, frame.gameId, input, opts);
  return { result, replayed };
}

/** Per validation pipe, each move's input for a frame without args (the same every time: checked once). */
const inputsWithoutArgs = new WeakMap<object, Map<GameMove, object>>();

/** The move's input checked as its REST body: the same DTO class and pipe (or no fields at all). */
async function moveInput(
  ctx: ChannelContext,
  move: GameMove,
  args: Record<string, unknown> | undefined,
): Promise<object> {
  const body = move.rest.body;
  if (!body) return ctx.noFields.transform(args);
  if (args !== undefined)
    return (await ctx.validation.transform(args, { type: 'body', metatype: body.type })) as object;
  let known = inputsWithoutArgs.get(ctx.validation);
  if (!known) inputsWithoutArgs.set(ctx.validation, (known = new Map()));
  const cached = known.get(move);
  if (cached) return cached;
  // A move whose body needs a field refuses `{}` here, every time (nothing is remembered then).
  const input = Object.freeze(await ctx.validation.transform({}, { type: 'body', metatype: body.type })) as object;
  known.set(move, input);
  return input;
}

/** One request against the player's rate-limit bucket, as a REST request (a move or a subscription). */
export async function chargePlayer(ctx: ChannelContext, player: AuthenticatedPlayer): Promise<void> {
  if (!ctx.charge) return;
  const d = await ctx.charge('player:' + player.id);
  if (!d.allowed)
    throw new DomainException(
      'RATE_LIMITED',
      `More than ${d.limit} requests in a minute; retry after ${d.resetSeconds} s`,
      {
        limit: d.limit,
        retryAfterSeconds: d.resetSeconds,
      },
    );
}

/** The answer of a move: REST's compact answer (a rematch's is the new game's); a whole game should the service answer one. */
export function answerFrame(id: string, result: CommandResult, replayed: boolean): object {
  if ('events' in result && !('id' in result))
    return { type: 'result', id, replayed, gameId: result.gameId, version: result.version, events: result.events };
  return { type: 'result', id, replayed, gameId: result.id, version: result.version, game: result };
}

/**
 * `expectedVersion` is the version the client decided on: another one is VERSION_CONFLICT (as a
 * race lost at the append), not REST's If-Match 412.
 */
export function versionConflict(err: unknown): unknown {
  if (!(err instanceof DomainException) || err.code !== 'PRECONDITION_FAILED') return err;
  const current = err.details?.currentVersion;
  return new DomainException(
    'VERSION_CONFLICT',
    `The game is at version ${String(current)}, not the expected one; reload it and decide again`,
    { currentVersion: current },
  );
}
