import type { RuleErrorCode } from '@fairdice/core/rules/core/errors';

/** Codes raised by the service itself (not by the rules). */
export const SERVICE_ERROR_CODES = [
  'VALIDATION_FAILED',
  'UNAUTHENTICATED',
  'FORBIDDEN',
  'GAME_NOT_FOUND',
  'PLAYER_NOT_FOUND',
  'RULE_SET_NOT_FOUND',
  'ROUTE_NOT_FOUND',
  'VERSION_CONFLICT',
  'VERSION_NOT_FOUND',
  'PRECONDITION_FAILED',
  'IDEMPOTENCY_KEY_REUSED',
  'IDEMPOTENCY_IN_PROGRESS',
  'PAYLOAD_TOO_LARGE',
  'UNSUPPORTED_MEDIA_TYPE',
  'RATE_LIMITED',
  'QUERY_TOO_COMPLEX',
  'DATABASE_UNAVAILABLE',
  'INTERNAL',
  'WEBHOOK_NOT_FOUND',
  'WEBHOOK_LIMIT_REACHED',
  'WEBHOOK_URL_NOT_ALLOWED',
  'GAME_ACCESS_REVOKED',
  'JSON_TOO_DEEP',
  'REQUEST_HEADERS_TOO_LARGE',
  'REQUEST_TIMEOUT',
  'MALFORMED_REQUEST',
  'UNSUPPORTED_OPERATION',
  'URI_TOO_LONG',
  'NOT_READY',
  'SEED_BEFORE_COMMITMENT',
  'LOG_SIZE_OUT_OF_RANGE',
  'LOG_TREE_HEAD_NOT_FOUND',
  'INVALID_CURSOR',
  'TOURNAMENT_NOT_FOUND',
  'TABLE_BUILDING',
  'ADVICE_BUSY',
] as const;

export type ServiceErrorCode = (typeof SERVICE_ERROR_CODES)[number];
export type ErrorCode = RuleErrorCode | ServiceErrorCode;

interface ErrorMapping {
  status: number;
  title: string;
}

/**
 * The single mapping from every error code to its HTTP status and title. It is a Record over
 * the closed union of codes, so a new code does not compile until it is mapped here.
 * GraphQL errors carry the same code in `extensions.code` (and the status in `extensions.status`).
 */
