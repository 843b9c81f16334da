/**
 * Full solves (a few seconds each): the published optimum and the presets' pinned values
 * (docs/advice.md), and the solved table's consistency with the per-decision advice.
 */
import type { Die } from '../core/dice';
import { bonus, penta, simple } from '../five-dice/options';
import { expectedFinalScore, adviseBox, adviseHolds } from './five-dice-advice';
import { expectedScoreFromStart, solveFiveDice } from './five-dice-solver';
import { keepTables, DICE } from './dice-tables';

// Heavy (full solves, brute force): CI runs it once, not again in its second database pass
// (FAIRDICE_SKIP_ONCE_SUITES=1; test/helpers/suites.ts); a plain `npm test` runs it.
const describeOnce = process.env.FAIRDICE_SKIP_ONCE_SUITES === '1' ? describe.skip : describe;
jest.setTimeout(240_000);

describeOnce('exact optimal expected scores', () => {
  it('official rules (freeChoice joker, also after a sacrificed box, +100, 63/35) = 254.5896 (Verhoeff 1999)', () => {
    const sol = solveFiveDice({ ...penta, joker: 'freeChoice', jokerAfterSacrifice: true });
    expect(Math.abs(expectedScoreFromStart(sol) - 254.5896)).toBeLessThan(1e-4);
  });

  it.each([
    ['penta', '254.4848', penta],
    ['simple', '245.8708', simple],
    ['bonus', '253.9702', bonus],
  ])('%s = %s', (_name, pinned, options) => {
    const sol = solveFiveDice(options);
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
