import { type RollDice, noDice, scriptedDice } from '../core/dice';
import { type RuleError, type RuleErrorCode, isRuleError } from '../core/errors';
import { type FarkleOptions, farkle, resolveOptions } from './options';
import {
  decide,
  evolve,
  farkleFamily,
  initialState,
  replay,
  standings,
  start,
  currentSeat,
  isFinished,
  totals,
  timeoutMove,
} from './game';
import type { FarkleCommand, FarkleEvent, FarkleState } from './types';

const opts = (overrides: object = {}): FarkleOptions => {
  const o = resolveOptions(farkle, overrides);
  if (isRuleError(o)) throw new Error(o.message);
  return o;
};

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const v of Object.values(value)) deepFreeze(v);
  }
  return value;
}

/** A game driven through decide/evolve, keeping the event log; illegal commands are checked to change nothing. */
class Game {
  events: FarkleEvent[] = [];
  state: FarkleState;
  constructor(
    readonly options: FarkleOptions,
    readonly seats: number,
    rollOff: number[] = [],
  ) {
    this.state = initialState(options, seats);
    this.apply(start(this.state, scriptedDice(rollOff)));
  }
  private apply(events: FarkleEvent[]) {
    for (const e of events) this.state = deepFreeze(evolve(this.state, e));
    this.events.push(...events);
    return events;
  }
  do(command: unknown, dice: number[] = []): FarkleEvent[] {
    let calls = 0;
    const script = scriptedDice(dice);
    const roll: RollDice = (n) => {
      calls++;
      return script(n);
    };
    const out = decide(this.state, command as FarkleCommand, dice.length ? roll : noDice);
    if (isRuleError(out)) throw new Error(`unexpected ${out.code}: ${out.message}`);
    expect(calls).toBe(dice.length ? 1 : 0); // one RollDice call per physical roll
    return this.apply(out);
  }
  fail(command: unknown, code: RuleErrorCode): RuleError {
    const before = JSON.stringify(this.state);
    const out = decide(this.state, command as FarkleCommand, noDice);
    expect(isRuleError(out) && out.code).toBe(code);
    expect(JSON.stringify(this.state)).toBe(before);
    expect((out as RuleError).message.length).toBeGreaterThan(5);
    return out as RuleError;
  }
  get seat() {
    return currentSeat(this.state);
  }
}

const types = (events: FarkleEvent[]) => events.map((e) => e.type);

describe('start and roll-off', () => {
  it('a solo game starts at once with seat 0, without rolling', () => {
    const s = initialState(farkle, 1);
    expect(start(s, noDice)).toEqual([{ type: 'turnStarted', seat: 0 }]);
  });

  it('each round is one RollDice call with one die per contender; a single highest die starts', () => {
    const counts: number[] = [];
    const script = scriptedDice([6, 6, 3, 6, 2, 6, 4]);
    const events = start(initialState(farkle, 4), (n) => {
      counts.push(n);
      return script(n);
    });
    expect(counts).toEqual([4, 3]);
    expect(events).toEqual([
      { type: 'rollOff', round: 1, seats: [0, 1, 2, 3], dice: [6, 6, 3, 6] },
      { type: 'rollOff', round: 2, seats: [0, 1, 3], dice: [2, 6, 4] },
      { type: 'turnStarted', seat: 1 },
    ]);
  });

  it('ties re-roll: [6,6,3,6] then [2,6,6] then [4,1]', () => {
    const counts: number[] = [];
    const script = scriptedDice([6, 6, 3, 6, 2, 6, 6, 4, 1]);
    const events = start(initialState(farkle, 4), (n) => {
      counts.push(n);
      return script(n);
    });
    expect(counts).toEqual([4, 3, 2]);
    expect(events).toEqual([
      { type: 'rollOff', round: 1, seats: [0, 1, 2, 3], dice: [6, 6, 3, 6] },
      { type: 'rollOff', round: 2, seats: [0, 1, 3], dice: [2, 6, 6] },
      { type: 'rollOff', round: 3, seats: [1, 3], dice: [4, 1] },
      { type: 'turnStarted', seat: 1 },
    ]);
  });

  it('play proceeds from the starter in seat order, wrapping around', () => {
    const g = new Game(opts({ entryThreshold: 0 }), 3, [2, 5, 3]);
    expect(g.seat).toBe(1);
    g.do({ type: 'roll', seat: 1 }, [1, 2, 3, 4, 6, 6]);
    g.do({ type: 'bank', seat: 1, setAside: [0] });
    expect(g.seat).toBe(2);
    g.do({ type: 'roll', seat: 2 }, [2, 2, 3, 3, 4, 6]); // farkle
    expect(g.seat).toBe(0);
    g.do({ type: 'roll', seat: 0 }, [2, 2, 3, 3, 4, 6]);
    expect(g.seat).toBe(1);
  });

  it('start after the game began emits nothing; commands before start are GAME_NOT_STARTED', () => {
    const s = initialState(farkle, 2);
    const out = decide(s, { type: 'roll', seat: 0 }, noDice);
    expect(isRuleError(out) && out.code).toBe('GAME_NOT_STARTED');
    const g = new Game(farkle, 1);
    expect(start(g.state, noDice)).toEqual([]);
  });

  it('rejects a bad seat count', () => {
    expect(() => initialState(farkle, 0)).toThrow(RangeError);
  });
});

