import type { Die } from '../core/dice';
import { type FarkleOptions, farkle, farkleWithStraights, resolveOptions } from './options';
import { bestSelection, isFarkle, scoreFaces, scoringSelections } from './scoring';
import { isRuleError } from '../core/errors';

// ------------------------------------------------------------------------------------------
// Oracle: written independently of scoring.ts. It enumerates every SET PARTITION of the
// chosen dice (by position) and checks each block against explicit combination rules;
// the value of a set of dice is the best all-scoring partition. No count vectors, no tables.
// ------------------------------------------------------------------------------------------

type Straights = FarkleOptions['straights'];

function oracleBlock(block: readonly number[], st: Straights): number | null {
  const s = [...block].sort((a, b) => a - b);
  const n = s.length;
  let best: number | null = null;
  const consider = (v: number) => {
    best = best === null ? v : Math.max(best, v);
  };
  if (n === 1 && s[0] === 1) consider(100);
  if (n === 1 && s[0] === 5) consider(50);
  if (n >= 3 && s.every((f) => f === s[0])) {
    const base = s[0] === 1 ? 1000 : 100 * s[0];
    const mult: Record<number, number> = { 3: 1, 4: 2, 5: 4, 6: 8 };
    consider(base * mult[n]);
  }
  if (n === 6 && s[0] === s[1] && s[2] === s[3] && s[4] === s[5]) consider(1500); // three pairs
  if (n === 6) {
    const groups = new Map<number, number>();
    for (const f of s) groups.set(f, (groups.get(f) ?? 0) + 1);
    const sizes = [...groups.values()].sort();
    if (sizes.length === 2 && sizes[0] === 2 && sizes[1] === 4) consider(1500); // four of a kind + a pair
  }
  const word = s.join('');
  if (word === '12345' && st.low !== null) consider(st.low);
  if (word === '23456' && st.high !== null) consider(st.high);
  if (word === '123456' && st.full !== null) consider(st.full);
  return best;
}

function* setPartitions(items: readonly number[]): Generator<number[][]> {
  if (items.length === 0) {
    yield [];
    return;
  }
  const [first, ...rest] = items;
  for (let mask = 0; mask < 1 << rest.length; mask++) {
    const block = [first, ...rest.filter((_, i) => mask & (1 << i))];
    const others = rest.filter((_, i) => !(mask & (1 << i)));
    for (const p of setPartitions(others)) yield [block, ...p];
  }
}

const oracleMemo = new Map<string, number | null>();
function oracleScore(faces: readonly number[], st: Straights): number | null {
  const key = `${st.low}|${st.high}|${st.full}:${[...faces].sort().join('')}`;
  if (oracleMemo.has(key)) return oracleMemo.get(key)!;
  let best: number | null = null;
  if (faces.length > 0) {
    for (const partition of setPartitions(faces)) {
      let sum = 0;
      let ok = true;
      for (const block of partition) {
        const v = oracleBlock(block, st);
        if (v === null) {
          ok = false;
          break;
        }
        sum += v;
      }
      if (ok && (best === null || sum > best)) best = sum;
    }
  }
  oracleMemo.set(key, best);
  return best;
}

/**
 * All scoring sub-multisets of a roll as "sortedFaces" -> points, by brute force over index subsets.
 * The answer depends only on the roll's multiset, so it is memoised by the sorted roll (the
 * production code is still checked on every ordered roll).
 */
const rollMemo = new Map<string, { best: number | null; selections: Map<string, number> }>();
function oracleRoll(dice: readonly number[], st: Straights): { best: number | null; selections: Map<string, number> } {
  const key = `${st.low}|${st.high}|${st.full}:${[...dice].sort().join('')}`;
  let hit = rollMemo.get(key);
  if (!hit) rollMemo.set(key, (hit = oracleRollUncached(dice, st)));
  return hit;
}
function oracleRollUncached(
  dice: readonly number[],
  st: Straights,
): { best: number | null; selections: Map<string, number> } {
  const selections = new Map<string, number>();
  let best: number | null = null;
  for (let mask = 1; mask < 1 << dice.length; mask++) {
    const faces = dice.filter((_, i) => mask & (1 << i));
    const v = oracleScore(faces, st);
    if (v !== null) {
      selections.set([...faces].sort().join(''), v);
      if (best === null || v > best) best = v;
    }
  }
  return { best, selections };
}

