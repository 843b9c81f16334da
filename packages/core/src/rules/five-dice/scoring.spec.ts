import type { Die } from '../core/dice';
import { isRuleError } from '../core/errors';
import { bonus, penta, resolveOptions, simple } from './options';
import { boxPoints, calculateScoreOptions, isPossibleBoxValue, scoreOptions, scoreOptionsFor, totals } from './scoring';
import { BOX_IDS, type BoxId, type FiveDiceOptions, type SheetBoxes } from './types';
import { initialState } from './decider';

// ---------------------------------------------------------------------------------------------
// Oracle: written independently of the production code, from the face-count multiset and explicit
// per-box tables, to check every one of the 6^5 = 7776 ordered rolls in every box.
// ---------------------------------------------------------------------------------------------
const UPPER: Record<string, number> = { ones: 1, twos: 2, threes: 3, fours: 4, fives: 5, sixes: 6 };
const LOWER = ['threeOfAKind', 'fourOfAKind', 'fullHouse', 'smallStraight', 'largeStraight', 'fiveOfAKind', 'chance'];
const ALL_BOXES = [...Object.keys(UPPER), ...LOWER];

function oracleOrdinary(box: string, dice: number[]): number {
  const total = dice[0] + dice[1] + dice[2] + dice[3] + dice[4];
  const hist = new Map<number, number>();
  dice.forEach((d) => hist.set(d, (hist.get(d) ?? 0) + 1));
  const shape = [...hist.values()].sort().join(''); // e.g. "23", "1112", "5"
  const distinct = [...hist.keys()].sort().join('');
  if (box in UPPER) return (hist.get(UPPER[box]) ?? 0) * UPPER[box];
  switch (box) {
    case 'threeOfAKind':
      return ['113', '23', '14', '5'].includes(shape) ? total : 0;
    case 'fourOfAKind':
      return ['14', '5'].includes(shape) ? total : 0;
    case 'fullHouse':
      return shape === '23' ? 25 : 0;
    case 'smallStraight':
      return ['1234', '2345', '3456'].some((run) => [...run].every((c) => distinct.includes(c))) ? 30 : 0;
    case 'largeStraight':
      return distinct === '12345' || distinct === '23456' ? 40 : 0;
    case 'fiveOfAKind':
      return shape === '5' ? 50 : 0;
    case 'chance':
      return total;
  }
  throw new Error(box);
}

interface OracleRow {
  box: string;
  points: number;
  bonus: number;
  allowed: boolean;
}

function oracle(sheet: Record<string, number>, dice: number[], o: FiveDiceOptions) {
  const open = ALL_BOXES.filter((b) => !(b in sheet));
  const yahtzee = dice.every((d) => d === dice[0]);
  const box50 = sheet.fiveOfAKind === 50;
  const extra = yahtzee && box50 ? o.extraFiveOfAKindBonus : 0;
  // jokerAfterSacrifice (the official reading): a 0 in the box also opens the joker, never the bonus.
  const boxFilled = sheet.fiveOfAKind !== undefined;
  const ownBoxOpen = !(Object.keys(UPPER)[dice[0] - 1] in sheet);
  const joker =
    yahtzee &&
    o.joker !== 'none' &&
    (box50 || (boxFilled && o.jokerAfterSacrifice === true)) &&
    !(o.joker === 'freeChoice' && ownBoxOpen);
  const sumAll = dice.reduce((a, b) => a + b, 0);
  const jokerPoints = (box: string) => {
    if (box in UPPER) return UPPER[box] === dice[0] ? 5 * dice[0] : 0;
    return { fullHouse: 25, smallStraight: 30, largeStraight: 40 }[box as 'fullHouse'] ?? sumAll;
  };
  const ownBox = Object.keys(UPPER)[dice[0] - 1];
  const rows: OracleRow[] = open.map((box) => {
    if (!joker) return { box, points: ORDINARY.get(dice)![box], bonus: extra, allowed: true };
    if (o.joker === 'free' || o.joker === 'freeChoice')
      return { box, points: jokerPoints(box), bonus: extra, allowed: true };
    let allowed: boolean;
    if (open.includes(ownBox)) allowed = box === ownBox;
    else if (open.some((b) => LOWER.includes(b))) allowed = LOWER.includes(box);
    else allowed = true;
    return { box, points: jokerPoints(box), bonus: extra, allowed };
  });
  return { rows, jokerActive: joker, mustSacrifice: rows.every((r) => !r.allowed || r.points === 0) };
}

