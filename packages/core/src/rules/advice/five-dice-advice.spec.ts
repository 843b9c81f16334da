/**
 * Fast checks of the five-dice solver's parts, without a full solve: the keep tables, the widget
 * against an independent brute force over ordered dice (using the rules engine's own scoring),
 * the solver's internal scoring against scoreOptionsFor for every joker rule, advice ordering and
 * tie-breaks, and the table encoding. The full solves are in five-dice-solver.solve.spec.ts.
 */
import type { Die } from '../core/dice';
import { bonus, penta, simple } from '../five-dice/options';
import { scoreOptionsFor } from '../five-dice/scoring';
import { BOX_IDS, type BoxId, type FiveDiceOptions, type SheetBoxes } from '../five-dice/types';
import { DICE, keepTables } from './dice-tables';
import { TIE_EPSILON, adviseBox, adviseHolds, solverState } from './five-dice-advice';
import {
  ALL_FILLED,
  FIVE_HOLDS_0,
  FIVE_HOLDS_50,
  FIVE_OPEN,
  type FiveDiceSolution,
  fillFinalRollValues,
  newScratch,
  reachability,
  stateIndex,
  turnValue,
} from './five-dice-solver';
import { deserializeSolution, optionsFingerprint, serializeSolution } from './five-dice-table-format';

const CONFIGS: Record<string, FiveDiceOptions> = {
  penta,
  simple,
  bonus,
  free: { ...penta, joker: 'free' },
  'free after sacrifice': { ...penta, joker: 'free', jokerAfterSacrifice: true },
  'forced after sacrifice': { ...penta, jokerAfterSacrifice: true },
  official: { ...penta, joker: 'freeChoice', jokerAfterSacrifice: true },
  'freeChoice, threshold 20, 0 bonus': { ...simple, joker: 'freeChoice', upperBonusThreshold: 20 },
};

