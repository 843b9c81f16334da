/**
 * The challenge aggregate (docs/challenges.md): one player invites another (or, by link, anyone)
 * to a two-player game of a pool, rated or casual, with a time per move; the invited side accepts
 * or declines, the challenger may cancel, and an unanswered challenge expires. The decider is pure:
 * the clock (`now`) and the new game's id travel in the commands.
 */
import type { RatingPool } from '../ratings/pools';

export const CHALLENGE_LIMITS = {
  /** Longest message, in characters (UTF-16 code units), once trimmed. */
  messageMax: 280,
  /** Time per move, seconds (the games' own bounds: 1 s to 7 days). */
  turnTimeLimitMin: 1,
  turnTimeLimitMax: 604_800,
} as const;

/** Why a challenge was declined (Lichess's list, the ones that apply to dice games). */
export const DECLINE_REASONS = ['generic', 'later', 'tooFast', 'tooSlow', 'rated', 'casual', 'variant'] as const;
export type DeclineReason = (typeof DECLINE_REASONS)[number];

export type ChallengeStatus = 'pending' | 'accepted' | 'declined' | 'cancelled' | 'expired';

export interface ChallengeState {
  id: string;
  /** 0 before the creation. */
  version: number;
  status: ChallengeStatus | null;
  challengerId: string;
  /** Null for an open challenge (by link): the first taker is the opponent. */
  opponentId: string | null;
  pool: RatingPool;
  rated: boolean;
  turnTimeLimitSeconds: number;
  message: string | null;
  /** ISO times. */
  createdAt: string;
  expiresAt: string;
  /** When it stopped being pending (ISO), and the game an acceptance started. */
  endedAt: string | null;
  acceptedBy: string | null;
  gameId: string | null;
  declineReason: DeclineReason | null;
}

export type ChallengeCommand =
  | {
      type: 'create';
      challengerId: string;
      opponentId: string | null;
      pool: RatingPool;
      rated: boolean;
      turnTimeLimitSeconds: number;
      message: string | null;
      now: string;
      expiresAt: string;
    }
  /** `gameId`: the id the service gives the game it starts with the acceptance. */
  | { type: 'accept'; playerId: string; gameId: string; now: string }
  | { type: 'decline'; playerId: string; reason: DeclineReason; now: string }
  | { type: 'cancel'; playerId: string; now: string }
  /** The service's sweep once the expiry time passed. */
  | { type: 'expire'; now: string };

export type ChallengeEvent =
  | {
      type: 'challengeCreated';
      data: {
        challengerId: string;
        opponentId: string | null;
        pool: RatingPool;
        rated: boolean;
        turnTimeLimitSeconds: number;
        message: string | null;
        createdAt: string;
        expiresAt: string;
      };
    }
  | { type: 'challengeAccepted'; data: { playerId: string; gameId: string; at: string } }
  | { type: 'challengeDeclined'; data: { playerId: string; reason: DeclineReason; at: string } }
  | { type: 'challengeCancelled'; data: { at: string } }
  | { type: 'challengeExpired'; data: { at: string } };

export type ChallengeEventType = ChallengeEvent['type'];
