/**
 * New games: a player's creation, a rematch of a finished game, and a tournament round's games.
 * All three decide the `create` command with the pure decider and store the game's row and first
 * events through one setup (`storeNew`); creations go through the command handler's middleware
 * (counted, idempotent under their key, 201).
 */
import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { commitmentOf } from '@fairdice/core/fairness/seeds';
import { noDice } from '@fairdice/core/rules/core/dice';
import { isRuleError } from '@fairdice/core/rules/core/errors';
import {
  type ComputerLevel,
  type CreateCommand,
  decideGame,
  emptyGame,
  evolveGame,
  type GameCommand,
  type GameEvent,
  type GameState,
  replayGame,
  seedsStateFor,
} from '@fairdice/core/rules/game';
import type { RuleSetName } from '@fairdice/core/rules/registry';
import { CommandHandler } from '../commands/command-handler';
import { DomainException } from '../common/errors';
import { afterCommit } from '../database/unit-of-work';
import { asyncEffects } from '../event-store/async-effects';
import { EventStore, type LoadedGame } from '../event-store/event-store.service';
import { generateClientSeed, generateServerSeed } from '../fairness/seed-generation';
import { parseIdempotencyKey } from '../reliability';
import type { AuthenticatedPlayer } from '../players/players.types';
import { DiceService } from './dice.service';
import type { CommandEventsView } from './dto/game-view.model';
import type { CreateGameInput } from './dto/game.inputs';
import { GameAggregate } from './game-aggregate';
import { answer, GameCommands } from './game-commands.service';
import { GameEventBus } from './game-event-bus';
import { checkOptions, withAutoScoreDefault } from './game-options';
import { GameQueries } from './game-queries.service';
import { buildGameView } from './game-view';
import type { CommandOptions, CommandResult, StartedGameSpec, TournamentGameSpec } from './games.types';

type Player = AuthenticatedPlayer;

@Injectable()
export class GameCreation {
  constructor(
    private readonly handler: CommandHandler,
    private readonly game: GameAggregate,
    private readonly commands: GameCommands,
    private readonly queries: GameQueries,
    private readonly store: EventStore,
    private readonly dice: DiceService,
    private readonly bus: GameEventBus,
  ) {}

  async create(player: Player, input: CreateGameInput, opts: CommandOptions = {}): Promise<CommandResult> {
    // Validate first, hash only valid input: the options are checked by their family (INVALID_OPTIONS).
    return this.creating(player, 'create', null, input, opts, () => checkOptions(input), input);
  }

  /**
   * A new game with the same rule set, options, seat count, visibility, time limit, advice setting
   * and hot seats (with their names) as a finished game, asked for by a player who held a seat in
   * it (decision 0062). The asker creates it and takes seat 0 (and the hot seats, when they were
   * the creator who held them); the other seats are open for the old game's players to join (a
   * private game's id is the invitation). A new server seed and commitment, no seeds carried over:
   * every seed is set after the new commitment, as in any game.
   */
  async rematch(player: Player, gameId: string, opts: CommandOptions = {}): Promise<CommandResult> {
    parseIdempotencyKey(opts.idempotencyKey); // a malformed key is refused first, as for any command
    const g = await this.queries.loadVisible(player, gameId);
    const old = g.state;
    if (!old.seats.some((s) => s.playerId === player.id))
      throw new DomainException('NOT_SEATED', 'Only a player who held a seat in the game may ask for a rematch');
    if (old.status !== 'finished')
      throw new DomainException('GAME_NOT_FINISHED', `A rematch needs a finished game; this one is ${old.status}`);
    const hot = old.seats.filter((s) => s.hotSeat);
    const keepsHotSeats = old.creatorId === player.id && hot.length > 0;
    const names = hot.map((s) => s.name);
    const computerSeats = old.seats.flatMap((s) => (s.computer ? [{ seat: s.seat, level: s.computer }] : []));
    const input: CreateGameInput = {
      ruleSet: old.ruleSet,
      options: old.options,
      seats: old.seatCount,
      visibility: old.visibility,
      hotSeats: keepsHotSeats ? hot.length : 0,
      ...(keepsHotSeats && names.every((n): n is string => n !== null) ? { hotSeatNames: names } : {}),
      ...(old.turnTimeLimitSeconds !== null ? { turnTimeLimitSeconds: old.turnTimeLimitSeconds } : {}),
      advice: old.advice,
      // The computer seats come back at their levels, and the game's own level with them.
      ...(computerSeats.length > 0 ? { computerSeats } : {}),
      computerLevel: old.computerLevel,
      // A rematch of a rated game is rated (its settings were those of a rated game).
      ...(old.rated ? { rated: true } : {}),
    };
    return this.creating(player, 'rematch', g.row.id, {}, opts, null, input, g.row.id);
  }