describe('turn flow', () => {
  it('set aside, roll the rest, bank: the example 600 + 150 = 750 from the brief', () => {
    const g = new Game(farkle, 1);
    g.do({ type: 'roll', seat: 0 }, [6, 6, 6, 2, 3, 4]);
    expect(g.do({ type: 'setAside', seat: 0, dice: [0, 1, 2] })).toEqual([
      { type: 'setAside', seat: 0, dice: [0, 1, 2], faces: [6, 6, 6], points: 600, turnPoints: 600, hotDice: false },
    ]);
    g.do({ type: 'roll', seat: 0 }, [1, 5, 4]); // 3 dice rolled
    g.do({ type: 'setAside', seat: 0, dice: [1, 0] });
    expect(g.state.turn).toMatchObject({ points: 750, diceLeft: 1 });
    expect(g.do({ type: 'bank', seat: 0 })).toEqual([
      { type: 'banked', seat: 0, points: 750, total: 750 },
      { type: 'turnStarted', seat: 0 },
    ]);
    expect(totals(g.state)).toEqual([750]);
  });

  it('a player may throw a 5 back: set aside only the 1s', () => {
    const g = new Game(farkle, 1);
    g.do({ type: 'roll', seat: 0 }, [1, 1, 5, 2, 3, 4]);
    g.do({ type: 'setAside', seat: 0, dice: [0, 1] });
    expect(g.state.turn).toMatchObject({ points: 200, diceLeft: 4 });
    g.do({ type: 'roll', seat: 0 }, [5, 2, 3, 4]);
  });

  it("farkle: the turn points are lost and the turn passes automatically (the brief's 3 twos then 2,4,6)", () => {
    const g = new Game(farkle, 2, [4, 1]);
    g.do({ type: 'roll', seat: 0 }, [2, 2, 2, 3, 4, 6]);
    g.do({ type: 'setAside', seat: 0, dice: [0, 1, 2] });
    const events = g.do({ type: 'roll', seat: 0 }, [2, 4, 6]);
    expect(events).toEqual([
      { type: 'rolled', seat: 0, dice: [2, 4, 6] },
      { type: 'farkled', seat: 0, lost: 200, streak: 1 },
      { type: 'turnStarted', seat: 1 },
    ]);
    expect(g.seat).toBe(1);
    expect(totals(g.state)).toEqual([0, 0]);
  });

  it('hot dice: all six set aside and scoring lets the player roll six again and keep adding', () => {
    const g = new Game(farkle, 1);
    g.do({ type: 'roll', seat: 0 }, [1, 2, 3, 4, 6, 6]);
    g.do({ type: 'setAside', seat: 0, dice: [0] });
    g.do({ type: 'roll', seat: 0 }, [1, 1, 1, 5, 5]);
    const [ev] = g.do({ type: 'setAside', seat: 0, dice: [0, 1, 2, 3, 4] });
    expect(ev).toMatchObject({ points: 1100, turnPoints: 1200, hotDice: true });
    const rolled = g.do({ type: 'roll', seat: 0 }, [5, 2, 3, 4, 6, 6]);
    expect(rolled[0]).toEqual({ type: 'rolled', seat: 0, dice: [5, 2, 3, 4, 6, 6] });
    g.do({ type: 'bank', seat: 0, setAside: [0] });
    expect(totals(g.state)).toEqual([1250]);
  });

  it('hot dice on the very first roll: six scoring dice', () => {
    const g = new Game(farkle, 1);
    g.do({ type: 'roll', seat: 0 }, [3, 3, 5, 5, 6, 6]);
    expect(g.do({ type: 'setAside', seat: 0, dice: [0, 1, 2, 3, 4, 5] })[0]).toMatchObject({
      points: 1500,
      hotDice: true,
    });
    expect(g.state.turn?.diceLeft).toBe(0);
    g.do({ type: 'roll', seat: 0 }, [1, 2, 3, 4, 6, 6]);
  });

  it('convenience commands emit the separate setAside event first', () => {
    const g = new Game(farkle, 1);
    g.do({ type: 'roll', seat: 0 }, [6, 6, 6, 2, 3, 4]);
    expect(types(g.do({ type: 'roll', seat: 0, setAside: [0, 1, 2] }, [1, 1, 2]))).toEqual(['setAside', 'rolled']);
    expect(types(g.do({ type: 'bank', seat: 0, setAside: [0, 1] }))).toEqual(['setAside', 'banked', 'turnStarted']);
    expect(totals(g.state)).toEqual([800]);
  });

  it('a roll that farkles after hot dice loses everything, including the hot-dice points', () => {
    const g = new Game(farkle, 1);
    g.do({ type: 'roll', seat: 0 }, [1, 1, 1, 5, 5, 5]);
    g.do({ type: 'setAside', seat: 0, dice: [0, 1, 2, 3, 4, 5] });
    expect(g.do({ type: 'roll', seat: 0 }, [2, 3, 4, 6, 6, 2])[1]).toEqual({
      type: 'farkled',
      seat: 0,
      lost: 1500,
      streak: 1,
    });
  });
});

