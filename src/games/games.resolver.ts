import { RequireScope } from '../players/require-scope';
import { UseGuards } from '@nestjs/common';
import { Args, ID, Int, Mutation, Parent, Query, ResolveField, Resolver, Subscription } from '@nestjs/graphql';
import { AuthGuard, CurrentPlayer, OptionalAuth } from '../players/auth.guard';
import { DomainException, toGraphQLError } from '../common/errors';
import type { AuthenticatedPlayer } from '../players/players.types';
import { GameConnection, GameEventConnection, GameEventPage, GamePage, GameView } from './dto/game-view.model';
import { GameEvent, toTypedEvent } from './dto/game-event.types';
import { GameOptions } from '../common/graphql/game-options';
import type { FamilyId } from '@fairdice/core/rules/core/family';
import { CreateGameInput, GameListScope } from './dto/game.inputs';
import { toConnection } from '../common/graphql/connection';
import { pageRequest } from '../common/pagination/page-request';
import type { CommandOptions, CommandResult, GameEventListPage } from './games.types';
import { GAME_MOVES } from './moves/game-moves';
import { defineMoveMutations } from './moves/graphql-mutations';
import type { GameMove } from './moves/move-definition';
import type { GameEventView } from './dto/game-view.model';
import { isAccessRevoked } from './game-stream';
import { toEventView } from './game-view';
import { GamesService } from './games.service';
import { IDEMPOTENCY_KEY_ARG } from '../reliability';

type Me = AuthenticatedPlayer;

/** The page's events typed by type and family (GraphQL's GameEvent types). */
const typedEvents = <P extends { items: GameEventView[]; family: FamilyId }>(page: P): P => ({
  ...page,
  items: page.items.map((e) => toTypedEvent(e, page.family)),
});

function nonNegative(name: string, v: number | undefined): number {
  const n = v ?? 0;
  if (!Number.isInteger(n) || n < 0)
    throw new DomainException('VALIDATION_FAILED', `${name} must be a non-negative integer`);
  return n;
}

/** Same operations, semantics and error codes as the REST controller (one service). */
@Resolver(() => GameView)
@UseGuards(AuthGuard)
export class GamesResolver {
  constructor(private readonly games: GamesService) {}

  @Query(() => GameView, { description: 'A game (public: anyone; private: its seats only).' })
  @OptionalAuth()
  @RequireScope('game:read')
  game(@CurrentPlayer() me: Me | null, @Args('id', { type: () => ID }) id: string) {
    return this.games.get(me, id);
  }

  @Query(() => GameConnection, {
    description:
      'Games, newest first (created_at, then id, descending): mine (token needed) or open public ones. A game keeps its place while it is played, so paging neither skips nor repeats (docs/api.md#pagination). Same as GET /v1/games.',
  })
  @OptionalAuth()
  @RequireScope('game:read')
  async gamesConnection(
    @CurrentPlayer() me: Me | null,
    // Typed as a string: the enum object as the parameter's metatype would be validated as a class.
    @Args('scope', { type: () => GameListScope, nullable: true, defaultValue: GameListScope.mine })
    scope: string,
    @Args('first', { type: () => Int, nullable: true, description: 'Page size, 1 to 100 (default 20).' })
    first?: number,
    @Args('after', { type: () => String, nullable: true, description: 'endCursor of the previous page.' })
    after?: string,
  ) {
    const page = pageRequest({ limit: first, cursor: after });
    if (scope === (GameListScope.open as string)) return toConnection(await this.games.listOpen(me, page), after);
    if (!me) throw new DomainException('UNAUTHENTICATED', 'scope: mine needs "Authorization: Bearer <token>"');
    return toConnection(await this.games.listMine(me, page), after);
  }

  @Query(() => GamePage, {
    description: 'My games, newest first.',
    deprecationReason: 'Offsets shift while games are created; use gamesConnection(scope: mine, first, after).',
  })
  @RequireScope('game:read')
  async myGames(
    @CurrentPlayer() me: Me,
    @Args('limit', { type: () => Int, nullable: true }) limit?: number,
    @Args('offset', { type: () => Int, nullable: true }) offset?: number,
  ): Promise<GamePage> {
    const page = await this.games.listMine(me, pageRequest({ limit, offset: offset ?? 0 }));
    return { items: page.items, nextOffset: page.nextOffset, nextCursor: page.nextCursor };
  }

  @Query(() => GamePage, {
    description: 'Open public games to join, newest first.',
    deprecationReason: 'Offsets shift while games are created; use gamesConnection(scope: open, first, after).',
  })
  @OptionalAuth()
  @RequireScope('game:read')
  async openGames(
    @CurrentPlayer() me: Me | null,
    @Args('limit', { type: () => Int, nullable: true }) limit?: number,
    @Args('offset', { type: () => Int, nullable: true }) offset?: number,
  ): Promise<GamePage> {
    const page = await this.games.listOpen(me, pageRequest({ limit, offset: offset ?? 0 }));
    return { items: page.items, nextOffset: page.nextOffset, nextCursor: page.nextCursor };
  }

  @Query(() => GameEventConnection, {
    description:
      "The game's events, oldest first (by version; exact paging: events are append-only). Same as GET /v1/games/{id}/events.",
  })
  @OptionalAuth()
  @RequireScope('game:read')
  async gameEventsConnection(
    @CurrentPlayer() me: Me | null,
    @Args('gameId', { type: () => ID }) gameId: string,
    @Args('first', { type: () => Int, nullable: true, description: 'Page size, 1 to 100 (default 20).' })
    first?: number,
    @Args('after', { type: () => String, nullable: true, description: 'endCursor of the previous page.' })
    after?: string,
  ) {
    const page = await this.games.history(me, gameId, pageRequest({ limit: first, cursor: after }));
    return toConnection(typedEvents(page), after);
  }

