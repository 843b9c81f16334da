import { drawKey, duplicateFaces, duplicateRoll, tableDraw, tableSizes } from './tournament';

const seed = new Uint8Array(32).fill(7);
const stream = { roundSeed: seed, tournamentId: 't', round: 1 };

describe('tournament derivations', () => {
  it('table sizes: fewest tables, sizes differing by at most one, larger first; null when below the minimum', () => {
    expect(tableSizes(7, 2, 3)).toEqual([3, 2, 2]);
    expect(tableSizes(6, 2, 4)).toEqual([3, 3]);
    expect(tableSizes(64, 2, 4)).toEqual(Array(16).fill(4));
    expect(tableSizes(5, 3, 3)).toBeNull();
    expect(tableSizes(1, 2, 4)).toBeNull();
    expect(tableSizes(9, 2, 4)).toEqual([3, 3, 3]);
  });

  it('the draw seats every entrant once, in draw-key order', () => {
    const ids = Array.from({ length: 11 }, (_, i) => `entrant-${i}`);
    const draw = tableDraw(seed, ids, 2, 4)!;
    expect(draw.map((t) => t.length)).toEqual([4, 4, 3]);
    const flat = draw.flat();
    expect([...flat].sort()).toEqual([...ids].sort());
    const keys = flat.map((id) => drawKey(seed, id));
    expect(keys).toEqual([...keys].sort());
    // The order of the input does not matter.
    expect(tableDraw(seed, [...ids].reverse(), 2, 4)).toEqual(draw);
    expect(tableDraw(seed, ids, 4, 4)).toBeNull();
  });

  it('a roll takes each thrown position’s face from the shared stream, whatever is held', () => {
    const faces = duplicateFaces(stream, { game: 0, turn: 3, roll: 1 });
    expect(faces).toHaveLength(5);
    expect(duplicateRoll(stream, { game: 0, turn: 3, roll: 1 }, [0, 1, 2, 3, 4])).toEqual(faces);
    expect(duplicateRoll(stream, { game: 0, turn: 3, roll: 1 }, [1, 4])).toEqual([faces[1], faces[4]]);
    // Other addresses are other streams.
    const others = [
      duplicateFaces(stream, { game: 1, turn: 3, roll: 1 }),
      duplicateFaces(stream, { game: 0, turn: 4, roll: 1 }),
      duplicateFaces(stream, { game: 0, turn: 3, roll: 2 }),
      duplicateFaces({ ...stream, round: 2 }, { game: 0, turn: 3, roll: 1 }),
    ];
    // 5 dice coinciding by chance in all four is ~ 1 in 6^20.
    expect(others.every((o) => JSON.stringify(o) === JSON.stringify(faces))).toBe(false);
    expect(() => duplicateRoll(stream, { game: 0, turn: 0, roll: 0 }, [5])).toThrow(RangeError);
  });
});
