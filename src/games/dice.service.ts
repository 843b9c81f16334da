import { Injectable } from '@nestjs/common';
import { diceRoller } from '@fairdice/core/fairness/derivation';
import { orderedClientSeeds } from '@fairdice/core/fairness/seeds';
import { duplicateRoll } from '@fairdice/core/fairness/tournament';
import type { RollDice } from '@fairdice/core/rules/core/dice';
import type { GameState } from '@fairdice/core/rules/game';

/**
 * Where a command's dice come from: the commit–reveal stream of the game (docs/fairness.md).
 * One small seam so the fairness work can evolve the derivation without touching the service.
 */
@Injectable()
export class DiceService {
  /**
   * The roller for the next command on `state`: roll numbers continue at state.rollCount; the
   * client seeds are the organizer seed then each seat's seed by seat number. Built lazily on
   * the first roll (lobby commands never roll, and open seats have no seed yet).
   */
  rollerFor(game: { serverSeed: string; state: GameState }): RollDice {
    const t = game.state.tournament;
    if (t?.format === 'duplicate') {
      // Duplicate round (docs/fairness.md §10): the game's server seed is the round seed, and each
      // position's face comes from the round's shared stream at (game, turn, roll in turn).
      const stream = { roundSeed: Buffer.from(game.serverSeed, 'hex'), tournamentId: t.id, round: t.round };
      return (count, at) => {
        if (!at) throw new Error('duplicate dice need the roll address (turn, roll, positions)');
        const dice = duplicateRoll(stream, { game: t.game, turn: at.turn, roll: at.roll }, at.positions);
        if (dice.length !== count) throw new Error(`duplicate roll: ${count} dice asked, ${dice.length} positions`);
        return dice;
      };
    }
    let roll: RollDice | null = null;
    return (count) => {
      if (!roll) {
        const { state } = game;
        roll = diceRoller({
          serverSeed: Buffer.from(game.serverSeed, 'hex'),
          clientSeeds: orderedClientSeeds({
            organizerSeed: state.organizerSeed,
            seats: state.seats.map((s) => ({ seat: s.seat, clientSeed: s.clientSeed as string })),
          }),
          gameId: state.id,
          firstRollNumber: state.rollCount,
        }).roll;
      }
      return roll(count);
    };
  }
}
