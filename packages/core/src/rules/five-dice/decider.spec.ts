import { type Die, type RollDice, noDice, scriptedDice } from '../core/dice';
import { type RuleError, type RuleErrorCode, isRuleError } from '../core/errors';
import { replay } from '../core/replay';
import { bonus, penta, simple } from './options';
import { totals } from './scoring';
import { decide, evolve, fiveDiceFamily, initialState, replayGame, standings } from './decider';
import type { BoxId, FiveDiceCommand, FiveDiceEvent, FiveDiceOptions, FiveDiceState } from './types';

/** A small driver: applies commands, keeps the event log, fails the test on a RuleError. */
class Table {
  state: FiveDiceState;
  log: FiveDiceEvent[] = [];
  constructor(
    readonly options: FiveDiceOptions,
    readonly seats = 1,
  ) {
    this.state = initialState(options, seats);
  }
  do(command: unknown, roll: RollDice = noDice): FiveDiceEvent[] {
    const events = decide(this.state, command as FiveDiceCommand, roll);
    if (isRuleError(events)) throw new Error(`${events.code}: ${events.message}`);
    for (const e of events) this.state = evolve(this.state, e);
    this.log.push(...events);
    return events;
  }
  /** Expects `command` to fail with `code` and to change nothing (and not to roll). */
  fails(command: unknown, code: RuleErrorCode): RuleError {
    const before = JSON.stringify(this.state);
    const result = decide(this.state, command as FiveDiceCommand, noDice);
    expect(isRuleError(result) && result.code).toBe(code);
    expect(JSON.stringify(this.state)).toBe(before);
    return result as RuleError;
  }
  roll(seat: number, faces: number[], hold: number[] = []) {
    return this.do({ type: 'roll', seat, hold }, scriptedDice(faces));
  }
  turn(seat: number, faces: number[], box: BoxId) {
    this.roll(seat, faces);
    return this.do({ type: 'score', seat, box });
  }
}

const five = (f: number) => [f, f, f, f, f];

describe('maximum totals reached through decide/evolve', () => {
  const allFives = (t: Table) => {
    t.turn(0, five(6), 'fiveOfAKind'); // 50, no bonus: the first one
    for (const [f, box] of [
      [1, 'ones'],
      [2, 'twos'],
      [3, 'threes'],
      [4, 'fours'],
      [5, 'fives'],
      [6, 'sixes'],
    ] as const) {
      t.turn(0, five(f), box); // joker (penta) forces the own upper box: 5 × f + 100
    }
    for (const box of [
      'threeOfAKind',
      'fourOfAKind',
      'fullHouse',
      'smallStraight',
      'largeStraight',
      'chance',
    ] as const) {
      t.turn(0, five(6), box);
    }
  };

  it('penta: 1575 = 105 + 35 + 235 + 12 × 100', () => {
    const t = new Table(penta);
    allFives(t);
    expect(t.state.finished).toBe(true);
    expect(totals(t.state.sheets[0], penta)).toEqual({
      upper: 105,
      upperBonus: 35,
      lower: 235,
      extraBonus: 1200,
      total: 1575,
    });
    expect(standings(t.state)).toEqual([{ seat: 0, total: 1575, rank: 1, quit: false }]);
  });

  it('bonus: 1480 = 105 + 35 + 140 + 12 × 100 (no joker: full house and straights score 0 with a five of a kind)', () => {
    const t = new Table(bonus);
    allFives(t);
    expect(totals(t.state.sheets[0], bonus)).toEqual({
      upper: 105,
      upperBonus: 35,
      lower: 140,
      extraBonus: 1200,
      total: 1480,
    });
  });

  it('bonus: taking real full house and straights instead loses 3 × 100 for 95 points (1275 < 1480)', () => {
    const t = new Table(bonus);
    t.turn(0, five(6), 'fiveOfAKind');
    for (const [f, box] of [
      [1, 'ones'],
      [2, 'twos'],
      [3, 'threes'],
      [4, 'fours'],
      [5, 'fives'],
      [6, 'sixes'],
    ] as const)
      t.turn(0, five(f), box);
    t.turn(0, five(6), 'threeOfAKind');
    t.turn(0, five(6), 'fourOfAKind');
    t.turn(0, five(6), 'chance');
    t.turn(0, [2, 2, 3, 3, 3], 'fullHouse');
    t.turn(0, [1, 2, 3, 4, 6], 'smallStraight');
    t.turn(0, [2, 3, 4, 5, 6], 'largeStraight');
    expect(totals(t.state.sheets[0], bonus).total).toBe(1275);
  });

  it('simple: 375 = 105 + 35 + 235, no bonus for further fives of a kind', () => {
    const t = new Table(simple);
    t.turn(0, five(6), 'fiveOfAKind');
    for (const [f, box] of [
      [1, 'ones'],
      [2, 'twos'],
      [3, 'threes'],
      [4, 'fours'],
      [5, 'fives'],
      [6, 'sixes'],
    ] as const)
      t.turn(0, five(f), box);
    t.turn(0, five(6), 'threeOfAKind');
    t.turn(0, five(6), 'fourOfAKind');
    t.turn(0, [6, 6, 6, 6, 6], 'chance');
    t.turn(0, [2, 2, 3, 3, 3], 'fullHouse');
    t.turn(0, [1, 2, 3, 4, 6], 'smallStraight');
    t.turn(0, [6, 5, 4, 3, 2], 'largeStraight');
    expect(totals(t.state.sheets[0], simple)).toEqual({
      upper: 105,
      upperBonus: 35,
      lower: 235,
      extraBonus: 0,
      total: 375,
    });
  });
});

