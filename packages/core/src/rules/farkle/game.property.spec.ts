import fc from 'fast-check';
import type { Die, RollDice } from '../core/dice';
import { isRuleError } from '../core/errors';
import { type FarkleOptions, farkle, resolveOptions } from './options';
import { decide, evolve, initialState, replay, start, isFinished, currentSeat, timeoutMove } from './game';
import { scoringSelections } from './scoring';
import type { FarkleCommand, FarkleEvent, FarkleState } from './types';

/** Seeded dice (mulberry32) so a failing case shrinks and replays deterministically. */
function seededRoller(seed: number, counter: { calls: number }): RollDice {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return (count) => {
    counter.calls++;
    return Array.from({ length: count }, () => (1 + Math.floor(next() * 6)) as Die);
  };
}

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const v of Object.values(value)) deepFreeze(v);
  }
  return value;
}

/** Legal commands in a state (as a client would offer them). */
function legalCommands(state: FarkleState): FarkleCommand[] {
  const seat = currentSeat(state);
  if (seat === null || !state.turn) return [];
  const { turn } = state;
  const out: FarkleCommand[] = [{ type: 'quit', seat }];
  if (!turn.roll) return [{ type: 'roll', seat }, ...out];
  const canBank = (points: number) => state.onBoard[seat] || points >= state.options.entryThreshold;
  if (!turn.setAside) {
    for (const s of scoringSelections(turn.roll, state.options)) {
      out.push({ type: 'setAside', seat, dice: s.dice });
      out.push({ type: 'roll', seat, setAside: s.dice });
      if (canBank(turn.points + s.points)) out.push({ type: 'bank', seat, setAside: s.dice });
    }
    return out;
  }
  out.push({ type: 'roll', seat });
  if (canBank(turn.points)) out.push({ type: 'bank', seat });
  return out;
}

const optionsArb: fc.Arbitrary<FarkleOptions> = fc
  .record({
    entryThreshold: fc.constantFrom(0, 300, 750),
    target: fc.constantFrom(1000, 2000, 3000),
    exactTarget: fc.boolean(),
    threeFarklePenalty: fc.constantFrom(0, 500),
    straights: fc.constantFrom(
      { low: null, high: null, full: null },
      { low: 1250, high: 1250, full: 1500 },
      { low: 1250, high: 50, full: null },
    ),
  })
  .map((o) => {
    const r = resolveOptions(farkle, o);
    if (isRuleError(r)) throw new Error(r.message);
    return r;
  });

const junkCommand: fc.Arbitrary<unknown> = fc.oneof(
  fc.anything(),
  fc.record(
    {
      type: fc.constantFrom('roll', 'setAside', 'bank', 'quit', 'score', ''),
      seat: fc.oneof(fc.integer({ min: -1, max: 5 }), fc.constant('0'), fc.double()),
      dice: fc.oneof(fc.array(fc.integer({ min: -1, max: 7 }), { maxLength: 8 }), fc.anything()),
      setAside: fc.oneof(fc.constant(undefined), fc.array(fc.integer({ min: -1, max: 7 }), { maxLength: 8 })),
    },
    { requiredKeys: ['type', 'seat'] },
  ),
);

interface Played {
  states: FarkleState[];
  events: FarkleEvent[];
  rollCalls: number;
  options: FarkleOptions;
  seats: number;
}

function play(options: FarkleOptions, seats: number, seed: number, choices: number[], junk: unknown[]): Played {
  const counter = { calls: 0 };
  const roll = seededRoller(seed, counter);
  let state = deepFreeze(initialState(options, seats));
  const events: FarkleEvent[] = [];
  const states: FarkleState[] = [state];
  for (const e of start(state, roll)) {
    state = deepFreeze(evolve(state, e));
    events.push(e);
    states.push(state);
  }
  for (let step = 0; step < choices.length && !isFinished(state); step++) {
    // an illegal (or random) command never changes the state; if it happens to be legal, it is not applied
    const j = junk[step % Math.max(1, junk.length)];
    if (j !== undefined) {
      const before = JSON.stringify(state);
      const out = decide(state, j as FarkleCommand, seededRoller(1, { calls: 0 }));
      if (!isRuleError(out)) expect(Array.isArray(out)).toBe(true);
      expect(JSON.stringify(state)).toBe(before);
    }
    // the computer's timeout move is always legal
    const tm = timeoutMove(state);
    expect(tm === null).toBe(currentSeat(state) === null);
    if (tm) {
      const r = decide(state, { ...tm, seat: currentSeat(state)! }, seededRoller(2, { calls: 0 }));
      if (isRuleError(r)) throw new Error(`timeoutMove illegal: ${r.code} ${JSON.stringify(tm)}`);
    }
    const legal = legalCommands(state);
    // quitting is rare: only when the choice hits index 0 and the choice is large
    let pick = choices[step] % legal.length;
    if (legal[pick].type === 'quit' && choices[step] < 1000) pick = (pick + 1) % legal.length;
    // bank fairly often so that games reach the target
    const bankAt = legal.findIndex((c) => c.type === 'bank');
    if (bankAt >= 0 && choices[step] % 3 === 0) pick = bankAt;
    const out = decide(state, legal[pick], roll);
    if (isRuleError(out))
      throw new Error(`legal command rejected: ${out.code} ${out.message} ${JSON.stringify(legal[pick])}`);
    for (const e of out) {
      state = deepFreeze(evolve(state, e));
      events.push(e);
      states.push(state);
    }
  }
  return { states, events, rollCalls: counter.calls, options, seats };
}

