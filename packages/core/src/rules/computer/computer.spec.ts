import type { Die, RollDice } from '../core/dice';
import { RuleError } from '../core/errors';
import { decideGame, emptyGame, evolveGame, computerSeatsProblem, startedPlay } from '../game';
import type { ComputerLevel, GameCommand, GameEvent, GameState } from '../game/types';
import { familyById } from '../registry';
import {
  adviseBox,
  adviseEndgameHolds,
  adviseHolds,
  adviseSetAside,
  adviseTwoPlayerSetAside,
  createEndgame,
  solveFarkle,
  solveFarkleTwoPlayer,
  solveFiveDice,
} from '../advice';
import { penta } from '../five-dice/options';
import { farkle as farklePreset } from '../farkle/options';
import { type FiveDiceSheet, type FiveDiceState, timeoutMove } from '../five-dice';
import {
  MissingTableError,
  beginnerBox,
  beginnerHold,
  computerMove,
  farkleMove,
  fiveDiceEndgameTarget,
  fiveDiceMove,
  planTurn,
  type OptimalTables,
} from '.';
import type { FarkleState } from '../farkle';

const GAME = '00000000-0000-4000-8000-000000000001';
const ALICE = 'a0000000-0000-4000-8000-000000000000';

/** Dice that depend only on the roll number (like the service's): roll k gives the same faces every time. */
function rollerAt(start: number): RollDice {
  let n = start;
  return (count) => {
    let x = (n++ + 1) * 2654435761;
    return Array.from({ length: count }, () => {
      x = (x * 1103515245 + 12345) % 2147483648;
      return ((x % 6) + 1) as Die;
    });
  };
}

function apply(state: GameState, command: GameCommand): { state: GameState; events: GameEvent[] } {
  const events = decideGame(state, command, rollerAt(state.rollCount));
  if (events instanceof RuleError) throw new Error(`${events.code}: ${events.message}`);
  return { state: events.reduce(evolveGame, state), events };
}

function newGame(ruleSet: 'simple' | 'penta' | 'farkle', level: ComputerLevel, extra: Partial<GameCommand> = {}) {
  let s = apply(emptyGame(GAME), {
    type: 'create',
    gameId: GAME,
    ruleSet,
    options: {},
    seatCount: 2,
    visibility: 'public',
    creatorId: ALICE,
    hotSeats: 0,
    commitment: 'c'.repeat(64),
    turnTimeLimitSeconds: null,
    computerSeats: [{ seat: 1, level }],
    ...extra,
  } as GameCommand).state;
  s = apply(s, {
    type: 'start',
    playerId: ALICE,
    generatedSeeds: [
      { seat: 0, clientSeed: 'a' },
      { seat: 1, clientSeed: 'b' },
    ],
  }).state;
  return s;
}

/** Plays a 2-seat game to the end: seat 0 by `play` commands (the standard policy), seat 1 by `computer` commands. */
function playOut(state: GameState, level: ComputerLevel, tables: OptimalTables = {}) {
  const family = familyById(state.family);
  const computerBatches: GameEvent[][] = [];
  let s = state;
  for (let guard = 0; guard < 2000 && s.status === 'playing'; guard++) {
    const seat = family.currentSeat(startedPlay(s))!;
    if (seat === 1) {
      const moves = planTurn(s, 1, level, rollerAt(s.rollCount), tables);
      if (moves instanceof RuleError) throw new Error(moves.message);
      const r = apply(s, { type: 'computer', seat: 1, level, moves });
      computerBatches.push(r.events);
      s = r.state;
    } else {
      const move = computerMove(s, 'beginner')!;
      s = apply(s, { type: 'play', playerId: ALICE, move }).state;
    }
  }
  return { state: s, computerBatches };
}

