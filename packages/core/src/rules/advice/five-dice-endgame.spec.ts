/**
 * The five-dice endgame solver against a separately written brute force: every ordered roll of the
 * dice (6^n), every hold as a set of dice indices, the rules engine's scoreOptionsFor and totals on
 * real sheets, and the final total compared with `toBeat` at the end. No keep tables, no state
 * encoding, no pruning: only the rules. Cases with one and two open boxes, every joker rule.
 */
import type { Die } from '../core/dice';
import { bonus, penta, simple } from '../five-dice/options';
import { scoreOptionsFor, totals } from '../five-dice/scoring';
import { BOX_IDS, type BoxId, type FiveDiceOptions, type FiveDiceSheet } from '../five-dice/types';
import {
  ENDGAME_MAX_OPEN_BOXES,
  adviseEndgameBox,
  adviseEndgameHolds,
  createEndgame,
  endgameCovers,
  endgameWinChance,
} from './five-dice-endgame';

const official: FiveDiceOptions = { ...penta, joker: 'freeChoice', jokerAfterSacrifice: true };

/** Every ordered outcome of rolling n dice. */
function orderedRolls(n: number): Die[][] {
  let out: Die[][] = [[]];
  for (let i = 0; i < n; i++) out = out.flatMap((r) => [1, 2, 3, 4, 5, 6].map((f) => [...r, f as Die]));
  return out;
}
const ROLLS = [0, 1, 2, 3, 4, 5].map(orderedRolls);

function enter(sheet: FiveDiceSheet, box: BoxId, points: number, extra: number): FiveDiceSheet {
  return { boxes: { ...sheet.boxes, [box]: points }, extraBonus: sheet.extraBonus + extra };
}

/** Brute force: win chance (tie ½) of a sheet at the start of a turn, and of each decision of it. */
class Brute {
  private readonly memo = new Map<string, number>();
  constructor(
    readonly options: FiveDiceOptions,
    readonly toBeat: number,
  ) {}

  atTurnStart(sheet: FiveDiceSheet): number {
    if (BOX_IDS.every((b) => sheet.boxes[b] !== undefined)) {
      const total = totals(sheet, this.options).total;
      return total > this.toBeat ? 1 : total === this.toBeat ? 0.5 : 0;
    }
    const key = JSON.stringify(sheet);
    const known = this.memo.get(key);
    if (known !== undefined) return known;
    const turn = this.turn(sheet);
    let sum = 0;
    for (const roll of ROLLS[5]) sum += turn.best(roll, 2);
    const v = sum / ROLLS[5].length;
    this.memo.set(key, v);
    return v;
  }

  /** The decisions of one turn on `sheet`. */
  turn(sheet: FiveDiceSheet) {
    const memo = new Map<number, number>();
    const boxes = (dice: readonly Die[]) =>
      scoreOptionsFor(sheet, dice, this.options)
        .boxes.filter((o) => o.allowed)
        .map((o) => ({ box: o.box, value: this.atTurnStart(enter(sheet, o.box, o.points, o.bonus)) }));
    /** Keep `kept` (fewer than five dice) and roll the rest, with `rollsLeft` rolls left before this one. */
    const hold = (kept: readonly Die[], rollsLeft: number): number => {
      const key = 2 * 8 ** 6 * rollsLeft + multiset(kept);
      let v = memo.get(key);
      if (v !== undefined) return v;
      const rolls = ROLLS[5 - kept.length];
      let sum = 0;
      for (const r of rolls) sum += best([...kept, ...r], rollsLeft - 1);
      v = sum / rolls.length;
      memo.set(key, v);
      return v;
    };
    /** The best over scoring now and (with rolls left) every hold of a proper subset of the dice, by index. */
    const best = (dice: readonly Die[], rollsLeft: number): number => {
      const key = 2 * 8 ** 6 * rollsLeft + 8 ** 6 + multiset(dice);
      let v = memo.get(key);
      if (v !== undefined) return v;
      v = Math.max(...boxes(dice).map((b) => b.value));
      if (rollsLeft > 0)
        for (let s = 0; s < 31; s++)
          v = Math.max(
            v,
            hold(
              dice.filter((_, i) => s & (1 << i)),
              rollsLeft,
            ),
          );
      memo.set(key, v);
      return v;
    };
    return { best, hold, boxes };
  }
}

