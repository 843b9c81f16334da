import { RequireScope } from '../players/require-scope';
import { Body, Controller, Get, HttpCode, Inject, Param, Post, Put, Query, Req, Res, UseGuards } from '@nestjs/common';
import {
  ApiBearerAuth,
  ApiBody,
  ApiCreatedResponse,
  ApiOkResponse,
  ApiOperation,
  ApiResponse,
  ApiTags,
} from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { AuthGuard, CurrentPlayer, CurrentToken, OptionalAuth } from '../players/auth.guard';
import { PlayersService } from '../players/players.service';
import { RevocableStream } from '../players/revocable-stream';
import {
  ApiNoFieldsBody,
  ApiProblems,
  ApiRequestHeaders,
  BODY_PROBLEMS,
  PATH_PROBLEMS,
} from '../common/openapi/decorators';
import type { ErrorCode } from '../common/errors/error-codes';
import { CursorQuery } from '../common/dto/pagination';
import { pageRequest } from '../common/pagination/page-request';
import { RestCommandOptions, UuidPipe, versionETags } from '../reliability';
import { NoFieldsPipe } from '../games/dto/game.inputs';
import type { AuthenticatedPlayer } from '../players/players.types';
import { CreateTournamentInput, OrganizerSeedInput, ReasonInput, RegisterInput } from './dto/tournament.inputs';
import { StandingsView, TournamentEventView, TournamentPage, TournamentView } from './dto/tournament.models';
import { TournamentsService, type TournamentCommandOptions } from './tournaments.service';
import { TournamentAuditService } from './tournament-audit.service';
import { TournamentAuditBundleView } from './dto/tournament-audit.models';
import { toTournamentEventView, toTournamentView } from './tournament-view';
import { writeStandingsStream } from './standings-sse';
import { STREAM_LIMITS, type StreamLimits } from '../reliability/streams/stream-limits';

type Me = AuthenticatedPlayer;
type Opts = TournamentCommandOptions;

/** Errors of every tournament command besides its rules' own codes. */
const COMMAND: ErrorCode[] = [
  ...BODY_PROBLEMS,
  ...PATH_PROBLEMS,
  'UNAUTHENTICATED',
  'TOURNAMENT_NOT_FOUND',
  'PRECONDITION_FAILED',
  'VERSION_CONFLICT',
  'IDEMPOTENCY_KEY_REUSED',
  'IDEMPOTENCY_IN_PROGRESS',
  'TOURNAMENT_OVER',
  'DATABASE_UNAVAILABLE',
];

@ApiTags('tournaments')
@ApiBearerAuth()
@UseGuards(AuthGuard)
@Controller('tournaments')
export class TournamentsController {
  constructor(
    private readonly tournaments: TournamentsService,
    private readonly auditor: TournamentAuditService,
    @Inject(STREAM_LIMITS) private readonly streams: StreamLimits,
    private readonly players: PlayersService,
  ) {}

  @Post()
  @ApiOperation({
    summary: 'Create a tournament',
    description:
      'You are its organizer. The commitment (SHA-256 of the tournament seed) is published at once; every seed is fixed after it (docs/tournaments.md, docs/fairness.md §10).',
  })
  @ApiCreatedResponse({ type: TournamentView })
  @ApiRequestHeaders('Idempotency-Key')
  @ApiProblems(
    ...BODY_PROBLEMS,
    'UNAUTHENTICATED',
    'INVALID_OPTIONS',
    'FORMAT_NOT_SUPPORTED',
    'IDEMPOTENCY_KEY_REUSED',
    'IDEMPOTENCY_IN_PROGRESS',
    'DATABASE_UNAVAILABLE',
  )
  @RequireScope('tournament:write')
  create(
    @CurrentPlayer() me: Me,
    @Body() input: CreateTournamentInput,
    @RestCommandOptions() opts: Opts,
  ): Promise<TournamentView> {
    return this.tournaments.create(me, input, opts);
  }

  @Get()
  @OptionalAuth()
  @ApiOperation({ summary: 'Tournaments: public ones and those you organize or entered, newest first' })
  @ApiOkResponse({ type: TournamentPage })
  @ApiProblems('VALIDATION_FAILED', 'INVALID_CURSOR', 'UNAUTHENTICATED', 'DATABASE_UNAVAILABLE')
  @RequireScope('tournament:read')
  async list(@CurrentPlayer() me: Me | null, @Query() q: CursorQuery): Promise<TournamentPage> {
    const page = pageRequest(q);
    const res = await this.tournaments.list(me, { limit: page.limit, cursor: page.cursor });
    return { items: res.items.map(toTournamentView), nextCursor: res.nextCursor };
  }

  @Get(':id')
  @OptionalAuth()
  @ApiOperation({ summary: 'A tournament (private ones: organizer and entrants only)' })
  @ApiOkResponse({ type: TournamentView })
  @ApiProblems(...PATH_PROBLEMS, 'UNAUTHENTICATED', 'TOURNAMENT_NOT_FOUND', 'DATABASE_UNAVAILABLE')
  @RequireScope('tournament:read')
  async get(@CurrentPlayer() me: Me | null, @Param('id', UuidPipe) id: string): Promise<TournamentView> {
    return toTournamentView(await this.tournaments.get(me, id));
  }