describe('turn mechanics', () => {
  it('re-rolled dice fill the unheld positions in index order; roll is called once with 5 - hold', () => {
    const t = new Table(simple);
    t.roll(0, [1, 2, 3, 4, 5]);
    const calls: number[] = [];
    const roll: RollDice = (n) => {
      calls.push(n);
      return [6, 6, 6].slice(0, n) as Die[];
    };
    const events = t.do({ type: 'roll', seat: 0, hold: [3, 1] }, roll);
    expect(calls).toEqual([3]);
    expect(events).toEqual([{ type: 'rolled', seat: 0, dice: [6, 2, 6, 4, 6], held: [1, 3], rollInTurn: 2 }]);
  });

  it('the player may change the hold before each roll and score after any roll', () => {
    const t = new Table(simple);
    t.roll(0, [1, 2, 3, 4, 5]);
    t.roll(0, [6, 6], [0, 1, 2]); // → 1 2 3 6 6
    t.roll(0, [5, 5, 5], [3, 4]); // → 5 5 5 6 6
    expect(t.state.turn!.dice).toEqual([5, 5, 5, 6, 6]);
    expect(t.do({ type: 'score', seat: 0, box: 'fullHouse' })).toEqual([
      { type: 'scored', seat: 0, box: 'fullHouse', points: 25, bonus: 0 },
    ]);
    expect(t.state.turn).toEqual({ seat: 0, rollInTurn: 0, dice: [] });
  });

  it('hold may be absent on the first roll', () => {
    const t = new Table(simple);
    t.do({ type: 'roll', seat: 0 }, scriptedDice([1, 1, 1, 1, 2]));
    expect(t.state.turn!.rollInTurn).toBe(1);
  });

  it('start() emits nothing; the family object is wired', () => {
    expect(fiveDiceFamily.start(initialState(penta, 2), noDice)).toEqual([]);
    expect(fiveDiceFamily.id).toBe('five-dice');
    expect(fiveDiceFamily.currentSeat(initialState(penta, 2))).toBe(0);
    expect(fiveDiceFamily.isFinished(initialState(penta, 2))).toBe(false);
  });

  it('initialState accepts 1 to 8 seats', () => {
    expect(() => initialState(penta, 0)).toThrow(RangeError);
    expect(() => initialState(penta, 9)).toThrow(RangeError);
    expect(initialState(penta, 8).sheets).toHaveLength(8);
  });
});

