import { isRuleError } from '../core/errors';
import {
  computeStandings,
  decideTournament,
  emptyTournament,
  evolveTournament,
  type CreateTournamentCommand,
  type TournamentCommand,
  type TournamentState,
} from './index';

const ORG = 'org';
const AT = '2026-12-01T00:00:00.000Z';
const HEX = 'ab'.repeat(32);
const settings: CreateTournamentCommand['settings'] = {
  name: 'Cup',
  ruleSet: 'penta',
  options: {},
  format: 'duplicate',
  visibility: 'public',
  maxEntrants: 3,
  rounds: 2,
  gamesPerRound: 1,
  tableSizeMin: 1,
  tableSizeMax: 1,
  turnTimeLimitSeconds: null,
  entryClosesAt: null,
  startsAt: null,
};

function run(state: TournamentState, c: TournamentCommand): TournamentState {
  const events = decideTournament(state, c);
  if (isRuleError(events)) throw new Error(`${events.code}: ${events.message}`);
  return events.reduce(evolveTournament, state);
}
const code = (state: TournamentState, c: TournamentCommand) => {
  const r = decideTournament(state, c);
  return isRuleError(r) ? r.code : 'ok';
};
const created = (over: Partial<typeof settings> = {}) =>
  run(emptyTournament('t'), {
    type: 'create',
    tournamentId: 't',
    organizerId: ORG,
    settings: { ...settings, ...over },
    commitment: HEX,
    at: AT,
  });
const reg = (s: TournamentState, p: string, at = AT): TournamentCommand => ({
  type: 'register',
  playerId: p,
  clientSeed: `${p}-seed`,
  clientSeedGenerated: false,
  at,
});

