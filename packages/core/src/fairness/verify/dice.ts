/**
 * Check `dice`: every roll event's rolled faces (family.rolledDice) = deriveDice(serverSeed,
 * clientSeeds, gameId, rollNumber, count), or for a duplicate tournament game the round stream's
 * faces at the positions thrown (SKIPPED while the server seed is not revealed).
 */
import type { Die } from '../../rules/core/dice';
import { asFamilyEvent, fiveDicePlay, type GameState } from '../../rules/game';
import { filledCount } from '../../rules/five-dice/decider';
import { familyById } from '../../rules/registry';
import { deriveDice } from '../derivation';
import { duplicateRoll } from '../tournament';
import { type Checks, type Envelope, same, streamSeeds } from './checks';

/** The rolled faces an event records, by the family's own definition (null: no roll). */
export function facesOf(state: GameState, e: Envelope): number[] | null {
  if (e.rollNumber === null) return null;
  const family = familyById(state.family);
  if (!family || typeof family.rolledDice !== 'function')
    throw new Error(`family ${String(state.family)} cannot say which dice an event rolled`);
  const faces = family.rolledDice(asFamilyEvent(e.data));
  if (!Array.isArray(faces))
    throw new Error(`event type ${e.type} with rollNumber ${e.rollNumber} records no roll for family ${state.family}`);
  return faces;
}

/** Checks the dice of event `e` (at position `at`) against the seeds, on the state before it. */
export function checkRoll(
  checks: Checks,
  state: GameState,
  e: Envelope,
  at: number,
  serverSeed: Uint8Array | null,
  gameId: string,
): void {
  try {
    if (e.rollNumber !== null && serverSeed) {
      const faces = facesOf(state, e)!;
      const derived =
        state.tournament?.format === 'duplicate'
          ? duplicateFacesOf(serverSeed, state, e)
          : deriveDice({
              serverSeed,
              clientSeeds: streamSeeds(state),
              gameId,
              rollNumber: e.rollNumber,
              count: faces.length,
            });
      if (!same(derived, faces))
        checks.fail(
          'dice',
          at,
          `roll ${e.rollNumber} has faces ${faces.join(' ')}, the seeds give ${derived.join(' ')}`,
        );
    }
  } catch (err) {
    checks.fail('dice', at, `cannot check roll ${String(e.rollNumber)}: ${(err as Error).message}`);
  }
}

/**
 * The faces a duplicate tournament game's roll event must record: the round stream's faces at the
 * positions the roll threw (not held), at (game, the seat's turn = boxes filled, roll in turn).
 */
function duplicateFacesOf(roundSeed: Uint8Array, state: GameState, e: { seat: number | null; data: unknown }): Die[] {
  const t = state.tournament!;
  const play = fiveDicePlay(state);
  const seat = e.seat;
  if (!play || seat === null || !play.turn) throw new Error('a duplicate roll outside a turn');
  const held = ((e.data as { held?: unknown }).held ?? []) as number[];
  const positions = [0, 1, 2, 3, 4].filter((p) => !held.includes(p));
  return duplicateRoll(
    { roundSeed, tournamentId: t.id, round: t.round },
    { game: t.game, turn: filledCount(play.sheets[seat]), roll: play.turn.rollInTurn },
    positions,
  );
}