describe('error codes (each changes nothing and rolls no dice)', () => {
  it('INVALID_COMMAND', () => {
    const t = new Table(penta, 2);
    t.fails(null, 'INVALID_COMMAND');
    t.fails('roll', 'INVALID_COMMAND');
    t.fails({ type: 'pass', seat: 0 }, 'INVALID_COMMAND');
    t.fails({ type: 7, seat: 0 }, 'INVALID_COMMAND');
    t.fails({ type: 'roll', seat: '0' }, 'INVALID_COMMAND');
    t.fails({ type: 'roll', seat: 0.5 }, 'INVALID_COMMAND');
    t.fails({ type: 'roll', seat: 2 }, 'INVALID_COMMAND');
    t.fails({ type: 'roll', seat: -1 }, 'INVALID_COMMAND');
    t.fails({ type: 'roll' }, 'INVALID_COMMAND');
  });

  it('NOT_YOUR_TURN (roll, score, quit)', () => {
    const t = new Table(penta, 2);
    t.fails({ type: 'roll', seat: 1 }, 'NOT_YOUR_TURN');
    t.roll(0, [1, 2, 3, 4, 5]);
    t.fails({ type: 'score', seat: 1, box: 'chance' }, 'NOT_YOUR_TURN');
    t.fails({ type: 'quit', seat: 1 }, 'NOT_YOUR_TURN');
  });

  it('ROLL_REQUIRED', () => {
    const t = new Table(penta);
    t.fails({ type: 'score', seat: 0, box: 'chance' }, 'ROLL_REQUIRED');
  });

  it('NO_ROLLS_LEFT', () => {
    const t = new Table(penta);
    t.roll(0, [1, 2, 3, 4, 5]);
    t.roll(0, [1, 2, 3, 4, 5]);
    t.roll(0, [1, 2, 3, 4, 5]);
    t.fails({ type: 'roll', seat: 0, hold: [] }, 'NO_ROLLS_LEFT');
    t.fails({ type: 'roll', seat: 0, hold: [9] }, 'NO_ROLLS_LEFT');
  });

  it('INVALID_HOLD', () => {
    const t = new Table(penta);
    t.fails({ type: 'roll', seat: 0, hold: [0] }, 'INVALID_HOLD'); // first roll throws all five
    t.roll(0, [1, 2, 3, 4, 5]);
    for (const hold of [[1, 1], [5], [-1], [1.5], ['2'], [null], 'all', { 0: 1 }, [0, 1, 2, 3, 4], [NaN], [Infinity]]) {
      t.fails({ type: 'roll', seat: 0, hold }, 'INVALID_HOLD');
    }
  });

  it('UNKNOWN_BOX', () => {
    const t = new Table(penta);
    t.roll(0, [1, 2, 3, 4, 5]);
    for (const box of ['yahtzee', '__proto__', 'toString', 'constructor', 3, null, undefined, 'Ones']) {
      t.fails({ type: 'score', seat: 0, box }, 'UNKNOWN_BOX');
    }
  });

  it('BOX_ALREADY_FILLED', () => {
    const t = new Table(penta);
    t.turn(0, [1, 2, 3, 4, 5], 'largeStraight');
    t.roll(0, [2, 3, 4, 5, 6]);
    t.fails({ type: 'score', seat: 0, box: 'largeStraight' }, 'BOX_ALREADY_FILLED');
  });

  it('BOX_NOT_ALLOWED (forced joker)', () => {
    const t = new Table(penta);
    t.turn(0, five(4), 'fiveOfAKind');
    t.roll(0, five(4));
    t.fails({ type: 'score', seat: 0, box: 'chance' }, 'BOX_NOT_ALLOWED');
    t.fails({ type: 'score', seat: 0, box: 'sixes' }, 'BOX_NOT_ALLOWED');
    expect(t.do({ type: 'score', seat: 0, box: 'fours' })).toEqual([
      { type: 'scored', seat: 0, box: 'fours', points: 20, bonus: 100 },
    ]);
    // Fours filled: lower boxes only, upper boxes forbidden while a lower box is open
    t.roll(0, five(4));
    t.fails({ type: 'score', seat: 0, box: 'ones' }, 'BOX_NOT_ALLOWED');
    expect(t.do({ type: 'score', seat: 0, box: 'largeStraight' })).toEqual([
      { type: 'scored', seat: 0, box: 'largeStraight', points: 40, bonus: 100 },
    ]);
  });

  it('GAME_FINISHED (every command after the end, even malformed ones)', () => {
    const t = new Table(simple);
    t.do({ type: 'quit', seat: 0 });
    expect(t.state.finished).toBe(true);
    t.fails({ type: 'roll', seat: 0 }, 'GAME_FINISHED');
    t.fails({ type: 'score', seat: 0, box: 'chance' }, 'GAME_FINISHED');
    t.fails({ type: 'quit', seat: 0 }, 'GAME_FINISHED');
    t.fails({ type: 'bogus', seat: 5 }, 'GAME_FINISHED');
  });
});

