/**
 * The dice a re-run command gets (checks `commands` and `service-moves`): from the seeds starting
 * at the state's rollCount, from the round stream for a duplicate tournament game, or, while the
 * server seed is not revealed, the faces the batch's events record (checking the rules, not the dice).
 */
import type { Die, RollDice } from '../../rules/core/dice';
import { type GameCommand, type GameState, seedsStateFor } from '../../rules/game';
import { diceRoller } from '../derivation';
import { duplicateRoll } from '../tournament';
import { type Envelope, streamSeeds } from './checks';
import { facesOf } from './dice';

/** A fresh roller for re-running `command` on `before`, whose events are `batch`. */
export function rollerFor(
  before: GameState,
  command: GameCommand,
  batch: readonly Envelope[],
  serverSeed: Uint8Array | null,
  gameId: string,
): RollDice {
  const dup = before.tournament?.format === 'duplicate' ? before.tournament : null;
  if (serverSeed && dup) {
    // Duplicate tournament game (docs/fairness.md §10): the server seed is the round seed.
    return (count, at) => {
      if (!at) throw new Error('a duplicate roll needs its address (turn, roll, positions)');
      const dice = duplicateRoll(
        { roundSeed: serverSeed, tournamentId: dup.id, round: dup.round },
        { game: dup.game, turn: at.turn, roll: at.roll },
        at.positions,
      );
      if (dice.length !== count) throw new Error(`${count} dice asked for ${dice.length} positions`);
      return dice;
    };
  }
  if (serverSeed) {
    let roll: RollDice | null = null;
    return (count) => {
      roll ??= diceRoller({
        serverSeed,
        clientSeeds: streamSeeds(seedsStateFor(before, command)),
        gameId,
        firstRollNumber: before.rollCount,
      }).roll;
      return roll(count);
    };
  }
  // Unrevealed seed: replay the recorded faces (checks the rules, not the dice).
  const recorded: number[][] = [];
  for (const e of batch) {
    const f = facesOf(before, e);
    if (f) recorded.push(f);
  }
  let k = 0;
  return (count) => {
    const f = recorded[k++];
    if (!f) throw new Error('the rules roll more often than the events record');
    if (f.length !== count) throw new Error(`the rules roll ${count} dice where the event records ${f.length}`);
    return f as Die[];
  };
}