describe('error codes (each changes nothing)', () => {
  const fresh = () => new Game(farkle, 2, [6, 1]);

  it('INVALID_COMMAND: not an object, no seat, bad seat, unknown type', () => {
    const g = fresh();
    g.fail(null, 'INVALID_COMMAND');
    g.fail('roll', 'INVALID_COMMAND');
    g.fail([], 'INVALID_COMMAND');
    g.fail({ type: 'roll' }, 'INVALID_COMMAND');
    g.fail({ type: 'roll', seat: '0' }, 'INVALID_COMMAND');
    g.fail({ type: 'roll', seat: 0.5 }, 'INVALID_COMMAND');
    g.fail({ type: 'roll', seat: -1 }, 'INVALID_COMMAND');
    g.fail({ seat: 0 }, 'INVALID_COMMAND');
    g.fail({ type: 'score', seat: 0 }, 'INVALID_COMMAND');
    g.fail({ type: '__proto__', seat: 0 }, 'INVALID_COMMAND');
  });

  it('NOT_YOUR_TURN', () => {
    const g = fresh();
    g.fail({ type: 'roll', seat: 1 }, 'NOT_YOUR_TURN');
    g.fail({ type: 'quit', seat: 1 }, 'NOT_YOUR_TURN');
    g.fail({ type: 'roll', seat: 7 }, 'NOT_YOUR_TURN');
  });

  it('ROLL_REQUIRED: set aside or bank before the first roll of the turn', () => {
    const g = fresh();
    g.fail({ type: 'setAside', seat: 0, dice: [0] }, 'ROLL_REQUIRED');
    g.fail({ type: 'bank', seat: 0 }, 'ROLL_REQUIRED');
    g.fail({ type: 'bank', seat: 0, setAside: [0] }, 'ROLL_REQUIRED');
    g.fail({ type: 'roll', seat: 0, setAside: [0] }, 'ROLL_REQUIRED');
  });

  it('NOTHING_SET_ASIDE: roll again or bank without setting aside from the current roll', () => {
    const g = fresh();
    g.do({ type: 'roll', seat: 0 }, [1, 2, 3, 4, 6, 6]);
    g.fail({ type: 'roll', seat: 0 }, 'NOTHING_SET_ASIDE');
    g.fail({ type: 'bank', seat: 0 }, 'NOTHING_SET_ASIDE');
    g.do({ type: 'roll', seat: 0, setAside: [0] }, [2, 3, 4, 6, 5]);
    g.fail({ type: 'roll', seat: 0 }, 'NOTHING_SET_ASIDE'); // the earlier set-aside was from the previous roll
  });

  it('INVALID_SELECTION: out of range, repeated, non-integer, empty, not an array, too many', () => {
    const g = fresh();
    g.do({ type: 'roll', seat: 0 }, [1, 2, 3, 4, 6, 6]);
    for (const dice of [
      [6],
      [-1],
      [0, 0],
      [0.5],
      ['0'],
      [],
      'all',
      null,
      [0, 1, 2, 3, 4, 5, 0],
      [NaN],
      [Infinity],
      [{}],
    ]) {
      g.fail({ type: 'setAside', seat: 0, dice }, 'INVALID_SELECTION');
    }
    g.fail({ type: 'setAside', seat: 0 }, 'INVALID_SELECTION');
    g.fail({ type: 'bank', seat: 0, setAside: 'x' }, 'INVALID_SELECTION');
  });

  it('SELECTION_DOES_NOT_SCORE: every die set aside must score', () => {
    const g = fresh();
    g.do({ type: 'roll', seat: 0 }, [1, 2, 3, 4, 6, 6]);
    g.fail({ type: 'setAside', seat: 0, dice: [0, 1] }, 'SELECTION_DOES_NOT_SCORE');
    g.fail({ type: 'setAside', seat: 0, dice: [4, 5] }, 'SELECTION_DOES_NOT_SCORE');
    g.fail({ type: 'roll', seat: 0, setAside: [1] }, 'SELECTION_DOES_NOT_SCORE');
  });

  it('ALREADY_SET_ASIDE: one set-aside per roll', () => {
    const g = fresh();
    g.do({ type: 'roll', seat: 0 }, [1, 5, 3, 4, 6, 6]);
    g.do({ type: 'setAside', seat: 0, dice: [0] });
    g.fail({ type: 'setAside', seat: 0, dice: [1] }, 'ALREADY_SET_ASIDE');
    g.fail({ type: 'bank', seat: 0, setAside: [1] }, 'ALREADY_SET_ASIDE');
  });

  it('BELOW_ENTRY_THRESHOLD: the first banked turn needs 750; later turns any amount', () => {
    const g = new Game(farkle, 1);
    g.do({ type: 'roll', seat: 0 }, [1, 1, 5, 5, 2, 3]);
    g.do({ type: 'setAside', seat: 0, dice: [0, 1, 2, 3] });
    const err = g.fail({ type: 'bank', seat: 0 }, 'BELOW_ENTRY_THRESHOLD');
    expect(err.details).toMatchObject({ points: 300, entryThreshold: 750 });
    g.do({ type: 'roll', seat: 0 }, [1, 1]);
    g.do({ type: 'setAside', seat: 0, dice: [0, 1] }); // 500, hot dice
    g.fail({ type: 'bank', seat: 0 }, 'BELOW_ENTRY_THRESHOLD');
    g.do({ type: 'roll', seat: 0 }, [1, 1, 1, 2, 3, 4]);
    g.do({ type: 'bank', seat: 0, setAside: [0, 1, 2] });
    expect(totals(g.state)).toEqual([1500]);
    g.do({ type: 'roll', seat: 0 }, [5, 2, 3, 4, 6, 6]);
    g.do({ type: 'bank', seat: 0, setAside: [0] });
    expect(totals(g.state)).toEqual([1550]);
  });

  it('the entry threshold can be switched off (0)', () => {
    const g = new Game(opts({ entryThreshold: 0 }), 1);
    g.do({ type: 'roll', seat: 0 }, [5, 2, 3, 4, 6, 6]);
    g.do({ type: 'bank', seat: 0, setAside: [0] });
    expect(totals(g.state)).toEqual([50]);
  });

  it('GAME_FINISHED after the end, and no event can follow it', () => {
    const g = new Game(opts({ target: 1000 }), 1);
    g.do({ type: 'roll', seat: 0 }, [1, 1, 1, 2, 3, 4]);
    expect(types(g.do({ type: 'bank', seat: 0, setAside: [0, 1, 2] }))).toEqual([
      'setAside',
      'banked',
      'lastRound',
      'finished',
    ]);
    expect(isFinished(g.state)).toBe(true);
    expect(currentSeat(g.state)).toBeNull();
    g.fail({ type: 'roll', seat: 0 }, 'GAME_FINISHED');
    g.fail({ type: 'quit', seat: 0 }, 'GAME_FINISHED');
    expect(() => evolve(g.state, { type: 'turnStarted', seat: 0 })).toThrow(/game is over/);
  });
});