/** Deterministic pseudo-random numbers (tests only). */
function lcg(seed: number) {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

/** A "solution" whose values are arbitrary numbers (0 for full sheets): enough to compare one decision. */
function fakeSolution(options: FiveDiceOptions, seed: number): FiveDiceSolution {
  const threshold = options.upperBonusThreshold;
  const width = threshold + 1;
  const reachable = reachability(threshold);
  const values = new Float64Array(4096 * 3 * width).fill(NaN);
  const rnd = lcg(seed);
  for (let mask = 0; mask < 4096; mask++)
    for (let five = 0; five < 3; five++)
      for (let u = 0; u < width; u++) {
        if (!reachable[(mask & 63) * width + u]) continue;
        values[stateIndex(threshold, mask, five, u)] = mask === ALL_FILLED && five !== FIVE_OPEN ? 0 : rnd() * 200;
      }
  return { options, threshold, values, reachable, widgets: 0 };
}

/** A random sheet with the boxes it fills holding possible values. */
function randomSheet(rnd: () => number): SheetBoxes {
  const boxes: Partial<Record<BoxId, number>> = {};
  for (const box of BOX_IDS) {
    if (rnd() < 0.5) continue;
    const upper = BOX_IDS.indexOf(box);
    if (upper < 6) boxes[box] = Math.floor(rnd() * 6) * (upper + 1);
    else if (box === 'fiveOfAKind') boxes[box] = rnd() < 0.5 ? 50 : 0;
    else if (box === 'fullHouse') boxes[box] = rnd() < 0.5 ? 25 : 0;
    else boxes[box] = 0;
  }
  if (Object.keys(boxes).length === 13) delete boxes.chance;
  return boxes;
}

const sortedOutcomes = () => {
  const t = keepTables();
  const out: Die[][] = [];
  for (let k = t.sizeStart[DICE]; k < t.count; k++) {
    const dice: Die[] = [];
    for (let f = 1; f <= 6; f++) for (let n = 0; n < t.counts[k * 7 + f]; n++) dice.push(f as Die);
    out.push(dice);
  }
  return out;
};
// Heavy (full solves, brute force): CI runs it once, not again in its second database pass
// (FAIRDICE_SKIP_ONCE_SUITES=1; test/helpers/suites.ts); a plain `npm test` runs it.
const describeOnce = process.env.FAIRDICE_SKIP_ONCE_SUITES === '1' ? describe.skip : describe;

describe('keep tables', () => {
  it('462 keeps, 252 outcomes whose probabilities sum to 1, each outcome with its multinomial weight', () => {
    const t = keepTables();
    expect(t.count).toBe(462);
    expect(t.count - t.sizeStart[DICE]).toBe(252);
    let sum = 0;
    for (let k = t.sizeStart[DICE]; k < t.count; k++) sum += t.outcomeProbability[k];
    expect(sum).toBeCloseTo(1, 12);
    expect(t.outcomeProbability[t.indexOf([0, 5, 0, 0, 0, 0, 0])]).toBeCloseTo(1 / 7776, 15);
    expect(t.outcomeProbability[t.indexOf([0, 1, 1, 1, 1, 1, 0])]).toBeCloseTo(120 / 7776, 15);
  });
});

describeOnce('final-roll values agree with the rules engine (scoreOptionsFor) for every joker rule', () => {
  for (const [name, options] of Object.entries(CONFIGS)) {
    it(`${name}: 40 random sheets × 252 rolls`, () => {
      const sol = fakeSolution(options, 7);
      const rnd = lcg(11);
      const t = keepTables();
      const scratch = newScratch();
      const out = new Float64Array(t.count);
      const outcomes = sortedOutcomes();
      let mismatches = 0;
      for (let i = 0; i < 40; i++) {
        const boxes = randomSheet(rnd);
        const sheet = { boxes };
        const s = solverState(sheet);
        fillFinalRollValues(sol, s.mask, s.fiveBox, Math.min(s.upper, sol.threshold), scratch, out);
        const total = Object.values(boxes).reduce((a, b) => a + b, 0);
        const upperBonus = s.upper >= options.upperBonusThreshold ? options.upperBonusPoints : 0;
        outcomes.forEach((dice, j) => {
          const best = adviseBox(sol, sheet, dice)[0];
          const fromSolver = out[t.sizeStart[DICE] + j];
          if (Math.abs(best.expected - (total + upperBonus) - fromSolver) > 1e-9) mismatches++;
        });
        // The advice lists exactly the boxes the rules allow.
        const dice: Die[] = [3, 3, 3, 3, 3];
        const allowed = scoreOptionsFor(sheet, dice, options).boxes.filter((b) => b.allowed);
        expect(
          adviseBox(sol, sheet, dice)
            .map((b) => b.box)
            .sort(),
        ).toEqual(allowed.map((b) => b.box).sort());
      }
      expect(mismatches).toBe(0);
    });
  }
});

/**
 * Independent brute force of one turn with a single open box: ordered dice (6^n rerolls), every
 * subset of positions as a hold, points from scoreOptionsFor (plus bonus, plus upper bonus).
 */
function bruteForceLastTurn(boxes: SheetBoxes, options: FiveDiceOptions): number {
  const pow6 = [1, 6, 36, 216, 1296, 7776];
  const diceOf = (code: number) => {
    const dice: number[] = [];
    for (let f = 1; f <= 6; f++) for (let n = Math.floor(code / pow6[f - 1]) % 6; n > 0; n--) dice.push(f);
    return dice;
  };
  const upperBefore = [0, 1, 2, 3, 4, 5].reduce((a, i) => a + (boxes[BOX_IDS[i]] ?? 0), 0);
  const points = (dice: number[]) =>
    Math.max(
      ...scoreOptionsFor({ boxes }, dice as Die[], options)
        .boxes.filter((b) => b.allowed)
        .map((o) => {
          const upperIdx = BOX_IDS.indexOf(o.box);
          const crosses =
            upperIdx < 6 &&
            upperBefore < options.upperBonusThreshold &&
            upperBefore + o.points >= options.upperBonusThreshold;
          return o.points + o.bonus + (crosses ? options.upperBonusPoints : 0);
        }),
    );
  const memo = new Float64Array(46656 * 3).fill(NaN);
  // The average over every ordered reroll of the dice not kept, per kept dice (a code) and rolls
  // left: many holds keep the same dice (keeping nothing is the same for every roll).
  const rerollMemo = new Float64Array(46656 * 3).fill(NaN);
  // code: the dice as counts in base 6 (order-free); rolls left in the key's high part.
  const value = (code: number, rollsLeft: number): number => {
    const key = code + rollsLeft * 46656;
    const hit = memo[key];
    if (!Number.isNaN(hit)) return hit;
    const dice = diceOf(code);
    let best = points(dice);
    if (rollsLeft > 0) {
      for (let mask = 0; mask < 31; mask++) {
        let kept = 0;
        let n = 0;
        dice.forEach((d, i) => (mask & (1 << i) ? (kept += pow6[d - 1]) : n++));
        best = Math.max(best, reroll(kept, n, rollsLeft - 1));
      }
    }
    memo[key] = best;
    return best;
  };
  const reroll = (kept: number, n: number, rollsLeft: number): number => {
    const key = kept + rollsLeft * 46656;
    const hit = rerollMemo[key];
    if (!Number.isNaN(hit)) return hit;
    let sum = 0;
    for (let r = 0; r < 6 ** n; r++) {
      let next = kept;
      for (let i = 0, x = r; i < n; i++, x = Math.floor(x / 6)) next += pow6[x % 6];
      sum += value(next, rollsLeft);
    }
    return (rerollMemo[key] = sum / 6 ** n);
  };
  let total = 0;
  for (let r = 0; r < 7776; r++) {
    let code = 0;
    for (let i = 0, x = r; i < 5; i++, x = Math.floor(x / 6)) code += pow6[x % 6];
    total += value(code, 2);
  }
  return total / 7776;
}

describeOnce('one turn against an independent brute force', () => {
  const allBut = (open: BoxId, extra: SheetBoxes = {}): SheetBoxes => {
    const boxes: Partial<Record<BoxId, number>> = {};
    for (const b of BOX_IDS) if (b !== open) boxes[b] = 0;
    return { ...boxes, ...extra };
  };
  const cases: Array<[string, BoxId, SheetBoxes, FiveDiceOptions]> = [
    [
      'fours, bonus reachable (upper 50 of 63)',
      'fours',
      { ones: 5, twos: 10, threes: 15, fives: 20, sixes: 0 },
      simple,
    ],
    ['full house, forced joker, five box 50, fours filled', 'fullHouse', { fiveOfAKind: 50 }, penta],
  ];
  it.each(cases)('%s', (_name, open, extra, options) => {
    const boxes = allBut(open, extra);
    const sol = fakeSolution(options, 3);
    const s = solverState({ boxes });
    const got = turnValue(sol, s.mask, s.fiveBox, Math.min(s.upper, sol.threshold), newScratch());
    expect(got).toBeCloseTo(bruteForceLastTurn(boxes, options), 10);
  });
});

describe('advice order and tie-breaks', () => {
  it('holds: exact ties go to the smaller faces (keep 1,1 rather than 2,2 for five of a kind)', () => {
    const boxes: SheetBoxes = {};
    for (const b of BOX_IDS) if (b !== 'fiveOfAKind') (boxes as Record<string, number>)[b] = 0;
    const sol = fakeSolution(simple, 5);
    const advice = adviseHolds(sol, { boxes }, [2, 1, 2, 3, 1], 2);
    expect(advice[0]).toMatchObject({ hold: [1, 4], kept: [1, 1] });
    expect(advice[1]).toMatchObject({ hold: [0, 2], kept: [2, 2] });
    expect(Math.abs(advice[0].expected - advice[1].expected)).toBeLessThan(TIE_EPSILON);
    // Every distinct hold once (3 × 3 × 2 kept multisets), values descending after the first.
    expect(advice).toHaveLength(18);
    for (let i = 2; i < advice.length; i++)
      expect(advice[i].expected).toBeLessThanOrEqual(advice[i - 1].expected + TIE_EPSILON);
  });
  it('boxes: exact ties go to the earlier box in sheet order', () => {
    const boxes: SheetBoxes = {};
    for (const b of BOX_IDS) if (b !== 'ones' && b !== 'twos') (boxes as Record<string, number>)[b] = 0;
    const sol = fakeSolution(simple, 5);
    // Make the two successor states equal, so that two zero entries tie exactly.
    const s = solverState({ boxes });
    sol.values[stateIndex(sol.threshold, s.mask | 2, s.fiveBox, 0)] = 10;
    sol.values[stateIndex(sol.threshold, s.mask | 1, s.fiveBox, 0)] = 10;
    const advice = adviseBox(sol, { boxes }, [3, 3, 4, 5, 6]);
    expect(advice.map((a) => [a.box, a.expected])).toEqual([
      ['ones', 10],
      ['twos', 10],
    ]);
  });
  it('keeping all five dice means scoring now', () => {
    const sol = fakeSolution(penta, 9);
    const sheet = { boxes: { chance: 20 } };
    const holds = adviseHolds(sol, sheet, [6, 6, 6, 6, 6], 1);
    const all = holds.find((h) => h.kept.length === 5)!;
    expect(all.expected).toBeCloseTo(adviseBox(sol, sheet, [6, 6, 6, 6, 6])[0].expected, 12);
  });
  it('rejects dice out of range and a bad rollsLeft', () => {
    const sol = fakeSolution(penta, 9);
    expect(() => adviseHolds(sol, { boxes: {} }, [0, 1, 2, 3, 4] as Die[], 2)).toThrow(RangeError);
    expect(() => adviseBox(sol, { boxes: {} }, [1, 2, 3, 4] as Die[])).toThrow(RangeError);
    expect(() => adviseHolds(sol, { boxes: {} }, [1, 2, 3, 4, 5], 3 as 2)).toThrow(RangeError);
  });
});

describe('table format', () => {
  const options = CONFIGS.official;
  const sol = fakeSolution(options, 21);
  const bytes = serializeSolution(sol);
  it('round-trips every reachable value bit for bit; unreachable states stay NaN', () => {
    const read = deserializeSolution(bytes, options);
    expect(read.ok).toBe(true);
    if (!read.ok) return;
    expect(read.solution.values.length).toBe(sol.values.length);
    let differ = 0;
    for (let i = 0; i < sol.values.length; i++) if (!Object.is(read.solution.values[i], sol.values[i])) differ++;
    expect(differ).toBe(0);
    expect(new TextDecoder().decode(bytes.subarray(0, 4))).toBe('FDOT');
  });
  it('round-trips the bonus-chance table (float32) when there is one', () => {
    const bonusChance = new Float32Array(sol.values.length).map((_, i) =>
      Number.isNaN(sol.values[i]) ? NaN : (i % 97) / 96,
    );
    const read = deserializeSolution(serializeSolution({ ...sol, bonusChance }), options);
    expect(read.ok).toBe(true);
    if (!read.ok) return;
    let differ = 0;
    for (let i = 0; i < bonusChance.length; i++)
      if (!Object.is(read.solution.bonusChance![i], bonusChance[i])) differ++;
    expect(differ).toBe(0);
    // A table without chances reads back without them.
    const plain = deserializeSolution(bytes, options);
    expect(plain.ok && plain.solution.bonusChance).toBeUndefined();
  });
  it('refuses other options, another version and corrupt bytes', () => {
    expect(deserializeSolution(bytes, penta)).toMatchObject({
      ok: false,
      reason: expect.stringContaining('fingerprint'),
    });
    const version = bytes.slice();
    version[4] = 1;
    expect(deserializeSolution(version, options)).toMatchObject({
      ok: false,
      reason: expect.stringContaining('version'),
    });
    // A flipped bit in the last value (before the bonus-chance count, 0 here) fails the hash; in
    // the count itself, the size.
    const corrupt = bytes.slice();
    corrupt[corrupt.length - 7] ^= 1;
    expect(deserializeSolution(corrupt, options)).toMatchObject({ ok: false, reason: expect.stringContaining('hash') });
    const count = bytes.slice();
    count[count.length - 3] ^= 1;
    expect(deserializeSolution(count, options)).toMatchObject({ ok: false, reason: expect.stringContaining('size') });
    expect(deserializeSolution(bytes.slice(0, bytes.length - 8), options)).toMatchObject({ ok: false });
    expect(deserializeSolution(new Uint8Array(3), options)).toMatchObject({ ok: false });
  });
  it('fingerprints tell apart every option', () => {
    const prints = new Set(Object.values(CONFIGS).map(optionsFingerprint));
    expect(prints.size).toBe(Object.keys(CONFIGS).length);
    expect(optionsFingerprint({ ...penta, jokerAfterSacrifice: false })).toBe(optionsFingerprint(penta));
  });
});

// Keeps the imported constants used (five-box states are part of the public state encoding).
it('five-box state encoding: open 0, 50 → 1, 0 → 2', () => {
  expect(solverState({ boxes: {} }).fiveBox).toBe(FIVE_OPEN);
  expect(solverState({ boxes: { fiveOfAKind: 50 } }).fiveBox).toBe(FIVE_HOLDS_50);
  expect(solverState({ boxes: { fiveOfAKind: 0 } }).fiveBox).toBe(FIVE_HOLDS_0);
});
