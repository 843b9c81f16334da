import { RuleError } from '../core/errors';
import { decideGame } from './decide';
import { emptyGame, replayGame } from './evolve';
import type { CreateCommand } from './types';

const GAME = '00000000-0000-4000-8000-000000000001';
const rated = (overrides: Partial<CreateCommand> = {}): CreateCommand => ({
  type: 'create',
  gameId: GAME,
  ruleSet: 'penta',
  options: { autoScoreAfterMs: 3000 },
  seatCount: 2,
  visibility: 'public',
  creatorId: 'a0000000-0000-4000-8000-000000000000',
  hotSeats: 0,
  commitment: 'c'.repeat(64),
  turnTimeLimitSeconds: 3600,
  advice: 'forbidden',
  rated: true,
  ...overrides,
});

describe('create: rated games (docs/ratings.md §1)', () => {
  it('records rated: true in gameCreated, and the state is rated', () => {
    const events = decideGame(emptyGame(GAME), rated(), () => []);
    if (events instanceof RuleError) throw new Error(events.message);
    expect(events[0].data).toMatchObject({ rated: true });
    expect(replayGame(GAME, events).rated).toBe(true);
  });

  it('leaves gameCreated without `rated` for other games (earlier commands re-run to the same events)', () => {
    const events = decideGame(emptyGame(GAME), rated({ rated: undefined }), () => []);
    if (events instanceof RuleError) throw new Error(events.message);
    expect('rated' in events[0].data).toBe(false);
    expect(replayGame(GAME, events).rated).toBe(false);
  });

  it.each<[string, Partial<CreateCommand>, string]>([
    ['one seat', { seatCount: 1 }, 'at least 2 seats'],
    ['a hot seat', { hotSeats: 1 }, 'hot seats'],
    ['a computer seat', { computerSeats: [{ seat: 1, level: 'standard' }] }, 'computer seats'],
    ['advice allowed', { advice: 'allowed' }, 'forbids advice'],
    ['advice not given', { advice: undefined }, 'forbids advice'],
    ['no time limit', { turnTimeLimitSeconds: null }, 'time limit'],
    ['private', { visibility: 'private' }, 'public'],
    ['other options', { options: { autoScoreAfterMs: null } }, 'default options'],
    ['options without the default auto-score', { options: {} }, 'default options'],
    [
      'a tournament',
      { tournament: { id: GAME, format: 'tables', round: 1, game: 0, table: 0 } },
      'tournament games are not rated',
    ],
  ])('refuses a rated game with %s (INVALID_OPTIONS, option rated)', (_, change, words) => {
    const out = decideGame(emptyGame(GAME), rated(change), () => []);
    expect(out).toBeInstanceOf(RuleError);
    expect((out as RuleError).code).toBe('INVALID_OPTIONS');
    expect((out as RuleError).message).toContain(words);
  });

  it('accepts the other pools with their default options', () => {
    for (const ruleSet of ['simple', 'bonus', 'farkle'] as const) {
      const out = decideGame(emptyGame(GAME), rated({ ruleSet, options: {} }), () => []);
      expect(out).not.toBeInstanceOf(RuleError);
    }
  });
});
