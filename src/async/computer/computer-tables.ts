/**
 * The solved tables level `optimal` plays with, for the games service's computer moves (computer
 * seats, and timeouts and auto-scores of games at level optimal). Tables are per option set.
 */
import { Injectable } from '@nestjs/common';
import type { OptimalTables } from '@fairdice/core/rules/computer';
import { solveFarkle, solveFiveDice, type FarkleSolution, type FiveDiceSolution } from '@fairdice/core/rules/advice';
import type { FarkleOptions } from '@fairdice/core/rules/farkle';
import type { FiveDiceOptions } from '@fairdice/core/rules/five-dice';
import { optionsFingerprint } from '@fairdice/core/rules/advice';
import type { GameState } from '@fairdice/core/rules/game';
import type { OptimalTablesLoader } from '../../games/games.service';

/** A job that finds its table still being built tries again this much later. */
export const TABLE_RETRY_MS = 2000;

@Injectable()
export class ComputerTables {
  private readonly fiveDice = new Map<string, FiveDiceSolution>();
  private readonly farkle = new Map<string, FarkleSolution>();

  /** The tables for the game's options, or null while they are still being built. */
  readonly loader: OptimalTablesLoader = (state: GameState) => Promise.resolve(this.tablesFor(state));

  private tablesFor(state: GameState): OptimalTables | null {
    if (state.family === 'five-dice') {
      const options = state.options as unknown as FiveDiceOptions;
      const key = optionsFingerprint(options);
      let table = this.fiveDice.get(key);
      if (!table) this.fiveDice.set(key, (table = solveFiveDice(options)));
      return { fiveDice: table };
    }
    const options = state.options as unknown as FarkleOptions;
    const key = JSON.stringify(options);
    let table = this.farkle.get(key);
    if (!table) this.farkle.set(key, (table = solveFarkle(options)));
    return { farkle: table };
  }
}
