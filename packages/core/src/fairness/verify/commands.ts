/**
 * Check `commands`: a batch's command, re-run by decideGame on the state replayed so far with the
 * batch's dice (roller.ts), yields exactly the stored events (type, seat, data, rollNumber, command).
 */
import type { RollDice } from '../../rules/core/dice';
import { RuleError } from '../../rules/core/errors';
import { decideGame, type GameCommand, type GameEvent, type GameState } from '../../rules/game';
import { brief, type Checks, type Envelope, same } from './checks';

/**
 * Re-runs the command of the batch `events[i..j)` (its first event carries it) on `before`;
 * returns whether it yields exactly the batch (the first difference fails `commands`).
 */
export function checkBatchCommand(
  checks: Checks,
  before: GameState,
  command: GameCommand,
  batch: readonly Envelope[],
  i: number,
  j: number,
  roller: () => RollDice,
): boolean {
  let produced: GameEvent[] | RuleError;
  try {
    produced = decideGame(before, command, roller());
  } catch (err) {
    produced = new RuleError('INVALID_COMMAND', (err as Error).message);
  }
  if (produced instanceof RuleError) {
    checks.fail(
      'commands',
      i + 1,
      `the command of event ${i + 1} ${brief(command, 100)} does not yield these events: ${produced.message}`,
    );
    return false;
  }
  for (let k = 0; k < Math.max(produced.length, batch.length); k++) {
    const p = produced[k];
    const s = batch[k];
    if (!s) {
      checks.fail(
        'commands',
        j + 1,
        `the command of event ${i + 1} yields an event that is missing from the log: ${brief({ type: p.type, data: p.data })}`,
      );
      return false;
    }
    if (!p) {
      checks.fail('commands', i + k + 1, `the command of event ${i + 1} does not yield this event`);
      return false;
    }
    const want = { type: p.type, seat: p.seat, data: p.data, rollNumber: p.rollNumber, command: p.command };
    const got = { type: s.type, seat: s.seat, data: s.data, rollNumber: s.rollNumber, command: s.command };
    if (!same(want, got)) {
      const field = (['type', 'seat', 'data', 'rollNumber', 'command'] as const).find((f) => !same(want[f], got[f]));
      checks.fail(
        'commands',
        i + k + 1,
        `re-running the command of event ${i + 1} yields ${field} ${brief(want[field!])}, the log has ${brief(got[field!])}`,
      );
      return false;
    }
  }
  return true;
}
