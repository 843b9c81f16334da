import { RequireScope } from '../players/require-scope';
import { UseGuards } from '@nestjs/common';
import { DomainException } from '../common/errors';
import { Args, ID, Int, Mutation, Parent, Query, ResolveField, Resolver, Subscription } from '@nestjs/graphql';
import { GameOptions } from '../common/graphql/game-options';
import { AuthGuard, CurrentPlayer, OptionalAuth } from '../players/auth.guard';
import type { AuthenticatedPlayer } from '../players/players.types';
import { pageRequest } from '../common/pagination/page-request';
import { CreateTournamentInput, OrganizerSeedInput, ReasonInput, RegisterInput } from './dto/tournament.inputs';
import { StandingsView, TournamentEventView, TournamentPage, TournamentView } from './dto/tournament.models';
import { TournamentsService } from './tournaments.service';
import { TournamentAuditService } from './tournament-audit.service';
import { TournamentAuditBundleGraph } from './dto/tournament-audit.models';
import { AuditBundleView, toAuditBundleView } from '../audit/dto/audit-bundle.types';
import type { AuditBundle } from '@fairdice/core/fairness/audit-bundle';
import { toTournamentEventView, toTournamentView } from './tournament-view';
import { IDEMPOTENCY_KEY_ARG } from '../reliability';

type Me = AuthenticatedPlayer;

/** GraphQL over the same TournamentsService as REST (docs/tournaments.md). */
@Resolver(() => TournamentView)
@UseGuards(AuthGuard)
export class TournamentsResolver {
  constructor(
    private readonly service: TournamentsService,
    private readonly auditor: TournamentAuditService,
  ) {}

  @Query(() => TournamentView, { description: 'A tournament (private: organizer and entrants only).' })
  @OptionalAuth()
  @RequireScope('tournament:read')
  async tournament(@CurrentPlayer() me: Me | null, @Args('id', { type: () => ID }) id: string) {
    return toTournamentView(await this.service.get(me, id));
  }

  @ResolveField('ruleOptions', () => GameOptions, { description: "The rule set's resolved options, typed." })
  ruleOptions(@Parent() t: TournamentView): object {
    return t.options;
  }

  @Query(() => TournamentPage, { description: 'Public tournaments and those you organize or entered, newest first.' })
  @OptionalAuth()
  @RequireScope('tournament:read')
  async tournaments(
    @CurrentPlayer() me: Me | null,
    @Args('first', { type: () => Int, nullable: true, description: 'Page size, 1 to 100 (default 20).' })
    first?: number,
    @Args('after', { type: () => String, nullable: true, description: 'nextCursor of the previous page.' })
    after?: string,
  ) {
    const page = pageRequest({ limit: first, cursor: after });
    const res = await this.service.list(me, { limit: page.limit, cursor: page.cursor });
    return { items: res.items.map(toTournamentView), nextCursor: res.nextCursor };
  }

  @Query(() => StandingsView, { description: 'Standings now (docs/tournaments.md §4).' })
  @OptionalAuth()
  @RequireScope('tournament:read')
  tournamentStandings(@CurrentPlayer() me: Me | null, @Args('id', { type: () => ID }) id: string) {
    return this.service.standings(me, id);
  }

  @Query(() => [TournamentEventView], { description: "The tournament's hash-chained events, oldest first." })
  @OptionalAuth()
  @RequireScope('tournament:read')
  async tournamentEvents(@CurrentPlayer() me: Me | null, @Args('id', { type: () => ID }) id: string) {
    return (await this.service.events(me, id)).map(toTournamentEventView);
  }

  @Query(() => TournamentAuditBundleGraph, {
    description:
      'The audit bundle of the whole ended tournament (docs/fairness.md §11), typed: the members of GET /v1/tournaments/{id}/audit. Once the tournament has finished or was cancelled (TOURNAMENT_NOT_ENDED before); who may read it as for the tournament.',
  })
  @OptionalAuth()
  @RequireScope('tournament:read')
  async tournamentAuditBundle(
    @CurrentPlayer() me: Me | null,
    @Args('tournamentId', { type: () => ID }) tournamentId: string,
  ): Promise<TournamentAuditBundleGraph> {
    const { bundle, gameEventTimes } = await this.auditor.bundleWithTimes(me, tournamentId);
    return {
      ...bundle,
      games: (bundle.games as unknown as AuditBundle[]).map((g, i) => toAuditBundleView(g, gameEventTimes[i])),
      standings: bundle.standings.map((r) => ({ displayName: null, ...r })),
    };
  }

  @Mutation(() => TournamentView, { description: 'Create a tournament; you are its organizer.' })
  @RequireScope('tournament:write')
  createTournament(
    @CurrentPlayer() me: Me,
    @Args('input') input: CreateTournamentInput,
    @Args('idempotencyKey', IDEMPOTENCY_KEY_ARG) idempotencyKey?: string,
  ) {
    return this.service.create(me, input, { idempotencyKey });
  }

  @Mutation(() => TournamentView, { description: 'Register with your own client seed (generated when omitted).' })
  @RequireScope('tournament:write')
  async registerForTournament(
    @CurrentPlayer() me: Me,
    @Args('id', { type: () => ID }) id: string,
    @Args('input', { nullable: true }) input?: RegisterInput,
    @Args('idempotencyKey', IDEMPOTENCY_KEY_ARG) idempotencyKey?: string,
  ) {
    return this.service.register(me, id, input ?? {}, { idempotencyKey });
  }