/** A number naming the multiset of the dice (counts in base 8). */
const multiset = (dice: readonly number[]) => dice.reduce((k, d) => k + 8 ** (d - 1), 0);

interface Case {
  name: string;
  options: FiveDiceOptions;
  sheet: FiveDiceSheet;
  /** toBeat relative to the sheet's total. */
  ahead: number[];
  dice: Die[];
}

/** A sheet with every box filled but `open`, from a base filling. */
function sheetWith(open: BoxId[], base: Partial<Record<BoxId, number>>, extraBonus = 0): FiveDiceSheet {
  const full: Record<BoxId, number> = {
    ones: 3,
    twos: 6,
    threes: 9,
    fours: 12,
    fives: 15,
    sixes: 18,
    threeOfAKind: 20,
    fourOfAKind: 0,
    fullHouse: 25,
    smallStraight: 30,
    largeStraight: 0,
    fiveOfAKind: 50,
    chance: 22,
    ...base,
  };
  const boxes: Partial<Record<BoxId, number>> = {};
  for (const b of BOX_IDS) if (!open.includes(b)) boxes[b] = full[b];
  return { boxes, extraBonus };
}

const CASES: Case[] = [
  {
    name: 'penta, chance',
    options: penta,
    sheet: sheetWith(['chance'], {}),
    ahead: [0, 17, 22, 29],
    dice: [6, 6, 5, 1, 2],
  },
  {
    name: 'simple, sixes with the upper bonus at stake',
    options: simple,
    sheet: sheetWith(['sixes'], { fives: 20 }),
    ahead: [10, 30, 60],
    dice: [6, 6, 3, 6, 1],
  },
  {
    name: 'penta, five of a kind open (tie counts half)',
    options: penta,
    sheet: sheetWith(['fiveOfAKind'], {}),
    ahead: [0, 50],
    dice: [4, 4, 4, 2, 1],
  },
  {
    name: 'penta, forced joker: fours and full house',
    options: penta,
    sheet: sheetWith(['fours', 'fullHouse'], {}, 100),
    ahead: [30],
    dice: [4, 4, 4, 4, 3],
  },
  {
    name: 'official (freeChoice, joker after a sacrifice): threes and large straight',
    options: official,
    sheet: sheetWith(['threes', 'largeStraight'], { fiveOfAKind: 0 }),
    ahead: [35],
    dice: [3, 3, 3, 4, 5],
  },
  {
    name: 'bonus preset: sixes and chance, extra bonus, upper bonus at stake',
    options: bonus,
    sheet: sheetWith(['sixes', 'chance'], { fives: 20 }, 100),
    ahead: [45],
    dice: [6, 6, 6, 2, 5],
  },
  {
    name: 'simple: five of a kind and small straight',
    options: simple,
    sheet: sheetWith(['fiveOfAKind', 'smallStraight'], {}),
    ahead: [30],
    dice: [2, 3, 4, 6, 6],
  },
];

