import fc from 'fast-check';
import type { Die, RollDice } from '../core/dice';
import { isRuleError } from '../core/errors';
import { replay } from '../core/replay';
import { computerChoice, computerHold } from './computer';
import { decide, evolve, initialState } from './decider';
import { bonus, penta, simple } from './options';
import { totals } from './scoring';
import { BOX_IDS, type FiveDiceCommand, type FiveDiceEvent, type FiveDiceOptions, type FiveDiceState } from './types';

const CONFIGS: FiveDiceOptions[] = [penta, simple, bonus, { ...penta, joker: 'free' }];

/** Dice from a fast-check-generated list, cycled; biased toward fives of a kind so jokers happen. */
function cyclingRoller(faces: number[], fiveBias: boolean): RollDice {
  let i = 0;
  let calls = 0;
  return (count) => {
    calls++;
    if (fiveBias && calls % 3 === 0) {
      const f = faces[i++ % faces.length] as Die;
      return Array(count).fill(f);
    }
    return Array.from({ length: count }, () => faces[i++ % faces.length] as Die);
  };
}

const junkValue = fc.oneof(
  fc.constant(undefined),
  fc.constant(null),
  fc.string(),
  fc.double(),
  fc.integer({ min: -3, max: 9 }),
  fc.constant('2'),
);

/** One step: usually a legal-looking command derived from the state, sometimes junk. */
const stepArb = fc.record({
  kind: fc.nat(99),
  pick: fc.nat(1000),
  holdMask: fc.nat(31),
  junk: junkValue,
  junkHold: fc.array(junkValue, { maxLength: 6 }),
});
type Step = typeof stepArb extends fc.Arbitrary<infer T> ? T : never;

function commandFor(state: FiveDiceState, step: Step): FiveDiceCommand {
  const seat = state.turn ? state.turn.seat : 0;
  const open = state.turn ? BOX_IDS.filter((b) => state.sheets[seat].boxes[b] === undefined) : BOX_IDS.slice();
  const k = step.kind;
  const raw = (c: unknown) => c as FiveDiceCommand;
  if (k < 40) {
    const hold = state.turn && state.turn.rollInTurn > 0 ? [0, 1, 2, 3, 4].filter((i) => step.holdMask & (1 << i)) : [];
    return { type: 'roll', seat, hold };
  }
  if (k < 75) return { type: 'score', seat, box: open[step.pick % open.length] };
  if (k < 77) return { type: 'quit', seat };
  if (k < 80) return { type: 'score', seat, box: BOX_IDS[step.pick % 13] };
  if (k < 84) return raw({ type: 'roll', seat, hold: step.junkHold });
  if (k < 87) return raw({ type: 'score', seat, box: step.junk });
  if (k < 90)
    return raw({
      type: ['roll', 'score', 'quit'][step.pick % 3],
      seat: (seat + 1 + (step.pick % 3)) % 4,
      box: open[0],
    });
  if (k < 93) return raw({ type: step.junk, seat });
  if (k < 96) return raw({ type: 'roll', seat: step.junk });
  return raw(step.junk);
}

interface Run {
  states: FiveDiceState[];
  events: FiveDiceEvent[];
  options: FiveDiceOptions;
  seats: number;
  illegalChangedState: number;
  errors: number;
}

function run(options: FiveDiceOptions, seats: number, steps: Step[], roll: RollDice, finish: boolean): Run {
  let state = initialState(options, seats);
  const states = [state];
  const events: FiveDiceEvent[] = [];
  let illegalChangedState = 0;
  let errors = 0;
  const apply = (es: FiveDiceEvent[]) => {
    for (const e of es) {
      state = evolve(state, e);
      states.push(state);
      events.push(e);
    }
  };
  for (const step of steps) {
    const before = JSON.stringify(state);
    const result = decide(state, commandFor(state, step), roll);
    if (isRuleError(result)) {
      errors++;
      if (JSON.stringify(state) !== before) illegalChangedState++;
    } else apply(result);
  }
  if (finish) {
    // play the rest with the computer so every run reaches the end
    while (!state.finished) {
      const turn = state.turn!;
      const sheet = state.sheets[turn.seat];
      const hold = turn.rollInTurn === 0 ? [] : computerHold(sheet, turn.dice, turn.rollInTurn, options);
      const command: FiveDiceCommand =
        hold.length === 5
          ? { type: 'score', seat: turn.seat, box: computerChoice(sheet, turn.dice, options) }
          : { type: 'roll', seat: turn.seat, hold };
      const result = decide(state, command, roll);
      if (isRuleError(result)) throw new Error(`computer made an illegal move: ${result.code}`);
      apply(result);
    }
  }
  return { states, events, options, seats, illegalChangedState, errors };
}

