/**
 * The games application service: the ONE entry point of REST and GraphQL for games.
 * A command reads as: load (cache + new events, one round trip) → check access → decide on the
 * replayed state with the game's dice → append with the expected version (one statement) →
 * publish after commit → return the new view.
 */
import { METRICS, type Metrics } from '../metrics/metrics';
import { randomUUID } from 'node:crypto';
import { Inject, Injectable, Optional } from '@nestjs/common';
import { APP_CONFIG, AppConfig } from '../config/config';
import { DomainException } from '../common/errors';
import { type AppendResult, EventStore, LoadedGame } from '../event-store/event-store.service';
import { ReadModelUpdate } from '../event-store/event-store.types';
import { commitmentOf } from '@fairdice/core/fairness/seeds';
import { generateClientSeed, generateServerSeed } from '../fairness/seed-generation';
import { noDice } from '@fairdice/core/rules/core/dice';
import { assertFarkleSolvable } from '@fairdice/core/rules/advice';
import type { FarkleOptions } from '@fairdice/core/rules/farkle';
import { isRuleError } from '@fairdice/core/rules/core/errors';
import { familyById, RULE_SETS, RuleSetName } from '@fairdice/core/rules/registry';
import type { FamilyId } from '@fairdice/core/rules/core/family';
import { MissingTableError, type OptimalTables, planTurn, fiveDiceBox } from '@fairdice/core/rules/computer';
import type { FiveDiceState } from '@fairdice/core/rules/five-dice';
import { AUTO_SCORE_DEFAULTS } from '@fairdice/core/rules/five-dice/options';
import {
  AbandonCommand,
  type ComputerLevel,
  computerSeatsProblem,
  CreateCommand,
  decideGame,
  emptyGame,
  evolveGame,
  GameCommand,
  GameEvent,
  GameState,
  replayGame,
  seedsStateFor,
  type TournamentRef,
} from '@fairdice/core/rules/game';
import { toGameEvent } from '../event-store/event-store.types';
import type { AuthenticatedPlayer } from '../players/players.types';
import { DiceService } from './dice.service';
import { GameEventBus } from './game-event-bus';
import { GameEventStream } from './game-stream';
import { buildGameView, toEventView, viewOfLoaded } from './game-view';
import type { CommandEventsView, GameEventView, GameSummaryView, GameView } from './dto/game-view.model';
import { cursorPage, decodeCursor, encodeCursor, type CursorPage } from '../common/pagination/cursor';
import type { PageRequest } from '../common/pagination/page-request';
import type { GameSummaryRow, ListPosition, StoredEvent } from '../event-store/event-store.types';
import type { CreateGameInput, JoinGameInput, SetSeedInput, StartGameInput } from './dto/game.inputs';
import { asyncEffects, type InactivityPeriods } from '../event-store/async-effects';
import { afterCommit, currentUnitOfWork } from '../database/unit-of-work';
import { ReadRouter } from '../database/read-routing';
import { checkIfMatch, IdempotencyService, parseIdempotencyKey, requestHash } from '../reliability';

type Player = AuthenticatedPlayer;

/**
 * Loads the solved tables level `optimal` needs for a game's options (src/async/computer binds it
 * to the advice tables). Returns null while a table is still being built: the job tries again.
 */
export type OptimalTablesLoader = (state: GameState) => Promise<OptimalTables | null>;

/** The outcome of a service move: applied (new version), skipped (the game moved on), or waiting for a table. */
export type ServiceMoveResult = { version: number; events: number } | null | 'table-building';
type MoveBuilder = (g: LoadedGame) => GameCommand;

/** Per-request options of a command (src/reliability, docs/operations.md). */
export interface CommandOptions {
  /** Idempotency-Key header / idempotencyKey argument (validated here: 400 when malformed). */
  idempotencyKey?: string | null;
  /** If-Match: the versions the client expects the game at ('*' = any); 412 otherwise. */
  ifMatch?: '*' | number[];
  /** Called when the response is the stored outcome of an earlier request with the same key. */
  onReplay?: () => void;
  /**
   * REST `Prefer: return=minimal`: answer with the command's events and the new version
   * (CommandEventsView) instead of the whole game, which is then not built at all. A replayed
   * outcome (Idempotency-Key) is stored as the whole game; its compact form is read back from the
   * events (replayedCompact).
   */
  compact?: boolean;
  /** Internal: receives the compact answer of a command run inside an idempotent transaction. */
  onCompact?: (compact: CommandEventsView) => void;
}

/** What a command answers: the game, or its compact form when `compact` was asked for. */
export type CommandResult = GameView | CommandEventsView;

const compactOf = (gameId: string, stored: readonly StoredEvent[]): CommandEventsView => ({
  gameId,
  version: stored[stored.length - 1].version,
  events: stored.map(toEventView),
});

/** Default of GAME_ABANDON_AFTER_MS / GAME_EXPIRE_OPEN_AFTER_MS: 30 days. */
export const DEFAULT_INACTIVITY_MS = 30 * 24 * 60 * 60 * 1000;