describe('end of game', () => {
  it('last round: reaching the target gives every other player one last turn; highest total wins', () => {
    const g = new Game(opts({ target: 1000, entryThreshold: 0 }), 3, [6, 1, 1]);
    g.do({ type: 'roll', seat: 0 }, [1, 1, 1, 2, 3, 4]);
    g.do({ type: 'setAside', seat: 0, dice: [0, 1, 2] });
    expect(g.do({ type: 'bank', seat: 0 })).toEqual([
      { type: 'banked', seat: 0, points: 1000, total: 1000 },
      { type: 'lastRound', seat: 0, seats: [1, 2] },
      { type: 'turnStarted', seat: 1 },
    ]);
    g.do({ type: 'roll', seat: 1 }, [1, 1, 1, 1, 3, 4]);
    g.do({ type: 'bank', seat: 1, setAside: [0, 1, 2, 3] }); // 2000, passes the leader
    expect(g.seat).toBe(2);
    expect(isFinished(g.state)).toBe(false);
    const last = g.do({ type: 'roll', seat: 2 }, [2, 3, 4, 6, 6, 2]);
    expect(types(last)).toEqual(['rolled', 'farkled', 'finished']);
    expect(standings(g.state)).toEqual([
      { seat: 1, total: 2000, rank: 1, quit: false },
      { seat: 0, total: 1000, rank: 2, quit: false },
      { seat: 2, total: 0, rank: 3, quit: false },
    ]);
  });

  it('equal totals are ties (same rank)', () => {
    const g = new Game(opts({ target: 1000 }), 2, [1, 6]);
    g.do({ type: 'roll', seat: 1 }, [1, 1, 1, 2, 3, 4]);
    g.do({ type: 'bank', seat: 1, setAside: [0, 1, 2] });
    g.do({ type: 'roll', seat: 0 }, [1, 1, 1, 2, 3, 4]);
    g.do({ type: 'bank', seat: 0, setAside: [0, 1, 2] });
    expect(isFinished(g.state)).toBe(true);
    expect(standings(g.state).map((s) => [s.seat, s.rank])).toEqual([
      [0, 1],
      [1, 1],
    ]);
  });

  it('exact target: overshooting loses the turn points (busted); hitting it exactly starts the last round', () => {
    const g = new Game(opts({ target: 1000, exactTarget: true, entryThreshold: 0 }), 2, [6, 1]);
    g.do({ type: 'roll', seat: 0 }, [1, 1, 1, 5, 3, 4]);
    expect(g.do({ type: 'bank', seat: 0, setAside: [0, 1, 2, 3] })).toEqual([
      {
        type: 'setAside',
        seat: 0,
        dice: [0, 1, 2, 3],
        faces: [1, 1, 1, 5],
        points: 1050,
        turnPoints: 1050,
        hotDice: false,
      },
      { type: 'busted', seat: 0, lost: 1050 },
      { type: 'turnStarted', seat: 1 },
    ]);
    expect(totals(g.state)).toEqual([0, 0]);
    g.do({ type: 'roll', seat: 1 }, [5, 2, 3, 4, 6, 6]);
    g.do({ type: 'bank', seat: 1, setAside: [0] });
    g.do({ type: 'roll', seat: 0 }, [1, 1, 1, 2, 3, 4]);
    expect(types(g.do({ type: 'bank', seat: 0, setAside: [0, 1, 2] }))).toEqual([
      'setAside',
      'banked',
      'lastRound',
      'turnStarted',
    ]);
    g.do({ type: 'roll', seat: 1 }, [1, 1, 1, 2, 3, 4]);
    expect(types(g.do({ type: 'bank', seat: 1, setAside: [0, 1, 2] }))).toEqual(['setAside', 'busted', 'finished']);
    expect(standings(g.state)[0]).toEqual({ seat: 0, total: 1000, rank: 1, quit: false });
  });

  it('without exactTarget, going over the target counts as reaching it', () => {
    const g = new Game(opts({ target: 1000 }), 1);
    g.do({ type: 'roll', seat: 0 }, [1, 1, 1, 5, 3, 4]);
    expect(types(g.do({ type: 'bank', seat: 0, setAside: [0, 1, 2, 3] }))).toEqual([
      'setAside',
      'banked',
      'lastRound',
      'finished',
    ]);
  });
});

