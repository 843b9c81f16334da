import { Injectable } from '@nestjs/common';
import { LRUCache } from 'lru-cache';
import { type DiceStream, diceStream } from '@fairdice/core/fairness/derivation';
import { orderedClientSeeds } from '@fairdice/core/fairness/seeds';
import { duplicateRoll } from '@fairdice/core/fairness/tournament';
import type { RollDice } from '@fairdice/core/rules/core/dice';
import type { GameState } from '@fairdice/core/rules/game';
import { NODE_HASHES } from '../fairness/node-hashes';

/** Games whose dice stream is kept (a few hundred bytes each): more than the games in play at once. */
const KEPT_STREAMS = 4096;

/** A game's stream and what it was built from. */
interface KeptStream {
  serverSeed: string;
  organizerSeed: string | null;
  seats: GameState['seats'];
  stream: DiceStream;
}

/**
 * Where a command's dice come from: the commit–reveal stream of the game (docs/fairness.md).
 * One small seam so the fairness work can evolve the derivation without touching the service.
 */
@Injectable()
export class DiceService {
  private readonly streams = new LRUCache<string, KeptStream>({ max: KEPT_STREAMS });

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
   * more than the roll itself (decision 0157). An entry is used only while the game has the same
   * server seed, organizer seed and seats array (evolve keeps the array while no seat changes, so
   * a new client seed or a new player builds a new stream).
   */
  private streamOf(game: { serverSeed: string; state: GameState }): DiceStream {
    const { state } = game;
    const kept = this.streams.get(state.id);
    if (
      kept &&
      kept.seats === state.seats &&
      kept.organizerSeed === state.organizerSeed &&
      kept.serverSeed === game.serverSeed
    )
      return kept.stream;
    const clientSeeds = orderedClientSeeds({
      organizerSeed: state.organizerSeed,
      seats: state.seats.map((s) => ({ seat: s.seat, clientSeed: s.clientSeed as string })),
    });
    const stream = diceStream(
      { serverSeed: Buffer.from(game.serverSeed, 'hex'), clientSeeds, gameId: state.id },
      NODE_HASHES,
    );
    this.streams.set(state.id, {
      serverSeed: game.serverSeed,
      organizerSeed: state.organizerSeed,
      seats: state.seats,
      stream,
    });
    return stream;
  }
}
