import { replay } from './replay';
import { scriptedDice } from './dice';

describe('replay', () => {
  it('folds events in order', () => {
    expect(replay((s: string, e: string) => s + e, '', ['a', 'b', 'c'])).toBe('abc');
  });
  it('scripted dice hand out faces in order and fail when exhausted', () => {
    const roll = scriptedDice([1, 2, 3]);
    expect(roll(2)).toEqual([1, 2]);
    expect(() => roll(2)).toThrow(/exhausted/);
  });
});