const gameArb = fc.record({
  options: optionsArb,
  seats: fc.integer({ min: 1, max: 4 }),
  seed: fc.integer(),
  choices: fc.array(fc.nat({ max: 1100 }), { minLength: 1, maxLength: 400, size: 'max' }),
  junk: fc.array(fc.option(junkCommand, { nil: undefined }), { maxLength: 20 }),
});

describe('Farkle properties (random legal games with seeded dice)', () => {
  it('replay(events) equals the state built step by step, also after a JSON round trip', () => {
    fc.assert(
      fc.property(gameArb, ({ options, seats, seed, choices, junk }) => {
        const g = play(options, seats, seed, choices, junk);
        const last = g.states[g.states.length - 1];
        expect(replay(g.events, options, seats)).toEqual(last);
        expect(replay(JSON.parse(JSON.stringify(g.events)), options, seats)).toEqual(last);
        // every prefix too
        const k = seed % (g.events.length + 1 || 1);
        expect(replay(g.events.slice(0, Math.abs(k)), options, seats)).toEqual(g.states[Math.abs(k)]);
      }),
      { numRuns: 150 },
    );
  });

  it('totals equal the banked turns minus penalties, never negative; one RollDice call per roll event', () => {
    fc.assert(
      fc.property(gameArb, ({ options, seats, seed, choices, junk }) => {
        const g = play(options, seats, seed, choices, junk);
        const last = g.states[g.states.length - 1];
        const sums = new Array(seats).fill(0);
        for (const e of g.events) {
          if (e.type === 'banked') sums[e.seat] += e.points;
          if (e.type === 'penalty') sums[e.seat] -= e.points;
        }
        expect(last.totals).toEqual(sums);
        expect(last.totals.every((t) => t >= 0)).toBe(true);
        const rollEvents = g.events.filter((e) => e.type === 'rolled' || e.type === 'rollOff').length;
        expect(g.rollCalls).toBe(rollEvents);
        if (!options.exactTarget) expect(last.totals.every((t) => t < options.target + 20000)).toBe(true);
        else expect(last.totals.every((t) => t <= options.target)).toBe(true);
      }),
      { numRuns: 150 },
    );
  });

  it('no event follows the end; the end comes only from the target (after the last round) or quits', () => {
    const ends = { target: 0, quit: 0, open: 0 };
    fc.assert(
      fc.property(gameArb, ({ options, seats, seed, choices, junk }) => {
        const g = play(options, seats, seed, choices, junk);
        const idx = g.events.findIndex((e) => e.type === 'finished');
        const end = g.states[g.states.length - 1].finishReason;
        ends[end ?? 'open']++;
        if (idx >= 0) {
          expect(idx).toBe(g.events.length - 1);
          const last = g.states[g.states.length - 1];
          const r = decide(last, { type: 'roll', seat: 0 }, () => {
            throw new Error('no roll after the end');
          });
          expect(isRuleError(r) && r.code).toBe('GAME_FINISHED');
          if (last.finishReason === 'target') {
            expect(last.lastRound).not.toBeNull();
            const reached = last.totals.some((t) => (options.exactTarget ? t === options.target : t >= options.target));
            expect(reached).toBe(true);
          }
        }
        // exactly one lastRound at most, and a turnStarted after it only for seats listed in it
        const lr = g.events.filter((e) => e.type === 'lastRound');
        expect(lr.length).toBeLessThanOrEqual(1);
        if (lr.length === 1 && lr[0].type === 'lastRound') {
          const after = g.events.slice(g.events.indexOf(lr[0]) + 1).filter((e) => e.type === 'turnStarted');
          for (const e of after) expect(lr[0].seats).toContain((e as { seat: number }).seat);
        }
      }),
      { numRuns: 150 },
    );
    // the generator really reaches the end of games, both ways
    expect(ends.target).toBeGreaterThan(10);
    expect(ends.quit).toBeGreaterThan(0);
  });
});
