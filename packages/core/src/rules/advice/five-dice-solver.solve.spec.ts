/**
 * Full solves (a few seconds each): the published optimum and the presets' pinned values
 * (docs/advice.md), and the solved table's consistency with the per-decision advice.
 */
import type { Die } from '../core/dice';
import { bonus, penta, simple } from '../five-dice/options';
import { expectedFinalScore, adviseBox, adviseHolds } from './five-dice-advice';
import { type FiveDiceSolution, expectedScoreFromStart, solveFiveDice } from './five-dice-solver';
import { upperBonusChance, withBonusChance } from './five-dice-bonus-chance';
import { type BoxId, type FiveDiceOptions, type FiveDiceSheet, UPPER_BOXES } from '../five-dice/types';
import { keepTables, DICE } from './dice-tables';

// Heavy (full solves, brute force): CI runs it once, not again in its second database pass
// (FAIRDICE_SKIP_ONCE_SUITES=1; test/helpers/suites.ts); a plain `npm test` runs it.
const describeOnce = process.env.FAIRDICE_SKIP_ONCE_SUITES === '1' ? describe.skip : describe;
jest.setTimeout(240_000);

const OFFICIAL: FiveDiceOptions = { ...penta, joker: 'freeChoice', jokerAfterSacrifice: true };
/** Each option set is solved once for the whole file (values, then the bonus-chance pass when asked). */
const solvedTables = new Map<FiveDiceOptions, FiveDiceSolution>();
const solvedOnce = (options: FiveDiceOptions) => {
  let sol = solvedTables.get(options);
  if (!sol) solvedTables.set(options, (sol = solveFiveDice(options)));
  return sol;
};
const withChances = new Map<FiveDiceOptions, FiveDiceSolution>();
const solvedWithBonusChance = (options: FiveDiceOptions) => {
  let sol = withChances.get(options);
  if (!sol) withChances.set(options, (sol = withBonusChance(solvedOnce(options))));
  return sol;
};

describeOnce('exact optimal expected scores', () => {
  it('official rules (freeChoice joker, also after a sacrificed box, +100, 63/35) = 254.5896 (Verhoeff 1999)', () => {
    const sol = solvedOnce(OFFICIAL);
    expect(Math.abs(expectedScoreFromStart(sol) - 254.5896)).toBeLessThan(1e-4);
  });

  it.each([
    ['penta', '254.4848', penta],
    ['simple', '245.8708', simple],
    ['bonus', '253.9702', bonus],
  ])('%s = %s', (_name, pinned, options) => {
    const sol = solvedOnce(options);
    expect(expectedScoreFromStart(sol).toFixed(4)).toBe(pinned);
    expect(expectedFinalScore(sol, { boxes: {} })).toBe(expectedScoreFromStart(sol));

    // The table and the advice agree: a turn's value is the average over the first roll of the
    // best hold's value; and the best box after a roll is what that roll is worth with no rolls left.
    const t = keepTables();
    const sheet = { boxes: { ones: 3, chance: 21, fiveOfAKind: 50 } };
    let fromAdvice = 0;
    for (let k = t.sizeStart[DICE]; k < t.count; k++) {
      const dice: Die[] = [];
      for (let f = 1; f <= 6; f++) for (let n = 0; n < t.counts[k * 7 + f]; n++) dice.push(f as Die);
      fromAdvice += t.outcomeProbability[k] * adviseHolds(sol, sheet, dice, 2)[0].expected;
    }
    expect(fromAdvice).toBeCloseTo(expectedFinalScore(sol, sheet), 9);
    const best = adviseBox(sol, sheet, [6, 6, 6, 6, 6])[0];
    expect(best.bonus).toBe(options.extraFiveOfAKindBonus);
    expect(best.expected).toBeGreaterThan(expectedFinalScore(sol, sheet));
  });
});

/**
 * The bonus-chance table against an exact enumeration that follows the advisers move by move
 * (adviseHolds(…)[0] and adviseBox(…)[0] on real sheets, every reroll as a multiset with its probability), on positions with
 * a few open boxes: at the start of the turn and after a roll with 2, 1 and 0 rolls left.
 */
