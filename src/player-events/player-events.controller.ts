import { RequireScope } from '../players/require-scope';
import { Body, Controller, Get, Headers, Inject, Put, Query, Req, Res, UseGuards } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import {
  ApiBearerAuth,
  ApiExtraModels,
  ApiOkResponse,
  ApiOperation,
  ApiQuery,
  ApiResponse,
  ApiTags,
  getSchemaPath,
} from '@nestjs/swagger';
import { ERROR_MAP } from '../common/errors/error-codes';
import { NDJSON_FRAMING, SSE_FRAMING, writeSse } from '../common/http/sse';
import { ApiProblems, ApiRequestHeaders, BODY_PROBLEMS } from '../common/openapi/decorators';
import { AuthGuard, CurrentPlayer, CurrentToken } from '../players/auth.guard';
import type { AuthenticatedPlayer } from '../players/players.types';
import { STREAM_LIMITS, type StreamLimits } from '../reliability/streams/stream-limits';
import {
  messageOf,
  PLAYER_EVENT_CLASSES,
  PlayerEventSettingsView,
  ResyncPlayerEvent,
  RevokedMessage,
  UpdatePlayerEventSettingsInput,
} from './dto/player-event.dto';
import { PlayerEventsService } from './player-events.service';
import { isRevoked, PLAYER_EVENT_TYPES } from './player-events.types';

const REVOKED = {
  type: 'revoked',
  code: 'UNAUTHENTICATED',
  status: ERROR_MAP.UNAUTHENTICATED.status,
  detail:
    'The token that opened this stream no longer authenticates (rotated, or its session revoked); the stream ends here',
};

const MESSAGE_SCHEMA = {
  oneOf: [...Object.values(PLAYER_EVENT_CLASSES), ResyncPlayerEvent, RevokedMessage].map((c) => ({
    $ref: getSchemaPath(c),
  })),
  discriminator: {
    propertyName: 'type',
    mapping: {
      ...Object.fromEntries(Object.entries(PLAYER_EVENT_CLASSES).map(([type, c]) => [type, getSchemaPath(c)])),
      resync: getSchemaPath(ResyncPlayerEvent),
      revoked: getSchemaPath(RevokedMessage),
    },
  },
};

@ApiTags('player events')
@ApiBearerAuth()
@UseGuards(AuthGuard)
@ApiExtraModels(...Object.values(PLAYER_EVENT_CLASSES), ResyncPlayerEvent, RevokedMessage)
@Controller('players/me')
export class PlayerEventsController {
  constructor(
    private readonly events: PlayerEventsService,
    @Inject(STREAM_LIMITS) private readonly streams: StreamLimits,
  ) {}

  @Get('events')
  @ApiOperation({
    summary:
      'My event stream: yourTurn, deadlineSoon, gameStarted, gameFinished, seatTaken, tournament and challenge events',
    description:
      "One stream per player (the token's player, never anyone else's) over all their games and tournaments. Server-Sent Events by default: `id: <seq>`, `event: <type>`, `data: <the event as JSON>` (named events: use addEventListener(type)); with `Accept: application/x-ndjson`, one JSON event a line (an empty line is a keep-alive). Each player's events have their own sequence `seq` (increasing; numbers may be skipped). Resume with Last-Event-ID (SSE) or ?after=<seq>: everything after it that is still kept (PLAYER_EVENTS_RETENTION_HOURS, 7 days by default) comes first, then live events; without either, live events only. A position older than the retention gets a `resync` message first (reload, then follow); a position beyond my last event is 400 INVALID_EVENT_CURSOR. When the token is rotated the stream ends with a `revoked` message. Heartbeat every 15 s. docs/async.md, Player events.",
  })
  @ApiQuery({
    name: 'after',
    required: false,
    schema: { type: 'integer', minimum: 0 },
    description: 'Resume after this sequence number (Last-Event-ID takes precedence).',
  })
  @ApiResponse({
    status: 200,
    description: 'The stream (text/event-stream, or application/x-ndjson when asked for).',
    content: {
      'text/event-stream': {
        schema: {
          type: 'string',
          description:
            'Server-Sent Events. Event names: ' +
            PLAYER_EVENT_TYPES.join(', ') +
            ', resync (data: ResyncPlayerEvent; its id is where the stream continues) and revoked (data: RevokedMessage, the last message, no id). `data:` is one PlayerEventMessage as JSON.',
          example:
            ': connected\n\nid: 7\nevent: yourTurn\ndata: {"seq":7,"type":"yourTurn","createdAt":"2026-12-21T10:00:00.000Z","data":{"gameId":"…","ruleSet":"classic","family":"five-dice","version":12,"seat":1,"turnTimeLimitSeconds":86400,"deadline":"2026-12-22T10:00:00.000Z"}}\n\n',
        },
      },
      'application/x-ndjson': { schema: MESSAGE_SCHEMA },
    },
  })
  @ApiRequestHeaders('Last-Event-ID')
  @ApiProblems('INVALID_EVENT_CURSOR', 'TOO_MANY_STREAMS', 'DATABASE_UNAVAILABLE')
  @RequireScope('game:read')
  async stream(
    @CurrentPlayer() me: AuthenticatedPlayer,
    @CurrentToken() token: string | null,
    @Query('after') afterQuery: string | undefined,
    @Headers('last-event-id') lastEventId: string | undefined,
    @Headers('accept') accept: string | undefined,
    @Req() req: FastifyRequest,
    @Res() reply: FastifyReply,
  ): Promise<void> {
    const after = this.events.cursor(lastEventId, afterQuery);
    // One of the client's SSE slots for as long as the stream is open (429 TOO_MANY_STREAMS over the cap).
    const slot = this.streams.openSse(req.ip);
    try {
      const items = await this.events.openFor(me, token, after);
      const ndjson = /application\/x-ndjson/i.test(accept ?? '');
      await writeSse(
        items,
        req,
        reply,
        (item) => {
          if (isRevoked(item))
            return {
              text: ndjson ? `${JSON.stringify(REVOKED)}\n` : `event: revoked\ndata: ${JSON.stringify(REVOKED)}\n\n`,
              last: true,
            };
          const m = messageOf(item);
          const json = JSON.stringify(m);
          return { text: ndjson ? `${json}\n` : `id: ${m.seq}\nevent: ${m.type}\ndata: ${json}\n\n`, last: false };
        },
        ndjson ? NDJSON_FRAMING : SSE_FRAMING,
      );
    } finally {
      slot.release();
    }
  }

  @Get('event-settings')
  @ApiOperation({ summary: 'My settings of the event stream (deadlineSoon share) and of Web Push (which events push)' })
  @ApiOkResponse({ type: PlayerEventSettingsView })
  @ApiProblems('DATABASE_UNAVAILABLE')
  @RequireScope('account:read')
  settings(@CurrentPlayer() me: AuthenticatedPlayer): Promise<PlayerEventSettingsView> {
    return this.events.settings(me.id);
  }

  @Put('event-settings')
  @ApiOperation({ summary: 'Change my event settings (fields left out keep their value)' })
  @ApiOkResponse({ type: PlayerEventSettingsView })
  @ApiProblems(...BODY_PROBLEMS, 'DATABASE_UNAVAILABLE')
  @RequireScope('account:write')
  updateSettings(
    @CurrentPlayer() me: AuthenticatedPlayer,
    @Body() input: UpdatePlayerEventSettingsInput,
  ): Promise<PlayerEventSettingsView> {
    return this.events.updateSettings(me.id, input);
  }
}