const notFound = () => new DomainException('GAME_NOT_FOUND', 'No such game');

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** Ids are checked before any query: a malformed one is VALIDATION_FAILED. */
export function checkGameId(id: unknown): string {
  if (typeof id !== 'string' || !UUID.test(id)) {
    throw new DomainException('VALIDATION_FAILED', 'gameId must be a UUID', {
      errors: [{ field: 'gameId', problems: ['gameId must be a UUID'] }],
    });
  }
  return id.toLowerCase();
}

@Injectable()
export class GamesService {
  constructor(
    private readonly store: EventStore,
    private readonly dice: DiceService,
    private readonly bus: GameEventBus,
    private readonly idempotency: IdempotencyService,
    @Optional() @Inject(APP_CONFIG) config?: AppConfig,
    @Optional() @Inject(METRICS) private readonly metrics?: Metrics,
    @Optional() private readonly reads?: ReadRouter,
  ) {
    this.inactivity = {
      abandonAfterMs: config?.GAME_ABANDON_AFTER_MS ?? DEFAULT_INACTIVITY_MS,
      expireOpenAfterMs: config?.GAME_EXPIRE_OPEN_AFTER_MS ?? config?.GAME_ABANDON_AFTER_MS ?? DEFAULT_INACTIVITY_MS,
    };
  }

  /** How long a game may sit without a command before the service ends it (src/async/inactivity). */
  readonly inactivity: InactivityPeriods;

  // ------------------------------------------------------------------ commands

  async create(player: Player, input: CreateGameInput, opts: CommandOptions = {}): Promise<CommandResult> {
    return this.counted('create', opts, (o) => this.createCommand(player, input, o));
  }

  /** Runs a command and counts it by type and outcome (fairdice_commands_total). */
  private async counted<T>(type: string, opts: CommandOptions, run: (opts: CommandOptions) => Promise<T>): Promise<T> {
    if (!this.metrics) return run(opts);
    let replayed = false;
    const onReplay = () => {
      replayed = true;
      opts.onReplay?.();
    };
    try {
      const result = await run({ ...opts, onReplay });
      this.metrics.commands.inc({ type, outcome: replayed ? 'replayed' : 'ok' });
      return result;
    } catch (err) {
      this.metrics.commands.inc({ type, outcome: err instanceof DomainException ? err.code : 'error' });
      throw err;
    }
  }

