import { emptyGame, type GameState } from '@fairdice/core/rules/game';
import { BoundedLru, ENTRY_BASE_BYTES, ENTRY_SEAT_BYTES, estimateGameEntryBytes } from './game-cache';

const sized = (limits: { maxEntries: number; maxBytes: number }) =>
  new BoundedLru<{ bytes: number }>(limits, (v) => v.bytes);

describe('BoundedLru (the game cache)', () => {
  it('evicts the least recently used entries once the byte budget is exceeded, whatever the count', () => {
    const cache = sized({ maxEntries: 100, maxBytes: 1000 });
    cache.set('a', { bytes: 400 });
    cache.set('b', { bytes: 400 });
    cache.get('a'); // a read does not reorder: recency is by store (each command stores its new state)
    cache.set('a', { bytes: 400 }); // stored again: now the most recent
    cache.set('c', { bytes: 400 }); // 1,200 > 1,000: the oldest (b) goes
    expect(cache.get('b')).toBeUndefined();
    expect(cache.get('a')).toEqual({ bytes: 400 });
    expect(cache.get('c')).toEqual({ bytes: 400 });
    expect(cache.size).toBe(2);
    expect(cache.bytes).toBe(800);
  });

  it('still bounds the number of entries', () => {
    const cache = sized({ maxEntries: 3, maxBytes: 1_000_000 });
    for (const k of ['a', 'b', 'c', 'd', 'e']) cache.set(k, { bytes: 1 });
    expect(cache.size).toBe(3);
    expect(['a', 'b'].map((k) => cache.get(k))).toEqual([undefined, undefined]);
    expect(cache.get('e')).toBeDefined();
  });

  it('keeps its byte count exact through replace, delete and clear', () => {
    const cache = sized({ maxEntries: 10, maxBytes: 10_000 });
    cache.set('a', { bytes: 100 });
    cache.set('a', { bytes: 250 }); // replaced, not added
    cache.set('b', { bytes: 50 });
    expect(cache.bytes).toBe(300);
    expect(cache.delete('a')).toBe(true);
    expect(cache.delete('a')).toBe(false);
    expect(cache.bytes).toBe(50);
    cache.clear();
    expect([cache.size, cache.bytes]).toEqual([0, 0]);
  });

  it('does not keep one entry larger than the whole budget (and evicts nothing for it)', () => {
    const cache = sized({ maxEntries: 10, maxBytes: 1000 });
    cache.set('small', { bytes: 500 });
    cache.set('huge', { bytes: 5000 });
    expect(cache.get('huge')).toBeUndefined();
    expect(cache.get('small')).toBeDefined();
  });

  it('refuses limits that are not positive', () => {
    expect(() => sized({ maxEntries: 0, maxBytes: 1 })).toThrow('positive');
    expect(() => sized({ maxEntries: 1, maxBytes: Number.NaN })).toThrow('positive');
  });
});

describe('estimateGameEntryBytes', () => {
  const withSeats = (n: number): GameState => ({ ...emptyGame('g'), seatCount: n });

  it('grows with the seats, so a budget holds fewer large games than small ones', () => {
    expect(estimateGameEntryBytes({ state: withSeats(1) })).toBe(ENTRY_BASE_BYTES + ENTRY_SEAT_BYTES);
    expect(estimateGameEntryBytes({ state: withSeats(8) })).toBe(ENTRY_BASE_BYTES + 8 * ENTRY_SEAT_BYTES);
    const budget = 100 * estimateGameEntryBytes({ state: withSeats(2) });
    const cache = new BoundedLru({ maxEntries: 10_000, maxBytes: budget }, estimateGameEntryBytes);
    for (let i = 0; i < 500; i++) cache.set(`g${i}`, { state: withSeats(8) });
    expect(cache.size).toBeLessThan(100);
    expect(cache.bytes).toBeLessThanOrEqual(budget);
  });

  it('counts a game not yet created (no seats) as one seat', () => {
    expect(estimateGameEntryBytes({ state: emptyGame('g') })).toBe(ENTRY_BASE_BYTES + ENTRY_SEAT_BYTES);
  });
});