describe('tournament decider', () => {
  it('checks the settings and which formats a rule set supports', () => {
    const create = (over: Record<string, unknown>) =>
      code(emptyTournament('t'), {
        type: 'create',
        tournamentId: 't',
        organizerId: ORG,
        settings: { ...settings, ...over },
        commitment: HEX,
        at: AT,
      });
    expect(create({})).toBe('ok');
    expect(create({ ruleSet: 'farkle', options: {} })).toBe('FORMAT_NOT_SUPPORTED');
    expect(create({ ruleSet: 'farkle', format: 'tables', tableSizeMin: 2, tableSizeMax: 3 })).toBe('ok');
    expect(create({ format: 'tables', tableSizeMin: 1, tableSizeMax: 3 })).toBe('INVALID_OPTIONS');
    expect(create({ tableSizeMax: 2 })).toBe('INVALID_OPTIONS');
    expect(create({ maxEntrants: 1 })).toBe('INVALID_OPTIONS');
    expect(create({ rounds: 0 })).toBe('INVALID_OPTIONS');
    expect(create({ entryClosesAt: '2026-11-30T00:00:00Z' })).toBe('INVALID_OPTIONS');
    expect(create({ entryClosesAt: '2026-12-03T00:00:00Z', startsAt: '2026-12-02T00:00:00Z' })).toBe('INVALID_OPTIONS');
    expect(create({ options: { joker: 'sometimes' } })).toBe('INVALID_OPTIONS');
  });

  it('registers entrants in order, once each, up to the maximum and before the close', () => {
    let s = created({ entryClosesAt: '2026-12-02T00:00:00.000Z' });
    s = run(s, reg(s, 'a'));
    expect(code(s, reg(s, 'a'))).toBe('ALREADY_REGISTERED');
    expect(code(s, reg(s, 'b', '2026-12-02T00:00:00.000Z'))).toBe('REGISTRATION_CLOSED');
    expect(code(s, { ...reg(s, 'b'), clientSeed: 'has space' } as TournamentCommand)).toBe('INVALID_SEED');
    s = run(s, reg(s, 'b'));
    s = run(s, reg(s, 'c'));
    expect(code(s, reg(s, 'd'))).toBe('TOURNAMENT_FULL');
    expect(s.entrants.map((e) => [e.number, e.playerId])).toEqual([
      [1, 'a'],
      [2, 'b'],
      [3, 'c'],
    ]);
  });

  it('only the organizer closes, starts, cancels and disqualifies; an entrant may withdraw themself', () => {
    let s = created();
    s = run(s, reg(s, 'a'));
    expect(code(s, { type: 'closeRegistration', playerId: 'a', generatedOrganizerSeed: 'g' })).toBe('NOT_ORGANIZER');
    expect(code(s, { type: 'cancel', playerId: 'a', reason: 'x', tournamentSeed: HEX })).toBe('NOT_ORGANIZER');
    expect(code(s, { type: 'disqualify', playerId: 'a', entrantPlayerId: 'a', reason: 'x' })).toBe('NOT_ORGANIZER');
    expect(code(s, { type: 'withdraw', playerId: 'a', entrantPlayerId: 'a', reason: '' })).toBe('INVALID_COMMAND');
    expect(code(s, { type: 'withdraw', playerId: 'a', entrantPlayerId: 'a', reason: 'ill' })).toBe('ok');
    expect(code(s, { type: 'withdraw', playerId: ORG, entrantPlayerId: 'zz', reason: 'ill' })).toBe('NOT_REGISTERED');
    s = run(s, { type: 'closeRegistration', playerId: ORG, generatedOrganizerSeed: 'generated' });
    expect(s.organizerSeed).toBe('generated');
    expect(s.organizerSeedGenerated).toBe(true);
    expect(code(s, reg(s, 'b'))).toBe('REGISTRATION_CLOSED');
    expect(code(s, { type: 'start', playerId: ORG })).toBe('TOO_FEW_ENTRANTS');
    s = run(s, { type: 'cancel', playerId: ORG, reason: 'too few', tournamentSeed: HEX });
    expect(s).toMatchObject({ status: 'cancelled', tournamentSeed: HEX, cancelReason: 'too few' });
    expect(code(s, { type: 'start', playerId: ORG })).toBe('TOURNAMENT_OVER');
  });

  it('runs rounds in order and ranks a duplicate tournament by total score, then match points, best game, entrant', () => {
    let s = created();
    for (const p of ['a', 'b', 'c']) s = run(s, reg(s, p));
    s = run(s, { type: 'setOrganizerSeed', playerId: ORG, organizerSeed: 'mine' });
    s = run(s, { type: 'closeRegistration', playerId: ORG, generatedOrganizerSeed: 'unused' });
    expect(s.organizerSeed).toBe('mine');
    s = run(s, { type: 'start', playerId: ORG });
    const games = (r: number) => [1, 2, 3].map((n) => ({ gameId: `r${r}g${n}`, game: 0, table: 0, entrants: [n] }));
    expect(code(s, { type: 'startRound', round: 2, games: games(2) })).toBe('INVALID_COMMAND');
    s = run(s, { type: 'startRound', round: 1, games: games(1) });
    expect(code(s, { type: 'startRound', round: 2, games: games(2) })).toBe('INVALID_COMMAND');
    expect(code(s, { type: 'finish', tournamentSeed: HEX })).toBe('INVALID_COMMAND');
    const result = (r: number, scores: number[]) =>
      scores.map((score, i) => ({ gameId: `r${r}g${i + 1}`, scores: [score], status: 'finished' as const }));
    expect(code(s, { type: 'finishRound', round: 1, roundSeed: HEX, results: result(1, [1, 2]) })).toBe(
      'INVALID_COMMAND',
    );
    s = run(s, { type: 'finishRound', round: 1, roundSeed: HEX, results: result(1, [200, 150, 250]) });
    s = run(s, { type: 'startRound', round: 2, games: games(2) });
    s = run(s, { type: 'finishRound', round: 2, roundSeed: HEX, results: result(2, [200, 250, 150]) });
    s = run(s, { type: 'finish', tournamentSeed: HEX });
    // a: 400 (mp 2+2), b: 400 (mp 0+4), c: 400 (mp 4+0): all tied on total and match points; best game 250
    // for b and c, 200 for a. b and c are equal on every key: they share first place (a tie, listed
    // by entrant number), and a is third.
    expect(
      computeStandings(s).map((r) => [r.rank, r.tied, r.playerId, r.totalScore, r.matchPoints, r.bestGame]),
    ).toEqual([
      [1, true, 'b', 400, 4, 250],
      [1, true, 'c', 400, 4, 250],
      [3, false, 'a', 400, 4, 200],
    ]);
  });

  it('ranks tables by match points first, and disqualified entrants last', () => {
    let s = created({ format: 'tables', tableSizeMin: 2, tableSizeMax: 2, maxEntrants: 4, rounds: 1 });
    for (const p of ['a', 'b', 'c', 'd']) s = run(s, reg(s, p));
    s = run(s, { type: 'closeRegistration', playerId: ORG, generatedOrganizerSeed: 'g' });
    s = run(s, { type: 'start', playerId: ORG });
    s = run(s, {
      type: 'startRound',
      round: 1,
      games: [
        { gameId: 'x', game: 0, table: 0, entrants: [1, 2] },
        { gameId: 'y', game: 0, table: 1, entrants: [3, 4] },
      ],
    });
    s = run(s, { type: 'disqualify', playerId: ORG, entrantPlayerId: 'd', reason: 'collusion' });
    // Live (running games' totals) standings: a beats b with fewer points than c's loss margin.
    const live = [
      { gameId: 'x', scores: [10, 5], status: 'finished' as const },
      { gameId: 'y', scores: [300, 500], status: 'finished' as const },
    ];
    expect(computeStandings(s, live).map((r) => [r.rank, r.playerId, r.matchPoints, r.totalScore, r.status])).toEqual([
      [1, 'a', 2, 10, 'active'],
      [2, 'c', 0, 300, 'active'],
      [3, 'b', 0, 5, 'active'],
      [4, 'd', 2, 500, 'disqualified'],
    ]);
  });
});