  private async createCommand(player: Player, input: CreateGameInput, opts: CommandOptions): Promise<CommandResult> {
    const key = parseIdempotencyKey(opts.idempotencyKey);
    // Validate first, hash only valid input: the options are checked by their family (INVALID_OPTIONS).
    checkOptions(input);
    let compact: CommandEventsView | undefined;
    const result = await this.idempotency.run(
      {
        playerId: player.id,
        key,
        hash: requestHash('create', null, input),
        successStatus: 201,
        onReplay: opts.onReplay,
      },
      () => this.createNow(player, input, { ...opts, onCompact: (c) => (compact = c) }),
    );
    return compact ?? (opts.compact ? this.replayedCompact(result) : result);
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
    const key = parseIdempotencyKey(opts.idempotencyKey);
    const g = await this.loadVisible(player, checkGameId(gameId));
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
    };
    let compact: CommandEventsView | undefined;
    const result = await this.idempotency.run(
      {
        playerId: player.id,
        key,
        hash: requestHash('rematch', g.row.id, {}),
        successStatus: 201,
        onReplay: opts.onReplay,
      },
      () => this.createNow(player, input, { ...opts, onCompact: (c) => (compact = c) }, g.row.id),
    );
    return compact ?? (opts.compact ? this.replayedCompact(result) : result);
  }

  /**
   * A command's answer: the game, or with `compact` the command's events and version without
   * building the game. Inside an idempotent command's transaction the stored outcome must be
   * the full game (a replay answers it whatever the retry prefers), so the compact form then
   * goes to `onCompact` for this request alone.
   */
  private answer(opts: CommandOptions, gameId: string, stored: readonly StoredEvent[], view: () => GameView) {
    if (!opts.compact) return view();
    const compact = compactOf(gameId, stored);
    if (currentUnitOfWork() === undefined) return compact;
    opts.onCompact?.(compact);
    return view();
  }

  /**
   * The compact form of a replayed outcome (the stored whole game at the version the command
   * left it): the command's events are the last ones up to that version, from the one that
   * carries the command (the first event of every command's batch carries it, docs/fairness.md).
   */
  private async replayedCompact(result: CommandResult): Promise<CommandResult> {
    if (!('id' in result)) return result;
    const events = await this.store.readEventsUpTo(result.id, result.version);
    let first = events.length - 1;
    while (first > 0 && events[first].command === null) first--;
    return compactOf(result.id, events.slice(first));
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
    const hotSeats = input.hotSeats ?? 0;
    const command: CreateCommand = {
      type: 'create',
      gameId: id,
      ruleSet: input.ruleSet as RuleSetName,
      options: withAutoScoreDefault(input.ruleSet, input.options ?? {}),
      seatCount: input.seats,
      visibility: input.visibility ?? 'public',
      creatorId: player.id,
      hotSeats,
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
      advice: input.advice ?? 'allowed',
    };
    const events = decideGame(emptyGame(id), command, noDice);
    if (isRuleError(events)) throw DomainException.fromRule(events);
    const state = replayGame(id, events);
    const { row, stored } = await this.store.create(
      {
        id,
        ruleSet: state.ruleSet,
        family: state.family,
        options: state.options,
        seatCount: state.seatCount,
        visibility: state.visibility,
        creatorId: player.id,
        turnTimeLimitSeconds: state.turnTimeLimitSeconds,
        serverSeed: seed.toString('hex'),
        serverSeedHash: commitment,
        organizerSeed: state.organizerSeed,
      },
      events,
      state,
      asyncEffects(emptyGame(id), state, this.inactivity).jobs ?? [],
    );
    afterCommit(() => this.bus.publish(id, stored));
    return this.answer(opts, id, stored, () =>
      buildGameView(row, state, stored[stored.length - 1].hash, null, { [player.id]: player.displayName }),
    );
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
    let state = emptyGame(id);
    const created: GameEvent[] = [];
    const run = (into: GameEvent[], command: GameCommand, roll = noDice) => {
      const events = decideGame(state, command, roll);
      if (isRuleError(events)) throw DomainException.fromRule(events);
      state = events.reduce(evolveGame, state);
      into.push(...events);
    };
    run(created, {
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
    });
    run(created, { type: 'setSeed', playerId: creator, seat: 0, clientSeed: spec.seats[0].clientSeed });
    spec.seats
      .slice(1)
      .forEach((s, i) => run(created, { type: 'join', playerId: s.playerId, clientSeed: s.clientSeed, seat: i + 1 }));
    run(created, { type: 'setSeed', playerId: creator, seat: null, clientSeed: spec.organizerSeed });
    const open = state;
    const { row, stored } = await this.store.create(
      {
        id,
        ruleSet: open.ruleSet,
        family: open.family,
        options: open.options,
        seatCount: open.seatCount,
        visibility: open.visibility,
        creatorId: creator,
        turnTimeLimitSeconds: open.turnTimeLimitSeconds,
        serverSeed: spec.serverSeed,
        serverSeedHash: commitment,
        organizerSeed: open.organizerSeed,
        tournamentId: spec.tournament.id,
        tournamentRound: spec.tournament.round,
        seedSealed: spec.seedSealed,
      },
      created,
      open,
    );
    const start: GameCommand = { type: 'start', playerId: creator, generatedSeeds: [] };
    const started: GameEvent[] = [];
    run(started, start, this.dice.rollerFor({ serverSeed: spec.serverSeed, state: seedsStateFor(open, start) }));
    const loaded: LoadedGame = { row, state: open, head: stored[stored.length - 1].hash, lastRolled: null, names: {} };
    const res = await this.store.append(loaded, started, readModel(open, state, started, this.inactivity));
    afterCommit(() => this.bus.publish(id, [...stored, ...res.stored]));
  }

  join(player: Player, gameId: string, input: JoinGameInput, opts: CommandOptions = {}): Promise<CommandResult> {
    return this.execute(
      player,
      gameId,
      () => ({
        type: 'join',
        playerId: player.id,
        ...(input.clientSeed !== undefined ? { clientSeed: input.clientSeed } : {}),
        ...(input.seat !== undefined ? { seat: input.seat } : {}),
      }),
      true,
      opts,
      ['join', input],
    );
  }

  leave(player: Player, gameId: string, opts: CommandOptions = {}): Promise<CommandResult> {
    return this.execute(player, gameId, () => ({ type: 'leave', playerId: player.id }), false, opts, ['leave', {}]);
  }

  /**
   * Sets or replaces a client seed while the game is open (docs/fairness.md §2.2): the seat given
   * (default: the caller's lowest seat), or with `organizer: true` the organizer seed (creator only).
   */
  setSeed(player: Player, gameId: string, input: SetSeedInput, opts: CommandOptions = {}): Promise<CommandResult> {
    return this.execute(
      player,
      gameId,
      (g) => {
        if (input.organizer === true && input.seat !== undefined && input.seat !== null)
          throw new DomainException('VALIDATION_FAILED', 'give either seat or organizer: true, not both', {
            errors: [{ field: 'seat', problems: ['seat and organizer exclude each other'] }],
          });
        let seat: number | null;
        if (input.organizer === true) seat = null;
        else if (input.seat !== undefined && input.seat !== null) seat = input.seat;
        else seat = g.state.seats.find((s) => s.playerId === player.id)?.seat ?? 0;
        return { type: 'setSeed', playerId: player.id, seat, clientSeed: input.clientSeed };
      },
      false,
      opts,
      ['set-seed', input],
    );
  }

  /**
   * Starts the game. The creator may give seeds for seats they hold; every seat still without a
   * seed gets one generated here (the rules stay pure: it travels in the command, marked generated).
   */
  start(player: Player, gameId: string, input: StartGameInput = {}, opts: CommandOptions = {}): Promise<CommandResult> {
    const seeds = (input.seeds ?? []).map((s) => ({ seat: s.seat, clientSeed: s.clientSeed }));
    return this.execute(
      player,
      gameId,
      (g) => {
        const given = new Set(seeds.map((s) => s.seat));
        const generatedSeeds = g.state.seats
          .filter((s) => s.clientSeed === null && !given.has(s.seat) && (s.playerId !== null || s.computer !== null))
          .map((s) => ({ seat: s.seat, clientSeed: generateClientSeed() }));
        return { type: 'start', playerId: player.id, ...(seeds.length ? { seeds } : {}), generatedSeeds };
      },
      false,
      opts,
      ['start', { seeds }],
    );
  }

  cancel(player: Player, gameId: string, opts: CommandOptions = {}): Promise<CommandResult> {
    return this.execute(player, gameId, () => ({ type: 'cancel', playerId: player.id }), false, opts, ['cancel', {}]);
  }

  roll(player: Player, gameId: string, hold: number[] | undefined, opts: CommandOptions = {}): Promise<CommandResult> {
    return this.execute(
      player,
      gameId,
      (g) => {
        if (g.state.family === 'farkle') {
          if (hold !== undefined && hold.length > 0)
            throw new DomainException(
              'INVALID_COMMAND',
              'Farkle has no holds: set scoring dice aside (set-aside), then roll the rest',
            );
          return this.play(player, { type: 'roll' });
        }
        return this.play(player, hold === undefined ? { type: 'roll' } : { type: 'roll', hold });
      },
      false,
      opts,
      ['roll', { hold: hold ?? null }],
    );
  }

  score(player: Player, gameId: string, box: string, opts: CommandOptions = {}): Promise<CommandResult> {
    return this.execute(
      player,
      gameId,
      (g) => {
        this.requireFamily(g, 'five-dice', 'score a box');
        return this.play(player, { type: 'score', box });
      },
      false,
      opts,
      ['score', { box }],
    );
  }

  setAside(player: Player, gameId: string, dice: number[], opts: CommandOptions = {}): Promise<CommandResult> {
    return this.execute(
      player,
      gameId,
      (g) => {
        this.requireFamily(g, 'farkle', 'set dice aside');
        return this.play(player, { type: 'setAside', dice });
      },
      false,
      opts,
      ['set-aside', { dice }],
    );
  }

  bank(player: Player, gameId: string, opts: CommandOptions = {}): Promise<CommandResult> {
    return this.execute(
      player,
      gameId,
      (g) => {
        this.requireFamily(g, 'farkle', 'bank');
        return this.play(player, { type: 'bank' });
      },
      false,
      opts,
      ['bank', {}],
    );
  }

  quit(player: Player, gameId: string, opts: CommandOptions = {}): Promise<CommandResult> {
    return this.execute(player, gameId, () => this.play(player, { type: 'quit' }), false, opts, ['quit', {}]);
  }

  /**
   * The turn deadline fired (src/async/deadlines): the computer completes the turn of the seat
   * that was to move, as ordinary events marked reason 'timeout'. Applies only if the game is
   * still at `version` (the version the deadline was scheduled for); otherwise, or when another
   * command wins the race, it is a no-op and returns null. Idempotent: a retried job cannot apply twice.
   */
  async timeout(gameId: string, version: number, tables?: OptimalTablesLoader): Promise<ServiceMoveResult> {
    const g = await this.store.load(checkGameId(gameId));
    if (!g || g.state.version !== version || g.state.status !== 'playing' || g.state.play === null) return null;
    const seat = familyById(g.state.family).currentSeat(g.state.play);
    if (seat === null) return null;
    // Five dice at a level other than standard: the moves are chosen here and listed in the command
    // (the rules check them); standard keeps the command without moves, re-run by the rules' own policy.
    const level = g.state.computerLevel;
    let command: GameCommand = { type: 'timeout', seat };
    if (g.state.family === 'five-dice' && level !== 'standard') {
      const moves = await this.planMoves(g, seat, level, tables);
      if (moves === 'table-building') return moves;
      command = { type: 'timeout', seat, moves };
    }
    const events = decideGame(g.state, command, this.roller(g));
    const res = await this.appendServiceMove(g, events);
    return res && { version: res.state.version, events: res.stored.length };
  }

  /**
   * A computer seat is to move (src/async/computer): plays its whole turn at the seat's level as one
   * `computer` command, only if the game is still at `version`; a game that moved on, or another
   * instance that won the race, makes it a no-op (null).
   */
  async computerTurn(gameId: string, version: number, tables?: OptimalTablesLoader): Promise<ServiceMoveResult> {
    const g = await this.store.load(checkGameId(gameId));
    if (!g || g.state.version !== version || g.state.status !== 'playing' || g.state.play === null) return null;
    const seat = familyById(g.state.family).currentSeat(g.state.play);
    const level = seat === null ? null : g.state.seats[seat]?.computer;
    if (seat === null || !level) return null;
    const moves = await this.planMoves(g, seat, level, tables);
    if (moves === 'table-building') return moves;
    const res = await this.appendServiceMove(
      g,
      decideGame(g.state, { type: 'computer', seat, level, moves }, this.roller(g)),
    );
    return res && { version: res.state.version, events: res.stored.length };
  }

  /**
   * Five dice with `autoScoreAfterMs`: the player on turn has not scored since the last roll of the
   * turn (the game is still at `version`), so the dice go into the box the game's computer level chooses.
   */
  async autoScore(gameId: string, version: number, tables?: OptimalTablesLoader): Promise<ServiceMoveResult> {
    const g = await this.store.load(checkGameId(gameId));
    if (!g || g.state.version !== version || g.state.status !== 'playing' || g.state.family !== 'five-dice')
      return null;
    const play = g.state.play as FiveDiceState | null;
    const turn = play?.turn;
    if (!play || !turn || turn.rollInTurn !== 3) return null;
    const level = g.state.computerLevel;
    const loaded = level === 'optimal' ? await this.loadTables(g, tables) : {};
    if (loaded === null) return 'table-building';
    const box = fiveDiceBox(play.sheets[turn.seat], turn.dice, play.options, level, loaded);
    const res = await this.appendServiceMove(
      g,
      decideGame(g.state, { type: 'autoScore', seat: turn.seat, box }, noDice),
    );
    return res && { version: res.state.version, events: res.stored.length };
  }

  private roller(g: LoadedGame) {
    return this.dice.rollerFor({ serverSeed: g.row.serverSeed, state: g.state });
  }

  private async loadTables(g: LoadedGame, tables?: OptimalTablesLoader): Promise<OptimalTables | null> {
    if (!tables) throw new Error('level optimal needs the advice tables, and none were given');
    return tables(g.state);
  }

  /** The rest of `seat`'s turn at `level`, decided on the game's own dice (the command re-derives the same). */
  private async planMoves(g: LoadedGame, seat: number, level: ComputerLevel, tables?: OptimalTablesLoader) {
    const loaded = level === 'optimal' ? await this.loadTables(g, tables) : {};
    if (loaded === null) return 'table-building' as const;
    let moves;
    try {
      moves = planTurn(g.state, seat, level, this.roller(g), loaded);
    } catch (err) {
      if (err instanceof MissingTableError) throw new Error(`${err.message} (game ${g.row.id})`);
      throw err;
    }
    if (isRuleError(moves)) throw DomainException.fromRule(moves);
    return moves;
  }

  /**
   * Appends and publishes the events of a move the service makes (timeout, abandonment). A game
   * that moved on meanwhile (VERSION_CONFLICT) makes it a no-op: null.
   */
  private async appendServiceMove(g: LoadedGame, events: ReturnType<typeof decideGame>) {
    if (isRuleError(events)) throw DomainException.fromRule(events);
    const after = events.reduce(evolveGame, g.state);
    let res;
    try {
      res = await this.store.append(g, events, readModel(g.state, after, events, this.inactivity));
    } catch (err) {
      if (err instanceof DomainException && err.code === 'VERSION_CONFLICT') return null;
      throw err;
    }
    this.bus.publish(g.row.id, res.stored);
    return res;
  }

  /**
   * Nobody touched the game for the configured period (src/async/inactivity): an open game expires,
   * a started one is abandoned, and its server seed becomes public. Applies only if the game is
   * still at `version` (the version the job was scheduled for); otherwise a no-op returning null.
   */
  async abandonInactive(gameId: string, version: number): Promise<{ version: number; reason: string } | null> {
    const g = await this.store.load(checkGameId(gameId));
    if (!g || g.state.version !== version) return null;
    if (g.state.status !== 'open' && g.state.status !== 'playing') return null;
    const command: AbandonCommand = { type: 'abandon', reason: g.state.status === 'open' ? 'expired' : 'inactive' };
    const res = await this.appendServiceMove(g, decideGame(g.state, command, noDice));
    return res && { version: res.state.version, reason: command.reason };
  }

  // ------------------------------------------------------------------ queries

  /**
   * Each seat's total now, for the service's own use (live tournament standings at tables; never
   * for duplicate games, whose scores stay secret until their round ended). null: no such game.
   */
  async currentTotals(gameId: string): Promise<{ status: string; totals: number[] } | null> {
    const g = await this.store.load(checkGameId(gameId));
    if (!g) return null;
    const standings =
      g.state.standings ?? (g.state.play === null ? null : familyById(g.state.family).standings(g.state.play));
    const totals = g.state.seats.map((s) => standings?.find((x) => x.seat === s.seat)?.total ?? 0);
    return { status: g.state.status, totals };
  }

  async get(player: Player | null, gameId: string): Promise<GameView> {
    return viewOfLoaded(await this.loadVisible(player, checkGameId(gameId)));
  }

  /** My games, newest first (decision 0025: a stable order, so paging neither skips nor repeats). */
  async listMine(player: Player, page: PageRequest): Promise<GameListPage> {
    const rows = await this.store.listMine(player.id, page.limit + 1, this.gamesPosition('games:mine', page));
    return this.gamePage('games:mine', rows, page, player);
  }

  /**
   * Open public games, newest first. A public read: on the standby when DATABASE_READ_URL is set
   * (decision 0091), so a game may still be listed for a moment after it filled up (joining it then
   * answers from the primary).
   */
  async listOpen(player: Player | null, page: PageRequest): Promise<GameListPage> {
    const position = this.gamesPosition('games:open', page);
    const rows = this.reads
      ? await this.reads.read((t) => this.store.listOpen(page.limit + 1, position, t.db))
      : await this.store.listOpen(page.limit + 1, position);
    return this.gamePage('games:open', rows, page, player);
  }

  /**
   * The game's events with version > `after` (or after the `cursor`'s version), oldest first.
   * Events are append-only, so this paging is exact.
   */
  async history(
    player: Player | null,
    gameId: string,
    page: PageRequest & { after?: number },
  ): Promise<GameEventListPage> {
    const g = await this.loadVisible(player, checkGameId(gameId));
    const list = `events:${g.row.id}`;
    if (page.cursor !== undefined && page.after !== undefined)
      throw new DomainException('VALIDATION_FAILED', 'Give either a cursor or `after`, not both');
    const after =
      page.cursor !== undefined ? (decodeCursor(page.cursor, list, ['int'])[0] as number) : (page.after ?? 0);
    const events = await this.store.readEvents(g.row.id, after, page.limit);
    const lastVersion = events.length ? events[events.length - 1].version : after;
    const more = lastVersion < g.state.version && events.length > 0;
    const cursors = events.map((e) => encodeCursor(list, [e.version]));
    return {
      items: events.map(toEventView),
      cursors,
      nextCursor: more ? cursors[cursors.length - 1] : null,
      nextAfter: more ? lastVersion : null,
      family: g.state.family,
    };
  }

  /** The state right after event `version` (replayed from the stored events up to it). */
  async atVersion(player: Player | null, gameId: string, version: number): Promise<GameView> {
    const g = await this.loadVisible(player, checkGameId(gameId));
    if (!Number.isInteger(version) || version < 1 || version > g.state.version) {
      throw new DomainException('VERSION_NOT_FOUND', `The game has versions 1 to ${g.state.version}`, {
        latestVersion: g.state.version,
      });
    }
    const events = await this.store.readEventsUpTo(g.row.id, version);
    let state = emptyGame(g.row.id);
    let lastRolled: Record<string, unknown> | null = null;
    for (const e of events) {
      state = evolveGame(state, toGameEvent(e));
      if (e.type === 'rolled') lastRolled = e.data;
    }
    const head = events[events.length - 1].hash;
    const row = {
      ...g.row,
      updatedAt: events[events.length - 1].createdAt,
      finishedAt: state.status === 'finished' || state.status === 'abandoned' ? g.row.finishedAt : null,
      startedAt: state.status === 'open' ? null : g.row.startedAt,
    };
    return buildGameView(row, state, head, lastRolled, g.names, g.state.status);
  }

  /**
   * Live events after `after` (backlog first), for SSE and GraphQL subscriptions. Access is
   * checked when the stream opens and again on every later event (the stream ends with an
   * AccessRevoked item once the subscriber may no longer see the game).
   */
  async stream(player: Player | null, gameId: string, after = 0): Promise<GameEventStream> {
    return (await this.streamOf(player, gameId, after)).stream;
  }

  /** The stream with the game's family (GraphQL types each event by type and family). */
  async streamOf(
    player: Player | null,
    gameId: string,
    after = 0,
  ): Promise<{ family: FamilyId; stream: GameEventStream }> {
    const g = await this.loadVisible(player, checkGameId(gameId));
    const access = { state: g.state, mayView: (state: GameState) => this.canSeeState(state, player) };
    const stream = await new GameEventStream(this.store, this.bus, g.row.id, after, access).start();
    return { family: g.state.family, stream };
  }

  /**
   * The game as the rules see it, for features that read games (advice): its replayed state and,
   * with `withEvents`, every stored event in order. The same access as `get` (GAME_NOT_FOUND).
   */
  async replayed(
    player: Player | null,
    gameId: string,
    withEvents = false,
  ): Promise<{ state: GameState; events: GameEvent[] | null }> {
    const g = await this.loadVisible(player, checkGameId(gameId));
    if (!withEvents) return { state: g.state, events: null };
    const stored = await this.store.readEventsUpTo(g.row.id, g.state.version);
    return { state: g.state, events: stored.map(toGameEvent) };
  }

  // ------------------------------------------------------------------ internals

  private async loadVisible(player: Player | null, gameId: string): Promise<LoadedGame> {
    const g = await this.store.load(gameId);
    if (!g || !this.canSee(g, player)) throw notFound();
    return g;
  }

  /** Public games: anyone. Private games: only their seated players (others get GAME_NOT_FOUND). */
  private canSee(g: LoadedGame, player: Player | null): boolean {
    return this.canSeeState(g.state, player);
  }

  private canSeeState(state: GameState, player: Player | null): boolean {
    if (state.visibility === 'public') return true;
    return player !== null && (state.creatorId === player.id || state.seats.some((s) => s.playerId === player.id));
  }

  private play(player: Player, move: Record<string, unknown> & { type: string }): GameCommand {
    return { type: 'play', playerId: player.id, move };
  }

  private requireFamily(g: LoadedGame, family: 'five-dice' | 'farkle', what: string): void {
    if (g.state.family !== family)
      throw new DomainException('INVALID_COMMAND', `You cannot ${what} in ${g.state.ruleSet}`);
  }

  /**
   * Load, decide, append, publish. `outsiderMayAct`: a private game's id works as an invitation
   * for joining while it is open; any other command from an outsider is GAME_NOT_FOUND.
   * With an idempotency key the whole command runs in one transaction that also stores its
   * outcome (IdempotencyService); If-Match is checked on the loaded version (412).
   */
  private async execute(
    player: Player,
    rawId: string,
    build: MoveBuilder,
    outsiderMayAct: boolean,
    opts: CommandOptions,
    [operation, args]: [string, unknown],
  ): Promise<CommandResult> {
    return this.counted(operation, opts, async (o) => {
      const gameId = checkGameId(rawId);
      const key = parseIdempotencyKey(o.idempotencyKey);
      const hash = requestHash(operation, gameId, args);
      let compact: CommandEventsView | undefined;
      const result = await this.idempotency.run(
        { playerId: player.id, key, hash, onReplay: o.onReplay, batched: true },
        () => this.executeNow(player, gameId, build, outsiderMayAct, { ...o, onCompact: (c) => (compact = c) }),
      );
      return compact ?? (o.compact ? this.replayedCompact(result) : result);
    });
  }

  /**
   * Decides on the cached state without reading when the event store has it (fresh = false).
   * A stale cache (another instance wrote and its NOTIFY has not arrived yet) shows up as an error:
   * - VERSION_CONFLICT from the append: the store evicted the entry and the client gets 409, as
   *   for any race (a conflict cannot be told apart from a genuine concurrent command, and
   *   re-running it would apply a double-clicked command twice); its retry loads fresh;
   * - a rule / seat / If-Match error decided on old state (nothing was written): the entry is
   *   dropped and the command runs once more on a fresh load, so the answer is the one a fresh
   *   load gives.
   */
  private async executeNow(
    player: Player,
    gameId: string,
    build: MoveBuilder,
    outsiderMayAct: boolean,
    opts: CommandOptions,
    fresh = false,
  ): Promise<CommandResult> {
    // Inside an idempotent command's transaction a failed statement aborts it: no retry there, read fresh.
    const g = await this.store.load(gameId, { cached: !fresh && currentUnitOfWork() === undefined });
    if (!g) throw notFound();
    if (!g.fromCache) return this.executeOn(g, player, gameId, build, outsiderMayAct, opts);
    try {
      return await this.executeOn(g, player, gameId, build, outsiderMayAct, opts);
    } catch (err) {
      if (!(err instanceof DomainException) || err.code === 'VERSION_CONFLICT') throw err;
      this.store.forget(gameId);
      return this.executeNow(player, gameId, build, outsiderMayAct, opts, true);
    }
  }

  private async executeOn(
    g: LoadedGame,
    player: Player,
    gameId: string,
    build: MoveBuilder,
    outsiderMayAct: boolean,
    opts: CommandOptions,
  ): Promise<CommandResult> {
    if (!this.canSee(g, player) && !(outsiderMayAct && g.state.status === 'open')) throw notFound();
    // Authorization before anything else: only a seated player may act (join aside), whatever the command.
    if (!outsiderMayAct && !g.state.seats.some((s) => s.playerId === player.id)) {
      throw new DomainException('NOT_SEATED', 'You do not hold a seat in this game');
    }
    checkIfMatch(opts.ifMatch, g.state.version);
    const command = build(g);
    const events = decideGame(
      g.state,
      command,
      this.dice.rollerFor({ serverSeed: g.row.serverSeed, state: seedsStateFor(g.state, command) }),
    );
    if (isRuleError(events)) throw DomainException.fromRule(events);
    const after = events.reduce(evolveGame, g.state);
    const names = { ...g.names, [player.id]: player.displayName };
    const view = (r: AppendResult) => buildGameView(r.row, r.state, r.head, r.lastRolled, names);
    // An idempotent command's response is built by the append (its outcome record is written with it).
    const res = await this.store.append(g, events, readModel(g.state, after, events, this.inactivity), view);
    afterCommit(() => this.bus.publish(gameId, res.stored));
    return this.answer(opts, gameId, res.stored, () => (res.response as GameView | undefined) ?? view(res));
  }

  private gamesPosition(list: string, page: PageRequest): ListPosition {
    if (page.cursor === undefined) return { offset: page.offset };
    const [createdMicros, id] = decodeCursor(page.cursor, list, ['int', 'uuid']) as [number, string];
    return { after: { createdMicros, id } };
  }

  private gamePage(list: string, rows: GameSummaryRow[], page: PageRequest, player: Player | null): GameListPage {
    const toItem = (r: GameSummaryRow): GameSummaryView => ({
      id: r.id,
      ruleSet: r.ruleSet,
      family: r.family,
      status: r.status,
      visibility: r.visibility,
      version: r.version,
      seatCount: r.seatCount,
      seatsTaken: r.seatsTaken,
      computerSeats: r.computerSeats,
      creatorId: r.creatorId,
      currentSeat: r.currentSeat,
      currentPlayerId: r.currentPlayerId,
      awaitingMyMove: player !== null && r.status === 'playing' && r.currentPlayerId === player.id,
      createdAt: r.createdAt,
      updatedAt: r.updatedAt,
    });
    const result = cursorPage(rows, page.limit, list, (r) => [r.createdMicros, r.id], toItem);
    // Offsets stay meaningful only for offset paging (a cursor's absolute position is unknown).
    const nextOffset = page.cursor === undefined && result.nextCursor !== null ? (page.offset ?? 0) + page.limit : null;
    return { ...result, nextOffset };
  }
}