function* allRolls(n: number): Generator<Die[]> {
  const dice = new Array<Die>(n).fill(1);
  for (;;) {
    yield dice.slice();
    let i = n - 1;
    while (i >= 0 && dice[i] === 6) dice[i--] = 1;
    if (i < 0) return;
    dice[i] = (dice[i] + 1) as Die;
  }
}

const garbled = resolveOptions(farkle, { straights: { low: 1250, high: 50, full: 1500 } });
if (isRuleError(garbled)) throw new Error('bad test options');

const configs: Array<[string, FarkleOptions]> = [
  ['default (no straights)', farkle],
  ['farkleWithStraights', farkleWithStraights],
  ['brief values (low 1250, garbled high 50, full 1500)', garbled],
];

describe('Farkle scoring against the brute-force oracle (every roll of 1..6 dice)', () => {
  for (const [name, options] of configs) {
    for (let n = 1; n <= 6; n++) {
      it(`${name}: all ${6 ** n} rolls of ${n} dice`, () => {
        let mismatches = 0;
        for (const dice of allRolls(n)) {
          const oracle = oracleRoll(dice, options.straights);
          const best = bestSelection(dice, options);
          const farkled = isFarkle(dice, options);
          const list = scoringSelections(dice, options);
          const listed = new Map(list.map((s) => [[...s.faces].sort().join(''), s.points]));
          const ok =
            (best?.points ?? null) === oracle.best &&
            farkled === (oracle.best === null) &&
            list.length === listed.size && // no duplicate multisets
            listed.size === oracle.selections.size &&
            [...oracle.selections].every(([k, v]) => listed.get(k) === v) &&
            list.every((s) => s.dice.every((i, j) => dice[i] === s.faces[j]));
          if (!ok && mismatches++ < 3) {
            expect({ dice, best: best?.points ?? null, farkled, listed: [...listed] }).toEqual({
              dice,
              best: oracle.best,
              farkled: oracle.best === null,
              listed: [...oracle.selections],
            });
          }
        }
        expect(mismatches).toBe(0);
      });
    }
  }

  it('farkle probabilities with the default scoring are 4/6, 16/36, 60/216, 204/1296, 600/7776, 1080/46656', () => {
    const counts: number[] = [];
    const oracleCounts: number[] = [];
    for (let n = 1; n <= 6; n++) {
      let c = 0;
      let o = 0;
      for (const dice of allRolls(n)) {
        if (isFarkle(dice, farkle)) c++;
        if (oracleRoll(dice, farkle.straights).best === null) o++;
      }
      counts.push(c);
      oracleCounts.push(o);
    }
    expect(counts).toEqual([4, 16, 60, 204, 600, 1080]);
    expect(oracleCounts).toEqual([4, 16, 60, 204, 600, 1080]);
  });
});