const ALL_ROLLS: number[][] = [];
const ORDINARY = new Map<number[], Record<string, number>>();
for (let i = 0; i < 7776; i++) {
  let n = i;
  const roll: number[] = [];
  for (let k = 0; k < 5; k++) {
    roll.push((n % 6) + 1);
    n = Math.floor(n / 6);
  }
  ALL_ROLLS.push(roll);
  ORDINARY.set(roll, Object.fromEntries(ALL_BOXES.map((b) => [b, oracleOrdinary(b, roll)])));
}

const lowerFull = { threeOfAKind: 20, fourOfAKind: 0, fullHouse: 25, smallStraight: 30, largeStraight: 0, chance: 22 };
const SHEETS: Record<string, Record<string, number>> = {
  empty: {},
  'fiveOfAKind at 50': { fiveOfAKind: 50 },
  'fiveOfAKind at 0': { fiveOfAKind: 0 },
  'fiveOfAKind at 50, upper full': { fiveOfAKind: 50, ones: 3, twos: 6, threes: 0, fours: 12, fives: 25, sixes: 18 },
  'fiveOfAKind at 50, lower full, ones+fours filled': { fiveOfAKind: 50, ...lowerFull, ones: 2, fours: 8 },
  'fiveOfAKind at 50, sixes+threes+FH+LS filled': {
    fiveOfAKind: 50,
    sixes: 24,
    threes: 9,
    fullHouse: 0,
    largeStraight: 40,
  },
  'fiveOfAKind at 0, lower full': { fiveOfAKind: 0, ...lowerFull, twos: 4 },
  'fiveOfAKind open, chance+3oak filled': { chance: 17, threeOfAKind: 0 },
  'fiveOfAKind at 50, only fives open': {
    fiveOfAKind: 50,
    ...lowerFull,
    ones: 3,
    twos: 6,
    threes: 9,
    fours: 12,
    sixes: 18,
  },
};
const CONFIGS: Record<string, FiveDiceOptions> = {
  penta,
  simple,
  bonus,
  'free joker +100': { ...penta, joker: 'free' },
  'forced joker +0': { ...simple, joker: 'forced' },
  'free joker +100, after sacrifice': { ...penta, joker: 'free', jokerAfterSacrifice: true },
  'forced joker +100, after sacrifice': { ...penta, jokerAfterSacrifice: true },
  'no joker +100, after sacrifice (no effect)': { ...bonus, jokerAfterSacrifice: true },
  'free choice +100': { ...penta, joker: 'freeChoice' },
  'free choice +100, after sacrifice (official)': { ...penta, joker: 'freeChoice', jokerAfterSacrifice: true },
};

describe('scoring: exhaustive against an independent oracle', () => {
  for (const [configName, options] of Object.entries(CONFIGS)) {
    for (const [sheetName, sheet] of Object.entries(SHEETS)) {
      it(`${configName}, ${sheetName}: all 7776 rolls × every open box`, () => {
        const mismatches: unknown[] = [];
        for (const dice of ALL_ROLLS) {
          const got = scoreOptionsFor({ boxes: sheet }, dice as Die[], options);
          const want = oracle(sheet, dice, options);
          const same =
            got.boxes.length === want.rows.length &&
            got.boxes.every(
              (r, i) =>
                r.box === want.rows[i].box &&
                r.points === want.rows[i].points &&
                r.bonus === want.rows[i].bonus &&
                r.allowed === want.rows[i].allowed,
            );
          if (!same || got.jokerActive !== want.jokerActive || got.mustSacrifice !== want.mustSacrifice) {
            mismatches.push({ dice, got, want });
            if (mismatches.length > 3) break;
          }
        }
        expect(mismatches).toEqual([]);
      });
    }
  }

  it('boxPoints (ordinary scoring) matches the oracle for every roll and box', () => {
    let bad = 0;
    for (const dice of ALL_ROLLS)
      for (const box of BOX_IDS) if (boxPoints(box, dice as Die[]) !== ORDINARY.get(dice)![box]) bad++;
    expect(bad).toBe(0);
  });

  it('every ordinary score is a possible box value', () => {
    for (const dice of ALL_ROLLS)
      for (const box of BOX_IDS) expect(isPossibleBoxValue(box, boxPoints(box, dice as Die[]))).toBe(true);
  });
});

