import { type Die, type RollDice, scriptedDice } from '../core/dice';
import { RuleError } from '../core/errors';
import { decideGame, openSeatsSentence } from './decide';
import { emptyGame, evolveGame, replayGame } from './evolve';
import type { GameCommand, GameEvent, GameState } from './types';

const GAME = '00000000-0000-4000-8000-000000000001';
const ALICE = 'a0000000-0000-4000-8000-000000000000';
const BOB = 'b0000000-0000-4000-8000-000000000000';
const COMMITMENT = 'c'.repeat(64);

/** Applies a command; fails the test on a rule error. */
function run(
  state: GameState,
  command: GameCommand,
  roll: RollDice = () => {
    throw new Error('no roll expected');
  },
) {
  const events = decideGame(state, command, roll);
  if (events instanceof RuleError) throw new Error(`${events.code}: ${events.message}`);
  return { state: events.reduce(evolveGame, state), events };
}

const create = (
  overrides: Partial<Extract<GameCommand, { type: 'create' }>> = {},
): Extract<GameCommand, { type: 'create' }> => ({
  type: 'create',
  gameId: GAME,
  ruleSet: 'simple',
  options: {},
  seatCount: 2,
  visibility: 'public',
  creatorId: ALICE,
  hotSeats: 0,
  commitment: COMMITMENT,
  organizerSeed: null,
  clientSeeds: ['alice-seed'],
  turnTimeLimitSeconds: null,
  ...overrides,
});

const counting = (): RollDice & { calls: number } => {
  let face = 0;
  const roll = ((count: number) => {
    roll.calls++;
    return Array.from({ length: count }, () => ((face++ % 6) + 1) as Die);
  }) as RollDice & { calls: number };
  roll.calls = 0;
  return roll;
};