describe('Farkle scoring: worked examples from the brief', () => {
  const best = (dice: number[], o: FarkleOptions = farkle) => bestSelection(dice as Die[], o)?.points ?? null;
  it.each([
    [[2, 1, 4, 1, 6, 5], 250],
    [[2, 2, 2], 200],
    [[3, 3, 3], 300],
    [[1, 1, 1], 1000],
    [[2, 2, 2, 2], 400],
    [[2, 2, 2, 2, 2], 800],
    [[2, 2, 2, 2, 2, 2], 1600],
    [[1, 1, 1, 1], 2000],
    [[1, 1, 1, 1, 1, 1], 8000],
    [[3, 3, 5, 5, 6, 6], 1500],
    [[4, 4, 4, 4, 6, 6], 1500], // four of a kind + a pair (400 as a four of a kind alone)
    [[1, 1, 1, 1, 5, 5], 2100], // four 1s (2000) + two single 5s beats 4+pair (1500)
    [[1, 1, 1, 1, 2, 2], 2000], // best selection is the four 1s alone
    [[2, 2, 2, 3, 3, 3], 500],
    [[6, 6, 6, 1, 5, 4], 750],
    [[2, 3, 4, 6, 6, 2], null],
  ])('%j -> %p', (dice, points) => expect(best(dice)).toBe(points));

  it('a whole selection must score: 4 ones + 2 twos set aside together is the 1500 combination', () => {
    expect(scoreFaces([1, 1, 1, 1, 2, 2])).toBe(1500);
    expect(scoreFaces([1, 1, 1, 1, 2])).toBeNull();
    expect(scoreFaces([1, 5, 2])).toBeNull();
    expect(scoreFaces([])).toBeNull();
  });

  it('six of a kind scores as six of a kind (>= 1600), never the lower three-pairs reading', () => {
    for (let f = 1; f <= 6; f++) expect(scoreFaces([f, f, f, f, f, f])).toBe((f === 1 ? 1000 : f * 100) * 8);
  });

  it('straights are off by default and scored when enabled', () => {
    expect(best([1, 2, 3, 4, 5])).toBe(150);
    expect(best([2, 3, 4, 5, 6])).toBe(50);
    expect(best([1, 2, 3, 4, 5], farkleWithStraights)).toBe(1250);
    expect(best([2, 3, 4, 5, 6], farkleWithStraights)).toBe(1250);
    expect(best([1, 2, 3, 4, 5, 6], farkleWithStraights)).toBe(1500);
    // best partition: with a high straight worth 1500, 1-2-3-4-5-6 reads better as high straight + single 1
    const highRich = resolveOptions(farkle, { straights: { high: 1500, full: 1500 } }) as FarkleOptions;
    expect(best([1, 2, 3, 4, 5, 6], highRich)).toBe(1600);
    expect(best([1, 2, 3, 4, 5, 5], farkleWithStraights)).toBe(1300);
    expect(isFarkle([2, 3, 4, 6, 6, 2] as Die[], farkleWithStraights)).toBe(true); // every straight holds a 5
  });

  it('rejects malformed rolls (RangeError) and scores malformed selections as null', () => {
    for (const bad of [[0], [7], [1.5], [1, 1, 1, 1, 1, 1, 1], ['1'], [NaN]]) {
      expect(() => scoringSelections(bad as Die[])).toThrow(RangeError);
      expect(() => bestSelection(bad as Die[])).toThrow(RangeError);
      expect(() => isFarkle(bad as Die[])).toThrow(RangeError);
      expect(scoreFaces(bad as number[])).toBeNull();
    }
    expect(scoringSelections([])).toEqual([]);
    expect(isFarkle([])).toBe(true);
  });

  it('lists selections by face multiset, not by index permutation', () => {
    const list = scoringSelections([1, 5, 1] as Die[]);
    expect(list.map((s) => [...s.faces].sort().join(''))).toEqual(['115', '11', '15', '1', '5']);
    expect(list[0]).toEqual({ dice: [0, 1, 2], faces: [1, 5, 1], points: 250 });
    expect(list.find((s) => s.points === 100)?.dice).toEqual([0]);
  });

  it('best-selection ties (garbled high straight = 50) prefer leaving more dice to roll', () => {
    // five dice: the straight sets all of them aside (hot dice: six fresh dice) and beats the single 5
    const sel = bestSelection([2, 3, 4, 5, 6] as Die[], garbled);
    expect(sel).toEqual({ dice: [0, 1, 2, 3, 4], faces: [2, 3, 4, 5, 6], points: 50 });
    const hot = bestSelection([2, 3, 4, 5, 6, 6] as Die[], garbled);
    expect(hot?.points).toBe(50);
    expect(hot?.dice).toEqual([3]);
  });
});