describe('three-farkle penalty', () => {
  const farkleOnce = (g: Game, seat: number) => g.do({ type: 'roll', seat }, [2, 3, 4, 6, 6, 2]);

  it('is off by default', () => {
    const g = new Game(farkle, 1);
    for (let i = 0; i < 3; i++) farkleOnce(g, 0);
    expect(g.events.some((e) => e.type === 'penalty')).toBe(false);
  });

  it('deducts on every third consecutive farkle; a bank resets the streak; the total never goes below 0', () => {
    const g = new Game(opts({ threeFarklePenalty: 500 }), 1);
    g.do({ type: 'roll', seat: 0 }, [1, 1, 1, 1, 2, 3]);
    g.do({ type: 'bank', seat: 0, setAside: [0, 1, 2, 3] }); // 2000
    farkleOnce(g, 0);
    farkleOnce(g, 0);
    g.do({ type: 'roll', seat: 0 }, [5, 2, 3, 4, 6, 6]);
    g.do({ type: 'bank', seat: 0, setAside: [0] }); // 2050, streak reset
    farkleOnce(g, 0);
    farkleOnce(g, 0);
    expect(g.events.some((e) => e.type === 'penalty')).toBe(false);
    expect(types(farkleOnce(g, 0))).toEqual(['rolled', 'farkled', 'penalty', 'turnStarted']);
    expect(totals(g.state)).toEqual([1550]);
    for (let i = 0; i < 9; i++) farkleOnce(g, 0); // 3 more penalties: 1050, 550, 50
    expect(totals(g.state)).toEqual([50]);
    for (let i = 0; i < 3; i++) farkleOnce(g, 0);
    expect(g.events.at(-2)).toEqual({ type: 'penalty', seat: 0, points: 50, total: 0 });
    expect(totals(g.state)).toEqual([0]);
  });
});