describe('scoring: worked examples from the rule texts', () => {
  const opts = (sheet: SheetBoxes, dice: number[], o: FiveDiceOptions) =>
    scoreOptionsFor({ boxes: sheet }, dice as Die[], o);
  const row = (r: ReturnType<typeof opts>, box: BoxId) => r.boxes.find((x) => x.box === box);

  it('000: 1,1,3,4,6 — full house and large straight 0; with only those open: must sacrifice', () => {
    const r = opts({}, [1, 1, 3, 4, 6], penta);
    expect(row(r, 'fullHouse')!.points).toBe(0);
    expect(row(r, 'largeStraight')!.points).toBe(0);
    expect(r.mustSacrifice).toBe(false);
    const onlyTwo = Object.fromEntries(
      BOX_IDS.filter((b) => b !== 'fullHouse' && b !== 'largeStraight').map((b) => [b, 0]),
    );
    expect(opts(onlyTwo, [1, 1, 3, 4, 6], penta).mustSacrifice).toBe(true);
  });

  it('000: five 4s with Penta at 50 and Fours open → only Fours, 20 + 100', () => {
    const r = opts({ fiveOfAKind: 50 }, [4, 4, 4, 4, 4], penta);
    expect(r.boxes.filter((x) => x.allowed)).toEqual([{ box: 'fours', points: 20, bonus: 100, allowed: true }]);
    expect(r.jokerActive).toBe(true);
  });

  it('000: Fours filled → any open lower box at full value (FH 25, SS 30, LS 40, others the sum 20)', () => {
    const r = opts({ fiveOfAKind: 50, fours: 12 }, [4, 4, 4, 4, 4], penta);
    const allowed = Object.fromEntries(r.boxes.filter((x) => x.allowed).map((x) => [x.box, x.points]));
    expect(allowed).toEqual({
      threeOfAKind: 20,
      fourOfAKind: 20,
      fullHouse: 25,
      smallStraight: 30,
      largeStraight: 40,
      chance: 20,
    });
  });

  it('000: lower section full → another upper box at 0, bonus still earned; must sacrifice', () => {
    const r = opts({ fiveOfAKind: 50, fours: 12, ...lowerFull }, [4, 4, 4, 4, 4], penta);
    expect(r.boxes.find((x) => x.box === 'ones')).toEqual({ box: 'ones', points: 0, bonus: 100, allowed: true });
    expect(r.mustSacrifice).toBe(true);
  });

  it('000: Penta box at 0 → ordinary roll: no bonus, large straight 0, full house 0', () => {
    const r = opts({ fiveOfAKind: 0 }, [4, 4, 4, 4, 4], penta);
    expect(r.jokerActive).toBe(false);
    expect(r.boxes.every((x) => x.bonus === 0 && x.allowed)).toBe(true);
    expect(row(r, 'largeStraight')!.points).toBe(0);
    expect(row(r, 'fullHouse')!.points).toBe(0);
  });

  it('official reading (jokerAfterSacrifice): box at 0 → joker full values, still no bonus', () => {
    const forced = opts({ fiveOfAKind: 0, fours: 12 }, [4, 4, 4, 4, 4], { ...penta, jokerAfterSacrifice: true });
    expect(forced.jokerActive).toBe(true);
    expect(row(forced, 'largeStraight')).toEqual({ box: 'largeStraight', points: 40, bonus: 0, allowed: true });
    expect(row(forced, 'ones')!.allowed).toBe(false);
    const free = opts({ fiveOfAKind: 0 }, [4, 4, 4, 4, 4], { ...penta, joker: 'free', jokerAfterSacrifice: true });
    expect(row(free, 'fullHouse')).toEqual({ box: 'fullHouse', points: 25, bonus: 0, allowed: true });
    expect(row(free, 'fours')).toEqual({ box: 'fours', points: 20, bonus: 0, allowed: true });
    // The box still open: the first five of a kind is ordinary whatever the option says.
    const open = opts({}, [4, 4, 4, 4, 4], { ...penta, jokerAfterSacrifice: true });
    expect(open.jokerActive).toBe(false);
    expect(row(open, 'fullHouse')!.points).toBe(0);
  });

  it('freeChoice: ordinary while the face has its upper box open, full values once it is filled', () => {
    const official = { ...penta, joker: 'freeChoice' as const, jokerAfterSacrifice: true };
    const ownOpen = opts({ fiveOfAKind: 50 }, [4, 4, 4, 4, 4], official);
    expect(ownOpen.jokerActive).toBe(false);
    expect(ownOpen.boxes.every((x) => x.allowed && x.bonus === 100)).toBe(true);
    expect(row(ownOpen, 'fullHouse')!.points).toBe(0);
    expect(row(ownOpen, 'fours')!.points).toBe(20);
    const ownFilled = opts({ fiveOfAKind: 0, fours: 12 }, [4, 4, 4, 4, 4], official);
    expect(ownFilled.jokerActive).toBe(true);
    expect(row(ownFilled, 'fullHouse')).toEqual({ box: 'fullHouse', points: 25, bonus: 0, allowed: true });
    expect(row(ownFilled, 'ones')).toEqual({ box: 'ones', points: 0, bonus: 0, allowed: true });
  });

  it('first five of a kind in its own box: 50, no bonus', () => {
    expect(row(opts({}, [6, 6, 6, 6, 6], bonus), 'fiveOfAKind')).toEqual({
      box: 'fiveOfAKind',
      points: 50,
      bonus: 0,
      allowed: true,
    });
  });

  it('003: further five of a kind → +100, any open box, ordinary scoring (full house 0)', () => {
    const r = opts({ fiveOfAKind: 50 }, [2, 2, 2, 2, 2], bonus);
    expect(r.jokerActive).toBe(false);
    expect(r.boxes.every((x) => x.allowed && x.bonus === 100)).toBe(true);
    expect(row(r, 'fullHouse')!.points).toBe(0);
    expect(row(r, 'twos')!.points).toBe(10);
  });

  it('002: five of a kind is not a full house; no bonus', () => {
    const r = opts({ fiveOfAKind: 50 }, [3, 3, 3, 3, 3], simple);
    expect(row(r, 'fullHouse')!.points).toBe(0);
    expect(r.boxes.every((x) => x.bonus === 0)).toBe(true);
  });

  it('free joker: any open box, lower at full value, upper as usual, bonus applies', () => {
    const r = opts({ fiveOfAKind: 50 }, [5, 5, 5, 5, 5], { ...penta, joker: 'free' });
    expect(r.boxes.every((x) => x.allowed && x.bonus === 100)).toBe(true);
    expect(row(r, 'fives')!.points).toBe(25);
    expect(row(r, 'sixes')!.points).toBe(0);
    expect(row(r, 'largeStraight')!.points).toBe(40);
  });

  it('003 example: ones = 2 with two aces', () => {
    expect(boxPoints('ones', [1, 1, 3, 4, 6] as Die[])).toBe(2);
  });
});