const runArb = fc
  .record({
    config: fc.nat(CONFIGS.length - 1),
    seats: fc.integer({ min: 1, max: 4 }),
    steps: fc.array(stepArb, { maxLength: 250 }),
    faces: fc.array(fc.integer({ min: 1, max: 6 }), { minLength: 1, maxLength: 60 }),
    fiveBias: fc.boolean(),
    finish: fc.boolean(),
  })
  .map((r) => run(CONFIGS[r.config], r.seats, r.steps, cyclingRoller(r.faces, r.fiveBias), r.finish));

describe('five-dice properties', () => {
  it('the generator reaches finished games, jokers, quits and errors (sanity of the test itself)', () => {
    const runs = fc.sample(runArb, { numRuns: 100, seed: 42 });
    const finished = runs.filter((r) => r.states[r.states.length - 1].finished).length;
    const bonuses = runs.filter((r) => r.events.some((e) => e.type === 'scored' && e.bonus > 0)).length;
    const quits = runs.filter((r) => r.events.some((e) => e.type === 'quit')).length;
    const errors = runs.reduce((a, r) => a + r.errors, 0);
    expect(finished).toBeGreaterThan(30);
    expect(bonuses).toBeGreaterThan(5);
    expect(quits).toBeGreaterThan(5);
    expect(errors).toBeGreaterThan(100);
  });

  it('replay(events) equals the state built step by step (also after a JSON round trip)', () => {
    fc.assert(
      fc.property(runArb, (r) => {
        const final = r.states[r.states.length - 1];
        expect(replay(evolve, initialState(r.options, r.seats), r.events)).toEqual(final);
        const stored = JSON.parse(JSON.stringify(r.events)) as FiveDiceEvent[];
        expect(replay(evolve, initialState(r.options, r.seats), stored)).toEqual(final);
      }),
      { numRuns: 100 },
    );
  });

  it('the grand total always equals boxes + upper bonus + extra bonuses (and the bonuses of the events)', () => {
    fc.assert(
      fc.property(runArb, (r) => {
        const bonusBySeat = Array(r.seats).fill(0);
        let i = 0;
        for (const state of r.states.slice(1)) {
          const e = r.events[i++];
          if (e.type === 'scored') bonusBySeat[e.seat] += e.bonus;
          state.sheets.forEach((sheet, seat) => {
            const boxes = Object.values(sheet.boxes).reduce((a, b) => a + (b ?? 0), 0);
            const upper = ['ones', 'twos', 'threes', 'fours', 'fives', 'sixes'].reduce(
              (a, b) => a + (sheet.boxes[b as 'ones'] ?? 0),
              0,
            );
            const upperBonus = upper >= r.options.upperBonusThreshold ? r.options.upperBonusPoints : 0;
            const t = totals(sheet, r.options);
            expect(sheet.extraBonus).toBe(bonusBySeat[seat]);
            expect(t.total).toBe(boxes + upperBonus + sheet.extraBonus);
            expect(t.upper + t.lower).toBe(boxes);
            expect(Object.keys(sheet.boxes).length).toBeLessThanOrEqual(13);
          });
        }
      }),
      { numRuns: 100 },
    );
  });

  it('illegal commands never change the state', () => {
    fc.assert(
      fc.property(runArb, (r) => {
        expect(r.illegalChangedState).toBe(0);
      }),
      { numRuns: 100 },
    );
  });

  it('a finished game ends with exactly one `finished` event, nothing after it, and refuses every command', () => {
    fc.assert(
      fc.property(runArb, fc.array(stepArb, { maxLength: 10 }), (r, more) => {
        const final = r.states[r.states.length - 1];
        const finishedAt = r.events.findIndex((e) => e.type === 'finished');
        if (!final.finished) {
          expect(finishedAt).toBe(-1);
          return;
        }
        expect(finishedAt).toBe(r.events.length - 1);
        const last = r.events[finishedAt];
        expect(last.type === 'finished' && last.standings).toEqual(
          expect.arrayContaining(
            final.sheets.map((s, seat) => expect.objectContaining({ seat, total: totals(s, r.options).total })),
          ),
        );
        // every seat that did not quit filled all 13 boxes
        final.sheets.forEach((s, seat) => {
          if (!final.quit[seat]) expect(Object.keys(s.boxes)).toHaveLength(13);
        });
        for (const step of more) {
          const result = decide(final, commandFor(final, step), () => {
            throw new Error('no roll after the end');
          });
          expect(isRuleError(result) && result.code).toBe(
            isObjectCommand(commandFor(final, step)) ? 'GAME_FINISHED' : 'INVALID_COMMAND',
          );
        }
        expect(() => evolve(final, { type: 'quit', seat: 0 })).toThrow();
      }),
      { numRuns: 100 },
    );
  });
});

const isObjectCommand = (c: unknown) => typeof c === 'object' && c !== null && !Array.isArray(c);
