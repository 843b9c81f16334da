import type { Die } from '../core/dice';
import { farkle, type FarkleOptions } from '../farkle/options';
import { isFarkle, scoringSelections } from '../farkle/scoring';
import { solveLastTurn } from './farkle-solver';
import {
  adviseTwoPlayerBankOrRoll,
  adviseTwoPlayerSetAside,
  assertTwoPlayerSolvable,
  deserializeFarkleTwoPlayer,
  FARKLE_TWO_PLAYER_MAX_LEAD,
  FARKLE_TWO_PLAYER_MAX_TARGET,
  FARKLE_TWO_PLAYER_TOLERANCE,
  type FarkleTwoPlayerSolution,
  onBoardChance,
  serializeFarkleTwoPlayer,
  solveFarkleTwoPlayer,
  twoPlayerFingerprint,
  twoPlayerLeadCap,
  twoPlayerTurnValue,
  winChanceAtTurnStart,
} from './farkle-two-player';

/** The short game of the verifier's tests (target 3,000, entry 300): 3,600 pairs, about a second. */
const SHORT: FarkleOptions = { ...farkle, target: 3000, entryThreshold: 300 };

/** Every ordered roll of n dice (6^n of them). */
function* orderedRolls(n: number): Generator<Die[]> {
  for (let r = 0; r < 6 ** n; r++) {
    const roll: Die[] = [];
    for (let i = 0, x = r; i < n; i++, x = Math.floor(x / 6)) roll.push(((x % 6) + 1) as Die);
    yield roll;
  }
}

const farkleChance = (n: number, options: FarkleOptions) => {
  let farkles = 0;
  for (const roll of orderedRolls(n)) if (isFarkle(roll, options)) farkles++;
  return farkles / 6 ** n;
};

/**
 * An independent solve of the whole state space by plain value iteration (written apart from the
 * solver: outcomes from `scoringSelections` on every ordered roll, every (b, o, t, n) state swept
 * until nothing moves by 1e-14, rolling on allowed up to the total goal + 400 units, where the
 * opponent's chance to overtake in one turn is below 1e-9).
 */
function bruteForce(options: FarkleOptions): Float64Array {
  // Locals, not globals, in the loops: Jest's sandbox makes every global lookup slow.
  const max = (x: number, y: number) => (x > y ? x : y);
  const NONE = Number.NEGATIVE_INFINITY;
  const G = options.target / 50;
  const E = options.entryThreshold / 50;
  const SM = G + 400;
  // Per n: outcome probabilities and their selections as flat lists (start, points, dice left).
  const outcomes: Array<{ p: number[]; start: number[]; pts: number[]; left: number[] }> = [];
  const pf = [0];
  for (let n = 0; n <= 6; n++) {
    const byFaces = new Map<string, { p: number; sels: Array<[number, number]> }>();
    let f = 0;
    if (n > 0)
      for (const roll of orderedRolls(n)) {
        const sels = scoringSelections(roll, options).map(
          (s) => [s.points / 50, s.dice.length === n ? 6 : n - s.dice.length] as [number, number],
        );
        if (sels.length === 0) {
          f += 1 / 6 ** n;
          continue;
        }
        const key = [...roll].sort().join('');
        const entry = byFaces.get(key);
        if (entry) entry.p += 1 / 6 ** n;
        else byFaces.set(key, { p: 1 / 6 ** n, sels });
      }
    const list = [...byFaces.values()];
    const start = [0];
    for (const o of list) start.push(start[start.length - 1] + o.sels.length);
    outcomes.push({
      p: list.map((o) => o.p),
      start,
      pts: list.flatMap((o) => o.sels.map(([pts]) => pts)),
      left: list.flatMap((o) => o.sels.map(([, left]) => left)),
    });
    if (n > 0) pf.push(f);
  }
  // Last turn: U[r * 7 + n], needing more than r units (exactly r: a tie, worth ½ if banked).
  const R = 2 * SM + 100;
  const U = new Float64Array(R * 7);
  for (let r = 0; r < R; r++)
    for (let n = 1; n <= 6; n++) {
      const { p, start, pts, left } = outcomes[n];
      let v = 0;
      for (let k = 0; k < p.length; k++) {
        let best = 0;
        for (let c = start[k]; c < start[k + 1]; c++) {
          const r2 = r - pts[c];
          best = max(best, r2 < 0 ? 1 : r2 === 0 ? max(0.5, U[left[c]]) : U[r2 * 7 + left[c]]);
        }
        v += p[k] * best;
      }
      U[r * 7 + n] = v;
    }
  const V = new Float64Array(G * G * SM * 7).fill(0.5);
  const at = (b: number, o: number, t: number, n: number) => ((b * G + o) * SM + t) * 7 + n;
  const W = (b: number, o: number) => V[at(b, o, 0, 6)];
  for (let sweep = 0; sweep < 500; sweep++) {
    let delta = 0;
    // Gauss-Seidel, larger sums of banked totals first (banking leads there).
    for (let sum = 2 * G - 2; sum >= 0; sum--)
      for (let b = max(0, sum - G + 1), o = sum - b; b < G && o >= 0; b++, o--)
        for (let t = SM - b - 1; t >= 0; t--)
          for (let n = 1; n <= 6; n++) {
            const { p, start, pts, left } = outcomes[n];
            let v = pf[n] * (1 - W(o, b));
            for (let k = 0; k < p.length; k++) {
              let best = NONE;
              for (let c = start[k]; c < start[k + 1]; c++) {
                const t2 = t + pts[c];
                const s = b + t2;
                const bank = b > 0 || t2 >= E ? (s < G ? 1 - W(o, s) : 1 - U[(s - o) * 7 + 6]) : NONE;
                best = max(best, s >= SM ? bank : max(bank, V[at(b, o, t2, left[c])]));
              }
              v += p[k] * best;
            }
            delta = max(delta, Math.abs(v - V[at(b, o, t, n)]));
            V[at(b, o, t, n)] = v;
          }
    if (delta < 1e-14) break;
  }
  return Float64Array.from({ length: G * G }, (_, i) => W(Math.floor(i / G), i % G));
}