describe('computer seats: the game aggregate', () => {
  it('create seats the computer (no player, its level) and the start generates its seed', () => {
    const s = newGame('simple', 'beginner');
    expect(s.seats[1]).toMatchObject({ playerId: null, computer: 'beginner', clientSeed: 'b' });
    expect(s.status).toBe('playing');
  });

  it('a computer seat cannot be joined, and only its moves end its turn', () => {
    let s = apply(emptyGame(GAME), {
      type: 'create',
      gameId: GAME,
      ruleSet: 'simple',
      options: {},
      seatCount: 3,
      visibility: 'public',
      creatorId: ALICE,
      hotSeats: 0,
      commitment: 'c'.repeat(64),
      turnTimeLimitSeconds: null,
      computerSeats: [{ seat: 1, level: 'standard' }],
    }).state;
    const join = decideGame(
      s,
      { type: 'join', playerId: 'b0000000-0000-4000-8000-000000000000', seat: 1 },
      rollerAt(0),
    );
    expect(join).toMatchObject({ code: 'SEAT_TAKEN' });
    s = apply(s, { type: 'join', playerId: 'b0000000-0000-4000-8000-000000000000' }).state;
    expect(s.seats[2].playerId).toBe('b0000000-0000-4000-8000-000000000000');
  });

  it.each(['standard', 'beginner'] as const)('five dice: a %s computer seat plays a whole game', (level) => {
    const { state, computerBatches } = playOut(newGame('simple', level), level);
    expect(state.status).toBe('finished');
    expect(computerBatches).toHaveLength(13);
    for (const batch of computerBatches) {
      expect(batch[0].command).toMatchObject({ type: 'computer', seat: 1, level });
      const moves = batch.filter((e) => e.type !== 'gameFinished' && e.type !== 'finished');
      expect(moves.every((e) => e.data.reason === 'computer')).toBe(true);
      expect(moves.filter((e) => e.type === 'scored')).toHaveLength(1);
    }
    expect((state.play as FiveDiceState).sheets[1].boxes).toHaveProperty('chance');
  });

  it.each(['standard', 'beginner', 'optimal'] as const)('Farkle: a %s computer seat plays to the end', (level) => {
    const start = newGame('farkle', level, { options: { target: 2000, entryThreshold: 0 } });
    const tables =
      level === 'optimal' ? { farkle: solveFarkle({ ...farklePreset, target: 2000, entryThreshold: 0 }) } : {};
    const { state, computerBatches } = playOut(start, level, tables);
    expect(state.status).toBe('finished');
    expect(computerBatches.length).toBeGreaterThan(0);
    for (const batch of computerBatches) expect(batch[0].command).toMatchObject({ type: 'computer', level });
    for (const e of computerBatches.flat()) {
      if (e.type === 'finished') expect(['target', 'quit']).toContain(e.data.reason);
      else if (e.type !== 'gameFinished') expect(e.data.reason).toBe('computer');
    }
  });

  it('refuses moves that do not end the turn, moves after its end, illegal moves, and a human seat', () => {
    const s = newGame('simple', 'standard');
    // Seat 0 (a player) is on turn: no computer command for it.
    expect(
      decideGame(s, { type: 'computer', seat: 0, level: 'standard', moves: [{ type: 'roll' }] }, rollerAt(0)),
    ).toMatchObject({ code: 'INVALID_COMMAND' });
    const s1 = apply(apply(s, { type: 'play', playerId: ALICE, move: { type: 'roll' } }).state, {
      type: 'play',
      playerId: ALICE,
      move: { type: 'score', box: 'chance' },
    }).state;
    const cmd = (moves: Array<Record<string, unknown> & { type: string }>): GameCommand => ({
      type: 'computer',
      seat: 1,
      level: 'standard',
      moves,
    });
    expect(decideGame(s1, cmd([{ type: 'roll' }]), rollerAt(s1.rollCount))).toMatchObject({ code: 'INVALID_COMMAND' });
    expect(
      decideGame(
        s1,
        cmd([{ type: 'roll' }, { type: 'score', box: 'chance' }, { type: 'roll' }]),
        rollerAt(s1.rollCount),
      ),
    ).toMatchObject({ code: 'INVALID_COMMAND' });
    expect(decideGame(s1, cmd([{ type: 'score', box: 'chance' }]), rollerAt(s1.rollCount))).toBeInstanceOf(RuleError);
    const ok = apply(s1, cmd([{ type: 'roll' }, { type: 'score', box: 'chance' }])).events;
    expect(ok.map((e) => [e.type, e.data.reason])).toEqual([
      ['rolled', 'computer'],
      ['scored', 'computer'],
    ]);
  });

  it('a timeout with moves applies them (legality only); without moves it uses the standard policy', () => {
    const s = apply(newGame('simple', 'standard'), { type: 'play', playerId: ALICE, move: { type: 'roll' } }).state;
    const withMoves = apply(s, { type: 'timeout', seat: 0, moves: [{ type: 'score', box: 'ones' }] }).events;
    expect(withMoves[0]).toMatchObject({ type: 'scored', data: { box: 'ones', reason: 'timeout' } });
    const without = apply(s, { type: 'timeout', seat: 0 }).events;
    expect(without.every((e) => e.data.reason === 'timeout')).toBe(true);
    expect(
      decideGame(s, { type: 'timeout', seat: 0, moves: [{ type: 'roll', hold: [] }] }, rollerAt(s.rollCount)),
    ).toMatchObject({ code: 'INVALID_COMMAND' });
  });

  it('autoScore: only with the option on, after the third roll, and legal boxes only', () => {
    const off = newGame('simple', 'standard');
    let s = off;
    for (let i = 0; i < 3; i++) s = apply(s, { type: 'play', playerId: ALICE, move: { type: 'roll', hold: [] } }).state;
    expect(decideGame(s, { type: 'autoScore', seat: 0, box: 'chance' }, rollerAt(0))).toMatchObject({
      code: 'INVALID_COMMAND',
    });
    let on = newGame('simple', 'standard', { options: { autoScoreAfterMs: 0 } });
    on = apply(on, { type: 'play', playerId: ALICE, move: { type: 'roll' } }).state;
    expect(decideGame(on, { type: 'autoScore', seat: 0, box: 'chance' }, rollerAt(0))).toMatchObject({
      code: 'INVALID_COMMAND',
    });
    for (let i = 0; i < 2; i++)
      on = apply(on, { type: 'play', playerId: ALICE, move: { type: 'roll', hold: [] } }).state;
    const events = apply(on, { type: 'autoScore', seat: 0, box: 'chance' }).events;
    expect(events[0]).toMatchObject({ type: 'scored', data: { box: 'chance', reason: 'autoScore' } });
    expect(decideGame(on, { type: 'autoScore', seat: 0, box: 'nope' }, rollerAt(0))).toBeInstanceOf(RuleError);
  });

  it('computer seats at creation: out of range, the creator, a hot seat, twice, an unknown level', () => {
    expect(computerSeatsProblem(2, 0, [{ seat: 1, level: 'optimal' }])).toBeNull();
    expect(computerSeatsProblem(2, 0, [{ seat: 2, level: 'optimal' }])).toMatch(/from 1 to 1/);
    expect(computerSeatsProblem(2, 0, [{ seat: 0, level: 'optimal' }])).toMatch(/creator/);
    expect(computerSeatsProblem(3, 1, [{ seat: 1, level: 'optimal' }])).toMatch(/hot seat/);
    expect(
      computerSeatsProblem(3, 0, [
        { seat: 1, level: 'optimal' },
        { seat: 1, level: 'beginner' },
      ]),
    ).toMatch(/twice/);
    expect(computerSeatsProblem(2, 0, [{ seat: 1, level: 'grandmaster' }])).toMatch(/level/);
    const bad = decideGame(
      emptyGame(GAME),
      {
        type: 'create',
        gameId: GAME,
        ruleSet: 'simple',
        options: {},
        seatCount: 2,
        visibility: 'public',
        creatorId: ALICE,
        hotSeats: 0,
        commitment: 'c'.repeat(64),
        turnTimeLimitSeconds: null,
        computerSeats: [{ seat: 1, level: 'grandmaster' as ComputerLevel }],
      },
      rollerAt(0),
    );
    expect(bad).toMatchObject({ code: 'INVALID_OPTIONS' });
  });
});

