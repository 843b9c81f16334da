/**
 * The moves the service makes itself: a turn's timeout, a computer seat's turn, an auto-score and
 * the abandonment of an inactive game. Each is due at the version its job was scheduled for and
 * goes through the command handler's `serviceMove`: applied only while the game is still at that
 * version (one check for all four), a no-op (null) when a command came first or another instance
 * won the race. Idempotent: a retried job cannot apply twice.
 */
import { Injectable } from '@nestjs/common';
import {
  MissingTableError,
  type OptimalTables,
  planTurn,
  playsFromTables,
  fiveDiceBox,
} from '@fairdice/core/rules/computer';
import { isRuleError } from '@fairdice/core/rules/core/errors';
import { fiveDicePlay, type ComputerLevel, type GameCommand } from '@fairdice/core/rules/game';
import { familyById } from '@fairdice/core/rules/registry';
import { CommandHandler } from '../commands/command-handler';
import { DomainException } from '../common/errors';
import type { AppendResult, LoadedGame } from '../event-store/event-store.service';
import { DiceService } from './dice.service';
import { GameAggregate } from './game-aggregate';
import { checkGameId, type OptimalTablesLoader, type ServiceMoveResult } from './games.types';

@Injectable()
export class ServiceMoves {
  constructor(
    private readonly handler: CommandHandler,
    private readonly game: GameAggregate,
    private readonly dice: DiceService,
  ) {}

  /**
   * The turn deadline fired (src/async/deadlines): the computer completes the turn of the seat
   * that was to move, as ordinary events marked reason 'timeout'.
   */
  async timeout(gameId: string, version: number, tables?: OptimalTablesLoader): Promise<ServiceMoveResult> {
    return this.move(gameId, version, async (g) => {
      const seat = this.seatToMove(g);
      if (seat === null) return null;
      // Five dice at a level other than standard: the moves are chosen here and listed in the command
      // (the rules check them); standard keeps the command without moves, re-run by the rules' own policy.
      const level = g.state.computerLevel;
      if (g.state.family !== 'five-dice' || level === 'standard') return { type: 'timeout', seat };
      const moves = await this.planMoves(g, seat, level, tables);
      return moves === 'later' ? moves : { type: 'timeout', seat, moves };
    });
  }

  /**
   * A computer seat is to move (src/async/computer): plays its whole turn at the seat's level as one
   * `computer` command.
   */
  async computerTurn(gameId: string, version: number, tables?: OptimalTablesLoader): Promise<ServiceMoveResult> {
    return this.move(gameId, version, async (g) => {
      const seat = this.seatToMove(g);
      const level = seat === null ? null : g.state.seats[seat]?.computer;
      if (seat === null || !level) return null;
      const moves = await this.planMoves(g, seat, level, tables);
      return moves === 'later' ? moves : { type: 'computer', seat, level, moves };
    });
  }

  /**
   * Five dice with `autoScoreAfterMs`: the player on turn has not scored since the last roll of the
   * turn, so the dice go into the box the game's computer level chooses.
   */
  async autoScore(gameId: string, version: number, tables?: OptimalTablesLoader): Promise<ServiceMoveResult> {
    return this.move(gameId, version, async (g) => {
      if (g.state.status !== 'playing') return null;
      const play = fiveDicePlay(g.state);
      const turn = play?.turn;
      if (!play || !turn || turn.rollInTurn !== 3) return null;
      const level = g.state.computerLevel;
      const loaded = playsFromTables(level) ? await this.loadTables(g, level, tables) : {};
      if (loaded === null) return 'later';
      const box = fiveDiceBox(play.sheets[turn.seat], turn.dice, play.options, level, loaded);
      return { type: 'autoScore', seat: turn.seat, box };
    });
  }

  /**
   * Nobody touched the game for the configured period (src/async/inactivity): an open game expires,
   * a started one is abandoned, and its server seed becomes public.
   */
  async abandonInactive(gameId: string, version: number): Promise<{ version: number; reason: string } | null> {
    let reason: 'expired' | 'inactive' = 'inactive';
    const res = await this.handler.serviceMove(this.game, checkGameId(gameId), version, (g) => {
      if (g.state.status !== 'open' && g.state.status !== 'playing') return Promise.resolve(null);
      reason = g.state.status === 'open' ? 'expired' : 'inactive';
      return Promise.resolve({ type: 'abandon', reason } satisfies GameCommand);
    });
    return res && res !== 'later' ? { version: res.state.version, reason } : null;
  }

  /** A move due at `version`, through the handler; 'later' (a table being built) is table-building. */
  private async move(
    gameId: string,
    version: number,
    build: (g: LoadedGame) => Promise<GameCommand | null | 'later'>,
  ): Promise<ServiceMoveResult> {
    const res: AppendResult | null | 'later' = await this.handler.serviceMove(
      this.game,
      checkGameId(gameId),
      version,
      build,
    );
    if (res === 'later') return 'table-building';
    return res && { version: res.state.version, events: res.stored.length };
  }

  /** The seat to move in a game being played, or null. */
  private seatToMove(g: LoadedGame): number | null {
    if (g.state.status !== 'playing' || g.state.play === null) return null;
    return familyById(g.state.family).currentSeat(g.state.play);
  }

  private async loadTables(
    g: LoadedGame,
    level: ComputerLevel,
    tables?: OptimalTablesLoader,
  ): Promise<OptimalTables | null> {
    if (!tables) throw new Error(`level ${level} needs the advice tables, and none were given`);
    // The level decides which: Farkle's expert plays a two-seat game from the two-player table.
    return tables(g.state, level);
  }

  /** The rest of `seat`'s turn at `level`, decided on the game's own dice (the command re-derives the same). */
  private async planMoves(g: LoadedGame, seat: number, level: ComputerLevel, tables?: OptimalTablesLoader) {
    const loaded = playsFromTables(level) ? await this.loadTables(g, level, tables) : {};
    if (loaded === null) return 'later' as const;
    let moves;
    try {
      moves = planTurn(
        g.state,
        seat,
        level,
        this.dice.rollerFor({ serverSeed: g.row.serverSeed, state: g.state }),
        loaded,
      );
    } catch (err) {
      if (err instanceof MissingTableError) throw new Error(`${err.message} (game ${g.row.id})`);
      throw err;
    }
    if (isRuleError(moves)) throw DomainException.fromRule(moves);
    return moves;
  }
}
