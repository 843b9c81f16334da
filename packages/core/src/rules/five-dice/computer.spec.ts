import type { Die } from '../core/dice';
import { computerChoice, computerHold, futureValue, timeoutMove } from './computer';
import { decide, evolve, fiveDiceFamily, initialState } from './decider';
import { isRuleError } from '../core/errors';
import { bonus, penta, simple } from './options';
import { scoreOptionsFor } from './scoring';
import { playComputerGame, simulateComputer } from './simulate';
import { BOX_IDS, type SheetBoxes } from './types';

const d = (...faces: number[]) => faces as Die[];
const sheet = (boxes: SheetBoxes) => ({ boxes, extraBonus: 0 });

/** A deterministic roller for tests (linear congruential, seeded). */
function lcgRoller(seed: number) {
  let x = seed >>> 0;
  return (n: number) =>
    Array.from({ length: n }, () => {
      x = (Math.imul(x, 1664525) + 1013904223) >>> 0;
      return ((x >>> 16) % 6) + 1;
    }) as Die[];
}

describe('computerChoice', () => {
  it('takes the obvious boxes', () => {
    expect(computerChoice(sheet({}), d(3, 3, 3, 3, 3), simple)).toBe('fiveOfAKind');
    expect(computerChoice(sheet({}), d(1, 2, 3, 4, 5), simple)).toBe('largeStraight');
    expect(computerChoice(sheet({}), d(2, 2, 5, 5, 5), simple)).toBe('fullHouse');
  });

  it('keeps the upper bonus in reach: four 6s go to sixes, not four of a kind', () => {
    expect(computerChoice(sheet({}), d(6, 6, 6, 6, 2), simple)).toBe('sixes');
  });

  it('keeps chance for bad turns and sacrifices a cheap box instead (ones early)', () => {
    const s = sheet({ ones: 0 });
    expect(computerChoice(sheet({}), d(1, 1, 2, 4, 6), simple)).toBe('ones'); // chance would get only 14
    expect(computerChoice(sheet({ ones: 2 }), d(5, 5, 6, 4, 6), simple)).toBe('chance'); // 26 beats par (22)
    // a bad roll early: sacrifice (0 in ones costs least), never the large straight
    const bad = computerChoice(
      sheet({ sixes: 18, fours: 12, threes: 9, twos: 6, chance: 22, threeOfAKind: 20 }),
      d(1, 2, 2, 4, 6),
      simple,
    );
    expect(['ones', 'fiveOfAKind', 'fourOfAKind']).toContain(bad);
    expect(computerChoice(s, d(2, 2, 3, 5, 6), simple)).not.toBe('largeStraight');
  });

  it('late in the game a zero goes into the five-of-a-kind box rather than a likely box', () => {
    const boxes: SheetBoxes = {};
    for (const b of BOX_IDS)
      if (b !== 'fiveOfAKind' && b !== 'chance' && b !== 'threeOfAKind') boxes[b] = b === 'ones' ? 3 : 0;
    expect(computerChoice(sheet(boxes), d(1, 2, 2, 4, 6), simple)).toBe('fiveOfAKind');
  });

  it('respects the forced joker', () => {
    expect(computerChoice(sheet({ fiveOfAKind: 50 }), d(2, 2, 2, 2, 2), penta)).toBe('twos');
    expect(computerChoice(sheet({ fiveOfAKind: 50, twos: 4 }), d(2, 2, 2, 2, 2), penta)).toBe('largeStraight');
  });

  it('is deterministic and always picks an allowed open box', () => {
    const roll = lcgRoller(1);
    for (let i = 0; i < 2000; i++) {
      const boxes: SheetBoxes = {};
      BOX_IDS.forEach((b, k) => {
        if ((i >> k) & 1 && k !== 12) boxes[b] = b === 'fiveOfAKind' ? (i % 3 === 0 ? 0 : 50) : 0;
      });
      const dice = i % 7 === 0 ? (Array(5).fill(roll(1)[0]) as Die[]) : roll(5);
      for (const o of [penta, simple, bonus]) {
        const box = computerChoice(sheet(boxes), dice, o);
        expect(box).toBe(computerChoice(sheet(boxes), dice, o));
        expect(scoreOptionsFor(sheet(boxes), dice, o).boxes.find((x) => x.box === box)?.allowed).toBe(true);
      }
    }
  });

  it('throws on a full sheet', () => {
    expect(() =>
      computerChoice(sheet(Object.fromEntries(BOX_IDS.map((b) => [b, 0]))), d(1, 2, 3, 4, 5), simple),
    ).toThrow();
  });

  it('values the five-of-a-kind box more when further ones earn a bonus', () => {
    expect(futureValue('fiveOfAKind', 12, bonus)).toBeGreaterThan(futureValue('fiveOfAKind', 12, simple));
    expect(futureValue('largeStraight', 12, simple)).toBeGreaterThan(futureValue('largeStraight', 1, simple));
    expect(futureValue('chance', 0, simple)).toBe(0);
  });
});

