import type { RollDice } from '@fairdice/core/rules/core/dice';
import { RuleError } from '@fairdice/core/rules/core/errors';
import { decideGame, emptyGame, evolveGame, type GameCommand, type GameState } from '@fairdice/core/rules/game';
import { asyncEffects, AUTO_SCORE_QUEUE, COMPUTER_QUEUE, DEADLINE_QUEUE } from './async-effects';
import { gamePlayerNotices, PLAYER_EVENTS_QUEUE, tournamentPlayerNotices } from './player-notices';

const GAME = '00000000-0000-4000-8000-000000000001';
const ADA = 'a0000000-0000-4000-8000-000000000000';
const fours: RollDice = (count) => Array.from({ length: count }, () => 4);

function apply(state: GameState, command: GameCommand): GameState {
  const events = decideGame(state, command, fours);
  if (events instanceof RuleError) throw new Error(events.message);
  return events.reduce(evolveGame, state);
}

function started(options: Record<string, unknown>, computer: boolean): GameState {
  const created = apply(emptyGame(GAME), {
    type: 'create',
    gameId: GAME,
    ruleSet: 'simple',
    options,
    seatCount: 2,
    visibility: 'public',
    creatorId: ADA,
    hotSeats: 0,
    commitment: 'c'.repeat(64),
    turnTimeLimitSeconds: 60,
    ...(computer ? { computerSeats: [{ seat: 1, level: 'beginner' as const }] } : {}),
  });
  const seeds = computer
    ? [
        { seat: 0, clientSeed: 'a' },
        { seat: 1, clientSeed: 'b' },
      ]
    : [{ seat: 0, clientSeed: 'a' }];
  const withBob = computer
    ? created
    : apply(created, { type: 'join', playerId: 'b0000000-0000-4000-8000-000000000000', clientSeed: 'b' });
  return apply(withBob, { type: 'start', playerId: ADA, generatedSeeds: seeds });
}

const queues = (before: GameState, after: GameState) => asyncEffects(before, after).jobs?.map((j) => j.queue) ?? [];

describe('asyncEffects: computer seats and auto-score', () => {
  it('the command that hands the turn to a computer seat schedules its job at once, and no deadline', () => {
    let s = started({}, true);
    s = apply(s, { type: 'play', playerId: ADA, move: { type: 'roll' } });
    const after = apply(s, { type: 'play', playerId: ADA, move: { type: 'score', box: 'chance' } });
    const effects = asyncEffects(s, after);
    const job = effects.jobs?.find((j) => j.queue === COMPUTER_QUEUE);
    expect(job).toMatchObject({
      key: `computer:${GAME}`,
      delayMs: 0,
      payload: { gameId: GAME, version: after.version, seat: 1 },
    });
    expect(effects.turnDeadlineSeconds).toBeNull();
    expect(queues(s, after)).not.toContain(DEADLINE_QUEUE);
  });

  it("a human seat's third roll schedules the auto-score after the delay; other moves do not", () => {
    let s = started({ autoScoreAfterMs: 1500 }, false);
    const first = apply(s, { type: 'play', playerId: ADA, move: { type: 'roll' } });
    expect(queues(s, first)).not.toContain(AUTO_SCORE_QUEUE);
    s = apply(first, { type: 'play', playerId: ADA, move: { type: 'roll', hold: [] } });
    const third = apply(s, { type: 'play', playerId: ADA, move: { type: 'roll', hold: [] } });
    const job = asyncEffects(s, third).jobs?.find((j) => j.queue === AUTO_SCORE_QUEUE);
    expect(job).toMatchObject({
      key: `auto-score:${GAME}`,
      delayMs: 1500,
      payload: { version: third.version, seat: 0 },
    });
    // Without the option: no auto-score job.
    const off = started({}, false);
    let t = off;
    for (let i = 0; i < 2; i++) t = apply(t, { type: 'play', playerId: ADA, move: { type: 'roll', hold: [] } });
    const t3 = apply(t, { type: 'play', playerId: ADA, move: { type: 'roll', hold: [] } });
    expect(queues(t, t3)).not.toContain(AUTO_SCORE_QUEUE);
  });
});

