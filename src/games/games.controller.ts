import { RequireScope } from '../players/require-scope';
import { Body, Controller, Get, Headers, Inject, Param, Post, Query, Req, Res, UseGuards } from '@nestjs/common';
import {
  ApiBearerAuth,
  ApiCreatedResponse,
  ApiExtraModels,
  ApiOkResponse,
  ApiOperation,
  ApiResponse,
  ApiTags,
} from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { AuthGuard, CurrentPlayer, CurrentToken, OptionalAuth } from '../players/auth.guard';
import { PlayersService } from '../players/players.service';
import { RevocableStream } from '../players/revocable-stream';
import { DomainException } from '../common/errors';
import {
  ApiProblems,
  ApiRequestHeaders,
  BODY_PROBLEMS,
  PATH_PROBLEMS,
  STALENESS_HEADER_DOC,
} from '../common/openapi/decorators';
import { withStalenessHeader } from '../database/read-routing';
import { EVENT_TYPES } from '../common/openapi/game-schemas';
import type { AuthenticatedPlayer } from '../players/players.types';
import { CommandEventsView, GameEventPage, GamePage, GameView } from './dto/game-view.model';
import { CreateGameInput, EventsQuery, ListGamesQuery, StreamQuery } from './dto/game.inputs';
import { GamesService } from './games.service';
import { checkGameId, type CommandOptions, type CommandResult, type GameListPage } from './games.types';
import { GAME_MOVES } from './moves/game-moves';
import type { GameMove } from './moves/move-definition';
import { defineMoveRoutes } from './moves/rest-routes';
import { pageRequest } from '../common/pagination/page-request';
import { Deprecated } from '../common/http/deprecation';
import { NEXT_LINK_HEADER, setNextLink } from '../common/pagination/next-link';
import { writeEventStream } from './sse';
import { STREAM_LIMITS, type StreamLimits } from '../reliability/streams/stream-limits';
import {
  asksForFreshRead,
  etagOf,
  versionETags,
  matchesVersion,
  parseEntityTags,
  RestCommandOptions,
  UuidPipe,
} from '../reliability';

type Me = AuthenticatedPlayer;

@ApiTags('games')
@ApiExtraModels(CommandEventsView)
@ApiBearerAuth()
@UseGuards(AuthGuard)
@Controller('games')
export class GamesController {
  constructor(
    private readonly games: GamesService,
    @Inject(STREAM_LIMITS) private readonly streams: StreamLimits,
    private readonly players: PlayersService,
  ) {}

  @Post()
  @ApiOperation({
    summary: 'Create a game',
    description: 'The creator takes seat 0 (seats are numbered from 0); hot seats take seats 1..n.',
  })
  @ApiCreatedResponse({ type: GameView })
  @ApiRequestHeaders('Idempotency-Key', 'Prefer')
  @ApiProblems(
    ...BODY_PROBLEMS,
    'INVALID_OPTIONS',
    'SEED_BEFORE_COMMITMENT',
    'IDEMPOTENCY_KEY_REUSED',
    'IDEMPOTENCY_IN_PROGRESS',
    'DATABASE_UNAVAILABLE',
  )
  @RequireScope('game:create')
  create(@CurrentPlayer() me: Me, @Body() input: CreateGameInput, @RestCommandOptions() opts: CommandOptions) {
    return this.games.create(me, input, opts);
  }

