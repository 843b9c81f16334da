import { Injectable } from '@nestjs/common';
import { diceRoller } from '@fairdice/core/fairness/derivation';
import { orderedClientSeeds } from '@fairdice/core/fairness/seeds';
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