describe('five-dice endgame against brute force', () => {
  it.each(CASES.flatMap((c) => c.ahead.map((a) => [c.name, a, c] as const)))(
    '%s, toBeat = total + %d: turn start, every hold and every box',
    (_name, ahead, c) => {
      const toBeat = totals(c.sheet, c.options).total + ahead;
      const brute = new Brute(c.options, toBeat);
      const eg = createEndgame(c.options);
      expect(endgameWinChance(eg, c.sheet, toBeat)).toBeCloseTo(brute.atTurnStart(c.sheet), 12);
      const turn = brute.turn(c.sheet);
      for (const rollsLeft of [1, 2] as const) {
        const holds = adviseEndgameHolds(eg, c.sheet, toBeat, c.dice, rollsLeft);
        for (const h of holds) {
          const expected = h.kept.length === 5 ? turn.best(h.kept, 0) : turn.hold(h.kept, rollsLeft);
          expect(h.winChance).toBeCloseTo(expected, 12);
        }
        expect(holds[0].winChance).toBeCloseTo(turn.best(c.dice, rollsLeft), 12);
      }
      const boxes = adviseEndgameBox(eg, c.sheet, toBeat, c.dice);
      const bruteBoxes = turn.boxes(c.dice);
      expect(boxes.map((b) => b.box).sort()).toEqual(bruteBoxes.map((b) => b.box).sort());
      for (const b of boxes) expect(b.winChance).toBeCloseTo(bruteBoxes.find((x) => x.box === b.box)!.value, 12);
    },
  );
});

describe('five-dice endgame sanity', () => {
  const sheet = sheetWith(['fiveOfAKind'], {});
  const total = totals(sheet, penta).total;
  /** P(five of a kind within three rolls, keeping the most frequent face) = 2,783,176 / 6^10. */
  const yahtzee = 2783176 / 6 ** 10;

  it('already above toBeat: 1; out of reach: 0', () => {
    const eg = createEndgame(penta);
    expect(endgameWinChance(eg, sheet, total - 1)).toBe(1);
    expect(endgameWinChance(eg, sheet, total + 51)).toBe(0);
  });

  it('a tie counts half: level now, only a five of a kind scores', () => {
    const eg = createEndgame(penta);
    expect(endgameWinChance(eg, sheet, total)).toBeCloseTo(0.5 + 0.5 * yahtzee, 12);
    expect(endgameWinChance(eg, sheet, total + 50)).toBeCloseTo(0.5 * yahtzee, 12);
  });

  it('ties between moves go to the earliest box, as adviseBox (both boxes certain to win)', () => {
    const s = sheetWith(['chance', 'ones'], {});
    const eg = createEndgame(penta);
    const list = adviseEndgameBox(eg, s, totals(s, penta).total - 1, [1, 2, 3, 4, 6]);
    expect(list.map((b) => [b.box, b.winChance])).toEqual([
      ['ones', 1],
      ['chance', 1],
    ]);
  });

  it('plays to win: 35 behind with chance and large straight left, only a large straight wins', () => {
    // Chance gives at most 30: the win needs the 40 of a large straight (this turn or next), so the
    // hold is a straight draw (1,2,3,4 and 2,3,4,6 both need a 5: the tie goes to 1,2,3,4).
    const s = sheetWith(['chance', 'largeStraight'], {});
    const eg = createEndgame(penta);
    const toBeat = totals(s, penta).total + 35;
    const holds = adviseEndgameHolds(eg, s, toBeat, [1, 2, 3, 4, 6], 1);
    expect(holds[0].kept).toEqual([1, 2, 3, 4]);
  });

  it('refuses sheets beyond the open-box maximum, bad toBeat and full sheets', () => {
    const eg = createEndgame(penta);
    const many = sheetWith(
      ['ones', 'twos', 'threes', 'fours', 'fives', 'sixes'].slice(0, ENDGAME_MAX_OPEN_BOXES + 1) as BoxId[],
      {},
    );
    expect(endgameCovers(eg, many)).toBe(false);
    expect(() => endgameWinChance(eg, many, 200)).toThrow(RangeError);
    expect(() => endgameWinChance(eg, sheet, -1)).toThrow(RangeError);
    expect(() => endgameWinChance(eg, sheet, 1.5)).toThrow(RangeError);
    expect(() => endgameWinChance(eg, sheetWith([], {}), 10)).toThrow(RangeError);
  });
});
