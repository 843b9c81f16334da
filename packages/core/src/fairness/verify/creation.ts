/**
 * Check `creation`: version 1 is gameCreated from a create command for this game id and
 * commitment; the rule set, family, options and commitment the replayed creation fixed equal the
 * bundle's.
 */
import type { GameState } from '../../rules/game';
import type { AuditBundle } from '../audit-bundle';
import { type Checks, type Envelope, isObject, same } from './checks';

/** Before the replay: the first event carries the create command of this game and commitment. */
export function checkCreationCommand(checks: Checks, b: AuditBundle, events: Envelope[]): void {
  checks.add('creation');
  const first = events[0];
  if (!isObject(first) || first.type !== 'gameCreated' || !isObject(first.command) || first.command.type !== 'create') {
    checks.fail('creation', 1, 'version 1 must be the gameCreated event carrying the create command');
  } else {
    const cmd = first.command;
    if (cmd.gameId !== b.gameId)
      checks.fail('creation', 1, `the create command is for game ${String(cmd.gameId)}, not ${b.gameId}`);
    if (cmd.commitment !== b.commitment)
      checks.fail('creation', 1, "the create command does not carry the bundle's commitment");
  }
}

/** After the replay: what the creation fixed (fields that never change after it) is the bundle's. */
export function checkCreatedState(checks: Checks, b: AuditBundle, state: GameState): void {
  if (checks.failed('creation') || state.version === 0) return;
  if (state.commitment !== b.commitment)
    checks.fail('creation', 1, "the creation event's commitment differs from the bundle's");
  else if (state.ruleSet !== b.ruleSet.name)
    checks.fail('creation', 1, `the creation event's rule set is ${state.ruleSet}, the bundle says ${b.ruleSet.name}`);
  else if (state.family !== b.ruleSet.family)
    checks.fail(
      'creation',
      1,
      `the creation event's family is ${state.family}, the bundle says ${String(b.ruleSet.family)}`,
    );
  else if (!same(state.options, b.ruleSet.options))
    checks.fail('creation', 1, "the creation event's options differ from the bundle's ruleSet.options");
}