describe('two-player Farkle: the Bellman equations', () => {
  let sol: FarkleTwoPlayerSolution;
  beforeAll(() => {
    sol = solveFarkleTwoPlayer(SHORT);
  });

  it(`hold on every pair of banked totals within ${FARKLE_TWO_PLAYER_TOLERANCE} (target 3,000, entry 300)`, () => {
    let worst = 0;
    for (let b = 0; b < sol.goal; b++)
      for (let o = 0; o < sol.goal; o++) {
        const w = sol.win[b * sol.goal + o];
        expect(w).toBeGreaterThan(0);
        expect(w).toBeLessThan(1);
        worst = Math.max(worst, Math.abs(twoPlayerTurnValue(sol, b, o) - w));
      }
    expect(worst).toBeLessThanOrEqual(FARKLE_TWO_PLAYER_TOLERANCE);
  });

  it('banking is optimal at every lead cap (rolling on gains at most U(cap, 6), risks P(farkle | 6) · W(o, b))', () => {
    const pf6 = farkleChance(6, SHORT);
    for (let b = 0; b < sol.goal; b++)
      for (let o = 0; o < sol.goal; o++) {
        const cap = twoPlayerLeadCap(sol, b, o);
        expect(cap).toBeLessThan(FARKLE_TWO_PLAYER_MAX_LEAD / 50);
        expect(sol.lastTurn[cap * 7 + 6]).toBeLessThanOrEqual(pf6 * sol.win[o * sol.goal + b]);
      }
    // Had a cap been forced at the largest lead, the cost would be below 1e-14.
    expect(sol.lastTurn[(FARKLE_TWO_PLAYER_MAX_LEAD / 50) * 7 + 6]).toBeLessThan(1e-14);
  });

  it('plain value iteration reaches the same values (within 1e-11)', () => {
    const plain = solveFarkleTwoPlayer({ ...SHORT, target: 1500 }, 'plain');
    const newton = solveFarkleTwoPlayer({ ...SHORT, target: 1500 });
    for (let i = 0; i < plain.win.length; i++) expect(Math.abs(plain.win[i] - newton.win[i])).toBeLessThan(1e-11);
    expect(Math.max(...plain.iterations)).toBeGreaterThan(Math.max(...newton.iterations));
  });

  it('moving first is worth something: W(b, o) + W(o, b) > 1; more banked is better once on the board', () => {
    const { goal, win } = sol;
    for (let b = 0; b < goal; b++)
      for (let o = 0; o < goal; o++) expect(win[b * goal + o] + win[o * goal + b]).toBeGreaterThan(1);
    for (let b = sol.entry; b + 1 < goal; b++)
      for (let o = 0; o < goal; o++) {
        expect(win[(b + 1) * goal + o]).toBeGreaterThanOrEqual(win[b * goal + o] - 1e-12);
        expect(win[o * goal + b + 1]).toBeLessThanOrEqual(win[o * goal + b] + 1e-12);
      }
  });
});

describe('two-player Farkle against an independent brute force', () => {
  // A few seconds of CPU: about 50 sweeps over 9,648 states.
  it('target 100, entry 100: every W(b, o) within 1e-9', () => {
    const options = { ...farkle, target: 100, entryThreshold: 100 };
    const sol = solveFarkleTwoPlayer(options);
    const brute = bruteForce(options);
    for (let i = 0; i < brute.length; i++) expect(Math.abs(sol.win[i] - brute[i])).toBeLessThan(1e-9);
  });
});