describe('game aggregate: lobby', () => {
  it('create takes seat 0 for the creator and records the command on the first event', () => {
    const { state, events } = run(emptyGame(GAME), create());
    expect(events.map((e) => e.type)).toEqual(['gameCreated', 'seatTaken']);
    expect(events[0].command).toMatchObject({ type: 'create' });
    expect(events[1].command).toBeNull();
    expect(state.seats[0]).toMatchObject({ playerId: ALICE, clientSeed: 'alice-seed', hotSeat: false });
    expect(state.status).toBe('open');
  });

  it('hot seats are held by the creator', () => {
    const { state } = run(emptyGame(GAME), create({ seatCount: 3, hotSeats: 2, clientSeeds: ['s0', 's1', 's2'] }));
    expect(state.seats.map((s) => [s.playerId, s.hotSeat])).toEqual([
      [ALICE, false],
      [ALICE, true],
      [ALICE, true],
    ]);
  });

  it('hot seats carry their names in seatTaken and the seat state; rematchOf is recorded', () => {
    const { state, events } = run(
      emptyGame(GAME),
      create({ seatCount: 3, hotSeats: 2, clientSeeds: undefined, hotSeatNames: ['Bea', 'Cy'], rematchOf: 'g-old' }),
    );
    expect(events.filter((e) => e.type === 'seatTaken').map((e) => e.data.name)).toEqual([undefined, 'Bea', 'Cy']);
    expect(events[0].data.rematchOf).toBe('g-old');
    expect(state.seats.map((s) => s.name)).toEqual([null, 'Bea', 'Cy']);
    expect(state.rematchOf).toBe('g-old');
    // Without names nothing is added to the events (older games replay unchanged).
    const plain = run(emptyGame(GAME), create({ seatCount: 2, hotSeats: 1, clientSeeds: undefined }));
    expect(plain.events.every((e) => !('name' in e.data) && !('rematchOf' in e.data))).toBe(true);
    expect(plain.state.seats.map((s) => s.name)).toEqual([null, null]);
  });

  it.each([
    [{ seatCount: 3, hotSeats: 2, hotSeatNames: ['Bea'] }, 'INVALID_OPTIONS'],
    [{ seatCount: 2, hotSeats: 1, hotSeatNames: [''] }, 'INVALID_OPTIONS'],
    [{ seatCount: 2, hotSeats: 1, hotSeatNames: [' '] }, 'INVALID_OPTIONS'],
    [{ seatCount: 2, hotSeats: 1, hotSeatNames: ['a\u200bb\u0000'] }, 'INVALID_OPTIONS'],
    [{ seatCount: 2, hotSeats: 1, hotSeatNames: ['x'.repeat(41)] }, 'INVALID_OPTIONS'],
    [{ seatCount: 2, hotSeats: 1, hotSeatNames: [7 as never] }, 'INVALID_OPTIONS'],
    [{ seatCount: 2, hotSeats: 1, rematchOf: '' }, 'INVALID_COMMAND'],
  ])('create rejects hot-seat names / rematchOf %p with %s', (overrides, code) => {
    const result = decideGame(emptyGame(GAME), create({ clientSeeds: undefined, ...overrides }), scriptedDice([]));
    expect(result).toBeInstanceOf(RuleError);
    expect((result as RuleError).code).toBe(code);
  });

  it.each([
    [{ seatCount: 0 }, 'INVALID_OPTIONS'],
    [{ seatCount: 9 }, 'INVALID_OPTIONS'],
    [{ hotSeats: 2 }, 'INVALID_OPTIONS'],
    [{ ruleSet: 'yahtzee' as never }, 'INVALID_OPTIONS'],
    [{ options: { joker: 'maybe' } }, 'INVALID_OPTIONS'],
  ])('create rejects %p with %s', (overrides, code) => {
    const result = decideGame(emptyGame(GAME), create(overrides), scriptedDice([]));
    expect(result).toBeInstanceOf(RuleError);
    expect((result as RuleError).code).toBe(code);
  });

  it('join, leave, start and cancel follow the lobby rules', () => {
    let { state } = run(emptyGame(GAME), create());
    const err = (command: GameCommand) => (decideGame(state, command, scriptedDice([])) as RuleError).code;
    expect(err({ type: 'start', playerId: ALICE })).toBe('NOT_ENOUGH_PLAYERS');
    // One open seat is "Seat 1 is still open", not "Seats 1 are".
    expect((decideGame(state, { type: 'start', playerId: ALICE }, scriptedDice([])) as RuleError).message).toBe(
      'Seat 1 is still open',
    );
    expect(err({ type: 'join', playerId: ALICE, clientSeed: 'x' })).toBe('ALREADY_SEATED');
    expect(err({ type: 'join', playerId: BOB, clientSeed: 'x', seat: 0 })).toBe('SEAT_TAKEN');
    expect(err({ type: 'leave', playerId: BOB })).toBe('NOT_SEATED');
    ({ state } = run(state, { type: 'join', playerId: BOB, clientSeed: 'bob-seed' }));
    expect(err({ type: 'join', playerId: 'c0000000-0000-4000-8000-000000000000', clientSeed: 'x' })).toBe(
      'NO_OPEN_SEAT',
    );
    expect(err({ type: 'start', playerId: BOB })).toBe('NOT_CREATOR');
    expect(err({ type: 'leave', playerId: ALICE })).toBe('NOT_CREATOR');
    const left = run(state, { type: 'leave', playerId: BOB }).state;
    expect(left.seats[1].playerId).toBeNull();
    const cancelled = run(left, { type: 'cancel', playerId: ALICE }).state;
    expect(cancelled.status).toBe('abandoned');
    expect(
      (decideGame(cancelled, { type: 'join', playerId: BOB, clientSeed: 'x' }, scriptedDice([])) as RuleError).code,
    ).toBe('GAME_FINISHED');
    const started = run(state, { type: 'start', playerId: ALICE }).state;
    expect(started.status).toBe('playing');
    expect((decideGame(started, { type: 'leave', playerId: BOB }, scriptedDice([])) as RuleError).code).toBe(
      'GAME_ALREADY_STARTED',
    );
  });
});