  @Get(':id/events')
  @OptionalAuth()
  @ApiOperation({ summary: "The tournament's hash-chained event stream, oldest first" })
  @ApiOkResponse({ type: [TournamentEventView] })
  @ApiProblems(...PATH_PROBLEMS, 'UNAUTHENTICATED', 'TOURNAMENT_NOT_FOUND', 'DATABASE_UNAVAILABLE')
  @RequireScope('tournament:read')
  async events(@CurrentPlayer() me: Me | null, @Param('id', UuidPipe) id: string): Promise<TournamentEventView[]> {
    return (await this.tournaments.events(me, id)).map(toTournamentEventView);
  }

  @Get(':id/audit')
  @OptionalAuth()
  @ApiOperation({
    summary: 'One audit bundle for the whole ended tournament (docs/fairness.md §11)',
    description:
      "The tournament's hash-chained events, every game's own audit bundle, the standings and a Merkle root over the games' final heads; verify it offline with `fairdice verify-tournament` (packages/verifier). Only once the tournament has finished or was cancelled (409 TOURNAMENT_NOT_ENDED before).",
  })
  @ApiOkResponse({ type: TournamentAuditBundleView })
  @ApiProblems(
    ...PATH_PROBLEMS,
    'UNAUTHENTICATED',
    'TOURNAMENT_NOT_FOUND',
    'TOURNAMENT_NOT_ENDED',
    'DATABASE_UNAVAILABLE',
  )
  @RequireScope('tournament:read')
  audit(@CurrentPlayer() me: Me | null, @Param('id', UuidPipe) id: string): Promise<TournamentAuditBundleView> {
    return this.auditor.bundle(me, id) as unknown as Promise<TournamentAuditBundleView>;
  }

  @Get(':id/standings')
  @OptionalAuth()
  @ApiOperation({ summary: 'Standings now (docs/tournaments.md §4)' })
  @ApiOkResponse({ type: StandingsView })
  @ApiProblems(...PATH_PROBLEMS, 'UNAUTHENTICATED', 'TOURNAMENT_NOT_FOUND', 'DATABASE_UNAVAILABLE')
  @RequireScope('tournament:read')
  async standings(@CurrentPlayer() me: Me | null, @Param('id', UuidPipe) id: string): Promise<StandingsView> {
    return this.tournaments.standings(me, id);
  }

  @Get(':id/standings/stream')
  @OptionalAuth()
  @ApiOperation({
    summary: 'Server-Sent Events: the standings now, then again whenever they change',
    description:
      'Each message: `event: standings`, `data: <Standings JSON>`. A comment heartbeat every 15 s. Opened with a token: once that token is rotated, revoked or expires, a last message `event: revoked` with `data: {"type":"revoked","code":"UNAUTHENTICATED",...}`, and the stream ends.',
  })
  @ApiResponse({
    status: 200,
    description: 'text/event-stream',
    content: { 'text/event-stream': { schema: { type: 'string', example: 'event: standings\ndata: {...}\n\n' } } },
  })
  @ApiProblems(...PATH_PROBLEMS, 'UNAUTHENTICATED', 'TOURNAMENT_NOT_FOUND', 'TOO_MANY_STREAMS', 'DATABASE_UNAVAILABLE')
  @RequireScope('tournament:read')
  async standingsStream(
    @CurrentPlayer() me: Me | null,
    @CurrentToken() token: string | null,
    @Param('id', UuidPipe) id: string,
    @Req() req: FastifyRequest,
    @Res() reply: FastifyReply,
  ): Promise<void> {
    // One of the client's SSE slots for as long as the stream is open (429 TOO_MANY_STREAMS over the cap).
    const slot = this.streams.openSse(req.ip);
    try {
      const stream = await this.tournaments.standingsStream(me, id);
      // Opened with a token: it ends (event: revoked) once the token is rotated, revoked or expires.
      await writeStandingsStream(
        me && token
          ? new RevocableStream(stream, (onRevoked) => this.players.watchToken(token, me.id, onRevoked))
          : stream,
        req,
        reply,
      );
    } finally {
      slot.release();
    }
  }

  @Post(':id/entrants')
  @HttpCode(200)
  @ApiOperation({ summary: 'Register for the tournament with your own client seed (generated when omitted)' })
  // clientSeed is optional: no body at all is the same as {} (typed clients need not send one).
  @ApiBody({ type: RegisterInput, required: false })
  @ApiOkResponse({ type: TournamentView })
  @ApiRequestHeaders('Idempotency-Key', 'If-Match')
  @ApiProblems(...COMMAND, 'ALREADY_REGISTERED', 'REGISTRATION_CLOSED', 'TOURNAMENT_FULL', 'INVALID_SEED')
  @RequireScope('tournament:write')
  register(
    @CurrentPlayer() me: Me,
    @Param('id', UuidPipe) id: string,
    @Body() input: RegisterInput,
    @RestCommandOptions() opts: Opts,
  ) {
    return this.tournaments.register(me, id, input ?? {}, opts);
  }