describe('two-player Farkle advice', () => {
  let sol: FarkleTwoPlayerSolution;
  beforeAll(() => {
    sol = solveFarkleTwoPlayer(SHORT);
  });

  it('bank values are the opponent’s turn-start values; rolling is the better choice when it is listed first', () => {
    const position = { banked: 1000, opponent: 2000, turnPoints: 400 };
    const choice = adviseTwoPlayerBankOrRoll(sol, position, 3);
    expect(choice.bank).toBeCloseTo(1 - winChanceAtTurnStart(sol, 2000, 1400), 15);
    expect(choice.best).toBe(choice.bank! >= choice.roll - 1e-9 ? 'bank' : 'roll');
    // Not on the board and below the entry threshold: no bank.
    expect(adviseTwoPlayerBankOrRoll(sol, { banked: 0, opponent: 0, turnPoints: 250 }, 1)).toMatchObject({
      bank: null,
      best: 'roll',
    });
    // Reaching the target hands the opponent a last turn needing more than the lead.
    const over = adviseTwoPlayerBankOrRoll(sol, { banked: 2900, opponent: 2500, turnPoints: 200 }, 1);
    expect(over.bank).toBeCloseTo(1 - sol.lastTurn[12 * 7 + 6], 15);
  });

  it('the turn start value is the roll of six dice; set-asides are ranked by chance, ties in scoringSelections order', () => {
    const roll: Die[] = [1, 5, 5, 2, 3, 4];
    const position = { banked: 600, opponent: 1200, turnPoints: 0 };
    const list = adviseTwoPlayerSetAside(sol, position, roll);
    expect(list.map((s) => s.points).sort()).toEqual(
      scoringSelections(roll, SHORT)
        .map((s) => s.points)
        .sort(),
    );
    for (let i = 1; i < list.length; i++) expect(list[i].winChance).toBeLessThanOrEqual(list[0].winChance + 1e-9);
    for (const s of list) {
      const again = adviseTwoPlayerBankOrRoll(sol, { ...position, turnPoints: s.points }, s.diceLeft);
      expect(s).toMatchObject(again);
      expect(s.winChance).toBe(Math.max(s.bank ?? -Infinity, s.roll));
    }
    expect(adviseTwoPlayerSetAside(sol, position, [2, 2, 3, 3, 4, 6])).toEqual([]);
    // The value at a turn's start averages the first roll: a farkle hands the opponent (o, b).
    const start = adviseTwoPlayerBankOrRoll(sol, { ...position, turnPoints: 0 }, 6);
    expect(start.bank).toBeNull();
    expect(start.roll).toBeCloseTo(winChanceAtTurnStart(sol, 600, 1200), 12);
  });

  it('last turn: beat the total to win, a tie is worth ½ (bank a tie with one die, roll two)', () => {
    // Opponent reached 3,100; 2,800 + 300 turn points tie.
    const one = adviseTwoPlayerBankOrRoll(sol, { banked: 2800, opponent: 3100, turnPoints: 300 }, 1);
    expect(one).toMatchObject({ best: 'bank', bank: 0.5 });
    expect(one.roll).toBeCloseTo(1 - farkleChance(1, SHORT), 15);
    const two = adviseTwoPlayerBankOrRoll(sol, { banked: 2800, opponent: 3100, turnPoints: 300 }, 2);
    expect(two).toMatchObject({ best: 'roll', bank: 0.5 });
    expect(two.roll).toBeCloseTo(1 - farkleChance(2, SHORT), 15);
    expect(adviseTwoPlayerBankOrRoll(sol, { banked: 2800, opponent: 3100, turnPoints: 350 }, 4)).toMatchObject({
      best: 'bank',
      bank: 1,
    });
    // Short of the total: banking loses.
    expect(adviseTwoPlayerBankOrRoll(sol, { banked: 2800, opponent: 3100, turnPoints: 100 }, 4)).toMatchObject({
      best: 'roll',
      bank: 0,
    });
    // Without ties the last-round solver of the solo policy gives a lower chance (it needs to beat).
    const beat = solveLastTurn(SHORT, 2000, 3100);
    expect(winChanceAtTurnStart(sol, 2000, 3100)).toBeGreaterThan(beat.winChance[6]);
    expect(winChanceAtTurnStart(sol, 2000, 3100)).toBeLessThan(solveLastTurn(SHORT, 2000, 3050).winChance[6]);
  });

  it('refuses positions outside the model', () => {
    expect(() => winChanceAtTurnStart(sol, 3000, 0)).toThrow(RangeError);
    expect(() => winChanceAtTurnStart(sol, 25, 0)).toThrow(RangeError);
    expect(() => adviseTwoPlayerBankOrRoll(sol, { banked: 0, opponent: 0, turnPoints: 50 }, 7)).toThrow(RangeError);
    expect(() => adviseTwoPlayerSetAside(sol, { banked: 0, opponent: -50, turnPoints: 0 }, [1])).toThrow(RangeError);
  });
});

