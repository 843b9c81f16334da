import type { RollDice } from '@fairdice/core/rules/core/dice';
import { RuleError } from '@fairdice/core/rules/core/errors';
import { decideGame, emptyGame, evolveGame, type GameCommand, type GameState } from '@fairdice/core/rules/game';
import { asyncEffects, AUTO_SCORE_QUEUE, COMPUTER_QUEUE, DEADLINE_QUEUE } from './async-effects';

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