describe('player notices (src/player-events)', () => {
  const BOB = 'b0000000-0000-4000-8000-000000000000';
  const NOW = new Date('2026-12-21T10:00:00.000Z');
  const created = () =>
    apply(emptyGame(GAME), {
      type: 'create',
      gameId: GAME,
      ruleSet: 'simple',
      options: {},
      seatCount: 2,
      visibility: 'public',
      creatorId: ADA,
      hotSeats: 0,
      commitment: 'c'.repeat(64),
      turnTimeLimitSeconds: 60,
    });

  it('a join tells the players already seated (seatTaken), not the joiner; a start gives gameStarted to all and yourTurn with the deadline', () => {
    const open = created();
    const joined = apply(open, { type: 'join', playerId: BOB, clientSeed: 'b' });
    const onJoin = gamePlayerNotices(open, joined, null, NOW);
    expect(onJoin.map((n) => [n.playerId, n.type])).toEqual([[ADA, 'seatTaken']]);
    expect(onJoin[0].data).toMatchObject({ gameId: GAME, seat: 1, playerId: BOB, seatsTaken: 2, seatCount: 2 });
    const playing = apply(joined, { type: 'start', playerId: ADA, generatedSeeds: [{ seat: 0, clientSeed: 'a' }] });
    const onStart = gamePlayerNotices(joined, playing, 60, NOW);
    expect(onStart.map((n) => [n.playerId, n.type])).toEqual([
      [ADA, 'gameStarted'],
      [BOB, 'gameStarted'],
      [ADA, 'yourTurn'],
    ]);
    expect(onStart[2].data).toMatchObject({ seat: 0, deadline: '2026-12-21T10:01:00.000Z', turnTimeLimitSeconds: 60 });
    // Keys are unique per notice (storing is idempotent by them).
    expect(new Set(onStart.map((n) => n.key)).size).toBe(3);
    // The job is written with the command's other jobs.
    expect(asyncEffects(joined, playing, undefined, NOW).jobs?.map((j) => j.key)).toContain(
      `player-events:${GAME}:${playing.version}`,
    );
  });

  it('a move within the same turn raises nothing; the end gives each player gameFinished with place and total', () => {
    const playing = started({}, false);
    const rolled = apply(playing, { type: 'play', playerId: ADA, move: { type: 'roll' } });
    expect(gamePlayerNotices(playing, rolled, 60, NOW)).toEqual([]);
    const quit1 = apply(rolled, { type: 'play', playerId: ADA, move: { type: 'quit' } });
    const quit2 = apply(quit1, { type: 'play', playerId: BOB, move: { type: 'quit' } });
    const fin = gamePlayerNotices(quit1, quit2, null, NOW).filter((n) => n.type === 'gameFinished');
    expect(fin.map((n) => n.playerId)).toEqual([ADA, BOB]);
    for (const n of fin) {
      const seat = n.playerId === ADA ? 0 : 1;
      const row = quit2.standings!.find((r) => r.seat === seat)!;
      expect(n.data).toMatchObject({ status: 'finished', seat, place: row.rank, of: 2, total: row.total });
    }
  });

  it("asyncEffects writes a command's notices as one player-events job keyed by game and version; none when there are none", () => {
    const playing = started({}, false);
    const rolled = apply(playing, { type: 'play', playerId: ADA, move: { type: 'roll' } });
    expect(queues(playing, rolled)).not.toContain(PLAYER_EVENTS_QUEUE);
    const scored = apply(rolled, { type: 'play', playerId: ADA, move: { type: 'score', box: 'chance' } });
    const jobs = asyncEffects(rolled, scored, undefined, NOW).jobs?.filter((j) => j.queue === PLAYER_EVENTS_QUEUE);
    const notices = gamePlayerNotices(rolled, scored, 60, NOW);
    expect(notices.map((n) => [n.playerId, n.type])).toEqual([[BOB, 'yourTurn']]);
    expect(jobs).toEqual([
      { queue: PLAYER_EVENTS_QUEUE, key: `player-events:${GAME}:${scored.version}`, delayMs: 0, payload: { notices } },
    ]);
  });

  it('a round start tells each entrant their own game and seat', () => {
    const after = {
      id: 'tour',
      name: 'Cup',
      ruleSet: 'penta',
      version: 3,
      organizerId: ADA,
      entrants: [
        { number: 1, playerId: ADA },
        { number: 2, playerId: BOB },
      ],
    } as unknown as Parameters<typeof tournamentPlayerNotices>[0];
    const events = [
      { type: 'roundStarted', data: { round: 1, games: [{ gameId: GAME, game: 1, table: 1, entrants: [2, 1] }] } },
    ] as unknown as Parameters<typeof tournamentPlayerNotices>[1];
    expect(tournamentPlayerNotices(after, events).map((n) => [n.playerId, n.type, n.data.seat, n.data.gameId])).toEqual(
      [
        [BOB, 'tournamentRoundStarted', 0, GAME],
        [ADA, 'tournamentRoundStarted', 1, GAME],
      ],
    );
  });
});
