/**
 * The challenge aggregate as a decider (docs/challenges.md): `decideChallenge(state, command)`
 * returns the events of a command or a coded RuleError; `evolveChallenge` applies one event.
 * Pure: the time is the command's `now` (a challenge past its `expiresAt` is expired for every
 * command even before the service's sweep recorded it), and the id of the game an acceptance
 * starts is chosen by the service.
 */
import { ruleError, type RuleError } from '../core/errors';
import { isRatingPool } from '../ratings/pools';
import {
  CHALLENGE_LIMITS as L,
  DECLINE_REASONS,
  type ChallengeCommand,
  type ChallengeEvent,
  type ChallengeState,
  type ChallengeStatus,
} from './types';

export const emptyChallenge = (id: string): ChallengeState => ({
  id,
  version: 0,
  status: null,
  challengerId: '',
  opponentId: null,
  pool: 'penta',
  rated: false,
  turnTimeLimitSeconds: L.turnTimeLimitMin,
  message: null,
  createdAt: '',
  expiresAt: '',
  endedAt: null,
  acceptedBy: null,
  gameId: null,
  declineReason: null,
});

/** The status at `now`: a pending challenge past its expiry is expired (whether or not the sweep recorded it). */
export function statusAt(s: ChallengeState, now: string): ChallengeStatus | null {
  if (s.status === 'pending' && Date.parse(now) >= Date.parse(s.expiresAt)) return 'expired';
  return s.status;
}

/** A message once trimmed: null when empty; a RuleError when too long or with control characters. */
export function checkChallengeMessage(message: unknown): string | null | RuleError {
  if (message === null || message === undefined) return null;
  if (typeof message !== 'string') return ruleError('INVALID_COMMAND', 'message must be a string');
  const trimmed = message.trim();
  // eslint-disable-next-line no-control-regex
  if (trimmed.length > L.messageMax || /[\u0000-\u0008\u000b-\u001f\u007f]/.test(trimmed))
    return ruleError(
      'INVALID_COMMAND',
      `message must be at most ${L.messageMax} characters without control characters (line breaks allowed)`,
    );
  return trimmed === '' ? null : trimmed;
}

export function decideChallenge(s: ChallengeState, c: ChallengeCommand): ChallengeEvent[] | RuleError {
  if (c.type === 'create') {
    if (s.status !== null) return ruleError('INVALID_COMMAND', 'The challenge exists already');
    if (c.opponentId === c.challengerId) return ruleError('CANNOT_CHALLENGE_SELF', 'You cannot challenge yourself');
    if (!isRatingPool(c.pool)) return ruleError('INVALID_COMMAND', 'pool must be penta, simple, bonus or farkle');
    if (
      !Number.isInteger(c.turnTimeLimitSeconds) ||
      c.turnTimeLimitSeconds < L.turnTimeLimitMin ||
      c.turnTimeLimitSeconds > L.turnTimeLimitMax
    )
      return ruleError(
        'INVALID_COMMAND',
        `turnTimeLimitSeconds must be an integer from ${L.turnTimeLimitMin} to ${L.turnTimeLimitMax}`,
      );
    const message = checkChallengeMessage(c.message);
    if (message !== null && typeof message !== 'string') return message;
    if (!(Date.parse(c.expiresAt) > Date.parse(c.now)))
      return ruleError('INVALID_COMMAND', 'expiresAt must be after the creation');
    return [
      {
        type: 'challengeCreated',
        data: {
          challengerId: c.challengerId,
          opponentId: c.opponentId,
          pool: c.pool,
          rated: c.rated === true,
          turnTimeLimitSeconds: c.turnTimeLimitSeconds,
          message,
          createdAt: c.now,
          expiresAt: c.expiresAt,
        },
      },
    ];
  }
  if (s.status === null) return ruleError('INVALID_COMMAND', 'No such challenge');
  const status = statusAt(s, c.now);
  switch (c.type) {
    case 'accept':
      // Who may answer comes first: an outsider learns nothing of the challenge's state.
      if (s.opponentId !== null && c.playerId !== s.opponentId) return notRecipient();
      if (c.playerId === s.challengerId)
        return ruleError('CANNOT_CHALLENGE_SELF', 'You cannot accept your own challenge');
      if (status !== 'pending') return notPending(status);
      return [{ type: 'challengeAccepted', data: { playerId: c.playerId, gameId: c.gameId, at: c.now } }];
    case 'decline':
      if (s.opponentId === null || c.playerId !== s.opponentId) return notRecipient();
      if (status !== 'pending') return notPending(status);
      if (!(DECLINE_REASONS as readonly string[]).includes(c.reason))
        return ruleError('INVALID_COMMAND', `reason must be one of ${DECLINE_REASONS.join(', ')}`);
      return [{ type: 'challengeDeclined', data: { playerId: c.playerId, reason: c.reason, at: c.now } }];
    case 'cancel':
      if (c.playerId !== s.challengerId)
        return ruleError('NOT_CHALLENGER', 'Only the player who made the challenge may cancel it');
      if (status !== 'pending') return notPending(status);
      return [{ type: 'challengeCancelled', data: { at: c.now } }];
    case 'expire':
      if (s.status !== 'pending' || status !== 'expired') return notPending(status);
      return [{ type: 'challengeExpired', data: { at: c.now } }];
    default:
      return ruleError('INVALID_COMMAND', 'Unknown challenge command');
  }
}

const notRecipient = () =>
  ruleError('NOT_CHALLENGE_RECIPIENT', 'This challenge is meant for another player: only they may answer it');

const notPending = (status: ChallengeStatus | null) =>
  ruleError('CHALLENGE_NOT_PENDING', `The challenge is ${status ?? 'unknown'}: it can no longer be answered`, {
    challengeStatus: status,
  });

export function evolveChallenge(s: ChallengeState, e: ChallengeEvent): ChallengeState {
  const next = { ...s, version: s.version + 1 };
  switch (e.type) {
    case 'challengeCreated':
      return { ...next, ...e.data, status: 'pending' };
    case 'challengeAccepted':
      return { ...next, status: 'accepted', acceptedBy: e.data.playerId, gameId: e.data.gameId, endedAt: e.data.at };
    case 'challengeDeclined':
      return { ...next, status: 'declined', declineReason: e.data.reason, endedAt: e.data.at };
    case 'challengeCancelled':
      return { ...next, status: 'cancelled', endedAt: e.data.at };
    case 'challengeExpired':
      return { ...next, status: 'expired', endedAt: e.data.at };
  }
}