/** One game a tournament round creates (GamesService.createTournamentGame). */
export interface TournamentGameSpec {
  gameId: string;
  ruleSet: RuleSetName;
  options: Record<string, unknown>;
  visibility: 'public' | 'private';
  turnTimeLimitSeconds: number | null;
  /** hex: the round seed in duplicate rounds, a fresh server seed at tables. */
  serverSeed: string;
  /** Keep the server seed secret after the game ends (duplicate rounds, until the round ends). */
  seedSealed: boolean;
  organizerSeed: string;
  /** In seat order: each entrant's registered seed. */
  seats: Array<{ playerId: string; clientSeed: string }>;
  tournament: TournamentRef;
}

/** A page of games: cursor paging, plus the deprecated offset of the next page (offset paging only). */
export type GameListPage = CursorPage<GameSummaryView> & { nextOffset: number | null };
/**
 * A page of events: cursor paging, plus the version to pass as `after` for the next page and the
 * game's family (GraphQL types each event by type and family).
 */
export type GameEventListPage = CursorPage<GameEventView> & { nextAfter: number | null; family: FamilyId };

/** 000's auto-score for a new `penta` game, unless the creator's overrides name it (AUTO_SCORE_DEFAULTS). */
function withAutoScoreDefault(ruleSet: string, overrides: Record<string, unknown>): Record<string, unknown> {
  const ms = AUTO_SCORE_DEFAULTS[ruleSet];
  if (ms === undefined || 'autoScoreAfterMs' in overrides) return overrides;
  return { ...overrides, autoScoreAfterMs: ms };
}

