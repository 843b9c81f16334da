import { Injectable } from '@nestjs/common';
import { type DiceStream, diceStream } from '@fairdice/core/fairness/derivation';
import { orderedClientSeeds } from '@fairdice/core/fairness/seeds';
import { duplicateRoll } from '@fairdice/core/fairness/tournament';
import type { RollDice } from '@fairdice/core/rules/core/dice';
import type { GameState } from '@fairdice/core/rules/game';
import { NODE_HASHES } from '../fairness/node-hashes';

/** Games whose dice stream is kept (a few hundred bytes each): more than the games in play at once. */
const KEPT_STREAMS = 4096;

/**
 * Where a command's dice come from: the commit–reveal stream of the game (docs/fairness.md).
 * One small seam so the fairness work can evolve the derivation without touching the service.
 */
@Injectable()
export class DiceService {
  private readonly streams = new Map<string, { serverSeed: string; seeds: string; stream: DiceStream }>();

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
    let next = game.state.rollCount;
    let stream: DiceStream | null = null;
    return (count) => {
      stream ??= this.streamOf(game);
      return stream.dice(next++, count);
    };
  }

  /**
   * The game's stream, kept per game: validating the seeds and building the message prefix cost
   * more than the roll itself (decision 0157). An entry is used only while the server seed and
   * the ordered client seeds are the ones it was built from.
   */
  private streamOf(game: { serverSeed: string; state: GameState }): DiceStream {
    const { state } = game;
    const clientSeeds = orderedClientSeeds({
      organizerSeed: state.organizerSeed,
      seats: state.seats.map((s) => ({ seat: s.seat, clientSeed: s.clientSeed as string })),
    });
    const seeds = clientSeeds.join(' '); // client seeds are visible ASCII: no space inside one
    const kept = this.streams.get(state.id);
    if (kept && kept.serverSeed === game.serverSeed && kept.seeds === seeds) {
      this.streams.delete(state.id); // most recently used last
      this.streams.set(state.id, kept);
      return kept.stream;
    }
    const stream = diceStream(
      { serverSeed: Buffer.from(game.serverSeed, 'hex'), clientSeeds, gameId: state.id },
      NODE_HASHES,
    );
    this.streams.delete(state.id);
    this.streams.set(state.id, { serverSeed: game.serverSeed, seeds, stream });
    if (this.streams.size > KEPT_STREAMS) this.streams.delete(this.streams.keys().next().value as string);
    return stream;
  }
}
