/**
 * The commands a player sends to an existing game (join, seeds, start, moves, quit…), each a
 * command built from the loaded game and run by the one command handler (src/commands): load →
 * authorize → If-Match → decide → append at the expected version → publish after commit.
 */
import { Injectable } from '@nestjs/common';
import type { GameCommand, GameEvent } from '@fairdice/core/rules/game';
import { CommandHandler } from '../commands/command-handler';
import { DomainException } from '../common/errors';
import { currentUnitOfWork } from '../database/unit-of-work';
import type { AppendResult, LoadedGame } from '../event-store/event-store.service';
import type { StoredEvent } from '../event-store/event-store.types';
import { generateClientSeed } from '../fairness/seed-generation';
import type { AuthenticatedPlayer } from '../players/players.types';
import { EventStore } from '../event-store/event-store.service';
import type { CommandEventsView, GameView } from './dto/game-view.model';
import type { JoinGameInput, SetSeedInput, StartGameInput } from './dto/game.inputs';
import { GameAggregate } from './game-aggregate';
import { buildGameView } from './game-view';
import { checkGameId, compactOf, type CommandOptions, type CommandResult } from './games.types';

type Player = AuthenticatedPlayer;
type MoveBuilder = (g: LoadedGame) => GameCommand;

@Injectable()
export class GameCommands {
  constructor(
    private readonly handler: CommandHandler,
    private readonly game: GameAggregate,
    private readonly store: EventStore,
  ) {}

  join(player: Player, gameId: string, input: JoinGameInput, opts: CommandOptions = {}): Promise<CommandResult> {
    const command = {
      type: 'join' as const,
      playerId: player.id,
      ...(input.clientSeed !== undefined ? { clientSeed: input.clientSeed } : {}),
      ...(input.seat !== undefined ? { seat: input.seat } : {}),
    };
    return this.execute(player, gameId, () => command, true, opts, ['join', input]);
  }

  leave(player: Player, gameId: string, opts: CommandOptions = {}): Promise<CommandResult> {
    return this.execute(player, gameId, () => ({ type: 'leave', playerId: player.id }), false, opts, ['leave', {}]);
  }

  /**
   * Sets or replaces a client seed while the game is open (docs/fairness.md §2.2): the seat given
   * (default: the caller's lowest seat), or with `organizer: true` the organizer seed (creator only).
   */
  setSeed(player: Player, gameId: string, input: SetSeedInput, opts: CommandOptions = {}): Promise<CommandResult> {
    const build: MoveBuilder = (g) => {
      if (input.organizer === true && input.seat !== undefined && input.seat !== null)
        throw new DomainException('VALIDATION_FAILED', 'give either seat or organizer: true, not both', {
          errors: [{ field: 'seat', problems: ['seat and organizer exclude each other'] }],
        });
      let seat: number | null;
      if (input.organizer === true) seat = null;
      else if (input.seat !== undefined && input.seat !== null) seat = input.seat;
      else seat = g.state.seats.find((s) => s.playerId === player.id)?.seat ?? 0;
      return { type: 'setSeed', playerId: player.id, seat, clientSeed: input.clientSeed };
    };
    return this.execute(player, gameId, build, false, opts, ['set-seed', input]);
  }

  /**
   * Starts the game. The creator may give seeds for seats they hold; every seat still without a
   * seed gets one generated here (the rules stay pure: it travels in the command, marked generated).
   */
  start(player: Player, gameId: string, input: StartGameInput = {}, opts: CommandOptions = {}): Promise<CommandResult> {
    const seeds = (input.seeds ?? []).map((s) => ({ seat: s.seat, clientSeed: s.clientSeed }));
    const build: MoveBuilder = (g) => {
      const given = new Set(seeds.map((s) => s.seat));
      const generatedSeeds = g.state.seats
        .filter((s) => s.clientSeed === null && !given.has(s.seat) && (s.playerId !== null || s.computer !== null))
        .map((s) => ({ seat: s.seat, clientSeed: generateClientSeed() }));
      return { type: 'start', playerId: player.id, ...(seeds.length ? { seeds } : {}), generatedSeeds };
    };
    return this.execute(player, gameId, build, false, opts, ['start', { seeds }]);
  }

  cancel(player: Player, gameId: string, opts: CommandOptions = {}): Promise<CommandResult> {
    return this.execute(player, gameId, () => ({ type: 'cancel', playerId: player.id }), false, opts, ['cancel', {}]);
  }

  roll(player: Player, gameId: string, hold: number[] | undefined, opts: CommandOptions = {}): Promise<CommandResult> {
    const build: MoveBuilder = (g) => {
      if (g.state.family === 'farkle') {
        if (hold !== undefined && hold.length > 0)
          throw new DomainException(
            'INVALID_COMMAND',
            'Farkle has no holds: set scoring dice aside (set-aside), then roll the rest',
          );
        return play(player, { type: 'roll' });
      }
      return play(player, hold === undefined ? { type: 'roll' } : { type: 'roll', hold });
    };
    return this.execute(player, gameId, build, false, opts, ['roll', { hold: hold ?? null }]);
  }

  score(player: Player, gameId: string, box: string, opts: CommandOptions = {}): Promise<CommandResult> {
    const build = familyMove('five-dice', 'score a box', () => play(player, { type: 'score', box }));
    return this.execute(player, gameId, build, false, opts, ['score', { box }]);
  }

  setAside(player: Player, gameId: string, dice: number[], opts: CommandOptions = {}): Promise<CommandResult> {
    const build = familyMove('farkle', 'set dice aside', () => play(player, { type: 'setAside', dice }));
    return this.execute(player, gameId, build, false, opts, ['set-aside', { dice }]);
  }

  bank(player: Player, gameId: string, opts: CommandOptions = {}): Promise<CommandResult> {
    const build = familyMove('farkle', 'bank', () => play(player, { type: 'bank' }));
    return this.execute(player, gameId, build, false, opts, ['bank', {}]);
  }

  quit(player: Player, gameId: string, opts: CommandOptions = {}): Promise<CommandResult> {
    return this.execute(player, gameId, () => play(player, { type: 'quit' }), false, opts, ['quit', {}]);
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

const play = (player: Player, move: Record<string, unknown> & { type: string }): GameCommand => ({
  type: 'play',
  playerId: player.id,
  move,
});

/** A move of one family only: elsewhere INVALID_COMMAND, before the rules are asked. */
function familyMove(family: 'five-dice' | 'farkle', what: string, move: () => GameCommand): MoveBuilder {
  return (g) => {
    if (g.state.family !== family)
      throw new DomainException('INVALID_COMMAND', `You cannot ${what} in ${g.state.ruleSet}`);
    return move();
  };
}