describe('penta joker corner cases through the decider', () => {
  it('a zero in the Penta box cancels bonus and joker', () => {
    const t = new Table(penta);
    t.turn(0, [1, 2, 3, 4, 6], 'fiveOfAKind'); // sacrificed: 0
    t.roll(0, five(3));
    expect(t.do({ type: 'score', seat: 0, box: 'largeStraight' })).toEqual([
      { type: 'scored', seat: 0, box: 'largeStraight', points: 0, bonus: 0 },
    ]);
  });

  it('lower section full and own upper box filled → another upper box at 0 with the bonus', () => {
    const t = new Table(penta);
    t.turn(0, five(2), 'fiveOfAKind');
    t.turn(0, five(2), 'twos');
    for (const box of [
      'threeOfAKind',
      'fourOfAKind',
      'fullHouse',
      'smallStraight',
      'largeStraight',
      'chance',
    ] as const) {
      t.turn(0, [1, 2, 3, 4, 6], box);
    }
    t.roll(0, five(2));
    expect(t.do({ type: 'score', seat: 0, box: 'ones' })).toEqual([
      { type: 'scored', seat: 0, box: 'ones', points: 0, bonus: 100 },
    ]);
  });
});

describe('multiplayer, quit, ties', () => {
  it('seats take turns in order', () => {
    const t = new Table(simple, 3);
    t.turn(0, [1, 1, 1, 2, 2], 'fullHouse');
    expect(t.state.turn!.seat).toBe(1);
    t.turn(1, [1, 1, 1, 2, 2], 'fullHouse');
    t.turn(2, [1, 1, 1, 2, 2], 'fullHouse');
    expect(t.state.turn!.seat).toBe(0);
  });

  it('a quitter leaves the rotation, keeps the score, ranks after every finisher; ties share a rank', () => {
    const t = new Table(simple, 3);
    t.turn(0, [6, 6, 6, 6, 6], 'fiveOfAKind'); // seat 0: 50
    t.turn(1, [1, 2, 3, 4, 6], 'ones'); // seat 1: 1
    t.roll(2, [1, 2, 3, 4, 5]);
    expect(t.do({ type: 'quit', seat: 2 })).toEqual([{ type: 'quit', seat: 2 }]); // quit after rolling, 0 points
    expect(t.state.turn!.seat).toBe(0);
    t.turn(0, [1, 1, 2, 2, 3], 'ones'); // seat 0: 52
    t.turn(1, [1, 2, 3, 4, 6], 'twos'); // seat 1: 3
    expect(t.state.turn!.seat).toBe(0);
    t.do({ type: 'quit', seat: 0 }); // seat 0 quits with 52 — more than seat 1
    // seat 1 plays alone to the end, scoring 1 more point in each box… then finishes
    const rest: BoxId[] = [
      'threes',
      'fours',
      'fives',
      'sixes',
      'threeOfAKind',
      'fourOfAKind',
      'fullHouse',
      'smallStraight',
      'largeStraight',
      'fiveOfAKind',
      'chance',
    ];
    for (const box of rest) t.turn(1, [1, 1, 2, 2, 3], box);
    expect(t.state.finished).toBe(true);
    const last = t.log[t.log.length - 1];
    expect(last.type).toBe('finished');
    const s1 = totals(t.state.sheets[1], simple).total;
    expect(standings(t.state)).toEqual([
      { seat: 1, total: s1, rank: 1, quit: false },
      { seat: 0, total: 52, rank: 2, quit: true },
      { seat: 2, total: 0, rank: 3, quit: true },
    ]);
    expect(s1).toBeLessThan(52);
  });

  it('equal totals are ties (1, 1, 3 ranking)', () => {
    const t = new Table(simple, 3);
    for (let round = 0; round < 13; round++) {
      for (let seat = 0; seat < 3; seat++) {
        const box = (
          [
            'ones',
            'twos',
            'threes',
            'fours',
            'fives',
            'sixes',
            'threeOfAKind',
            'fourOfAKind',
            'fullHouse',
            'smallStraight',
            'largeStraight',
            'fiveOfAKind',
            'chance',
          ] as const
        )[round];
        t.turn(seat, seat === 1 && round === 12 ? [1, 1, 1, 1, 2] : [2, 2, 2, 2, 3], box);
      }
    }
    expect(t.state.finished).toBe(true);
    const st = standings(t.state);
    expect(st.map((s) => [s.seat, s.rank])).toEqual([
      [0, 1],
      [2, 1],
      [1, 3],
    ]);
    expect(fiveDiceFamily.currentSeat(t.state)).toBeNull();
  });

  it('if every player quits the game ends', () => {
    const t = new Table(bonus, 2);
    t.do({ type: 'quit', seat: 0 });
    expect(t.state.finished).toBe(false);
    const events = t.do({ type: 'quit', seat: 1 });
    expect(events.map((e) => e.type)).toEqual(['quit', 'finished']);
    expect(t.state.finished).toBe(true);
    expect(standings(t.state).every((s) => s.quit && s.rank === 1)).toBe(true);
  });
});

