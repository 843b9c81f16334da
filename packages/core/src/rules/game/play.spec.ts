import { RuleError } from '../core/errors';
import { decideGame } from './decide';
import { emptyGame, evolveGame } from './evolve';
import { asFamilyCommand, farklePlay, fiveDicePlay, startedPlay, withPlay } from './play';
import { familyById } from '../registry';
import type { GameCommand, GameState } from './types';

const GAME = '00000000-0000-4000-8000-000000000002';
const ALICE = 'a0000000-0000-4000-8000-000000000000';

function apply(state: GameState, command: GameCommand): GameState {
  const events = decideGame(state, command, (count) => Array.from({ length: count }, () => 1));
  if (events instanceof RuleError) throw new Error(`${events.code}: ${events.message}`);
  return events.reduce(evolveGame, state);
}

function game(ruleSet: 'simple' | 'farkle', started: boolean): GameState {
  const open = apply(emptyGame(GAME), {
    type: 'create',
    gameId: GAME,
    ruleSet,
    options: {},
    seatCount: 1,
    visibility: 'public',
    creatorId: ALICE,
    hotSeats: 0,
    commitment: 'c'.repeat(64),
    organizerSeed: null,
    clientSeeds: ['alice-seed'],
    turnTimeLimitSeconds: null,
  });
  return started ? apply(open, { type: 'start', playerId: ALICE }) : open;
}

describe('a game state typed by its family', () => {
  it("gives a started game's family state to its own family's accessor only", () => {
    const five = game('simple', true);
    const farkle = game('farkle', true);
    expect(five.family).toBe('five-dice');
    expect(fiveDicePlay(five)?.sheets).toHaveLength(1);
    expect(farklePlay(five)).toBeNull();
    expect(farkle.family).toBe('farkle');
    expect(farklePlay(farkle)?.totals).toEqual([0]);
    expect(fiveDicePlay(farkle)).toBeNull();
  });

  it('has no family state before the start, and startedPlay says so', () => {
    const open = game('simple', false);
    expect(open.play).toBeNull();
    expect(fiveDicePlay(open)).toBeNull();
    expect(() => startedPlay(open)).toThrow(`game ${GAME} has not started`);
    const started = game('simple', true);
    expect(startedPlay(started)).toBe(started.play);
  });

  it('takes the options of its rule set, typed by family', () => {
    const five = game('simple', false);
    const farkle = game('farkle', false);
    if (five.family !== 'five-dice' || farkle.family !== 'farkle') throw new Error('families');
    expect(five.options.joker).toBe('none');
    expect(farkle.options.target).toBe(10_000);
  });

  it('lets a family refuse a move it does not know, given as its command', () => {
    const five = game('simple', true);
    const refused = familyById(five.family).decide(startedPlay(five), asFamilyCommand({ type: 'dance' }, 0), () => []);
    expect(refused).toBeInstanceOf(RuleError);
    expect((refused as RuleError).code).toBe('INVALID_COMMAND');
  });

  it('replaces the family state with withPlay, the rest of the game unchanged', () => {
    const five = game('simple', true);
    const play = startedPlay(five);
    const family = familyById(five.family);
    const events = family.decide(play, asFamilyCommand({ type: 'roll' }, 0), (count) =>
      Array.from({ length: count }, () => 6),
    );
    if (events instanceof RuleError) throw new Error(events.message);
    const rolled = events.reduce((p, e) => family.evolve(p, e), play);
    expect(fiveDicePlay(withPlay(five, rolled))?.turn?.dice).toEqual([6, 6, 6, 6, 6]);
    const next = withPlay(five, rolled);
    expect(next).toEqual({ ...five, play: rolled });
    expect(five.play).toBe(play);
  });
});