describe('quit', () => {
  it('quitting mid-turn loses the turn points, keeps the total and ranks after the finishers', () => {
    const g = new Game(opts({ entryThreshold: 0 }), 3, [6, 1, 1]);
    g.do({ type: 'roll', seat: 0 }, [1, 1, 1, 1, 2, 3]);
    g.do({ type: 'bank', seat: 0, setAside: [0, 1, 2, 3] }); // seat 0: 2000
    g.do({ type: 'roll', seat: 1 }, [5, 2, 3, 4, 6, 6]);
    g.do({ type: 'setAside', seat: 1, dice: [0] });
    expect(g.do({ type: 'quit', seat: 1 })).toEqual([
      { type: 'quit', seat: 1, lost: 50 },
      { type: 'turnStarted', seat: 2 },
    ]);
    g.do({ type: 'roll', seat: 2 }, [5, 2, 3, 4, 6, 6]);
    g.do({ type: 'bank', seat: 2, setAside: [0] });
    expect(g.seat).toBe(0); // seat 1 is skipped from now on
    expect(standings(g.state).map((s) => [s.seat, s.rank, s.quit])).toEqual([
      [0, 1, false],
      [2, 2, false],
      [1, 3, true],
    ]);
  });

  it('when only one player is left the game ends (reason quit); a solo quit ends the game', () => {
    const g = new Game(farkle, 2, [6, 1]);
    expect(types(g.do({ type: 'quit', seat: 0 }))).toEqual(['quit', 'finished']);
    expect(g.state.finishReason).toBe('quit');
    expect(standings(g.state).map((s) => [s.seat, s.rank])).toEqual([
      [1, 1],
      [0, 2],
    ]);
    const solo = new Game(farkle, 1);
    expect(types(solo.do({ type: 'quit', seat: 0 }))).toEqual(['quit', 'finished']);
  });

  it('a quit during the last round skips that player', () => {
    const g = new Game(opts({ target: 1000 }), 3, [6, 1, 1]);
    g.do({ type: 'roll', seat: 0 }, [1, 1, 1, 2, 3, 4]);
    g.do({ type: 'bank', seat: 0, setAside: [0, 1, 2] });
    expect(types(g.do({ type: 'quit', seat: 1 }))).toEqual(['quit', 'turnStarted']);
    expect(types(g.do({ type: 'quit', seat: 2 }))).toEqual(['quit', 'finished']);
  });
});

