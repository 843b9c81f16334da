/**
 * Check `service-moves`: every move the service chose (computer seat, timeout with moves,
 * auto-score) is the one its level makes, re-derived on the same state and dice
 * (../service-moves.ts); SKIPPED for level optimal without the solved tables.
 */
import type { RollDice } from '../../rules/core/dice';
import type { GameCommand, GameState } from '../../rules/game';
import { checkServiceMove, ServiceMovesTally } from '../service-moves';
import type { Checks } from './checks';
import type { VerifyOptions } from './types';

/** Collects the service's moves batch by batch, then concludes the check. */
export class ServiceMovesCheck {
  private readonly tally = new ServiceMovesTally();

  constructor(
    private readonly checks: Checks,
    private readonly options: VerifyOptions,
  ) {
    checks.add('service-moves');
  }

  /** A legal batch at version `version`: is its command a service move, and the one its level makes? */
  note(version: number, before: GameState, command: GameCommand, roller: () => RollDice): void {
    try {
      this.tally.note(version, checkServiceMove(before, command, roller(), this.options.optimalTables));
    } catch (err) {
      this.checks.fail('service-moves', version, `cannot re-derive the service's move: ${(err as Error).message}`);
    }
  }

  conclude(): void {
    const sm = this.tally.summary();
    if (sm.status === 'fail') this.checks.fail('service-moves', sm.version, sm.detail);
    else if (sm.status === 'skipped') this.checks.skip('service-moves', sm.detail);
    else {
      const c = this.checks.find('service-moves');
      if (c && c.status === 'pass') c.detail = sm.detail;
    }
  }
}
