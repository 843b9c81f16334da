/**
 * The games' application service: the one entry point the transports (REST, GraphQL), the jobs
 * (src/async) and other features (tournaments, advice) use. It delegates by job:
 * - GameCreation: create, rematch, a tournament round's games;
 * - GameCommands: a player's commands on a game, through the one command handler (src/commands);
 * - ServiceMoves: the moves the service makes (timeout, computer turn, auto-score, abandonment);
 * - GameQueries: reads, lists and live streams, under the one access rule (maySeeGame, @fairdice/core/rules/game/access).
 */
import { Injectable } from '@nestjs/common';
import type { GameEvent, GameState } from '@fairdice/core/rules/game';
import type { FamilyId } from '@fairdice/core/rules/core/family';
import type { PageRequest } from '../common/pagination/page-request';
import type { InactivityPeriods } from '../event-store/async-effects';
import type { AuthenticatedPlayer } from '../players/players.types';
import type { GameView } from './dto/game-view.model';
import type { CreateGameInput, JoinGameInput, SetSeedInput, StartGameInput } from './dto/game.inputs';
import { GameAggregate } from './game-aggregate';
import { GameCommands } from './game-commands.service';
import { GameCreation } from './game-creation.service';
import { GameQueries } from './game-queries.service';
import type { GameEventStream } from './game-stream';
import type {
  CommandOptions,
  CommandResult,
  GameEventListPage,
  GameListPage,
  OptimalTablesLoader,
  ServiceMoveResult,
  TournamentGameSpec,
} from './games.types';
import { ServiceMoves } from './service-moves.service';

type Player = AuthenticatedPlayer;

@Injectable()
export class GamesService {
  constructor(
    private readonly creation: GameCreation,
    private readonly commands: GameCommands,
    private readonly moves: ServiceMoves,
    private readonly queries: GameQueries,
    game: GameAggregate,
  ) {
    this.inactivity = game.inactivity;
  }

  /** How long a game may sit without a command before the service ends it (src/async/inactivity). */
  readonly inactivity: InactivityPeriods;

  // ------------------------------------------------------------------ new games
  create(player: Player, input: CreateGameInput, opts: CommandOptions = {}): Promise<CommandResult> {
    return this.creation.create(player, input, opts);
  }
  rematch(player: Player, gameId: string, opts: CommandOptions = {}): Promise<CommandResult> {
    return this.creation.rematch(player, gameId, opts);
  }
  createTournamentGame(spec: TournamentGameSpec): Promise<void> {
    return this.creation.createTournamentGame(spec);
  }

  // ------------------------------------------------------------------ a player's commands
  join(player: Player, gameId: string, input: JoinGameInput, opts: CommandOptions = {}): Promise<CommandResult> {
    return this.commands.join(player, gameId, input, opts);
  }
  leave(player: Player, gameId: string, opts: CommandOptions = {}): Promise<CommandResult> {
    return this.commands.leave(player, gameId, opts);
  }
  setSeed(player: Player, gameId: string, input: SetSeedInput, opts: CommandOptions = {}): Promise<CommandResult> {
    return this.commands.setSeed(player, gameId, input, opts);
  }
  start(player: Player, gameId: string, input: StartGameInput = {}, opts: CommandOptions = {}): Promise<CommandResult> {
    return this.commands.start(player, gameId, input, opts);
  }
  cancel(player: Player, gameId: string, opts: CommandOptions = {}): Promise<CommandResult> {
    return this.commands.cancel(player, gameId, opts);
  }
  roll(player: Player, gameId: string, hold: number[] | undefined, opts: CommandOptions = {}): Promise<CommandResult> {
    return this.commands.roll(player, gameId, hold, opts);
  }
  score(player: Player, gameId: string, box: string, opts: CommandOptions = {}): Promise<CommandResult> {
    return this.commands.score(player, gameId, box, opts);
  }
  setAside(player: Player, gameId: string, dice: number[], opts: CommandOptions = {}): Promise<CommandResult> {
    return this.commands.setAside(player, gameId, dice, opts);
  }
  bank(player: Player, gameId: string, opts: CommandOptions = {}): Promise<CommandResult> {
    return this.commands.bank(player, gameId, opts);
  }
  quit(player: Player, gameId: string, opts: CommandOptions = {}): Promise<CommandResult> {
    return this.commands.quit(player, gameId, opts);
  }

  // ------------------------------------------------------------------ the service's moves
  timeout(gameId: string, version: number, tables?: OptimalTablesLoader): Promise<ServiceMoveResult> {
    return this.moves.timeout(gameId, version, tables);
  }
  computerTurn(gameId: string, version: number, tables?: OptimalTablesLoader): Promise<ServiceMoveResult> {
    return this.moves.computerTurn(gameId, version, tables);
  }
  autoScore(gameId: string, version: number, tables?: OptimalTablesLoader): Promise<ServiceMoveResult> {
    return this.moves.autoScore(gameId, version, tables);
  }
  abandonInactive(gameId: string, version: number): Promise<{ version: number; reason: string } | null> {
    return this.moves.abandonInactive(gameId, version);
  }

  // ------------------------------------------------------------------ reads
  currentTotals(gameId: string): Promise<{ status: string; totals: number[] } | null> {
    return this.queries.currentTotals(gameId);
  }
  get(player: Player | null, gameId: string): Promise<GameView> {
    return this.queries.get(player, gameId);
  }
  listMine(player: Player, page: PageRequest): Promise<GameListPage> {
    return this.queries.listMine(player, page);
  }
  listOpen(player: Player | null, page: PageRequest): Promise<GameListPage> {
    return this.queries.listOpen(player, page);
  }
  history(player: Player | null, gameId: string, page: PageRequest & { after?: number }): Promise<GameEventListPage> {
    return this.queries.history(player, gameId, page);
  }
  atVersion(player: Player | null, gameId: string, version: number): Promise<GameView> {
    return this.queries.atVersion(player, gameId, version);
  }
  stream(player: Player | null, gameId: string, after = 0): Promise<GameEventStream> {
    return this.queries.stream(player, gameId, after);
  }
  streamOf(player: Player | null, gameId: string, after = 0): Promise<{ family: FamilyId; stream: GameEventStream }> {
    return this.queries.streamOf(player, gameId, after);
  }
  replayed(
    player: Player | null,
    gameId: string,
    withEvents = false,
  ): Promise<{ state: GameState; events: GameEvent[] | null }> {
    return this.queries.replayed(player, gameId, withEvents);
  }
}