  @ResolveField('ruleOptions', () => GameOptions, { description: "The family's resolved options, typed." })
  ruleOptions(@Parent() game: GameView): object {
    return game.options;
  }

  @Query(() => GameEventPage, {
    description: "The game's events with version > after, oldest first (GET /v1/games/{id}/events).",
  })
  @OptionalAuth()
  @RequireScope('game:read')
  async gameEvents(
    @CurrentPlayer() me: Me | null,
    @Args('gameId', { type: () => ID }) gameId: string,
    @Args('after', { type: () => Int, nullable: true }) after?: number,
    @Args('limit', { type: () => Int, nullable: true }) limit?: number,
  ): Promise<GameEventPage> {
    const page: GameEventListPage = typedEvents(
      await this.games.history(me, gameId, { ...pageRequest({ limit }), after: nonNegative('after', after) }),
    );
    return { items: page.items, nextAfter: page.nextAfter, nextCursor: page.nextCursor };
  }

  @Query(() => GameEventPage, {
    description: "The game's events with version > after.",
    deprecationReason: 'Renamed gameEvents (as GET /v1/games/{id}/events); same arguments and result.',
  })
  @OptionalAuth()
  @RequireScope('game:read')
  async gameHistory(
    @CurrentPlayer() me: Me | null,
    @Args('gameId', { type: () => ID }) gameId: string,
    @Args('after', { type: () => Int, nullable: true }) after?: number,
    @Args('limit', { type: () => Int, nullable: true }) limit?: number,
  ): Promise<GameEventPage> {
    return this.gameEvents(me, gameId, after, limit);
  }

  @Query(() => GameView, { description: 'The game right after event `version`.' })
  @OptionalAuth()
  @RequireScope('game:read')
  gameAtVersion(
    @CurrentPlayer() me: Me | null,
    @Args('gameId', { type: () => ID }) gameId: string,
    @Args('version', { type: () => Int }) version: number,
  ) {
    return this.games.atVersion(me, gameId, version);
  }

  @Mutation(() => GameView, { description: 'Create a game; the creator takes seat 0.' })
  @RequireScope('game:create')
  createGame(
    @CurrentPlayer() me: Me,
    @Args('input') input: CreateGameInput,
    @Args('idempotencyKey', IDEMPOTENCY_KEY_ARG) idempotencyKey?: string,
  ) {
    return this.games.create(me, input, { idempotencyKey });
  }

  /** The moves' mutations (src/games/moves, defineMoveMutations below) run here. */
  runMove(move: GameMove, me: Me, gameId: string, input: object, opts: CommandOptions): Promise<CommandResult> {
    return this.games.move(move, me, gameId, input, opts);
  }

  @Subscription(() => GameEvent, {
    name: 'gameEvents',
    description:
      'Every event of a game after `after` (backlog, then live; completes after the game ends). Access is re-checked on every event: once you may no longer see the game (you left a private game), the event that removed you is not sent; an error with extensions.code GAME_ACCESS_REVOKED is, and the subscription completes. Auth: connectionParams.authorization = "Bearer <token>".',
    // The stream's last item when access is revoked: an error with a stable code, then completion.
    resolve: (event: unknown) => {
      if (isAccessRevoked(event))
        throw toGraphQLError(
          new DomainException('GAME_ACCESS_REVOKED', 'You may no longer see this game; the subscription ends here', {
            gameId: event.gameId,
          }),
        ).graphqlError;
      return event;
    },
  })
  @OptionalAuth()
  @RequireScope('game:read')
  async gameEventStream(
    @CurrentPlayer() me: Me | null,
    @Args('gameId', { type: () => ID }) gameId: string,
    @Args('after', {
      type: () => Int,
      nullable: true,
      description: 'Resume after this version (as ?after= of GET /v1/games/{id}/stream).',
    })
    after?: number,
    @Args('afterVersion', {
      type: () => Int,
      nullable: true,
      deprecationReason: 'Renamed after (as ?after= of GET /v1/games/{id}/stream).',
    })
    afterVersion?: number,
  ) {
    if (after !== undefined && after !== null && afterVersion !== undefined && afterVersion !== null)
      throw new DomainException('VALIDATION_FAILED', 'Give after or its deprecated name afterVersion, not both');
    const from = after ?? afterVersion ?? undefined;
    const { family, stream } = await this.games.streamOf(me, gameId, nonNegative('after', from));
    return mapIterator(stream, (item) => (isAccessRevoked(item) ? item : toTypedEvent(toEventView(item), family)));
  }
}

// joinGame … quitGame (and the deprecated scoreBox): one mutation per move of the tables.
defineMoveMutations(GamesResolver, GAME_MOVES);

function mapIterator<A, B>(source: AsyncIterableIterator<A>, f: (a: A) => B): AsyncIterableIterator<B> {
  return {
    async next() {
      const r = await source.next();
      return r.done ? { value: undefined, done: true } : { value: f(r.value), done: false };
    },
    async return() {
      await source.return?.();
      return { value: undefined, done: true };
    },
    [Symbol.asyncIterator]() {
      return this;
    },
  };
}