describe('family object and replay', () => {
  it('farkleFamily exposes the decider', () => {
    expect(farkleFamily.id).toBe('farkle');
    expect(farkleFamily.resolveOptions(farkle, { target: 5000 })).toMatchObject({ target: 5000 });
    const s = farkleFamily.initialState(farkle, 2);
    expect(farkleFamily.currentSeat(s)).toBeNull();
  });

  it('replay(events) rebuilds the state; events survive a JSON round trip', () => {
    const g = new Game(opts({ target: 1000 }), 2, [3, 3, 5, 2]);
    g.do({ type: 'roll', seat: 0 }, [1, 1, 1, 5, 5, 5]);
    g.do({ type: 'setAside', seat: 0, dice: [0, 1, 2, 3, 4, 5] });
    g.do({ type: 'roll', seat: 0 }, [1, 2, 3, 4, 6, 6]);
    g.do({ type: 'bank', seat: 0, setAside: [0] });
    const stored = JSON.parse(JSON.stringify(g.events));
    expect(replay(stored, g.options, 2)).toEqual(g.state);
  });

  it('evolve rejects inconsistent events (corrupt log)', () => {
    const g = new Game(farkle, 1);
    expect(() => evolve(g.state, { type: 'banked', seat: 0, points: 100, total: 999 })).toThrow(/does not add up/);
    expect(() => evolve(g.state, { type: 'rolled', seat: 3, dice: [1] })).toThrow(/not seat 3/);
  });
});

