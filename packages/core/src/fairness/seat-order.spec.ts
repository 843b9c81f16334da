import { seatKey, seatOrder } from './seat-order';

describe('seat order', () => {
  it('sorts the players by SHA-256(commitment:playerId)', () => {
    const c = 'ab'.repeat(32);
    const players = ['p-a', 'p-b', 'p-c', 'p-d'];
    const order = seatOrder(c, players);
    expect([...order].sort()).toEqual(players);
    const keys = order.map((p) => seatKey(c, p));
    expect([...keys].sort()).toEqual(keys);
    expect(seatOrder(c, [...players].reverse())).toEqual(order);
    // A known value: sha256("x:y").
    expect(seatKey('x', 'y')).toBe('1274e286686b54fe765ec40735665b4bf789cee2a5b22124c5e0491a88e15271');
  });
});