/** The rule set's option overrides, validated by its family before anything is hashed or stored. */
function checkOptions(input: CreateGameInput): void {
  const preset = RULE_SETS[input.ruleSet as RuleSetName];
  if (!preset) return; // the DTO already refused unknown rule sets; decideGame answers the rest
  const resolved = familyById(preset.family).resolveOptions(preset.options, input.options ?? {});
  if (isRuleError(resolved)) throw DomainException.fromRule(resolved);
  // Timeouts and auto-scores at level optimal would be the service playing a player's move optimally:
  // advice by another name, so a game that forbids advice cannot have it (decision 0041).
  if (input.advice === 'forbidden' && input.computerLevel === 'optimal') {
    const why =
      'computerLevel optimal is not available in a game that forbids advice (its timeouts and auto-scores would play optimally for the player)';
    throw new DomainException('VALIDATION_FAILED', why, { errors: [{ field: 'computerLevel', problems: [why] }] });
  }
  if (input.computerSeats !== undefined && input.computerSeats !== null) {
    const problem = computerSeatsProblem(input.seats, input.hotSeats ?? 0, input.computerSeats);
    if (problem !== null)
      throw new DomainException('VALIDATION_FAILED', problem, {
        errors: [{ field: 'computerSeats', problems: [problem] }],
      });
    // The Farkle solver covers the default scoring only (docs/advice.md): no optimal seat elsewhere.
    if (preset.family === 'farkle' && input.computerSeats.some((c) => c.level === 'optimal')) {
      try {
        assertFarkleSolvable(resolved as FarkleOptions);
      } catch (err) {
        const why = `level optimal is not available for these Farkle options: ${(err as Error).message}`;
        throw new DomainException('VALIDATION_FAILED', why, { errors: [{ field: 'computerSeats', problems: [why] }] });
      }
    }
  }
}

/** The read-model columns after a command (kept in step with the events, same statement). */
export function readModel(
  before: GameState,
  after: GameState,
  _events: readonly GameEvent[],
  inactivity?: InactivityPeriods,
): ReadModelUpdate {
  const family = after.play === null ? null : familyById(after.family);
  const currentSeat = family && after.status === 'playing' ? family.currentSeat(after.play) : null;
  return {
    status: after.status,
    currentSeat,
    currentPlayerId: currentSeat === null ? null : (after.seats[currentSeat]?.playerId ?? null),
    standings: after.standings,
    started: before.status === 'open' && after.status !== 'open' && after.play !== null,
    finished: after.status === 'finished' || after.status === 'abandoned',
    seats: after.seats.filter((s, i) => JSON.stringify(s) !== JSON.stringify(before.seats[i])),
    organizerSeed: after.organizerSeed,
    // Turn deadline, inactivity job and webhook fan-out, written by the same statement as the events (src/async).
    ...asyncEffects(before, after, inactivity),
  };
}