describe('computer levels: the documented policies', () => {
  const sheet = { boxes: {}, extraBonus: 0 };
  const simple = { joker: 'none', extraFiveOfAKindBonus: 0, upperBonusThreshold: 63, upperBonusPoints: 35 } as const;

  it('beginner hold: the most frequent face, ties to the higher face; stops only on five of a kind', () => {
    expect(beginnerHold([2, 5, 2, 5, 3])).toEqual([1, 3]);
    expect(beginnerHold([1, 2, 3, 4, 6])).toEqual([4]);
    expect(beginnerHold([3, 3, 3, 6, 6])).toEqual([0, 1, 2]);
    expect(beginnerHold([4, 4, 4, 4, 4])).toEqual([0, 1, 2, 3, 4]);
  });

  it('beginner box: the most points now, ties to the earlier box', () => {
    expect(beginnerBox(sheet, [1, 2, 3, 4, 5], simple)).toBe('largeStraight');
    expect(beginnerBox(sheet, [6, 6, 6, 6, 1], simple)).toBe('threeOfAKind'); // 25 = fourOfAKind = chance: earliest
    expect(beginnerBox({ boxes: { chance: 20 }, extraBonus: 0 }, [1, 1, 2, 2, 4], simple)).toBe('twos'); // 4 = fours: earliest
  });

  it('five dice: every level rolls first; standard is the timeout policy; beginner scores after the third roll', () => {
    const family = familyById('five-dice');
    let play = family.initialState(simple, 1);
    expect(fiveDiceMove(play, 'beginner')).toEqual({ type: 'roll', hold: [] });
    play = { ...play, turn: { seat: 0, rollInTurn: 3, dice: [2, 5, 2, 5, 3] } };
    expect(fiveDiceMove(play, 'standard')).toEqual(timeoutMove(play));
    expect(fiveDiceMove(play, 'beginner')).toEqual({ type: 'score', box: 'chance' }); // 17 points
    expect(() => fiveDiceMove(play, 'optimal')).toThrow(/table/);
  });

  it('Farkle standard: banks at 550, or 350 with three dice or fewer left; beginner banks when allowed', () => {
    const family = familyById('farkle');
    const base = family.initialState({ ...farklePreset, entryThreshold: 0 }, 1);
    const at = (roll: Die[], points: number): FarkleState => ({
      ...base,
      phase: 'playing',
      turn: { seat: 0, roll, setAside: null, points, diceLeft: roll.length },
    });
    // 1,5 score 150 with 4 dice left to roll: standard rolls on below 550, beginner banks.
    expect(farkleMove(at([1, 5, 2, 3, 4, 6], 0), 'standard')).toEqual({ type: 'roll', setAside: [0, 1] });
    expect(farkleMove(at([1, 5, 2, 3, 4, 6], 0), 'beginner')).toEqual({ type: 'bank', setAside: [0, 1] });
    expect(farkleMove(at([1, 5, 2, 3, 4, 6], 400), 'standard')).toEqual({ type: 'bank', setAside: [0, 1] });
    expect(farkleMove(at([1, 2, 3], 250), 'standard')).toEqual({ type: 'bank', setAside: [0] });
  });
});