  /** A creation through the handler's middleware; the compact answer as for any command. */
  private async creating(
    player: Player,
    operation: string,
    aggregateId: string | null,
    args: unknown,
    opts: CommandOptions,
    check: (() => void) | null,
    input: CreateGameInput,
    rematchOf?: string,
  ): Promise<CommandResult> {
    let compact: CommandEventsView | undefined;
    const request = { operation, args, actor: player, opts, ...(aggregateId ? { aggregateId } : {}) };
    const result = await this.handler.create('game', request, check, () =>
      this.createNow(player, input, { ...opts, onCompact: (c) => (compact = c) }, rematchOf),
    );
    return compact ?? (opts.compact ? this.commands.replayedCompact(result) : result);
  }

  private async createNow(
    player: Player,
    input: CreateGameInput,
    opts: CommandOptions,
    rematchOf?: string,
  ): Promise<CommandResult> {
    // A seed given before the commitment exists could be ground against by the server (decision 0014).
    const early = (['clientSeed', 'organizerSeed'] as const).filter((f) => input[f] !== undefined && input[f] !== null);
    if (early.length > 0) {
      throw new DomainException(
        'SEED_BEFORE_COMMITMENT',
        `${early.join(' and ')} cannot be given when creating a game: a seed fixed before the commitment is published protects nobody. Create the game, read its commitment, then set seeds with PUT /v1/games/{id}/seeds (GraphQL setSeed) or in the start request.`,
        { fields: early },
      );
    }
    const id = randomUUID();
    const seed = generateServerSeed();
    const commitment = commitmentOf(seed);
    const command: CreateCommand = {
      type: 'create',
      gameId: id,
      ruleSet: input.ruleSet as RuleSetName,
      options: withAutoScoreDefault(input.ruleSet, input.options ?? {}),
      seatCount: input.seats,
      visibility: input.visibility ?? 'public',
      creatorId: player.id,
      hotSeats: input.hotSeats ?? 0,
      ...(input.hotSeatNames !== undefined && input.hotSeatNames !== null
        ? { hotSeatNames: input.hotSeatNames.map((n) => n.trim()) }
        : {}),
      ...(rematchOf !== undefined ? { rematchOf } : {}),
      commitment,
      turnTimeLimitSeconds: input.turnTimeLimitSeconds ?? null,
      ...(input.computerSeats?.length
        ? { computerSeats: input.computerSeats.map((c) => ({ seat: c.seat, level: c.level as ComputerLevel })) }
        : {}),
      ...(input.computerLevel ? { computerLevel: input.computerLevel as ComputerLevel } : {}),
      advice: input.advice ?? (input.rated === true ? 'forbidden' : 'allowed'),
      ...(input.rated === true ? { rated: true } : {}),
    };
    const events = decideOn(emptyGame(id), command);
    const state = replayGame(id, events);
    const names = { [player.id]: player.displayName };
    const { row, stored } = await this.storeNew(
      state,
      events,
      { serverSeed: seed.toString('hex'), commitment },
      true,
      names,
    );
    afterCommit(() => this.bus.publish(id, stored));
    return answer(opts, id, stored, () => buildGameView(row, state, stored[stored.length - 1].hash, null, names));
  }

  /**
   * Creates and starts one game of a tournament round (src/tournaments): the first seated entrant
   * creates it and sets their seed, the others join with theirs, the organizer seed is set, the
   * creator starts it. Every step is an ordinary command recorded in the game's events, so the
   * game verifies like any other (docs/tournaments.md §3). Runs inside the caller's transaction.
   */
  async createTournamentGame(spec: TournamentGameSpec): Promise<void> {
    const id = spec.gameId;
    const commitment = commitmentOf(Buffer.from(spec.serverSeed, 'hex'));
    const creator = spec.seats[0].playerId;
    const { state: open, events: created } = decideSequence(id, [
      {
        type: 'create',
        gameId: id,
        ruleSet: spec.ruleSet,
        options: spec.options,
        seatCount: spec.seats.length,
        visibility: spec.visibility,
        creatorId: creator,
        hotSeats: 0,
        commitment,
        turnTimeLimitSeconds: spec.turnTimeLimitSeconds,
        tournament: spec.tournament,
        // Tournament games are played without the service's advice (docs/tournaments.md).
        advice: 'forbidden',
      },
      { type: 'setSeed', playerId: creator, seat: 0, clientSeed: spec.seats[0].clientSeed },
      ...spec.seats
        .slice(1)
        .map((s, i): GameCommand => ({ type: 'join', playerId: s.playerId, clientSeed: s.clientSeed, seat: i + 1 })),
      { type: 'setSeed', playerId: creator, seat: null, clientSeed: spec.organizerSeed },
    ]);
    await this.storeAndStart(
      open,
      created,
      {
        serverSeed: spec.serverSeed,
        commitment,
        tournament: { id: spec.tournament.id, round: spec.tournament.round, seedSealed: spec.seedSealed },
      },
      { type: 'start', playerId: creator, generatedSeeds: [] },
    );
  }

