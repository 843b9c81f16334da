/**
 * A tournament as the one command handler (src/commands) sees it: loaded from the tournament
 * store, authorized by the tournament access rule, decided by the pure tournament decider, appended
 * with its effects (webhooks, jobs) at the expected version, published to standings watchers.
 */
import { Injectable } from '@nestjs/common';
import { isRuleError } from '@fairdice/core/rules/core/errors';
import {
  decideTournament,
  evolveTournament,
  type TournamentCommand,
  type TournamentEvent,
  type TournamentState,
} from '@fairdice/core/rules/tournament';
import type { Actor, CommandTarget } from '../commands/command-handler';
import { DomainException } from '../common/errors';
import { tournamentEffects } from '../event-store/async-effects';
import { TournamentStore, type LoadedTournament } from '../event-store/tournament-store.service';
import { TournamentBus } from './tournament-bus';

export const tournamentNotFound = () => new DomainException('TOURNAMENT_NOT_FOUND', 'No such tournament');

/**
 * Private tournaments: only the organizer and entrants see them; `outsiderMayAct` (registering):
 * an invitation link lets others register while registration is open.
 */
export function maySeeTournament(s: TournamentState, viewer: { id: string } | null, outsiderMayAct = false): boolean {
  if (s.visibility !== 'private') return true;
  const insider = viewer !== null && (s.organizerId === viewer.id || s.entrants.some((e) => e.playerId === viewer.id));
  return insider || (outsiderMayAct && s.status === 'registering');
}

@Injectable()
export class TournamentAggregate implements CommandTarget<
  LoadedTournament,
  TournamentCommand,
  TournamentEvent,
  LoadedTournament
> {
  readonly kind = 'tournament';

  constructor(
    private readonly store: TournamentStore,
    private readonly bus: TournamentBus,
  ) {}

  /** Always a fresh read: tournaments have no cache (their commands are rare). */
  load(id: string): Promise<LoadedTournament | null> {
    return this.store.load(id);
  }

  fromCache(): boolean {
    return false;
  }

  forget(): void {}

  version(t: LoadedTournament): number {
    return t.state.version;
  }

  notFound(): DomainException {
    return tournamentNotFound();
  }

  /** Whoever may not see the tournament finds none; the decider refuses the rest (NOT_ORGANIZER…). */
  authorize(t: LoadedTournament, actor: Actor, outsiderMayAct: boolean): void {
    if (!maySeeTournament(t.state, actor, outsiderMayAct)) throw tournamentNotFound();
  }

  decide(t: LoadedTournament, command: TournamentCommand): readonly TournamentEvent[] {
    const events = decideTournament(t.state, command);
    if (isRuleError(events)) throw DomainException.fromRule(events);
    return events;
  }

  /** Webhooks (tournament.started, round.started, round.finished, tournament.finished): same statement. */
  append(
    t: LoadedTournament,
    events: readonly TournamentEvent[],
    command: TournamentCommand,
  ): Promise<LoadedTournament> {
    return this.store.append(t, events, command, tournamentEffects(events.reduce(evolveTournament, t.state), events));
  }

  /** Watchers of the live standings see the change once it is committed. */
  publish(id: string, t: LoadedTournament): void {
    this.bus.publish(id, t);
  }
}