describe('game aggregate: play', () => {
  function startedSolo(ruleSet: 'simple' | 'farkle' = 'simple') {
    let { state } = run(emptyGame(GAME), create({ ruleSet, seatCount: 1 }));
    ({ state } = run(state, { type: 'start', playerId: ALICE }));
    return state;
  }

  it('only a seated player acts, only on their turn, and the seat comes from the player', () => {
    let { state } = run(emptyGame(GAME), create());
    ({ state } = run(state, { type: 'join', playerId: BOB, clientSeed: 'b' }));
    ({ state } = run(state, { type: 'start', playerId: ALICE }));
    const code = (command: GameCommand) => (decideGame(state, command, counting()) as RuleError).code;
    expect(code({ type: 'play', playerId: 'c0000000-0000-4000-8000-000000000000', move: { type: 'roll' } })).toBe(
      'NOT_SEATED',
    );
    expect(code({ type: 'play', playerId: BOB, move: { type: 'roll' } })).toBe('NOT_YOUR_TURN');
    expect(code({ type: 'play', playerId: ALICE, move: { type: 'roll', seat: 1 } })).toBe('INVALID_COMMAND');
  });

  it('numbers every physical roll in order and records it on the event with its dice', () => {
    let state = startedSolo();
    const roll = counting();
    const first = run(state, { type: 'play', playerId: ALICE, move: { type: 'roll', hold: [] } }, roll);
    state = first.state;
    const second = run(state, { type: 'play', playerId: ALICE, move: { type: 'roll', hold: [0, 1] } }, roll);
    expect(first.events[0].rollNumber).toBe(0);
    expect(second.events[0].rollNumber).toBe(1);
    expect(second.state.rollCount).toBe(2);
    const scored = run(second.state, { type: 'play', playerId: ALICE, move: { type: 'score', box: 'chance' } });
    expect(scored.events[0].rollNumber).toBeNull();
  });

  it('a timeout completes exactly one turn, even in a solo game, marking its events', () => {
    const state = startedSolo();
    const { state: after, events } = run(state, { type: 'timeout', seat: 0 }, counting());
    expect(events.some((e) => e.type === 'scored')).toBe(true);
    expect(events.filter((e) => e.type === 'scored')).toHaveLength(1);
    expect(events.every((e) => e.data.reason === 'timeout')).toBe(true);
    expect(events[0].command).toEqual({ type: 'timeout', seat: 0 });
    expect(after.version).toBe(state.version + events.length);
  });

  it('a Farkle timeout ends the turn too (bank, or the turn points are lost)', () => {
    const state = startedSolo('farkle');
    const { events } = run(state, { type: 'timeout', seat: 0 }, counting());
    const ends = events.filter((e) => e.type === 'banked' || e.type === 'farkled' || e.type === 'passed');
    expect(ends).toHaveLength(1);
    expect(events.filter((e) => e.type === 'rolled')).toHaveLength(1); // it never rolls on
  });

  it('the last move appends gameFinished with the standings, and nothing can follow', () => {
    let state = startedSolo();
    const roll = counting();
    let last: GameEvent[] = [];
    while (state.status === 'playing') {
      const r = run(state, { type: 'timeout', seat: 0 }, roll);
      state = r.state;
      last = r.events;
    }
    expect(last[last.length - 1].type).toBe('gameFinished');
    expect(state.standings).toEqual([expect.objectContaining({ seat: 0, rank: 1 })]);
    expect((decideGame(state, { type: 'timeout', seat: 0 }, roll) as RuleError).code).toBe('GAME_FINISHED');
  });

  it('replaying the stored events rebuilds the same state', () => {
    let state = emptyGame(GAME);
    const all: GameEvent[] = [];
    const roll = counting();
    for (const command of [
      create({ seatCount: 1 }),
      { type: 'start', playerId: ALICE },
      { type: 'timeout', seat: 0 },
      { type: 'timeout', seat: 0 },
    ] as GameCommand[]) {
      const r = run(state, command, roll);
      state = r.state;
      all.push(...r.events);
    }
    expect(replayGame(GAME, JSON.parse(JSON.stringify(all)))).toEqual(state);
  });
});

