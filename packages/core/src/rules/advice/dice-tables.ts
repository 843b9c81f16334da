/**
 * Precomputed tables over multisets of five dice ("keeps"), shared by the five-dice solver and
 * its per-decision advice. Pure, built once per process (about 50 KB).
 *
 * A keep is a multiset of 0 to 5 faces; there are 462 of them, ordered by size, then by their
 * face counts. The 252 keeps of size 5 are the sorted outcomes of a roll of five dice.
 */

export const FACES = 6;
export const DICE = 5;

export interface KeepTables {
  /** Number of keeps (462). */
  readonly count: number;
  /** counts[k * 7 + f]: dice of face f (1..6) in keep k. */
  readonly counts: Uint8Array;
  /** size[k]: number of dice in keep k. */
  readonly size: Uint8Array;
  /** First keep index of each size 0..5, plus `count` at [6]. */
  readonly sizeStart: Int32Array;
  /** add[k * 6 + f - 1]: keep k with one more die of face f (size ≤ 4), else -1. */
  readonly add: Int32Array;
  /** Keeps with one die fewer (one per distinct face of k): sub[subStart[k] .. subStart[k + 1]). */
  readonly sub: Int32Array;
  readonly subStart: Int32Array;
  /** For size-5 keeps: probability of that sorted outcome when rolling all five dice. */
  readonly outcomeProbability: Float64Array;
  /** Keep index of a count vector (index 1..6). */
  indexOf(counts: readonly number[]): number;
}

const code = (c: readonly number[]) => c[1] + 6 * (c[2] + 6 * (c[3] + 6 * (c[4] + 6 * (c[5] + 6 * c[6]))));
const factorial = [1, 1, 2, 6, 24, 120];

function build(): KeepTables {
  const list: number[][] = [];
  for (let size = 0; size <= DICE; size++) {
    const c = [0, 0, 0, 0, 0, 0, 0];
    const walk = (face: number, left: number) => {
      if (face === FACES) {
        c[FACES] = left;
        list.push(c.slice());
        return;
      }
      for (let n = left; n >= 0; n--) {
        c[face] = n;
        walk(face + 1, left - n);
      }
    };
    walk(1, size);
  }
  const count = list.length;
  const byCode = new Int32Array(6 ** 6).fill(-1);
  const counts = new Uint8Array(count * 7);
  const size = new Uint8Array(count);
  const sizeStart = new Int32Array(DICE + 2);
  list.forEach((c, k) => {
    byCode[code(c)] = k;
    let s = 0;
    for (let f = 1; f <= FACES; f++) {
      counts[k * 7 + f] = c[f];
      s += c[f];
    }
    size[k] = s;
  });
  for (let s = 0, k = 0; s <= DICE + 1; s++) {
    while (k < count && size[k] < s) k++;
    sizeStart[s] = k;
  }
  sizeStart[DICE + 1] = count;
  const add = new Int32Array(count * FACES).fill(-1);
  const subs: number[] = [];
  const subStart = new Int32Array(count + 1);
  list.forEach((c, k) => {
    subStart[k] = subs.length;
    for (let f = 1; f <= FACES; f++) {
      if (size[k] < DICE) {
        c[f]++;
        add[k * FACES + f - 1] = byCode[code(c)];
        c[f]--;
      }
      if (c[f] > 0) {
        c[f]--;
        subs.push(byCode[code(c)]);
        c[f]++;
      }
    }
  });
  subStart[count] = subs.length;
  const outcomeProbability = new Float64Array(count);
  for (let k = sizeStart[DICE]; k < count; k++) {
    let ways = factorial[DICE];
    for (let f = 1; f <= FACES; f++) ways /= factorial[counts[k * 7 + f]];
    outcomeProbability[k] = ways / FACES ** DICE;
  }
  return {
    count,
    counts,
    size,
    sizeStart,
    add,
    sub: Int32Array.from(subs),
    subStart,
    outcomeProbability,
    indexOf: (c) => byCode[code(c)],
  };
}

let tables: KeepTables | null = null;
/** The keep tables (built on first use). */
export function keepTables(): KeepTables {
  tables ??= build();
  return tables;
}

/**
 * In place over `values` (indexed by keep): given values of the size-5 keeps (outcomes), sets each
 * smaller keep to its expected value when the missing dice are rolled — the average over the next
 * die's face, applied from size 4 down to 0 (the dice are independent, so this equals the sum over
 * completed outcomes weighted by their probabilities).
 */
export function expectOverRolls(t: KeepTables, values: Float64Array): void {
  const { add, sizeStart } = t;
  for (let k = sizeStart[DICE] - 1; k >= 0; k--) {
    const a = k * FACES;
    values[k] =
      (values[add[a]] +
        values[add[a + 1]] +
        values[add[a + 2]] +
        values[add[a + 3]] +
        values[add[a + 4]] +
        values[add[a + 5]]) /
      FACES;
  }
}

/**
 * In place: replaces every keep's value by the best value over its sub-keeps (itself included),
 * from size 0 up. Afterwards a size-5 entry is the value of the best hold from that roll.
 */
export function bestOverSubKeeps(t: KeepTables, values: Float64Array): void {
  const { sub, subStart, count } = t;
  for (let k = 1; k < count; k++) {
    let best = values[k];
    for (let i = subStart[k], end = subStart[k + 1]; i < end; i++) {
      const v = values[sub[i]];
      if (v > best) best = v;
    }
    values[k] = best;
  }
}