export const ERROR_MAP: Record<ErrorCode, ErrorMapping> = {
  // rules: the request was well-formed but the game's state forbids it -> 409 Conflict,
  // except lobby/access ones that are about who is asking.
  GAME_NOT_STARTED: { status: 409, title: 'The game has not started' },
  GAME_ALREADY_STARTED: { status: 409, title: 'The game has already started' },
  GAME_FINISHED: { status: 409, title: 'The game is over' },
  NOT_SEATED: { status: 403, title: 'You do not hold a seat in this game' },
  SEAT_TAKEN: { status: 409, title: 'That seat is taken' },
  NO_OPEN_SEAT: { status: 409, title: 'No open seat is left' },
  ALREADY_SEATED: { status: 409, title: 'You already hold a seat in this game' },
  NOT_ENOUGH_PLAYERS: { status: 409, title: 'Not every seat is filled' },
  NOT_CREATOR: { status: 403, title: 'Only the game creator may do this' },
  INVALID_OPTIONS: { status: 400, title: 'Invalid rule-set options' },
  INVALID_COMMAND: { status: 400, title: 'Invalid command' },
  NOT_YOUR_SEAT: { status: 403, title: 'That seat is not yours' },
  INVALID_SEED: { status: 400, title: 'Invalid client seed' },
  NOT_YOUR_TURN: { status: 409, title: 'It is not your turn' },
  ROLL_REQUIRED: { status: 409, title: 'Roll the dice first' },
  NO_ROLLS_LEFT: { status: 409, title: 'No rolls left this turn' },
  INVALID_HOLD: { status: 400, title: 'Invalid dice to hold' },
  UNKNOWN_BOX: { status: 400, title: 'Unknown box' },
  BOX_ALREADY_FILLED: { status: 409, title: 'That box is already filled' },
  BOX_NOT_ALLOWED: { status: 409, title: 'The joker rule does not allow that box' },
  INVALID_SELECTION: { status: 400, title: 'Invalid dice selection' },
  SELECTION_DOES_NOT_SCORE: { status: 409, title: 'Every die set aside must score' },
  NOTHING_SET_ASIDE: { status: 409, title: 'Set aside at least one scoring die first' },
  ALREADY_SET_ASIDE: { status: 409, title: 'Dice were already set aside from this roll' },
  BELOW_ENTRY_THRESHOLD: { status: 409, title: 'Not enough points to get on the board' },
  // tournaments (docs/tournaments.md)
  NOT_ORGANIZER: { status: 403, title: 'Only the organizer of the tournament can do this' },
  FORMAT_NOT_SUPPORTED: { status: 422, title: 'The rule set does not support this tournament format' },
  ALREADY_REGISTERED: { status: 409, title: 'You are already registered' },
  NOT_REGISTERED: { status: 409, title: 'That player is not an entrant of the tournament' },
  REGISTRATION_CLOSED: { status: 409, title: 'Registration is closed' },
  TOURNAMENT_FULL: { status: 409, title: 'The tournament has its maximum of entrants' },
  TOO_FEW_ENTRANTS: { status: 409, title: 'Too few entrants to start the tournament' },
  TOURNAMENT_ALREADY_STARTED: { status: 409, title: 'The tournament has started' },
  TOURNAMENT_NOT_RUNNING: { status: 409, title: 'The tournament is not running' },
  TOURNAMENT_OVER: { status: 409, title: 'The tournament is over' },
  // service
  VALIDATION_FAILED: { status: 400, title: 'The request is not valid' },
  UNAUTHENTICATED: { status: 401, title: 'A valid bearer token is required' },
  FORBIDDEN: { status: 403, title: 'You may not do this' },
  GAME_NOT_FOUND: { status: 404, title: 'No such game' },
  TOURNAMENT_NOT_FOUND: { status: 404, title: 'No such tournament' },
  PLAYER_NOT_FOUND: { status: 404, title: 'No such player' },
  RULE_SET_NOT_FOUND: { status: 404, title: 'No such rule set' },
  ROUTE_NOT_FOUND: { status: 404, title: 'No such route' },
  VERSION_CONFLICT: { status: 409, title: 'The game changed meanwhile; reload and retry' },
  VERSION_NOT_FOUND: { status: 404, title: 'The game has no such version' },
  PRECONDITION_FAILED: { status: 412, title: 'The game is no longer at the version you named' },
  IDEMPOTENCY_KEY_REUSED: { status: 422, title: 'This idempotency key was used with a different request' },
  IDEMPOTENCY_IN_PROGRESS: { status: 409, title: 'A request with this idempotency key is still running' },
  PAYLOAD_TOO_LARGE: { status: 413, title: 'The request body is too large' },
  UNSUPPORTED_MEDIA_TYPE: { status: 415, title: 'Unsupported content type' },
  RATE_LIMITED: { status: 429, title: 'Too many requests' },
  QUERY_TOO_COMPLEX: { status: 400, title: 'The GraphQL document is too deep, costly or wide' },
  DATABASE_UNAVAILABLE: { status: 503, title: 'The database is unavailable; retry shortly' },
  INTERNAL: { status: 500, title: 'Internal error' },
  WEBHOOK_NOT_FOUND: { status: 404, title: 'No such webhook' },
  WEBHOOK_LIMIT_REACHED: { status: 409, title: 'Too many webhooks; delete one first' },
  WEBHOOK_URL_NOT_ALLOWED: { status: 422, title: 'The webhook URL points to an address that is not allowed' },
  GAME_ACCESS_REVOKED: { status: 403, title: 'You may no longer see this game' },
  JSON_TOO_DEEP: { status: 400, title: 'The JSON body is nested too deeply' },
  REQUEST_HEADERS_TOO_LARGE: { status: 431, title: 'Request Header Fields Too Large' },
  REQUEST_TIMEOUT: { status: 408, title: 'Request Timeout' },
  MALFORMED_REQUEST: { status: 400, title: 'Malformed HTTP request' },
  UNSUPPORTED_OPERATION: { status: 400, title: 'This operation is not served over this transport' },
  URI_TOO_LONG: { status: 414, title: 'A path parameter is too long' },
  NOT_READY: { status: 503, title: 'This instance is not ready to take traffic' },
  SEED_BEFORE_COMMITMENT: {
    status: 400,
    title: 'Seeds are set after the game is created (PUT /v1/games/{id}/seeds), never in the create request',
  },
  LOG_SIZE_OUT_OF_RANGE: { status: 400, title: 'The tree sizes are not in the transparency log' },
  LOG_TREE_HEAD_NOT_FOUND: { status: 404, title: 'The transparency log signed no tree head of that size' },
  INVALID_CURSOR: { status: 400, title: 'The page cursor is not valid for this list' },
  TABLE_BUILDING: { status: 503, title: 'The advice table for these rules is being computed; retry after Retry-After' },
  ADVICE_BUSY: { status: 503, title: 'Too many advice tables are being computed; retry after Retry-After' },
};

export const isErrorCode = (value: unknown): value is ErrorCode =>
  typeof value === 'string' && Object.prototype.hasOwnProperty.call(ERROR_MAP, value);
