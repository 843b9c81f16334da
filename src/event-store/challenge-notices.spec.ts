import {
  decideChallenge,
  emptyChallenge,
  evolveChallenge,
  type ChallengeCommand,
} from '@fairdice/core/rules/challenge';
import { isRuleError } from '@fairdice/core/rules/core/errors';
import { challengePlayerNotices } from './player-notices';

const names = { ada: 'Ada', bob: 'Bob', cy: 'Cy' };
const NOW = '2026-12-27T10:00:00.000Z';
const create = (opponentId: string | null): ChallengeCommand => ({
  type: 'create',
  challengerId: 'ada',
  opponentId,
  pool: 'farkle',
  rated: false,
  turnTimeLimitSeconds: 60,
  message: null,
  now: NOW,
  expiresAt: '2026-12-28T10:00:00.000Z',
});

/** The notices of each command in turn, as the challenge aggregate writes them. */
function noticesOf(commands: ChallengeCommand[]) {
  let state = emptyChallenge('c1');
  return commands.map((c) => {
    const events = decideChallenge(state, c);
    if (isRuleError(events)) throw new Error(events.code);
    state = events.reduce(evolveChallenge, state);
    return challengePlayerNotices(state, events, names).map((n) => [n.playerId, n.type, n.key]);
  });
}

describe('challenge notices', () => {
  it('a direct challenge tells the challenged player; its acceptance tells both, once each', () => {
    const [made, accepted] = noticesOf([create('bob'), { type: 'accept', playerId: 'bob', gameId: 'g1', now: NOW }]);
    expect(made).toEqual([['bob', 'challengeReceived', 'challengeReceived:c1:bob']]);
    expect(accepted).toEqual([
      ['ada', 'challengeAccepted', 'challengeAccepted:c1:ada'],
      ['bob', 'challengeAccepted', 'challengeAccepted:c1:bob'],
    ]);
  });

  it('an open challenge tells no one when made; its taker and challenger when taken', () => {
    const [made, accepted] = noticesOf([create(null), { type: 'accept', playerId: 'cy', gameId: 'g1', now: NOW }]);
    expect(made).toEqual([]);
    expect(accepted.map(([p, t]) => [p, t])).toEqual([
      ['ada', 'challengeAccepted'],
      ['cy', 'challengeAccepted'],
    ]);
  });

  it('declined, cancelled and expired are told to both sides with what happened', () => {
    let state = emptyChallenge('c1');
    for (const c of [create('bob'), { type: 'decline', playerId: 'bob', reason: 'later', now: NOW } as const]) {
      const events = decideChallenge(state, c);
      if (isRuleError(events)) throw new Error(events.code);
      state = events.reduce(evolveChallenge, state);
      if (c.type === 'decline') {
        const notices = challengePlayerNotices(state, events, names);
        expect(notices.map((n) => n.playerId)).toEqual(['ada', 'bob']);
        expect(notices[0].data).toMatchObject({
          status: 'declined',
          reason: 'later',
          challengerName: 'Ada',
          opponentName: 'Bob',
        });
      }
    }
    const [, cancelled] = noticesOf([create('bob'), { type: 'cancel', playerId: 'ada', now: NOW }]);
    expect(cancelled.map(([p, t]) => [p, t])).toEqual([
      ['ada', 'challengeCancelled'],
      ['bob', 'challengeCancelled'],
    ]);
    const [, expired] = noticesOf([create(null), { type: 'expire', now: '2026-12-28T10:00:00.000Z' }]);
    expect(expired.map(([p, t]) => [p, t])).toEqual([['ada', 'challengeExpired']]);
  });
});