describe('game aggregate: seeds after the commitment, abandonment', () => {
  const fresh = () => {
    const { clientSeeds: _c, organizerSeed: _o, ...rest } = create();
    return run(emptyGame(GAME), rest).state;
  };
  const code = (state: GameState, command: GameCommand) => {
    const r = decideGame(state, command, () => {
      throw new Error('no roll expected');
    });
    return r instanceof RuleError ? r.code : 'accepted';
  };

  it('a new create leaves the seats without seeds; setSeed sets and replaces them until the start', () => {
    let s = fresh();
    expect(s.seats[0]).toMatchObject({ playerId: ALICE, clientSeed: null, clientSeedGenerated: null });
    s = run(s, { type: 'setSeed', playerId: ALICE, seat: 0, clientSeed: 'one' }).state;
    s = run(s, { type: 'setSeed', playerId: ALICE, seat: 0, clientSeed: 'two' }).state;
    s = run(s, { type: 'setSeed', playerId: ALICE, seat: null, clientSeed: 'org' }).state;
    expect([s.seats[0].clientSeed, s.organizerSeed]).toEqual(['two', 'org']);
    s = run(s, { type: 'join', playerId: BOB }).state;
    expect(s.seats[1].clientSeed).toBeNull();
    const { state, events } = run(s, {
      type: 'start',
      playerId: ALICE,
      generatedSeeds: [{ seat: 1, clientSeed: 'gen-1' }],
    });
    expect(events[0].data).toEqual({ clientSeeds: ['two', 'gen-1'], clientSeedsGenerated: [false, true] });
    expect(state.seats.map((x) => [x.clientSeed, x.clientSeedGenerated])).toEqual([
      ['two', false],
      ['gen-1', true],
    ]);
    expect(code(state, { type: 'setSeed', playerId: ALICE, seat: 0, clientSeed: 'late' })).toBe('GAME_ALREADY_STARTED');
  });

  it('refuses bad seeds, other seats, the organizer seed by a non-creator, incomplete starts', () => {
    let s = fresh();
    s = run(s, { type: 'join', playerId: BOB, clientSeed: 'bob' }).state;
    expect(code(s, { type: 'setSeed', playerId: ALICE, seat: 0, clientSeed: 'a b' })).toBe('INVALID_SEED');
    expect(code(s, { type: 'setSeed', playerId: ALICE, seat: 1, clientSeed: 'x' })).toBe('NOT_YOUR_SEAT');
    expect(code(s, { type: 'setSeed', playerId: BOB, seat: null, clientSeed: 'x' })).toBe('NOT_CREATOR');
    expect(code(s, { type: 'setSeed', playerId: ALICE, seat: 7, clientSeed: 'x' })).toBe('INVALID_COMMAND');
    expect(code(fresh(), { type: 'join', playerId: BOB, clientSeed: '' })).toBe('INVALID_SEED');
    // legacy start form: every seat needs a seed
    expect(code(s, { type: 'start', playerId: ALICE })).toBe('INVALID_COMMAND');
    // a generated seed cannot replace a supplied one, and every empty seat needs one
    expect(code(s, { type: 'start', playerId: ALICE, generatedSeeds: [{ seat: 1, clientSeed: 'g' }] })).toBe(
      'INVALID_COMMAND',
    );
    expect(code(s, { type: 'start', playerId: ALICE, generatedSeeds: [] })).toBe('INVALID_COMMAND');
    expect(code(s, { type: 'start', playerId: ALICE, seeds: [{ seat: 1, clientSeed: 'g' }], generatedSeeds: [] })).toBe(
      'NOT_YOUR_SEAT',
    );
    expect(code(s, { type: 'start', playerId: ALICE, seeds: [{ seat: 0, clientSeed: 'a' }], generatedSeeds: [] })).toBe(
      'accepted',
    );
  });

  it('abandon: expired only while open, inactive only while playing', () => {
    const open = fresh();
    expect(code(open, { type: 'abandon', reason: 'inactive' })).toBe('GAME_NOT_STARTED');
    const { state, events } = run(open, { type: 'abandon', reason: 'expired' });
    expect(events).toEqual([
      {
        type: 'gameAbandoned',
        seat: null,
        data: { reason: 'expired' },
        rollNumber: null,
        command: { type: 'abandon', reason: 'expired' },
      },
    ]);
    expect(state.status).toBe('abandoned');
    expect(code(state, { type: 'abandon', reason: 'expired' })).toBe('GAME_FINISHED');
  });
});

describe('openSeatsSentence', () => {
  it('agrees in number and lists with "and"', () => {
    expect(openSeatsSentence([1])).toBe('Seat 1 is');
    expect(openSeatsSentence([1, 2])).toBe('Seats 1 and 2 are');
    expect(openSeatsSentence([0, 2, 3])).toBe('Seats 0, 2 and 3 are');
  });
});