describe('timeoutMove (computer finishes a timed-out turn)', () => {
  const finishTurn = (g: Game, dice: number[]) => {
    const script = scriptedDice(dice);
    const seat = g.seat!;
    const moves: unknown[] = [];
    while (g.seat === seat && !isFinished(g.state)) {
      const move = timeoutMove(g.state);
      if (!move) break;
      moves.push(move);
      const out = decide(g.state, { ...move, seat }, script);
      if (isRuleError(out)) throw new Error(out.message);
      for (const e of out) g.state = evolve(g.state, e);
      g.events.push(...out);
    }
    return moves;
  };

  it('rolls, then banks the best selection when that reaches the entry threshold', () => {
    const g = new Game(farkle, 2, [6, 1]);
    const moves = finishTurn(g, [1, 1, 1, 5, 3, 4 /* 1,1,1,5 = 1050 */]);
    expect(moves).toEqual([{ type: 'roll' }, { type: 'bank', setAside: [0, 1, 2, 3] }]);
    expect(totals(g.state)).toEqual([1050, 0]);
    expect(g.seat).toBe(1);
  });

  it('below the entry threshold it passes: the turn points are forfeited and it never rolls on', () => {
    const g = new Game(farkle, 2, [6, 1]);
    const moves = finishTurn(g, [1, 5, 2, 3, 4, 6 /* 150 < 750 */]);
    expect(moves).toEqual([{ type: 'roll' }, { type: 'pass' }]);
    expect(totals(g.state)).toEqual([0, 0]);
    expect(g.events.at(-2)).toEqual({ type: 'passed', seat: 0, lost: 0 });
    expect(g.seat).toBe(1);
  });

  it('continues a turn already in progress and banks at once when on the board', () => {
    const g = new Game(opts({ entryThreshold: 0 }), 2, [6, 1]);
    g.do({ type: 'roll', seat: 0 }, [5, 2, 3, 4, 6, 6]);
    g.do({ type: 'setAside', seat: 0, dice: [0] });
    expect(finishTurn(g, [])).toEqual([{ type: 'bank' }]);
    expect(totals(g.state)).toEqual([50, 0]);
  });

  it('a farkle ends the timed-out turn; no move when the game is over', () => {
    const g = new Game(farkle, 2, [6, 1]);
    expect(finishTurn(g, [2, 2, 3, 3, 4, 6])).toEqual([{ type: 'roll' }]);
    expect(g.seat).toBe(1);
    const done = new Game(opts({ target: 1000 }), 1);
    done.do({ type: 'roll', seat: 0 }, [1, 1, 1, 2, 3, 4]);
    done.do({ type: 'bank', seat: 0, setAside: [0, 1, 2] });
    expect(timeoutMove(done.state)).toBeNull();
    expect(timeoutMove(initialState(farkle, 2))).toBeNull();
  });

  it('rolledDice names the events that record a physical roll', () => {
    expect(farkleFamily.rolledDice!({ type: 'rolled', seat: 0, dice: [1, 2] })).toEqual([1, 2]);
    expect(farkleFamily.rolledDice!({ type: 'rollOff', round: 1, seats: [0, 1], dice: [3, 4] })).toEqual([3, 4]);
    expect(farkleFamily.rolledDice!({ type: 'banked', seat: 0, points: 50, total: 50 })).toBeNull();
    // eslint-disable-next-line @typescript-eslint/unbound-method -- compared by identity, never called
    expect(farkleFamily.timeoutMove).toBe(timeoutMove);
  });
});

describe('resolveOptions', () => {
  it('accepts valid overrides and merges partial straights', () => {
    expect(resolveOptions(farkle, undefined)).toBe(farkle);
    expect(resolveOptions(farkle, { straights: { low: 1250 } })).toEqual({
      ...farkle,
      straights: { low: 1250, high: null, full: null },
    });
    expect(
      resolveOptions(farkle, { exactTarget: true, threeFarklePenalty: 1000, entryThreshold: 0, target: 5000 }),
    ).toEqual({
      entryThreshold: 0,
      target: 5000,
      exactTarget: true,
      threeFarklePenalty: 1000,
      straights: farkle.straights,
    });
  });

  it.each([
    [[], '(options)'],
    ['x', '(options)'],
    [{ colour: 'red' }, 'colour'],
    [{ target: 10001 }, 'target'],
    [{ target: 0 }, 'target'],
    [{ target: '10000' }, 'target'],
    [{ entryThreshold: -1 }, 'entryThreshold'],
    [{ entryThreshold: 20000 }, 'entryThreshold'],
    [{ exactTarget: 'yes' }, 'exactTarget'],
    [{ threeFarklePenalty: 1.5 }, 'threeFarklePenalty'],
    [{ straights: { low: 0 } }, 'straights.low'],
    [{ straights: { huge: 1 } }, 'straights.huge'],
    [{ straights: [1] }, 'straights'],
  ])('%j -> INVALID_OPTIONS naming %s', (overrides, option) => {
    const out = resolveOptions(farkle, overrides);
    expect(isRuleError(out) && out.code).toBe('INVALID_OPTIONS');
    expect((out as RuleError).details?.option).toBe(option);
    expect((out as RuleError).message).toContain(option);
  });
});
