/**
 * A challenge as the one command handler (src/commands) sees it: loaded from the challenge store,
 * decided by the pure challenge decider (@fairdice/core/rules/challenge: who may answer is a rule
 * there, so authorize lets every signed-in player through), appended by the challenge store with
 * the command's jobs: the expiry sweep of a new challenge, and the players' notices
 * (challengePlayerNotices) as one player-events job (docs/challenges.md).
 */
import { Injectable } from '@nestjs/common';
import { isRuleError } from '@fairdice/core/rules/core/errors';
import {
  decideChallenge,
  evolveChallenge,
  type ChallengeCommand,
  type ChallengeEvent,
} from '@fairdice/core/rules/challenge';
import type { CommandTarget } from '../commands/command-handler';
import { DomainException } from '../common/errors';
import { ChallengeStore, type LoadedChallenge } from '../event-store/challenge-store.service';
import { challengePlayerNotices, playerEventsJobs } from '../event-store/player-notices';
import type { ScheduledJob } from '../event-store/event-store.types';

/** Queue of the expiry sweep: one job per challenge, due at its expiry time. */
export const CHALLENGE_EXPIRY_QUEUE = 'challenge-expiry';

/** A command with what the service adds outside the pure decider. */
export interface ChallengeRequest {
  command: ChallengeCommand;
  /** The players' display names, for the notices. */
  names: Record<string, string>;
}

@Injectable()
export class ChallengeAggregate implements CommandTarget<
  LoadedChallenge,
  ChallengeRequest,
  ChallengeEvent,
  LoadedChallenge
> {
  readonly kind = 'challenge';

  constructor(private readonly store: ChallengeStore) {}

  load(id: string): Promise<LoadedChallenge | null> {
    return this.store.load(id);
  }

  fromCache(): boolean {
    return false;
  }

  forget(): void {}

  version(c: LoadedChallenge): number {
    return c.state.version;
  }

  notFound(): DomainException {
    return new DomainException('CHALLENGE_NOT_FOUND', 'No such challenge');
  }

  /** Who may accept, decline or cancel is decided by the rules (NOT_CHALLENGE_RECIPIENT, NOT_CHALLENGER). */
  authorize(): void {}

  decide(c: LoadedChallenge, request: ChallengeRequest): readonly ChallengeEvent[] {
    const events = decideChallenge(c.state, request.command);
    if (isRuleError(events)) throw DomainException.fromRule(events);
    return events;
  }

  append(c: LoadedChallenge, events: readonly ChallengeEvent[], request: ChallengeRequest): Promise<LoadedChallenge> {
    const after = events.reduce(evolveChallenge, c.state);
    const notices = challengePlayerNotices(after, events, request.names);
    const jobs: ScheduledJob[] = playerEventsJobs(`challenge:${after.id}`, after.version, notices);
    if (request.command.type === 'create')
      jobs.push({
        queue: CHALLENGE_EXPIRY_QUEUE,
        key: `challenge-expiry:${after.id}`,
        payload: { challengeId: after.id, version: after.version },
        delayMs: Math.max(0, Date.parse(after.expiresAt) - Date.parse(request.command.now)),
      });
    return this.store.append(c, events, request.command, jobs);
  }

  /** Nobody follows a challenge's own stream: its players are told on their event streams. */
  publish(): void {}
}
