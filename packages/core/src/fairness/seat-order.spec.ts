import { createHash } from 'node:crypto';
import { seatOrderOf } from './seat-order';

describe('seat order of a challenge game', () => {
  it('sorts the players by SHA-256 of "<commitment>:<playerId>", whatever order they come in', () => {
    const commitment = 'ab'.repeat(32);
    const players = ['p-one', 'p-two', 'p-three'];
    const expected = [...players].sort((a, b) =>
      createHash('sha256').update(`${commitment}:${a}`).digest('hex') <
      createHash('sha256').update(`${commitment}:${b}`).digest('hex')
        ? -1
        : 1,
    );
    expect(seatOrderOf(commitment, players)).toEqual(expected);
    expect(seatOrderOf(commitment, [...players].reverse())).toEqual(expected);
    // Another commitment gives some other order for some pair (the order is not fixed by the ids).
    const orders = new Set(
      Array.from({ length: 16 }, (_, i) => seatOrderOf(i.toString(16).repeat(64), ['a', 'b']).join()),
    );
    expect(orders.size).toBe(2);
  });
});
