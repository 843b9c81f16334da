/**
 * Checks `rollCount` (= the number of roll numbers the events used) and `status` (= the replayed
 * status); an ended game whose bundle hides the server seed skips `commitment` and `dice`.
 */
import type { GameState } from '../../rules/game';
import type { AuditBundle } from '../audit-bundle';
import { isEnded } from '../../rules/game/status';
import type { Checks } from './checks';

export function checkRollCountAndStatus(checks: Checks, b: AuditBundle, state: GameState): void {
  if (b.rollCount !== state.rollCount)
    checks.fail('rollCount', null, `rollCount is ${b.rollCount}, the events use ${state.rollCount} roll numbers`);
  if (b.status !== state.status)
    checks.fail('status', null, `status is ${b.status}, the replayed status is ${state.status}`);
  if (isEnded(state.status) && b.serverSeed === null) {
    checks.skip(
      'commitment',
      'the game has ended but the bundle does not reveal the server seed: the dice cannot be checked',
    );
    checks.skip('dice', 'the game has ended but the bundle does not reveal the server seed');
  }
}