  /**
   * Creates and starts a public game of `players` (in seat order: seat 0 first) for a pairing the
   * players did not set up themselves (an accepted challenge, src/challenges; a seek's pairing):
   * the rule set's default options, human seats only, advice forbidden, the per-move time limit,
   * rated or casual. Seat 0 creates it, the others join, seat 0 starts it; every seat's client seed
   * is generated by the service and recorded as generated (`clientSeedsGenerated`). Every step is
   * an ordinary command in the game's events, so it verifies like any game. `order` gives the seat
   * order from the game's commitment (known before any event is decided); runs inside the caller's
   * transaction. Throws a DomainException when the rules refuse (e.g. a rated game's requirements).
   */
  async createStartedGame(spec: StartedGameSpec): Promise<{ gameId: string; players: string[] }> {
    const id = spec.gameId;
    const seed = generateServerSeed();
    const commitment = commitmentOf(seed);
    const players = spec.order ? spec.order(commitment, spec.players) : [...spec.players];
    const { state: open, events: created } = decideSequence(id, [
      {
        type: 'create',
        gameId: id,
        ruleSet: spec.ruleSet,
        options: withAutoScoreDefault(spec.ruleSet, {}),
        seatCount: players.length,
        visibility: 'public',
        creatorId: players[0],
        hotSeats: 0,
        commitment,
        turnTimeLimitSeconds: spec.turnTimeLimitSeconds,
        advice: spec.rated ? 'forbidden' : (spec.advice ?? 'forbidden'),
        ...(spec.rated ? { rated: true } : {}),
      },
      ...players.slice(1).map((playerId, i): GameCommand => ({ type: 'join', playerId, seat: i + 1 })),
    ]);
    await this.storeAndStart(
      open,
      created,
      { serverSeed: seed.toString('hex'), commitment },
      {
        type: 'start',
        playerId: players[0],
        generatedSeeds: open.seats.map((s) => ({ seat: s.seat, clientSeed: generateClientSeed() })),
      },
    );
    return { gameId: id, players };
  }

  /**
   * Stores a game decided up to its start (`open`, by `created`) and appends its start: the one
   * ending of a game the service sets up and starts itself (a tournament round's, a paired one).
   */
  private async storeAndStart(
    open: GameState,
    created: readonly GameEvent[],
    seeds: Parameters<GameCreation['storeNew']>[2],
    start: GameCommand,
  ): Promise<void> {
    const { row, stored } = await this.storeNew(open, created, seeds);
    const roller = this.dice.rollerFor({ serverSeed: seeds.serverSeed, state: seedsStateFor(open, start) });
    const started = decideOn(open, start, roller);
    const loaded: LoadedGame = { row, state: open, head: stored[stored.length - 1].hash, lastRolled: null, names: {} };
    const res = await this.game.append(loaded, started);
    afterCommit(() => this.bus.publish(open.id, [...stored, ...res.stored]));
  }

  /**
   * The one setup of a new game's row and first events: its columns from the decided state, the
   * server seed and its commitment; a player's game schedules its first jobs (expiry) with it.
   */
  private storeNew(
    state: GameState,
    events: readonly GameEvent[],
    seeds: {
      serverSeed: string;
      commitment: string;
      tournament?: { id: string; round: number; seedSealed: boolean };
    },
    withJobs = false,
    /** Display names of the players it seats, when known: the store keeps row and names for the next command. */
    names?: Readonly<Record<string, string>>,
  ) {
    const t = seeds.tournament;
    return this.store.create(
      {
        id: state.id,
        ruleSet: state.ruleSet,
        family: state.family,
        options: state.options,
        seatCount: state.seatCount,
        visibility: state.visibility,
        creatorId: state.creatorId,
        turnTimeLimitSeconds: state.turnTimeLimitSeconds,
        serverSeed: seeds.serverSeed,
        serverSeedHash: seeds.commitment,
        organizerSeed: state.organizerSeed,
        ...(t ? { tournamentId: t.id, tournamentRound: t.round, seedSealed: t.seedSealed } : {}),
      },
      events,
      state,
      withJobs ? (asyncEffects(emptyGame(state.id), state, this.game.inactivity).jobs ?? []) : undefined,
      names,
    );
  }
}

/** The events of `commands` decided one after another from an empty game, and the state they make. */
function decideSequence(gameId: string, commands: readonly GameCommand[]): { state: GameState; events: GameEvent[] } {
  let state = emptyGame(gameId);
  const events: GameEvent[] = [];
  for (const command of commands) {
    const decided = decideOn(state, command);
    state = decided.reduce(evolveGame, state);
    events.push(...decided);
  }
  return { state, events };
}

/** The events of `command` on `state`, a rule error thrown as its DomainException. */
function decideOn(state: GameState, command: GameCommand, roll = noDice): GameEvent[] {
  const events = decideGame(state, command, roll);
  if (isRuleError(events)) throw DomainException.fromRule(events);
  return events;
}