describe('scoreOptions(state) and the calculator', () => {
  it('needs a roll', () => {
    const r = scoreOptions(initialState(penta, 1));
    expect(isRuleError(r) && r.code).toBe('ROLL_REQUIRED');
  });
  it('refuses after the end of the game', () => {
    const s = { ...initialState(penta, 1), turn: null, finished: true };
    const r = scoreOptions(s);
    expect(isRuleError(r) && r.code).toBe('GAME_FINISHED');
  });
  it('lists open boxes for the current dice', () => {
    const s = { ...initialState(penta, 1), turn: { seat: 0, rollInTurn: 1, dice: [2, 3, 4, 5, 5] as Die[] } };
    const r = scoreOptions(s);
    expect(isRuleError(r)).toBe(false);
    if (!isRuleError(r)) expect(r.boxes.find((x) => x.box === 'largeStraight')!.points).toBe(0);
    if (!isRuleError(r)) expect(r.boxes.find((x) => x.box === 'smallStraight')!.points).toBe(30);
  });
  it('the 3-argument form equals scoreOptionsFor', () => {
    expect(scoreOptions({ boxes: { fiveOfAKind: 50 } }, [1, 1, 1, 1, 1] as Die[], penta)).toEqual(
      scoreOptionsFor({ boxes: { fiveOfAKind: 50 } }, [1, 1, 1, 1, 1] as Die[], penta),
    );
  });
  it('calculator validates untrusted input', () => {
    const code = (x: unknown) => {
      const r = calculateScoreOptions(x, penta);
      return isRuleError(r) ? r.code : 'ok';
    };
    expect(code({ dice: [1, 2, 3, 4, 5], boxes: { ones: 3 } })).toBe('ok');
    expect(code({ dice: [1, 2, 3, 4, 5] })).toBe('ok');
    expect(code({ dice: [1, 2, 3, 4, 7] })).toBe('INVALID_COMMAND');
    expect(code({ dice: [1, 2, 3, 4] })).toBe('INVALID_COMMAND');
    expect(code({ dice: ['1', 2, 3, 4, 5] })).toBe('INVALID_COMMAND');
    expect(code({ dice: [1, 2, 3, 4, 5], boxes: { yahtzee: 50 } })).toBe('UNKNOWN_BOX');
    expect(code({ dice: [1, 2, 3, 4, 5], boxes: { __proto__: 5 } })).toBe('ok'); // literal __proto__ sets the prototype, not a key
    expect(code({ dice: [1, 2, 3, 4, 5], boxes: JSON.parse('{"__proto__": 5}') })).toBe('UNKNOWN_BOX');
    expect(code({ dice: [1, 2, 3, 4, 5], boxes: { fiveOfAKind: 40 } })).toBe('INVALID_COMMAND');
    expect(code({ dice: [1, 2, 3, 4, 5], boxes: { twos: 3 } })).toBe('INVALID_COMMAND');
    expect(code(null)).toBe('INVALID_COMMAND');
    const r = calculateScoreOptions({ dice: [4, 4, 4, 4, 4], boxes: { fiveOfAKind: 50, fours: null } }, penta);
    expect(!isRuleError(r) && r.boxes.filter((x) => x.allowed).map((x) => x.box)).toEqual(['fours']);
  });
});