  @Get()
  @OptionalAuth()
  @ApiOperation({
    summary: 'List games',
    description:
      'scope=mine (token needed): games I hold a seat in. scope=open: open public games. Both newest first (created_at, then id, descending): a game keeps its place while it is played, so paging by cursor neither skips nor repeats a game (games created meanwhile are not added to a pass already under way; docs/api.md#pagination). The games awaiting my move, most urgent first: GET /v1/inbox.',
  })
  @ApiOkResponse({ type: GamePage, headers: { ...NEXT_LINK_HEADER, ...STALENESS_HEADER_DOC } })
  @Deprecated({ since: '2026-12-01', params: ['offset'] })
  @ApiProblems('VALIDATION_FAILED', 'INVALID_CURSOR', 'DATABASE_UNAVAILABLE')
  @RequireScope('game:read')
  async list(
    @CurrentPlayer() me: Me | null,
    @Query() q: ListGamesQuery,
    @Req() req: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<GamePage> {
    const page = pageRequest(q);
    let result: GameListPage;
    if ((q.scope ?? 'mine') === 'open') result = await withStalenessHeader(reply, () => this.games.listOpen(me, page));
    else if (!me) throw new DomainException('UNAUTHENTICATED', 'scope=mine needs "Authorization: Bearer <token>"');
    else result = await this.games.listMine(me, page);
    setNextLink(req, reply, result.nextCursor);
    return { items: result.items, nextCursor: result.nextCursor, nextOffset: result.nextOffset };
  }

  @Get(':id')
  @OptionalAuth()
  @ApiOperation({ summary: 'A game (public games: anyone; private games: their seats only)' })
  @ApiOkResponse({ type: GameView })
  @ApiResponse({ status: 304, description: 'Not Modified: the game is still at a version named in If-None-Match.' })
  @ApiRequestHeaders('If-None-Match', 'Cache-Control')
  @ApiProblems(...PATH_PROBLEMS, 'GAME_NOT_FOUND', 'DATABASE_UNAVAILABLE')
  @RequireScope('game:read')
  async get(
    @CurrentPlayer() me: Me | null,
    @Param('id', UuidPipe) id: string,
    @Headers('if-none-match') ifNoneMatch: string | undefined,
    @Headers('cache-control') cacheControl: string | undefined,
    @Res({ passthrough: true }) reply: FastifyReply,
  ) {
    const tags = parseEntityTags(ifNoneMatch, 'If-None-Match');
    const view = await this.games.get(me, id, { fresh: asksForFreshRead(cacheControl) });
    if (tags !== undefined && matchesVersion(tags, view.version)) {
      reply.header('etag', etagOf(view.version)).status(304);
      return undefined;
    }
    return view;
  }

  @Get(':id/events')
  @OptionalAuth()
  @ApiOperation({
    summary: "The game's events, oldest first (version > after, or after the cursor)",
    description:
      'Events are append-only and ordered by version, so paging is exact. Page with `cursor` (nextCursor / Link rel="next") or with `after` (nextAfter, an event version as in the stream).',
  })
  @ApiOkResponse({ type: GameEventPage, headers: NEXT_LINK_HEADER })
  @ApiProblems(...PATH_PROBLEMS, 'INVALID_CURSOR', 'GAME_NOT_FOUND', 'DATABASE_UNAVAILABLE')
  @RequireScope('game:read')
  async events(
    @CurrentPlayer() me: Me | null,
    @Param('id', UuidPipe) id: string,
    @Query() q: EventsQuery,
    @Req() req: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<GameEventPage> {
    const result = await this.games.history(me, id, { ...pageRequest(q), after: q.after });
    setNextLink(req, reply, result.nextCursor);
    return { items: result.items, nextAfter: result.nextAfter, nextCursor: result.nextCursor };
  }

  @Get(':id/versions/:version')
  @OptionalAuth()
  @ApiOperation({ summary: 'The game as it was right after event `version`' })
  @ApiOkResponse({ type: GameView })
  @ApiProblems(...PATH_PROBLEMS, 'GAME_NOT_FOUND', 'VERSION_NOT_FOUND', 'DATABASE_UNAVAILABLE')
  @RequireScope('game:read')
  atVersion(@CurrentPlayer() me: Me | null, @Param('id', UuidPipe) id: string, @Param('version') version: string) {
    checkGameId(id);
    if (!/^\d{1,9}$/.test(version))
      throw new DomainException('VALIDATION_FAILED', 'version must be a positive integer');
    return this.games.atVersion(me, id, Number(version));
  }

  @Get(':id/stream')
  @OptionalAuth()
  @ApiOperation({
    summary: 'Server-Sent Events: every event of the game (backlog, then live)',
    description:
      "Each message: `id: <version>`, `event: <type>`, `data: <event JSON>` (a GameEvent: FiveDiceGameEvent or FarkleGameEvent by the game's family). " +
      'The messages are NAMED events (`event: <type>`): a browser `EventSource` delivers them only to `addEventListener(type, ...)` for each type, never to `onmessage` (which receives unnamed messages only). ' +
      'Resume with the Last-Event-ID header or ?after=. A comment heartbeat every 15 s. The stream ends after the game ends. Access is re-checked on every event: once you may no longer see the game (you left a private game), the event that removed you is not sent; a last message `event: access-revoked` with `data: {"code":"GAME_ACCESS_REVOKED",...}` (no id) is, and the stream ends. Opened with a token: once that token is rotated, revoked or expires, a last message `event: revoked` with `data: {"type":"revoked","code":"UNAUTHENTICATED",...}` (no id), and the stream ends (docs/accounts.md "Scoped tokens").',
  })
  @ApiResponse({
    status: 200,
    description: 'The event stream (text/event-stream; see the schema for the message format).',
    content: {
      'text/event-stream': {
        schema: {
          type: 'string',
          description:
            'Server-Sent Events. Event names (`event:` lines): lifecycle ' +
            EVENT_TYPES.lifecycle.join(', ') +
            '; five-dice ' +
            EVENT_TYPES['five-dice'].join(', ') +
            '; farkle ' +
            EVENT_TYPES.farkle.join(', ') +
            '; access-revoked (data: {"code":"GAME_ACCESS_REVOKED","status":403,"detail":...,"gameId":...}, the last message); and revoked (data: {"type":"revoked","code":"UNAUTHENTICATED","status":401,"detail":...}, the last message: the token that opened it stopped working). ' +
            'Every other message has `id: <version>` and `data:` one GameEvent as JSON.',
          example:
            ': connected\n\nid: 1\nevent: gameCreated\ndata: {"gameId":"...","version":1,"type":"gameCreated",...}\n\n',
        },
      },
    },
  })
  @ApiRequestHeaders('Last-Event-ID')
  @ApiProblems(...PATH_PROBLEMS, 'GAME_NOT_FOUND', 'TOO_MANY_STREAMS', 'DATABASE_UNAVAILABLE')
  @RequireScope('game:read')
  async stream(
    @CurrentPlayer() me: Me | null,
    @CurrentToken() token: string | null,
    @Param('id', UuidPipe) id: string,
    @Query() q: StreamQuery,
    @Headers('last-event-id') lastEventId: string | undefined,
    @Req() req: FastifyRequest,
    @Res() reply: FastifyReply,
  ): Promise<void> {
    let after = q.after ?? 0;
    if (lastEventId !== undefined && lastEventId !== '') {
      if (!/^\d{1,9}$/.test(lastEventId))
        throw new DomainException('VALIDATION_FAILED', 'Last-Event-ID must be an event version');
      after = Number(lastEventId);
    }
    // One of the client's SSE slots for as long as the stream is open (429 TOO_MANY_STREAMS over the cap).
    const slot = this.streams.openSse(req.ip);
    try {
      const events = await this.games.stream(me, id, after);
      // Opened with a token: it ends (event: revoked) once the token is rotated, revoked or expires.
      await writeEventStream(
        me && token
          ? new RevocableStream(events, (onRevoked) => this.players.watchToken(token, me.id, onRevoked))
          : events,
        req,
        reply,
      );
    } finally {
      slot.release();
    }
  }

  /** The moves' routes (src/games/moves, defineMoveRoutes below) run here. */
  runMove(move: GameMove, me: Me, id: string, input: object, opts: CommandOptions): Promise<CommandResult> {
    return this.games.move(move, me, id, input, opts);
  }
}

// POST /v1/games/{id}/join … /quit: one route per move of the tables, after the reads above.
defineMoveRoutes(GamesController, GAME_MOVES);
// ETag: "<version>" on every game answer (a Fastify hook, src/reliability/http/version-etag.ts).
versionETags(GamesController);