describe('computerHold', () => {
  it('stops on five of a kind, large straight, full house; stops after the third roll', () => {
    expect(computerHold(sheet({}), d(4, 4, 4, 4, 4), 1, simple)).toEqual([0, 1, 2, 3, 4]);
    expect(computerHold(sheet({}), d(5, 1, 3, 2, 4), 1, simple)).toEqual([0, 1, 2, 3, 4]);
    expect(computerHold(sheet({}), d(5, 2, 5, 2, 5), 2, simple)).toEqual([0, 1, 2, 3, 4]);
    expect(computerHold(sheet({}), d(1, 1, 2, 3, 6), 3, simple)).toEqual([0, 1, 2, 3, 4]);
  });
  it('keeps four in a row for the large straight', () => {
    expect(computerHold(sheet({}), d(6, 2, 3, 4, 1), 1, simple).sort()).toEqual([1, 2, 3, 4]);
    expect(computerHold(sheet({}), d(1, 2, 3, 4, 4), 1, simple).sort()).toEqual([0, 1, 2, 3]);
  });
  it('keeps the most frequent face', () => {
    expect(computerHold(sheet({}), d(6, 1, 6, 3, 6), 1, simple)).toEqual([0, 2, 4]);
    expect(computerHold(sheet({}), d(2, 5, 5, 1, 6), 1, simple)).toEqual([1, 2]);
  });
  it('never returns an illegal hold', () => {
    const roll = lcgRoller(9);
    for (let i = 0; i < 3000; i++) {
      const hold = computerHold(sheet({}), roll(5), 1 + (i % 2), penta);
      expect(new Set(hold).size).toBe(hold.length);
      expect(hold.every((x) => Number.isInteger(x) && x >= 0 && x < 5)).toBe(true);
    }
  });
});

describe('simulation', () => {
  it('plays complete legal solo games through decide/evolve', () => {
    const { state, events } = playComputerGame(penta, lcgRoller(3));
    expect(state.finished).toBe(true);
    expect(Object.keys(state.sheets[0].boxes)).toHaveLength(13);
    expect(events[events.length - 1].type).toBe('finished');
  });
  it('averages are deterministic for a seeded roller and plausible', () => {
    const a = simulateComputer(simple, lcgRoller(5), 200);
    const b = simulateComputer(simple, lcgRoller(5), 200);
    expect(a).toEqual(b);
    expect(a.average).toBeGreaterThan(180);
    expect(a.max).toBeLessThanOrEqual(375);
  });
});

describe('timeoutMove and rolledDice (used by the game aggregate)', () => {
  it('completes a timed-out turn one legal move at a time, then the next seat is on turn', () => {
    const roll = lcgRoller(11);
    for (let g = 0; g < 50; g++) {
      let state = initialState(penta, 2);
      const seen: string[] = [];
      while (state.turn && state.turn.seat === 0) {
        const move = timeoutMove(state)!;
        seen.push(move.type);
        const events = decide(state, { ...move, seat: 0 }, roll);
        if (isRuleError(events)) throw new Error(events.code);
        for (const e of events) state = evolve(state, e);
      }
      expect(seen[0]).toBe('roll');
      expect(seen[seen.length - 1]).toBe('score');
      expect(seen.filter((t) => t === 'roll').length).toBeLessThanOrEqual(3);
      expect(Object.keys(state.sheets[0].boxes)).toHaveLength(1);
    }
    // eslint-disable-next-line @typescript-eslint/unbound-method -- compared by identity, never called
    expect(fiveDiceFamily.timeoutMove).toBe(timeoutMove);
  });
  it("after the third roll it scores the computer's box; null once finished", () => {
    const s = { ...initialState(simple, 1), turn: { seat: 0, rollInTurn: 3, dice: d(1, 2, 3, 4, 5) } };
    expect(timeoutMove(s)).toEqual({ type: 'score', box: 'largeStraight' });
    expect(timeoutMove({ ...s, turn: null, finished: true })).toBeNull();
  });
  it('rolledDice gives the re-rolled faces in position order', () => {
    expect(
      fiveDiceFamily.rolledDice!({ type: 'rolled', seat: 0, dice: d(6, 2, 5, 4, 6), held: [1, 3], rollInTurn: 2 }),
    ).toEqual([6, 5, 6]);
    expect(fiveDiceFamily.rolledDice!({ type: 'quit', seat: 0 })).toBeNull();
  });
});