describe('events', () => {
  it('are plain JSON: a JSON round trip replays to the same state; evolve rejects events after the end', () => {
    const t = new Table(penta, 2);
    t.turn(0, five(5), 'fiveOfAKind');
    t.turn(1, [1, 2, 3, 4, 5], 'largeStraight');
    t.turn(0, five(5), 'fives');
    t.do({ type: 'quit', seat: 1 });
    t.do({ type: 'quit', seat: 0 });
    const stored = JSON.parse(JSON.stringify(t.log)) as FiveDiceEvent[];
    expect(replayGame(penta, 2, stored)).toEqual(t.state);
    expect(replay(evolve, initialState(penta, 2), stored)).toEqual(t.state);
    expect(() => evolve(t.state, { type: 'quit', seat: 0 })).toThrow(/finished/);
  });

  it('evolve rejects inconsistent events (offline verification)', () => {
    const s = initialState(penta, 2);
    expect(() => evolve(s, { type: 'rolled', seat: 1, dice: [1, 2, 3, 4, 5], held: [], rollInTurn: 1 })).toThrow();
    expect(() =>
      evolve(s, { type: 'rolled', seat: 0, dice: [1, 2, 3, 4, 7] as Die[], held: [], rollInTurn: 1 }),
    ).toThrow();
    expect(() => evolve(s, { type: 'scored', seat: 0, box: 'chance', points: 5, bonus: 0 })).toThrow();
    expect(() => evolve(s, { type: 'finished', standings: [] })).toThrow();
  });
});
