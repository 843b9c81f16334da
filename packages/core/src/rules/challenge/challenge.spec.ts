import { isRuleError, type RuleError } from '../core/errors';
import { decideChallenge, emptyChallenge, evolveChallenge, statusAt } from './decide';
import type { ChallengeCommand, ChallengeState } from './types';

const T0 = '2026-12-27T10:00:00.000Z';
const T1 = '2026-12-27T10:05:00.000Z';
const EXPIRES = '2026-12-27T10:10:00.000Z';
const LATE = '2026-12-27T10:10:00.000Z';
const create = (over: Partial<Extract<ChallengeCommand, { type: 'create' }>> = {}): ChallengeCommand => ({
  type: 'create',
  challengerId: 'ada',
  opponentId: 'bob',
  pool: 'simple',
  rated: true,
  turnTimeLimitSeconds: 60,
  message: '  good luck  ',
  now: T0,
  expiresAt: EXPIRES,
  ...over,
});

function run(commands: ChallengeCommand[], from: ChallengeState = emptyChallenge('c1')): ChallengeState {
  return commands.reduce((s, c) => {
    const events = decideChallenge(s, c);
    if (isRuleError(events)) throw new Error(`${c.type}: ${events.code}`);
    return events.reduce(evolveChallenge, s);
  }, from);
}
const refusal = (s: ChallengeState, c: ChallengeCommand) => decideChallenge(s, c) as RuleError;

describe('challenge decider', () => {
  it('creates a pending challenge with the message trimmed', () => {
    const s = run([create()]);
    expect(s).toMatchObject({
      status: 'pending',
      version: 1,
      challengerId: 'ada',
      opponentId: 'bob',
      rated: true,
      message: 'good luck',
      expiresAt: EXPIRES,
    });
    expect(run([create({ message: '   ' })]).message).toBeNull();
  });

  it('refuses challenging oneself, an unknown pool, a bad time per move, a long message', () => {
    const empty = emptyChallenge('c1');
    expect(refusal(empty, create({ opponentId: 'ada' })).code).toBe('CANNOT_CHALLENGE_SELF');
    expect(refusal(empty, create({ pool: 'yahtzee' as never })).code).toBe('INVALID_COMMAND');
    for (const t of [0, 1.5, 604_801, Number.NaN])
      expect(refusal(empty, create({ turnTimeLimitSeconds: t })).code).toBe('INVALID_COMMAND');
    expect(refusal(empty, create({ message: 'x'.repeat(281) })).code).toBe('INVALID_COMMAND');
    expect(refusal(empty, create({ message: 'bell\u0007' })).code).toBe('INVALID_COMMAND');
    expect(run([create({ message: 'x'.repeat(281 - 2) + '\n' })]).message).toHaveLength(279);
    expect(refusal(empty, create({ expiresAt: T0 })).code).toBe('INVALID_COMMAND');
    expect(refusal(run([create()]), create()).code).toBe('INVALID_COMMAND');
  });

  it('is accepted by its opponent only, once', () => {
    const s = run([create()]);
    expect(refusal(s, { type: 'accept', playerId: 'cy', gameId: 'g', now: T1 }).code).toBe('NOT_CHALLENGE_RECIPIENT');
    expect(refusal(s, { type: 'accept', playerId: 'ada', gameId: 'g', now: T1 }).code).toBe('NOT_CHALLENGE_RECIPIENT');
    const accepted = run([{ type: 'accept', playerId: 'bob', gameId: 'g', now: T1 }], s);
    expect(accepted).toMatchObject({ status: 'accepted', acceptedBy: 'bob', gameId: 'g', endedAt: T1, version: 2 });
    const again = refusal(accepted, { type: 'accept', playerId: 'bob', gameId: 'g2', now: T1 });
    expect(again.code).toBe('CHALLENGE_NOT_PENDING');
    expect(again.details).toEqual({ challengeStatus: 'accepted' });
    expect(refusal(accepted, { type: 'cancel', playerId: 'ada', now: T1 }).code).toBe('CHALLENGE_NOT_PENDING');
  });

  it('an open challenge is taken by anyone but its challenger, and cannot be declined', () => {
    const s = run([create({ opponentId: null })]);
    expect(refusal(s, { type: 'accept', playerId: 'ada', gameId: 'g', now: T1 }).code).toBe('CANNOT_CHALLENGE_SELF');
    expect(refusal(s, { type: 'decline', playerId: 'cy', reason: 'later', now: T1 }).code).toBe(
      'NOT_CHALLENGE_RECIPIENT',
    );
    expect(run([{ type: 'accept', playerId: 'cy', gameId: 'g', now: T1 }], s).acceptedBy).toBe('cy');
  });

  it('is declined with a reason from the list by its opponent only', () => {
    const s = run([create()]);
    expect(refusal(s, { type: 'decline', playerId: 'cy', reason: 'later', now: T1 }).code).toBe(
      'NOT_CHALLENGE_RECIPIENT',
    );
    expect(refusal(s, { type: 'decline', playerId: 'bob', reason: 'rude' as never, now: T1 }).code).toBe(
      'INVALID_COMMAND',
    );
    const declined = run([{ type: 'decline', playerId: 'bob', reason: 'tooFast', now: T1 }], s);
    expect(declined).toMatchObject({ status: 'declined', declineReason: 'tooFast' });
    expect(refusal(declined, { type: 'accept', playerId: 'bob', gameId: 'g', now: T1 }).details).toEqual({
      challengeStatus: 'declined',
    });
  });

  it('is cancelled by its challenger only; a cancelled challenge cannot be accepted', () => {
    const s = run([create()]);
    expect(refusal(s, { type: 'cancel', playerId: 'bob', now: T1 }).code).toBe('NOT_CHALLENGER');
    const cancelled = run([{ type: 'cancel', playerId: 'ada', now: T1 }], s);
    expect(cancelled.status).toBe('cancelled');
    const r = refusal(cancelled, { type: 'accept', playerId: 'bob', gameId: 'g', now: T1 });
    expect([r.code, r.details]).toEqual(['CHALLENGE_NOT_PENDING', { challengeStatus: 'cancelled' }]);
  });

  it('expires at its expiry time: refused answers before the sweep, then the sweep records it once', () => {
    const s = run([create()]);
    expect(statusAt(s, T1)).toBe('pending');
    expect(statusAt(s, LATE)).toBe('expired');
    const r = refusal(s, { type: 'accept', playerId: 'bob', gameId: 'g', now: LATE });
    expect([r.code, r.details]).toEqual(['CHALLENGE_NOT_PENDING', { challengeStatus: 'expired' }]);
    expect(refusal(s, { type: 'cancel', playerId: 'ada', now: LATE }).code).toBe('CHALLENGE_NOT_PENDING');
    expect(refusal(s, { type: 'expire', now: T1 }).code).toBe('CHALLENGE_NOT_PENDING');
    const expired = run([{ type: 'expire', now: LATE }], s);
    expect(expired).toMatchObject({ status: 'expired', endedAt: LATE });
    expect(refusal(expired, { type: 'expire', now: LATE }).code).toBe('CHALLENGE_NOT_PENDING');
  });
});