  @Put(':id/organizer-seed')
  @ApiOperation({ summary: "Set the organizer's seed (organizer; before registration closes)" })
  @ApiOkResponse({ type: TournamentView })
  @ApiRequestHeaders('Idempotency-Key', 'If-Match')
  @ApiProblems(...COMMAND, 'NOT_ORGANIZER', 'REGISTRATION_CLOSED', 'INVALID_SEED')
  @RequireScope('tournament:write')
  organizerSeed(
    @CurrentPlayer() me: Me,
    @Param('id', UuidPipe) id: string,
    @Body() input: OrganizerSeedInput,
    @RestCommandOptions() opts: Opts,
  ) {
    return this.tournaments.setOrganizerSeed(me, id, input.organizerSeed, opts);
  }

  @Post(':id/close')
  @HttpCode(200)
  @ApiOperation({ summary: 'Close registration (organizer): the organizer seed and the entrants are fixed' })
  @ApiNoFieldsBody()
  @ApiOkResponse({ type: TournamentView })
  @ApiRequestHeaders('Idempotency-Key', 'If-Match')
  @ApiProblems(...COMMAND, 'NOT_ORGANIZER', 'REGISTRATION_CLOSED')
  @RequireScope('tournament:write')
  close(
    @CurrentPlayer() me: Me,
    @Param('id', UuidPipe) id: string,
    @Body(NoFieldsPipe) _b: unknown,
    @RestCommandOptions() opts: Opts,
  ) {
    return this.tournaments.closeRegistration(me, id, opts);
  }

  @Post(':id/start')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Start the tournament (organizer): closes registration if open, creates round 1',
  })
  @ApiNoFieldsBody()
  @ApiOkResponse({ type: TournamentView })
  @ApiRequestHeaders('Idempotency-Key', 'If-Match')
  @ApiProblems(
    ...COMMAND,
    'NOT_ORGANIZER',
    'TOO_FEW_ENTRANTS',
    'TOURNAMENT_ALREADY_STARTED',
    'REGISTRATION_CLOSED',
    'INVALID_COMMAND',
  )
  @RequireScope('tournament:write')
  start(
    @CurrentPlayer() me: Me,
    @Param('id', UuidPipe) id: string,
    @Body(NoFieldsPipe) _b: unknown,
    @RestCommandOptions() opts: Opts,
  ) {
    return this.tournaments.start(me, id, opts);
  }

  @Post(':id/cancel')
  @HttpCode(200)
  @ApiOperation({ summary: 'Cancel the tournament (organizer) with a recorded reason; reveals the tournament seed' })
  @ApiOkResponse({ type: TournamentView })
  @ApiRequestHeaders('Idempotency-Key', 'If-Match')
  @ApiProblems(...COMMAND, 'NOT_ORGANIZER', 'INVALID_COMMAND')
  @RequireScope('tournament:write')
  cancel(
    @CurrentPlayer() me: Me,
    @Param('id', UuidPipe) id: string,
    @Body() input: ReasonInput,
    @RestCommandOptions() opts: Opts,
  ) {
    return this.tournaments.cancel(me, id, input.reason, opts);
  }

  @Post(':id/entrants/:playerId/withdraw')
  @HttpCode(200)
  @ApiOperation({ summary: 'Withdraw an entrant (the entrant themself, or the organizer) with a recorded reason' })
  @ApiOkResponse({ type: TournamentView })
  @ApiRequestHeaders('Idempotency-Key', 'If-Match')
  @ApiProblems(...COMMAND, 'NOT_ORGANIZER', 'NOT_REGISTERED', 'INVALID_COMMAND')
  @RequireScope('tournament:write')
  withdraw(
    @CurrentPlayer() me: Me,
    @Param('id', UuidPipe) id: string,
    @Param('playerId', UuidPipe) playerId: string,
    @Body() input: ReasonInput,
    @RestCommandOptions() opts: Opts,
  ) {
    return this.tournaments.withdraw(me, id, playerId, input.reason, opts);
  }

  @Post(':id/entrants/:playerId/disqualify')
  @HttpCode(200)
  @ApiOperation({ summary: 'Disqualify an entrant (organizer) with a recorded reason' })
  @ApiOkResponse({ type: TournamentView })
  @ApiRequestHeaders('Idempotency-Key', 'If-Match')
  @ApiProblems(...COMMAND, 'NOT_ORGANIZER', 'NOT_REGISTERED', 'INVALID_COMMAND')
  @RequireScope('tournament:write')
  disqualify(
    @CurrentPlayer() me: Me,
    @Param('id', UuidPipe) id: string,
    @Param('playerId', UuidPipe) playerId: string,
    @Body() input: ReasonInput,
    @RestCommandOptions() opts: Opts,
  ) {
    return this.tournaments.disqualify(me, id, playerId, input.reason, opts);
  }
}

// ETag: "<version>" on every tournament answer, for If-Match on its commands (as for games).
versionETags(TournamentsController);