describe('totals', () => {
  it('adds upper, bonus at the threshold, lower and extra bonuses', () => {
    const boxes = { ones: 3, twos: 6, threes: 9, fours: 12, fives: 15, sixes: 18, chance: 20, fiveOfAKind: 50 };
    expect(totals({ boxes, extraBonus: 200 }, penta)).toEqual({
      upper: 63,
      upperBonus: 35,
      lower: 70,
      extraBonus: 200,
      total: 368,
    });
    expect(totals({ boxes: { ...boxes, sixes: 12 }, extraBonus: 0 }, simple).upperBonus).toBe(0);
    expect(totals({ boxes }, { ...simple, upperBonusThreshold: 70, upperBonusPoints: 50 }).total).toBe(133);
  });
});

describe('resolveOptions', () => {
  it('returns the base without overrides and applies valid ones', () => {
    expect(resolveOptions(penta, undefined)).toEqual(penta);
    expect(resolveOptions(simple, { joker: 'free', extraFiveOfAKindBonus: 100 })).toEqual({
      ...simple,
      joker: 'free',
      extraFiveOfAKindBonus: 100,
    });
  });
  it.each([
    [{ jokr: 'free' }, 'jokr'],
    [{ joker: 'sometimes' }, 'joker'],
    [{ extraFiveOfAKindBonus: -1 }, 'extraFiveOfAKindBonus'],
    [{ extraFiveOfAKindBonus: '100' }, 'extraFiveOfAKindBonus'],
    [{ upperBonusThreshold: 106 }, 'upperBonusThreshold'],
    [{ upperBonusThreshold: 0 }, 'upperBonusThreshold'],
    [{ upperBonusPoints: 1.5 }, 'upperBonusPoints'],
    [{ upperBonusPoints: NaN }, 'upperBonusPoints'],
    [{ jokerAfterSacrifice: 'yes' }, 'jokerAfterSacrifice'],
    [{ jokerAfterSacrifice: 1 }, 'jokerAfterSacrifice'],
    [{ jokerAfterSacrifice: null }, 'jokerAfterSacrifice'],
  ])('%j → INVALID_OPTIONS naming %s', (overrides, name) => {
    const r = resolveOptions(penta, overrides);
    expect(isRuleError(r) && r.code).toBe('INVALID_OPTIONS');
    expect(isRuleError(r) && r.message).toContain(name);
  });
  it('jokerAfterSacrifice: absent from every preset, accepted as a boolean', () => {
    for (const preset of [penta, simple, bonus]) expect('jokerAfterSacrifice' in preset).toBe(false);
    expect(resolveOptions(penta, { joker: 'free', jokerAfterSacrifice: true })).toEqual({
      ...penta,
      joker: 'free',
      jokerAfterSacrifice: true,
    });
    expect(resolveOptions(penta, {})).toEqual(penta);
  });
  it('rejects non-objects', () => {
    for (const bad of [[], 'penta', 3, new Date(0)]) {
      const r = resolveOptions(penta, bad);
      expect(isRuleError(r) && r.code).toBe('INVALID_OPTIONS');
    }
  });
});
