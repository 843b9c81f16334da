/**
 * The solved tables level `optimal` plays with (computer seats, and the timeouts and auto-scores
 * of games at level optimal), from the advice tables (src/advice: worker threads, disk cache).
 * A job never waits on a build: while the table is being built (or the build queue is full) the
 * loader answers null and the job runs again TABLE_RETRY_MS later.
 */
import { Injectable } from '@nestjs/common';
import { farkleExpertTwoPlayer, type OptimalTables } from '@fairdice/core/rules/computer';
import type { ComputerLevel, GameState } from '@fairdice/core/rules/game';
import { DomainException } from '../../common/errors';
import { AdviceTablesService } from '../../advice/advice-tables.service';
import type { OptimalTablesLoader } from '../../games/games.types';

/** A job that finds its table still being built tries again this much later. */
export const TABLE_RETRY_MS = 2000;

@Injectable()
export class ComputerTables {
  constructor(private readonly advice: AdviceTablesService) {}

  /** The tables for the game's options, or null while they are still being built. */
  readonly loader: OptimalTablesLoader = (state: GameState, level?: ComputerLevel) =>
    Promise.resolve(this.tablesFor(state, level));

  private tablesFor(state: GameState, level?: ComputerLevel): OptimalTables | null {
    try {
      if (state.family === 'five-dice') return { fiveDice: this.advice.fiveDice(state.options) };
      // Farkle's expert plays a two-seat game from the two-player table alone (decision 0146).
      return level === 'expert' && farkleExpertTwoPlayer(state.seats.length)
        ? { farkleTwoPlayer: this.advice.farkleTwoPlayer(state.options) }
        : { farkle: this.advice.farkle(state.options) };
    } catch (err) {
      // Queued or building (the get above queued it), or the build queue is full: try again later.
      if (err instanceof DomainException && (err.code === 'TABLE_BUILDING' || err.code === 'ADVICE_BUSY')) return null;
      throw err;
    }
  }
}
