/**
 * The commands a player sends to an existing game (join, seeds, start, moves, quit…: the tables
 * of src/games/moves), each a command built from the loaded game and run by the one command
 * handler (src/commands): load → authorize → If-Match → decide → append at the expected version
 * → publish after commit.
 */
import { Injectable } from '@nestjs/common';
import type { GameCommand, GameEvent } from '@fairdice/core/rules/game';
import { CommandHandler } from '../commands/command-handler';
import { currentUnitOfWork } from '../database/unit-of-work';
import type { AppendResult, LoadedGame } from '../event-store/event-store.service';
import type { StoredEvent } from '../event-store/event-store.types';
import type { AuthenticatedPlayer } from '../players/players.types';
import { EventStore } from '../event-store/event-store.service';
import type { CommandEventsView, GameView } from './dto/game-view.model';
import { GameAggregate } from './game-aggregate';
import { buildGameView } from './game-view';
import { operationOf, type GameMove, type MoveBuilder, type MoveCommand } from './moves/move-definition';
import { checkGameId, compactOf, type CommandOptions, type CommandResult } from './games.types';

type Player = AuthenticatedPlayer;

@Injectable()
export class GameCommands {
  constructor(
    private readonly handler: CommandHandler,
    private readonly game: GameAggregate,
    private readonly store: EventStore,
  ) {}

  /** A move of the tables (src/games/moves): its command, built from the loaded game, through the handler. */
  run<I extends object>(
    move: GameMove<I>,
    command: MoveCommand<I>,
    player: Player,
    gameId: string,
    input: I,
    opts: CommandOptions = {},
  ): Promise<CommandResult> {
    const args = command.args ? command.args(input) : input;
    return this.execute(player, gameId, command.build(player, input), command.outsiderMayAct ?? false, opts, [
      operationOf(move),
      args,
    ]);
  }

  /**
   * One player command through the command handler. With an idempotency key the whole command
   * runs in one transaction that also stores its outcome, the whole game (IdempotencyService;
   * group commit stores it with the append's statement); the compact answer (`Prefer:
   * return=minimal`) is this request's own, never the stored one.
   */
  private async execute(
    player: Player,
    rawId: string,
    build: MoveBuilder,
    outsiderMayAct: boolean,
    opts: CommandOptions,
    [operation, args]: [string, unknown],
  ): Promise<CommandResult> {
    const gameId = checkGameId(rawId);
    let compact: CommandEventsView | undefined;
    const viewOf = (g: LoadedGame, r: AppendResult) =>
      buildGameView(r.row, r.state, r.head, r.lastRolled, { ...g.names, [player.id]: player.displayName });
    const result = await this.handler.run<LoadedGame, GameCommand, GameEvent, AppendResult, CommandResult>(this.game, {
      operation,
      id: gameId,
      args,
      actor: player,
      opts,
      outsiderMayAct,
      batched: true,
      build,
      // An idempotent command's response is built by the append (its outcome record is written with it).
      storedAnswer: (res, g) => viewOf(g, res),
      respond: (res, g) => {
        const view = () => (res.response as GameView | undefined) ?? viewOf(g, res);
        return answer({ ...opts, onCompact: (c) => (compact = c) }, gameId, res.stored, view);
      },
    });
    return compact ?? (opts.compact ? this.replayedCompact(result) : result);
  }

  /**
   * The compact form of a replayed outcome (the stored whole game at the version the command
   * left it): the command's events are the last ones up to that version, from the one that
   * carries the command (the first event of every command's batch carries it, docs/fairness.md).
   */
  async replayedCompact(result: CommandResult): Promise<CommandResult> {
    if (!('id' in result)) return result;
    const events = await this.store.readEventsUpTo(result.id, result.version);
    let first = events.length - 1;
    while (first > 0 && events[first].command === null) first--;
    return compactOf(result.id, events.slice(first));
  }
}

/**
 * A command's answer: the game, or with `compact` the command's events and version without
 * building the game. Inside an idempotent command's transaction the stored outcome must be
 * the full game (a replay answers it whatever the retry prefers), so the compact form then
 * goes to `onCompact` for this request alone.
 */
export function answer(
  opts: CommandOptions,
  gameId: string,
  stored: readonly StoredEvent[],
  view: () => GameView,
): CommandResult {
  if (!opts.compact) return view();
  const compact = compactOf(gameId, stored);
  if (currentUnitOfWork() === undefined) return compact;
  opts.onCompact?.(compact);
  return view();
}
