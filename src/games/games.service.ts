/**
 * The games' application service: the one entry point the transports (REST, GraphQL), the jobs
 * (src/async) and other features (tournaments, advice) use. It delegates by job:
 * - GameCreation: create, rematch, a tournament round's games;
 * - GameCommands: a player's moves on a game (the tables of src/games/moves), through the one command handler (src/commands);
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
import type { CreateGameInput } from './dto/game.inputs';
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
  StartedGameSpec,
  TournamentGameSpec,
} from './games.types';
import { ServiceMoves } from './service-moves.service';
import type { GameMove } from './moves/move-definition';

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
  createTournamentGame(spec: TournamentGameSpec): Promise<void> {
    return this.creation.createTournamentGame(spec);
  }
  /** A started game of players the service paired (a challenge, a seek); inside the caller's transaction. */
  createStartedGame(spec: StartedGameSpec): Promise<{ gameId: string; players: string[] }> {
    return this.creation.createStartedGame(spec);
  }

  // ------------------------------------------------------------------ a player's moves
  /** A move of the tables (src/games/moves): a command on the game, or a rematch (a new game). */
  move<I extends object>(
    move: GameMove<I>,
    player: Player,
    gameId: string,
    input: I,
    opts: CommandOptions = {},
  ): Promise<CommandResult> {
    if (move.command === 'rematch') return this.creation.rematch(player, gameId, opts);
    return this.commands.run(move, move.command, player, gameId, input, opts);
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
  get(player: Player | null, gameId: string, opts: { fresh?: boolean } = {}): Promise<GameView> {
    return this.queries.get(player, gameId, opts);
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
