/**
 * @fairdice/client: a typed client of the fairdice API, generated from its committed contracts
 * (openapi/openapi.json, src/schema.gql). See packages/client/README.md.
 */
export type { paths, components, operations } from './generated/openapi';
export * from './types';
export * from './errors';
export {
  createFairdiceClient,
  createFairdiceCompactClient,
  bearerAuth,
  COMMAND_EVENTS_MEDIA_TYPE,
  type FairdiceClientOptions,
  type FairdiceRestClient,
  type FairdiceCompactClient,
  type FairdiceMedia,
} from './rest';
export {
  gameMoves,
  GAME_MOVE_ROUTES,
  type GameMoves,
  type GameMoveName,
  type GameMoveBody,
  type GameMoveInit,
} from './moves';
export { resilientFetch, isCommand, newIdempotencyKey, retryAfterMs, type RetryOptions, type FetchLike } from './retry';
export {
  gameEventStream,
  playerEventStream,
  tournamentStandingsStream,
  ACCESS_REVOKED_EVENT,
  TOKEN_REVOKED_EVENT,
  STANDINGS_EVENT,
  type GameStreamOptions,
  type PlayerEventStreamOptions,
  type StreamOptions,
  type TournamentStandingsStreamOptions,
} from './stream';
export {
  FairdiceChannel,
  CHANNEL_PROTOCOL,
  CHANNEL_TOKEN_PROTOCOL_PREFIX,
  type ChannelOptions,
  type MoveResult,
  type MoveOptions,
  type FollowOptions,
} from './channel';
export { verifyWebhook, WebhookVerificationError, type WebhookPayload, type VerifyWebhookOptions } from './webhooks';
