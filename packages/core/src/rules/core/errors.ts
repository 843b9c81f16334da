/**
 * Every rule violation has a stable code. The list is closed: the HTTP/GraphQL mapping in
 * src/common/errors is a Record over this union, so adding a code fails to compile until mapped.
 */
export const RULE_ERROR_CODES = [
  // lobby / lifecycle
  'GAME_NOT_STARTED',
  'GAME_ALREADY_STARTED',
  'GAME_FINISHED',
  'NOT_SEATED',
  'SEAT_TAKEN',
  'NO_OPEN_SEAT',
  'ALREADY_SEATED',
  'NOT_ENOUGH_PLAYERS',
  'NOT_CREATOR',
  'INVALID_OPTIONS',
  'INVALID_COMMAND',
  // seeds (docs/fairness.md §2)
  'NOT_YOUR_SEAT',
  'INVALID_SEED',
  // turns
  'NOT_YOUR_TURN',
  // five dice
  'ROLL_REQUIRED',
  'NO_ROLLS_LEFT',
  'INVALID_HOLD',
  'UNKNOWN_BOX',
  'BOX_ALREADY_FILLED',
  'BOX_NOT_ALLOWED',
  // farkle
  'INVALID_SELECTION',
  'SELECTION_DOES_NOT_SCORE',
  'NOTHING_SET_ASIDE',
  'ALREADY_SET_ASIDE',
  'BELOW_ENTRY_THRESHOLD',
  // tournaments (docs/tournaments.md)
  'NOT_ORGANIZER',
  'FORMAT_NOT_SUPPORTED',
  'ALREADY_REGISTERED',
  'NOT_REGISTERED',
  'REGISTRATION_CLOSED',
  'TOURNAMENT_FULL',
  'TOO_FEW_ENTRANTS',
  'TOURNAMENT_ALREADY_STARTED',
  'TOURNAMENT_NOT_RUNNING',
  'TOURNAMENT_OVER',
  // accounts (docs/accounts.md)
  'INVALID_USERNAME',
  'USERNAME_REQUIRED',
  'INVALID_CREDENTIAL_NAME',
  'CREDENTIAL_NOT_FOUND',
  'CREDENTIAL_ALREADY_REGISTERED',
  'PASSKEY_LIMIT_REACHED',
  'LAST_CREDENTIAL',
  // challenges (docs/challenges.md)
  'CANNOT_CHALLENGE_SELF',
  'CHALLENGE_NOT_PENDING',
  'NOT_CHALLENGE_RECIPIENT',
  'NOT_CHALLENGER',
  // seeks (docs/matchmaking.md)
  'UNKNOWN_POOL',
  'INVALID_RATING_RANGE',
  'INVALID_TIME_CONTROL',
  'SEEK_LIMIT_REACHED',
  'NOT_YOUR_SEEK',
  'SEEK_NOT_OPEN',
] as const;

export type RuleErrorCode = (typeof RULE_ERROR_CODES)[number];

/** A rule violation as a value: returned by `decide`, never thrown. */
export class RuleError {
  readonly kind = 'RuleError' as const;
  constructor(
    readonly code: RuleErrorCode,
    readonly message: string,
    readonly details?: Record<string, unknown>,
  ) {}
}

export const ruleError = (code: RuleErrorCode, message: string, details?: Record<string, unknown>) =>
  new RuleError(code, message, details);

export const isRuleError = (value: unknown): value is RuleError => value instanceof RuleError;