describeOnce('upper bonus chance under optimal play', () => {
  /**
   * Every roll of n dice as a multiset (faces in ascending order) with its probability
   * n! / (c1! … c6!) / 6^n: the same exact average as every ordered roll, at 252 outcomes
   * instead of 7,776 for five dice (the advisers see the dice, never their order).
   */
  const multisets = (n: number): Array<{ dice: Die[]; p: number }> => {
    const fact = (k: number): number => (k <= 1 ? 1 : k * fact(k - 1));
    const out: Array<{ dice: Die[]; p: number }> = [];
    const walk = (from: number, dice: Die[]) => {
      if (dice.length === n) {
        const counts = [0, 0, 0, 0, 0, 0, 0];
        for (const d of dice) counts[d]++;
        out.push({ dice, p: fact(n) / counts.reduce((m, c) => m * fact(c), 1) / 6 ** n });
        return;
      }
      for (let f = from; f <= 6; f++) walk(f, [...dice, f as Die]);
    };
    walk(1, []);
    return out;
  };
  const ROLLS = [0, 1, 2, 3, 4, 5].map(multisets);

  function enumerate(sol: FiveDiceSolution) {
    const T = sol.options.upperBonusThreshold;
    const memo = new Map<string, number>();
    const decided = (sheet: FiveDiceSheet) => {
      const upper = UPPER_BOXES.reduce((sum, b) => sum + (sheet.boxes[b] ?? 0), 0);
      if (upper >= T) return 1;
      const open = UPPER_BOXES.filter((b) => sheet.boxes[b] === undefined);
      return upper + open.reduce((m, b) => m + 5 * (UPPER_BOXES.indexOf(b) + 1), 0) < T ? 0 : null;
    };
    const sheets = new Map<string, FiveDiceSheet>();
    const canonical = (sheet: FiveDiceSheet) => {
      const key = JSON.stringify(sheet);
      const known = sheets.get(key);
      if (known) return known;
      sheets.set(key, sheet);
      return sheet;
    };
    const atStart = (sheet: FiveDiceSheet): number => {
      const d = decided(sheet);
      if (d !== null) return d;
      const key = JSON.stringify(sheet);
      const known = memo.get(key);
      if (known !== undefined) return known;
      let v = 0;
      for (const r of ROLLS[5]) v += r.p * afterRoll(sheet, r.dice, 2);
      memo.set(key, v);
      return v;
    };
    const sheetMemo = new Map<FiveDiceSheet, Map<number, number>>(); // by sheet object: each is made once (atStart)
    const afterRoll = (sheet: FiveDiceSheet, dice: Die[], rollsLeft: number): number => {
      let byDice = sheetMemo.get(sheet);
      if (!byDice) sheetMemo.set(sheet, (byDice = new Map()));
      const key = rollsLeft * 8 ** 6 + dice.reduce((k, d) => k + 8 ** (d - 1), 0);
      let v = byDice.get(key);
      if (v === undefined) byDice.set(key, (v = decideAfterRoll(sheet, dice, rollsLeft)));
      return v;
    };
    const decideAfterRoll = (sheet: FiveDiceSheet, dice: Die[], rollsLeft: number): number => {
      if (rollsLeft > 0) {
        const hold = adviseHolds(sol, sheet, dice, rollsLeft as 1 | 2)[0].hold;
        if (hold.length < 5) {
          let sum = 0;
          for (const r of ROLLS[5 - hold.length])
            sum += r.p * afterRoll(sheet, [...hold.map((i) => dice[i]), ...r.dice], rollsLeft - 1);
          return sum;
        }
      }
      const best = adviseBox(sol, sheet, dice)[0];
      return atStart(
        canonical({ boxes: { ...sheet.boxes, [best.box]: best.points }, extraBonus: sheet.extraBonus + best.bonus }),
      );
    };
    return { atStart, afterRoll };
  }

  const sheetOpen = (open: BoxId[], upper: Partial<Record<BoxId, number>>): FiveDiceSheet => {
    const boxes: Partial<Record<BoxId, number>> = {
      ones: 3,
      twos: 6,
      threes: 9,
      fours: 12,
      fives: 15,
      sixes: 18,
      threeOfAKind: 22,
      fourOfAKind: 0,
      fullHouse: 25,
      smallStraight: 30,
      largeStraight: 40,
      fiveOfAKind: 50,
      chance: 21,
      ...upper,
    };
    for (const b of open) delete boxes[b];
    return { boxes, extraBonus: 0 };
  };

  it.each([
    // The official rules (a joker and the extra bonus) rather than penta: their table with chances is
    // needed below anyway, and each bonus-chance pass costs seconds of CPU.
    ['official', OFFICIAL, sheetOpen(['fives', 'sixes', 'largeStraight'], { fours: 8 })],
    ['official', OFFICIAL, sheetOpen(['fours', 'sixes', 'fullHouse'], { ones: 4, twos: 8 })],
    ['simple', simple, sheetOpen(['sixes', 'fiveOfAKind'], { fives: 10 })],
  ])('%s: %j', (_name, options, sheet) => {
    const sol = solvedWithBonusChance(options);
    const exact = enumerate(sol);
    expect(upperBonusChance(sol, sheet)).toBeCloseTo(exact.atStart(sheet), 6);
    for (const dice of [
      [6, 6, 5, 1, 2],
      [4, 4, 4, 4, 4],
      [3, 5, 6, 6, 2],
    ] as Die[][])
      for (const rollsLeft of [2, 1, 0])
        expect(upperBonusChance(sol, sheet, dice, rollsLeft)).toBeCloseTo(exact.afterRoll(sheet, dice, rollsLeft), 6);
    // Decided: reached, or out of reach.
    expect(upperBonusChance(sol, sheetOpen(['chance'], {}))).toBeNull();
    expect(upperBonusChance(sol, sheetOpen(['sixes'], { ones: 0, twos: 0, threes: 0 }))).toBeNull();
  });

  it('an empty sheet reaches the bonus with probability 0.68 under optimal official play (Glenn: 68.15 %)', () => {
    const sol = solvedWithBonusChance(OFFICIAL);
    expect(upperBonusChance(sol, { boxes: {} })).toBeCloseTo(0.68, 2);
  });
});