describe('level optimal, five dice (one solved table)', () => {
  const simpleOptions = {
    joker: 'none',
    extraFiveOfAKindBonus: 0,
    upperBonusThreshold: 63,
    upperBonusPoints: 35,
  } as const;
  let table: ReturnType<typeof solveFiveDice>;
  beforeAll(() => {
    table = solveFiveDice(simpleOptions);
  });

  it('follows the advice: the best hold while rolls are left, the best box after the last roll or a hold of all five', () => {
    const family = familyById('five-dice');
    const play = family.initialState(simpleOptions, 1);
    const sheet = play.sheets[0];
    const after = (rollInTurn: number, dice: Die[]): FiveDiceState => ({
      ...play,
      turn: { seat: 0, rollInTurn, dice },
    });
    const hold = adviseHolds(table, sheet, [1, 1, 1, 5, 6], 2)[0].hold;
    expect(fiveDiceMove(after(1, [1, 1, 1, 5, 6]), 'optimal', { fiveDice: table })).toEqual({ type: 'roll', hold });
    expect(fiveDiceMove(after(3, [2, 3, 4, 5, 6]), 'optimal', { fiveDice: table })).toEqual({
      type: 'score',
      box: adviseBox(table, sheet, [2, 3, 4, 5, 6])[0].box,
    });
    // A large straight after the first roll: keeping all five means scoring now.
    expect(fiveDiceMove(after(1, [2, 3, 4, 5, 6]), 'optimal', { fiveDice: table })).toEqual({
      type: 'score',
      box: 'largeStraight',
    });
  });

  it('an optimal computer seat plays a whole game; a timeout at level optimal lists its moves', () => {
    const { state } = playOut(newGame('simple', 'optimal'), 'optimal', { fiveDice: table });
    expect(state.status).toBe('finished');
    const s = apply(newGame('simple', 'optimal', { computerLevel: 'optimal' }), {
      type: 'play',
      playerId: ALICE,
      move: { type: 'roll' },
    }).state;
    expect(s.computerLevel).toBe('optimal');
    const moves = planTurn(s, 0, 'optimal', rollerAt(s.rollCount), { fiveDice: table });
    if (moves instanceof RuleError) throw new Error(moves.message);
    const events = apply(s, { type: 'timeout', seat: 0, moves }).events;
    expect(events.filter((e) => e.type === 'scored')).toHaveLength(1);
    expect(events.every((e) => e.data.reason === 'timeout')).toBe(true);
  });
});

