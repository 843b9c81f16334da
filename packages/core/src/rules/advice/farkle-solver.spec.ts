import type { Die } from '../core/dice';
import { farkle } from '../farkle/options';
import { isFarkle, scoringSelections } from '../farkle/scoring';
import {
  adviseBankOrRoll,
  adviseLastTurnSetAside,
  adviseSetAside,
  expectedTurns,
  lastTurnWinChance,
  solveFarkle,
  solveLastTurn,
} from './farkle-solver';

/** Deterministic pseudo-random dice (tests only). */
function dice(seed: number) {
  let s = seed >>> 0;
  return (n: number): Die[] =>
    Array.from({ length: n }, () => {
      s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
      return (1 + Math.floor((s / 2 ** 32) * 6)) as Die;
    });
}

/** Chance that n dice farkle, by enumerating all 6^n ordered rolls with the rules engine. */
function farkleChance(n: number): number {
  let farkles = 0;
  for (let r = 0; r < 6 ** n; r++) {
    const roll: Die[] = [];
    for (let i = 0, x = r; i < n; i++, x = Math.floor(x / 6)) roll.push(((x % 6) + 1) as Die);
    if (isFarkle(roll, farkle)) farkles++;
  }
  return farkles / 6 ** n;
}

describe('Farkle solo policy (entry 750, target 10,000)', () => {
  const sol = solveFarkle(farkle);

  it('expected turns to 10,000 from zero = 18.8739 (docs/advice.md)', () => {
    expect(expectedTurns(sol, 0).toFixed(4)).toBe('18.8739');
    expect(expectedTurns(sol, 10_000)).toBe(0);
  });

  it('one step from the target: a turn succeeds unless six dice farkle, so 1 / (1 − P(farkle with 6))', () => {
    expect(expectedTurns(sol, 9950)).toBeCloseTo(1 / (1 - farkleChance(6)), 12);
  });

  it('more banked never needs more turns', () => {
    for (let b = 1; b < sol.goal; b++) expect(sol.turns[b]).toBeLessThanOrEqual(sol.turns[b - 1] + 1e-12);
  });

  it('bank or roll: the entry threshold forbids banking 700 from zero; 100 short of the target banks', () => {
    expect(adviseBankOrRoll(sol, { banked: 0, turnPoints: 700 }, 2)).toMatchObject({ bank: null, best: 'roll' });
    expect(adviseBankOrRoll(sol, { banked: 9900, turnPoints: 100 }, 5)).toEqual({ bank: 1, roll: 1, best: 'bank' });
    const onBoard = adviseBankOrRoll(sol, { banked: 3000, turnPoints: 1000 }, 1);
    expect(onBoard.best).toBe('bank');
    expect(onBoard.bank).toBeLessThan(onBoard.roll);
    // With six fresh dice (hot dice) and few points, rolling on is better.
    const hot = adviseBankOrRoll(sol, { banked: 3000, turnPoints: 300 }, 6);
    expect(hot.best).toBe('roll');
  });

  it('set-aside advice: every scoring selection once, the best first, values consistent with bank-or-roll', () => {
    const roll: Die[] = [1, 5, 5, 2, 3, 1];
    const advice = adviseSetAside(sol, { banked: 2000, turnPoints: 0 }, roll);
    expect(advice.map((a) => a.dice)).toEqual(
      expect.arrayContaining(scoringSelections(roll, farkle).map((s) => s.dice)),
    );
    expect(advice).toHaveLength(scoringSelections(roll, farkle).length);
    for (const a of advice) {
      const again = adviseBankOrRoll(sol, { banked: 2000, turnPoints: a.points }, a.diceLeft);
      expect(a.expected).toBe(again.best === 'bank' ? again.bank : again.roll);
      expect(a.expected).toBeGreaterThanOrEqual(advice[0].expected - 1e-9);
    }
    expect(adviseSetAside(sol, { banked: 0, turnPoints: 0 }, [2, 3, 4, 6, 6, 2])).toEqual([]);
  });

  it('rejects bad positions and unsupported options', () => {
    expect(() => expectedTurns(sol, 75)).toThrow(RangeError);
    expect(() => adviseBankOrRoll(sol, { banked: 0, turnPoints: -50 }, 3)).toThrow(RangeError);
    expect(() => adviseBankOrRoll(sol, { banked: 0, turnPoints: 800 }, 7)).toThrow(RangeError);
    expect(() => solveFarkle({ ...farkle, exactTarget: true })).toThrow(RangeError);
    expect(() => solveFarkle({ ...farkle, threeFarklePenalty: 500 })).toThrow(RangeError);
  });
});

describe('convergence', () => {
  it('Newton steps and plain value iteration reach the same values (target 2,000)', () => {
    const options = { ...farkle, target: 2000 };
    const newton = solveFarkle(options, 'newton');
    const plain = solveFarkle(options, 'plain');
    for (let b = 0; b < newton.goal; b++) expect(Math.abs(newton.turns[b] - plain.turns[b])).toBeLessThan(1e-9);
    expect(Math.max(...newton.iterations)).toBeLessThan(Math.max(...plain.iterations));
  });
});

describe('last round, trailing', () => {
  it('simulated last turns agree with the computed chance (within 3 standard errors)', () => {
    const table = solveLastTurn(farkle, 8000, 9000);
    expect(table.need).toBe(21); // 1,050 points: strictly more than 1,000
    const roll = dice(99);
    const trials = 20_000;
    let wins = 0;
    for (let i = 0; i < trials; i++) {
      let points = 0;
      let n = 6;
      for (;;) {
        const r = roll(n);
        const best = adviseLastTurnSetAside(table, points, r)[0];
        if (!best) break; // farkle
        points += best.points;
        if (best.best === 'bank') {
          wins++;
          break;
        }
        n = best.diceLeft;
      }
    }
    const p = lastTurnWinChance(table);
    const se = Math.sqrt((p * (1 - p)) / trials);
    expect(Math.abs(wins / trials - p)).toBeLessThan(3 * se);
  });

  it('not on the board: the turn must also reach the entry threshold; tied totals must still be beaten', () => {
    expect(solveLastTurn(farkle, 0, 300).need).toBe(15);
    expect(solveLastTurn(farkle, 5000, 5000).need).toBe(1);
    expect(lastTurnWinChance(solveLastTurn(farkle, 5000, 5000))).toBeCloseTo(1 - farkleChance(6), 12);
    expect(() => solveLastTurn(farkle, 6000, 5000)).toThrow(RangeError);
  });
});
