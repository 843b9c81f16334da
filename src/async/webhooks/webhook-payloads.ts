/**
 * The OpenAPI 3.1 `webhooks` section: what a registered URL receives (src/event-store/async-effects.ts
 * builds the notices, webhooks.service.ts wraps them as { type, timestamp, data } and signs them).
 */
import {
  arrayOf,
  closed,
  constant,
  dateTime,
  enumOf,
  hex64,
  int,
  type JsonSchema,
  nullable,
  ref,
  str,
  uuid,
} from '../../common/openapi/json-schema';
import { WEBHOOK_EVENT_TYPES, type WebhookEventType } from '../../event-store/async-effects';

const game = {
  gameId: uuid(),
  ruleSet: ref('RuleSetName'),
  family: ref('GameFamily'),
  version: int('The game version the notice is about.', { minimum: 1 }),
};

const tournament = {
  tournamentId: uuid(),
  name: str(),
  ruleSet: ref('RuleSetName'),
  format: enumOf(['duplicate', 'tables']),
  version: int('The tournament version the notice is about.', { minimum: 1 }),
};

const DATA: Record<WebhookEventType, { name: string; summary: string; data: JsonSchema }> = {
  'turn.started': {
    name: 'TurnStartedWebhook',
    summary: "It is your move: a seat of yours is the current seat (sent to that seat's player).",
    data: closed({
      ...game,
      seat: int(undefined, { minimum: 0, maximum: 7 }),
      playerId: uuid(),
      turnTimeLimitSeconds: nullable(int(undefined, { minimum: 1 })),
      deadline: nullable(dateTime('When the server moves for you (null: no time limit).')),
    }),
  },
  'game.started': {
    name: 'GameStartedWebhook',
    summary: 'A game you sit in started (sent to every seated player).',
    data: closed({
      ...game,
      seats: arrayOf(closed({ seat: int(undefined, { minimum: 0, maximum: 7 }), playerId: nullable(uuid()) })),
    }),
  },
  'game.finished': {
    name: 'GameFinishedWebhook',
    summary: 'A game you sit in finished (sent to every seated player).',
    data: closed({ ...game, standings: nullable(arrayOf(ref('SeatStanding'))) }),
  },
  'tournament.started': {
    name: 'TournamentStartedWebhook',
    summary: 'A tournament you organize or entered started (docs/tournaments.md).',
    data: closed({ ...tournament, entrants: int('Active entrants.', { minimum: 0 }) }),
  },
  'round.started': {
    name: 'RoundStartedWebhook',
    summary: 'A round of a tournament you organize or entered started: its games and who plays them.',
    data: closed({
      ...tournament,
      round: int(undefined, { minimum: 1 }),
      games: arrayOf(
        closed({
          gameId: uuid(),
          game: int(undefined, { minimum: 0 }),
          table: int(undefined, { minimum: 0 }),
          playerIds: arrayOf(nullable(uuid()), 'In seat order.'),
        }),
      ),
    }),
  },
  'round.finished': {
    name: 'RoundFinishedWebhook',
    summary: 'Every game of a round ended; its round seed is revealed.',
    data: closed({ ...tournament, round: int(undefined, { minimum: 1 }), roundSeed: hex64('The round seed.') }),
  },
  'tournament.finished': {
    name: 'TournamentFinishedWebhook',
    summary: 'A tournament you organize or entered finished (or was cancelled): final standings and the revealed seed.',
    data: closed({
      ...tournament,
      status: enumOf(['finished', 'cancelled']),
      tournamentSeed: hex64('The tournament seed.'),
      standings: arrayOf(
        closed({
          rank: int(undefined, { minimum: 1 }),
          entrant: int(undefined, { minimum: 1 }),
          playerId: uuid(),
          status: enumOf(['active', 'withdrawn', 'disqualified']),
          totalScore: int(),
          matchPoints: int(undefined, { minimum: 0 }),
        }),
      ),
    }),
  },
};

export const WEBHOOK_SCHEMAS: Record<string, JsonSchema> = Object.fromEntries(
  WEBHOOK_EVENT_TYPES.map((type) => [
    DATA[type].name,
    closed(
      {
        type: constant(type),
        timestamp: dateTime('When the notice was prepared (the same on every retry).'),
        data: DATA[type].data,
      },
      { description: DATA[type].summary },
    ),
  ]),
);

const signatureHeaders = [
  {
    name: 'webhook-id',
    in: 'header',
    required: true,
    description: 'The delivery id, the same on every retry: de-duplicate with it.',
    schema: { type: 'string', format: 'uuid' },
  },
  {
    name: 'webhook-timestamp',
    in: 'header',
    required: true,
    description: 'Unix seconds of this attempt; reject old ones (replays).',
    schema: { type: 'string', pattern: '^\\d+$' },
  },
  {
    name: 'webhook-signature',
    in: 'header',
    required: true,
    description:
      'Standard Webhooks: `v1,<base64 HMAC-SHA256 of "<webhook-id>.<webhook-timestamp>.<body>">` with the secret from POST /v1/webhooks (docs/async.md).',
    schema: { type: 'string', pattern: '^v1,' },
  },
];

export const WEBHOOKS: Record<string, Record<string, unknown>> = Object.fromEntries(
  WEBHOOK_EVENT_TYPES.map((type) => [
    type,
    {
      post: {
        operationId: `webhook_${type.replace('.', '_')}`,
        summary: DATA[type].summary,
        description:
          'POSTed to each of your webhooks subscribed to this type, signed per Standard Webhooks. Answer 2xx within the timeout; anything else is retried with exponential backoff (1 s, 2 s, 4 s..., 8 attempts).',
        tags: ['webhooks'],
        parameters: signatureHeaders,
        requestBody: {
          required: true,
          content: { 'application/json': { schema: ref(DATA[type].name) } },
        },
        responses: {
          '2XX': { description: 'Received; any other status (or no answer) is retried.' },
        },
      },
    },
  ]),
);