describe('two-player Farkle options', () => {
  it.each([
    ['exactTarget', { exactTarget: true }, /exactTarget/],
    ['threeFarklePenalty', { threeFarklePenalty: 500 }, /threeFarklePenalty/],
    ['a target above the largest solved', { target: FARKLE_TWO_PLAYER_MAX_TARGET + 50 }, /targets up to 10000/],
    ['a straight off the 50 grid', { straights: { low: 1225, high: null, full: null } }, /multiples of 50/],
  ])('refuses %s with a RangeError', (_, extra, message) => {
    const options = { ...farkle, ...extra };
    expect(() => assertTwoPlayerSolvable(options)).toThrow(message);
    expect(() => solveFarkleTwoPlayer(options)).toThrow(RangeError);
  });

  it('accepts the default options', () => {
    expect(() => assertTwoPlayerSolvable(farkle)).not.toThrow();
  });
});

describe('two-player Farkle table format', () => {
  const options = { ...farkle, target: 1000, entryThreshold: 300 };
  let sol: FarkleTwoPlayerSolution;
  beforeAll(() => {
    sol = solveFarkleTwoPlayer(options);
  });

  it('round-trips: the same values and the same advice', () => {
    const bytes = serializeFarkleTwoPlayer(sol);
    expect(String.fromCharCode(...bytes.slice(0, 4))).toBe('FD2P');
    expect(bytes.length).toBe(Math.ceil((12 + twoPlayerFingerprint(options).length) / 8) * 8 + 8 + 400 * 8);
    const read = deserializeFarkleTwoPlayer(bytes, options);
    if (!read.ok) throw new Error(read.reason);
    expect(read.solution.win).toEqual(sol.win);
    const position = { banked: 350, opponent: 600, turnPoints: 0 };
    expect(adviseTwoPlayerSetAside(read.solution, position, [1, 1, 5, 2, 3, 6])).toEqual(
      adviseTwoPlayerSetAside(sol, position, [1, 1, 5, 2, 3, 6]),
    );
  });

  it('detects corruption, other options, truncation and a foreign file', () => {
    const bytes = serializeFarkleTwoPlayer(sol);
    const corrupt = bytes.slice();
    corrupt[corrupt.length - 3] ^= 0x10;
    expect(deserializeFarkleTwoPlayer(corrupt, options)).toEqual({
      ok: false,
      reason: 'two-player Farkle table: hash differs (corrupt)',
    });
    expect(deserializeFarkleTwoPlayer(bytes, { ...options, entryThreshold: 350 })).toMatchObject({
      ok: false,
      reason: expect.stringContaining('fingerprint'),
    });
    expect(deserializeFarkleTwoPlayer(bytes.slice(0, -8), options)).toMatchObject({
      reason: expect.stringContaining('size'),
    });
    const foreign = bytes.slice();
    foreign[0] = 0x46 + 1;
    expect(deserializeFarkleTwoPlayer(foreign, options)).toMatchObject({ reason: expect.stringContaining('magic') });
    expect(deserializeFarkleTwoPlayer(bytes, { ...options, exactTarget: true })).toMatchObject({ ok: false });
  });
});

describe('onBoardChance', () => {
  it('is the chance to make the entry threshold in one turn (the last-turn solver with that need)', () => {
    const need = solveLastTurn(farkle, 0, 700);
    expect(onBoardChance(farkle, 0, 6)).toBe(need.winChance[6]);
    expect(onBoardChance(farkle, 400, 3)).toBe(need.winChance[8 * 7 + 3]);
    expect(onBoardChance(farkle, 750, 2)).toBe(1);
    expect(onBoardChance(farkle, 0, 6)).toBeGreaterThan(0.3);
    expect(onBoardChance(farkle, 0, 6)).toBeLessThan(onBoardChance(farkle, 300, 6));
  });

  it('without a threshold: any scoring set-aside', () => {
    const off = { ...farkle, entryThreshold: 0 };
    expect(onBoardChance(off, 0, 2)).toBeCloseTo(1 - farkleChance(2, off), 15);
    expect(onBoardChance(off, 50, 2)).toBe(1);
  });

  it('refuses bad input', () => {
    expect(() => onBoardChance(farkle, 30, 6)).toThrow(RangeError);
    expect(() => onBoardChance(farkle, 0, 0)).toThrow(RangeError);
    expect(() => onBoardChance({ ...farkle, exactTarget: true }, 0, 6)).toThrow(RangeError);
  });
});
