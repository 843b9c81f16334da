import { penta, simple } from '@fairdice/core/rules/five-dice/options';
import { DomainException } from '../common/errors';
import { checkedSheet, labelOf, labelOfWinLoss } from './advice.service';

const codeOf = (fn: () => unknown): string => {
  try {
    fn();
  } catch (error) {
    if (error instanceof DomainException) return error.code;
    throw error;
  }
  return 'none';
};

describe('advice input checks and labels', () => {
  it('accepts a sheet a game can produce', () => {
    expect(
      checkedSheet(
        [
          { box: 'fiveOfAKind', points: 50 },
          { box: 'fours', points: 20 },
          { box: 'chance', points: 30 },
        ],
        200,
        penta,
      ),
    ).toEqual({ boxes: { fiveOfAKind: 50, fours: 20, chance: 30 }, extraBonus: 200 });
  });

  it.each([
    ['an upper value not a multiple of its face', [{ box: 'threes', points: 10 }], 0],
    ['an upper value above five times its face', [{ box: 'ones', points: 6 }], 0],
    ['a lower value no roll gives', [{ box: 'smallStraight', points: 40 }], 0],
    [
      'a box twice',
      [
        { box: 'ones', points: 1 },
        { box: 'ones', points: 1 },
      ],
      0,
    ],
    ['a bonus without 50 in five of a kind', [{ box: 'ones', points: 1 }], 100],
    [
      'a bonus not a multiple of the rule’s',
      [
        { box: 'fiveOfAKind', points: 50 },
        { box: 'ones', points: 5 },
      ],
      150,
    ],
    [
      'more bonuses than other filled boxes',
      [
        { box: 'fiveOfAKind', points: 50 },
        { box: 'ones', points: 5 },
      ],
      200,
    ],
  ])('refuses %s with INVALID_SHEET', (_why, filled, extraBonus) => {
    expect(codeOf(() => checkedSheet(filled, extraBonus, penta))).toBe('INVALID_SHEET');
  });

  it('refuses a bonus under rules without one, a full sheet, and an unknown box', () => {
    expect(
      codeOf(() =>
        checkedSheet(
          [
            { box: 'fiveOfAKind', points: 50 },
            { box: 'ones', points: 5 },
          ],
          100,
          simple,
        ),
      ),
    ).toBe('INVALID_SHEET');
    const full = ['ones', 'twos', 'threes', 'fours', 'fives', 'sixes', 'threeOfAKind', 'fourOfAKind', 'fullHouse']
      .concat(['smallStraight', 'largeStraight', 'fiveOfAKind', 'chance'])
      .map((box) => ({ box, points: 0 }));
    expect(codeOf(() => checkedSheet(full, 0, penta))).toBe('INVALID_SHEET');
    expect(codeOf(() => checkedSheet([{ box: 'sevens', points: 7 }], 0, penta))).toBe('UNKNOWN_BOX');
  });

  it('labels losses by the documented thresholds', () => {
    expect([0, 1e-10, 0.49, 0.5, 1.99, 2, 5.99, 6, 40].map(labelOf)).toEqual([
      'best',
      'best',
      'good',
      'inaccuracy',
      'inaccuracy',
      'mistake',
      'mistake',
      'blunder',
      'blunder',
    ]);
  });

  it('labels win-chance losses by the thresholds of the plan (probability units)', () => {
    expect([0, 1e-10, 0.0099, 0.01, 0.0299, 0.03, 0.0799, 0.08, 0.5].map(labelOfWinLoss)).toEqual([
      'best',
      'best',
      'good',
      'inaccuracy',
      'inaccuracy',
      'mistake',
      'mistake',
      'blunder',
      'blunder',
    ]);
  });
});