describe('five-dice expert', () => {
  const full = { ones: 3, twos: 6, threes: 9, fours: 12, fives: 15, sixes: 18 } as const;
  const lower = {
    threeOfAKind: 20,
    fourOfAKind: 0,
    fullHouse: 25,
    smallStraight: 30,
    largeStraight: 0,
    fiveOfAKind: 0,
  };
  const finished = { boxes: { ...full, ...lower, chance: 22 }, extraBonus: 0 };
  const lastTurn = { boxes: { ...full, ...lower }, extraBonus: 0 }; // chance open: 173 against 195
  const state = (
    dice: Die[],
    rollInTurn: number,
    quit = [false, false],
    others: FiveDiceSheet = finished,
  ): FiveDiceState => ({
    options: penta,
    seatCount: 2,
    sheets: [others, lastTurn],
    quit,
    turn: { seat: 1, rollInTurn, dice },
    finished: false,
    finalStandings: null,
  });

  it('in the endgame plays the endgame advisers’ first entry (needs chance 23+ to win, 22 ties)', () => {
    const s = state([6, 6, 5, 2, 1], 1);
    expect(fiveDiceEndgameTarget(s, 1)).toBe(195);
    const eg = createEndgame(penta);
    const best = adviseEndgameHolds(eg, lastTurn, 195, [6, 6, 5, 2, 1], 2)[0];
    expect(fiveDiceMove(s, 'expert')).toEqual({ type: 'roll', hold: best.hold });
    expect(fiveDiceMove(state([6, 6, 5, 2, 1], 3), 'expert')).toEqual({ type: 'score', box: 'chance' });
    expect(fiveDiceMove(state([], 0), 'expert')).toEqual({ type: 'roll', hold: [] });
  });

  it('outside the endgame plays like optimal (which needs its table)', () => {
    const open = { boxes: { ones: 3 }, extraBonus: 0 };
    expect(fiveDiceEndgameTarget(state([6, 6, 5, 2, 1], 1, [false, false], open), 1)).toBeNull();
    expect(() => fiveDiceMove(state([6, 6, 5, 2, 1], 1, [false, false], open), 'expert')).toThrow(MissingTableError);
    // Every other seat quit: nobody to beat, so optimal play.
    expect(fiveDiceEndgameTarget(state([6, 6, 5, 2, 1], 1, [true, false]), 1)).toBeNull();
  });
});

describe('level expert, Farkle', () => {
  const options = { ...farklePreset, target: 2000, entryThreshold: 300 };
  const two = solveFarkleTwoPlayer(options);
  const solo = solveFarkle(options);
  const family = familyById('farkle');
  const at = (seats: number, totals: number[], roll: Die[], points: number): FarkleState => {
    const base = family.initialState(options, seats);
    return {
      ...base,
      phase: 'playing',
      totals,
      onBoard: totals.map((t) => t > 0),
      turn: { seat: 0, roll, setAside: null, points, diceLeft: roll.length },
    };
  };

  it('two seats: the first entry of adviseTwoPlayerSetAside, against the other seat’s total', () => {
    const tables = { farkle: solo, farkleTwoPlayer: two };
    // Far behind, the chance to win asks for more risk than the fewest expected turns.
    let differs = 0;
    for (const [mine, theirs, points] of [
      [400, 1800, 300],
      [1500, 300, 300],
      [600, 1900, 500],
      [1700, 1850, 250],
    ]) {
      const roll: Die[] = [1, 5, 2, 3, 4, 6];
      const best = adviseTwoPlayerSetAside(two, { banked: mine, opponent: theirs, turnPoints: points }, roll)[0];
      const move = farkleMove(at(2, [mine, theirs], roll, points), 'expert', tables);
      expect(move).toEqual({ type: best.best, setAside: best.dice });
      const optimal = adviseSetAside(solo, { banked: mine, turnPoints: points }, roll)[0];
      if (optimal.best !== best.best || optimal.dice.join() !== best.dice.join()) differs++;
    }
    expect(differs).toBeGreaterThan(0);
    // The opponent reached the target: the last turn. Setting the 5 aside ties at 2,100 (worth ½):
    // with one die left banking beats rolling on (1/3), with two rolling on wins (5/9).
    expect(farkleMove(at(2, [1500, 2100], [5, 2], 550), 'expert', tables)).toEqual({ type: 'bank', setAside: [0] });
    expect(farkleMove(at(2, [1500, 2100], [5, 2, 3], 550), 'expert', tables)).toEqual({
      type: 'roll',
      setAside: [0],
    });
  });

  it('needs the two-player table with two seats; plays as optimal with three', () => {
    expect(() => farkleMove(at(2, [0, 0], [1, 2, 3, 4, 6, 6], 0), 'expert', { farkle: solo })).toThrow(
      /two-player Farkle table/,
    );
    const three = at(3, [0, 500, 700], [1, 5, 2, 3, 4, 6], 300);
    expect(farkleMove(three, 'expert', { farkle: solo })).toEqual(farkleMove(three, 'optimal', { farkle: solo }));
  });
});