  @Mutation(() => TournamentView, { description: "Set the organizer's seed (before registration closes)." })
  @RequireScope('tournament:write')
  async setTournamentOrganizerSeed(
    @CurrentPlayer() me: Me,
    @Args('id', { type: () => ID }) id: string,
    @Args('input') input: OrganizerSeedInput,
    @Args('idempotencyKey', IDEMPOTENCY_KEY_ARG) idempotencyKey?: string,
  ) {
    return this.service.setOrganizerSeed(me, id, input.organizerSeed, { idempotencyKey });
  }

  @Mutation(() => TournamentView, { description: 'Close registration (organizer).' })
  @RequireScope('tournament:write')
  closeTournamentRegistration(
    @CurrentPlayer() me: Me,
    @Args('id', { type: () => ID }) id: string,
    @Args('idempotencyKey', IDEMPOTENCY_KEY_ARG) idempotencyKey?: string,
  ) {
    return this.service.closeRegistration(me, id, { idempotencyKey });
  }

  @Mutation(() => TournamentView, { description: 'Start (organizer): closes registration if open, creates round 1.' })
  @RequireScope('tournament:write')
  startTournament(
    @CurrentPlayer() me: Me,
    @Args('id', { type: () => ID }) id: string,
    @Args('idempotencyKey', IDEMPOTENCY_KEY_ARG) idempotencyKey?: string,
  ) {
    return this.service.start(me, id, { idempotencyKey });
  }

  @Mutation(() => TournamentView, { description: 'Cancel (organizer) with a recorded reason.' })
  @RequireScope('tournament:write')
  async cancelTournament(
    @CurrentPlayer() me: Me,
    @Args('id', { type: () => ID }) id: string,
    @Args('input') input: ReasonInput,
    @Args('idempotencyKey', IDEMPOTENCY_KEY_ARG) idempotencyKey?: string,
  ) {
    return this.service.cancel(me, id, input.reason, { idempotencyKey });
  }

  @Mutation(() => TournamentView, { description: 'Withdraw an entrant (the entrant, or the organizer) with a reason.' })
  @RequireScope('tournament:write')
  withdrawFromTournament(
    @CurrentPlayer() me: Me,
    @Args('id', { type: () => ID }) id: string,
    @Args('playerId', { type: () => ID }) playerId: string,
    @Args('input') input: ReasonInput,
    @Args('idempotencyKey', IDEMPOTENCY_KEY_ARG) idempotencyKey?: string,
  ) {
    return this.service.withdraw(me, id, playerId, input.reason, { idempotencyKey });
  }

  @Mutation(() => TournamentView, { description: 'Disqualify an entrant (organizer) with a reason.' })
  @RequireScope('tournament:write')
  disqualifyFromTournament(
    @CurrentPlayer() me: Me,
    @Args('id', { type: () => ID }) id: string,
    @Args('playerId', { type: () => ID }) playerId: string,
    @Args('input') input: ReasonInput,
    @Args('idempotencyKey', IDEMPOTENCY_KEY_ARG) idempotencyKey?: string,
  ) {
    return this.service.disqualify(me, id, playerId, input.reason, { idempotencyKey });
  }

  @Subscription(() => StandingsView, {
    name: 'tournamentStandings',
    description:
      'The standings now, then again whenever they change (rounds, entrants, and the moves of running tables games). Auth: connectionParams.authorization = "Bearer <token>".',
    resolve: (s: unknown) => s,
  })
  @OptionalAuth()
  @RequireScope('tournament:read')
  async tournamentStandingsStream(@CurrentPlayer() me: Me | null, @Args('id', { type: () => ID }) id: string) {
    return this.service.standingsStream(me, id);
  }
}

/**
 * The games of the typed tournament bundle, as a slice: one game's typed bundle is large, and the
 * query cost limit counts an unsized list as 20 (src/reliability/graphql/limits.ts), so a client
 * asks for games(offset, limit) pages of a few games each.
 */
@Resolver(() => TournamentAuditBundleGraph)
export class TournamentAuditBundleResolver {
  @ResolveField('games', () => [AuditBundleView], {
    description:
      "Every game's own audit bundle, typed, in the order the roundStarted events list the games: the slice from offset (default 0), at most limit (1 to 100; default all). Page with small limits to stay under the query cost limit.",
  })
  games(
    @Parent() b: TournamentAuditBundleGraph,
    @Args('offset', { type: () => Int, nullable: true }) offset?: number,
    @Args('limit', { type: () => Int, nullable: true }) limit?: number,
  ): AuditBundleView[] {
    if (offset != null && (!Number.isInteger(offset) || offset < 0))
      throw new DomainException('VALIDATION_FAILED', 'offset must be an integer ≥ 0', {
        errors: [{ field: 'offset', problems: ['offset must be an integer ≥ 0'] }],
      });
    if (limit != null && (!Number.isInteger(limit) || limit < 1 || limit > 100))
      throw new DomainException('VALIDATION_FAILED', 'limit must be an integer from 1 to 100', {
        errors: [{ field: 'limit', problems: ['limit must be an integer from 1 to 100'] }],
      });
    const from = offset ?? 0;
    return b.games.slice(from, limit == null ? undefined : from + limit);
  }
}
