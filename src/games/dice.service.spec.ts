import { randomBytes, randomUUID } from 'node:crypto';
import { deriveDice } from '@fairdice/core/fairness/derivation';
import type { GameState } from '@fairdice/core/rules/game';
import { DiceService } from './dice.service';

/** The parts of a game's state the dice depend on. */
const gameOf = (id: string, serverSeed: string, rollCount: number, seeds: string[], organizerSeed: string | null) => ({
  serverSeed,
  state: {
    id,
    rollCount,
    organizerSeed,
    tournament: null,
    seats: seeds.map((clientSeed, seat) => ({ seat, clientSeed })),
  } as unknown as GameState,
});

const expected = (g: ReturnType<typeof gameOf>, rollNumber: number, count: number) =>
  deriveDice({
    serverSeed: Buffer.from(g.serverSeed, 'hex'),
    clientSeeds: [
      ...(g.state.organizerSeed ? [g.state.organizerSeed] : []),
      ...g.state.seats.map((s) => s.clientSeed!),
    ],
    gameId: g.state.id,
    rollNumber,
    count,
  });

describe('DiceService (a stream kept per game)', () => {
  it("rolls the stream of docs/fairness.md from the game's roll count, command after command", () => {
    const dice = new DiceService();
    const id = randomUUID();
    const seed = randomBytes(32).toString('hex');
    for (let rollCount = 0; rollCount < 30; rollCount += 3) {
      const g = gameOf(id, seed, rollCount, ['alice-seed', 'bob-seed'], 'organizer');
      const roll = dice.rollerFor(g);
      expect(roll(5)).toEqual(expected(g, rollCount, 5));
      expect(roll(0)).toEqual([]);
      expect(roll(2)).toEqual(expected(g, rollCount + 2, 2));
    }
  });

  it('follows a change of seeds or server seed instead of a kept stream', () => {
    const dice = new DiceService();
    const id = randomUUID();
    const seed = randomBytes(32).toString('hex');
    const before = gameOf(id, seed, 4, ['alice-seed'], null);
    expect(dice.rollerFor(before)(5)).toEqual(expected(before, 4, 5));
    const reseeded = gameOf(id, seed, 4, ['alice-seed', 'bob-seed'], null);
    expect(dice.rollerFor(reseeded)(5)).toEqual(expected(reseeded, 4, 5));
    expect(expected(reseeded, 4, 5)).not.toEqual(expected(before, 4, 5));
    const otherServerSeed = gameOf(id, randomBytes(32).toString('hex'), 4, ['alice-seed', 'bob-seed'], null);
    expect(dice.rollerFor(otherServerSeed)(5)).toEqual(expected(otherServerSeed, 4, 5));
  });

  it('stays right for more games than it keeps', () => {
    const dice = new DiceService();
    const games = Array.from({ length: 5000 }, () =>
      gameOf(randomUUID(), randomBytes(32).toString('hex'), 1, ['s'], null),
    );
    for (const g of games) dice.rollerFor(g)(1);
    for (const g of [games[0], games[2500], games[4999]]) expect(dice.rollerFor(g)(6)).toEqual(expected(g, 1, 6));
  });
});
