/**
 * The one problem+json schema (RFC 9457) every error response of the REST API uses, with the
 * closed enum of error codes (src/common/errors/error-codes.ts) and the extension members the
 * service adds (validation errors, the current version, the retry delay...).
 */
import { ERROR_MAP } from '../errors/error-codes';
import { arrayOf, closed, int, type JsonSchema, nullable, ref, str } from './json-schema';

export const ERROR_CODES = Object.keys(ERROR_MAP) as Array<keyof typeof ERROR_MAP>;

const codeTable = ERROR_CODES.map((code) => `- \`${code}\` (${ERROR_MAP[code].status}): ${ERROR_MAP[code].title}`).join(
  '\n',
);

export const PROBLEM_SCHEMAS: Record<string, JsonSchema> = {
  ErrorCode: {
    type: 'string',
    enum: ERROR_CODES,
    description: `The stable error code; each has one HTTP status:\n${codeTable}`,
  },
  ValidationErrorItem: closed(
    { field: str('The field (dotted path), header or `(body)`.'), problems: arrayOf(str()) },
    { description: 'One invalid field and what is wrong with it.' },
  ),
  HealthCheckResult: closed(
    {
      status: { type: 'string', enum: ['up', 'down'] },
      message: str(),
      delayMs: int(),
      limitMs: int(),
      poolWaitMs: int(),
      responseTimeMs: int(),
      timeoutMs: int(),
    },
    { optional: ['message', 'delayMs', 'limitMs', 'poolWaitMs', 'responseTimeMs', 'timeoutMs'] },
  ),
  Problem: closed(
    {
      type: str('https://fairdice.dev/problems/<code in kebab case>', { format: 'uri' }),
      title: str('A short summary of the code (the same for every occurrence).'),
      status: int('The HTTP status.', { minimum: 400, maximum: 599 }),
      detail: str('What went wrong this time, for a human.'),
      code: ref('ErrorCode'),
      instance: str('The request path.'),
      requestId: str('The X-Request-Id of the request (quote it in a support request).'),
      errors: arrayOf(ref('ValidationErrorItem'), 'VALIDATION_FAILED: every invalid field.'),
      currentVersion: int('PRECONDITION_FAILED: the version the game is at.'),
      latestVersion: int('VERSION_NOT_FOUND: the latest version of the game.'),
      currentSeat: nullable(int('NOT_YOUR_TURN: the seat whose turn it is.')),
      openSeats: arrayOf(int(), 'NOT_ENOUGH_PLAYERS: the seats still open.'),
      seat: int('The seat the error is about.'),
      box: str('UNKNOWN_BOX, BOX_ALREADY_FILLED, BOX_NOT_ALLOWED: the box.'),
      hold: arrayOf(int(), 'INVALID_HOLD: the indices given.'),
      dice: arrayOf(int(), 'INVALID_SELECTION: the indices given.'),
      option: str('INVALID_OPTIONS: the option.'),
      value: {
        type: ['string', 'number', 'boolean', 'null'],
        description: 'INVALID_OPTIONS: the value given (text for objects and arrays, long text shortened).',
      },
      setAside: arrayOf(int(), 'ALREADY_SET_ASIDE: the indices already set aside from this roll.'),
      faces: arrayOf(int(), 'SELECTION_DOES_NOT_SCORE: the faces chosen.'),
      points: int('BELOW_ENTRY_THRESHOLD: the points of the turn.'),
      entryThreshold: int('BELOW_ENTRY_THRESHOLD: the points needed.'),
      maxDepth: int('JSON_TOO_DEEP: the deepest nesting accepted.'),
      reason: {
        type: 'string',
        enum: ['non-public-address', 'unresolvable', 'https-required'],
        description: 'WEBHOOK_URL_NOT_ALLOWED: why the URL is refused.',
      },
      fields: arrayOf(str(), 'SEED_BEFORE_COMMITMENT: the seed fields given too early.'),
      first: int('LOG_SIZE_OUT_OF_RANGE: the first size asked.'),
      second: int('LOG_SIZE_OUT_OF_RANGE: the second size asked.'),
      treeSize: int('LOG_SIZE_OUT_OF_RANGE: the latest signed size; LOG_TREE_HEAD_NOT_FOUND: the size asked.'),
      field: str('The field the error is about.'),
      known: arrayOf(str(), 'INVALID_COMMAND: the known commands.'),
      limit: int('RATE_LIMITED: the limit per minute.'),
      retryAfterSeconds: int(
        'RATE_LIMITED, ADVICE_BUILD_LIMITED: seconds until the window ends; TABLE_BUILDING, ADVICE_BUSY: seconds until the table is probably ready (as Retry-After).',
      ),
      ruleSet: str('FORMAT_NOT_SUPPORTED: the rule set.'),
      format: str('FORMAT_NOT_SUPPORTED: the format asked.'),
      supported: arrayOf(str(), 'FORMAT_NOT_SUPPORTED: the formats the rule set supports.'),
      entrants: int('TOO_FEW_ENTRANTS: the active entrants.'),
      minEntrants: int('TOO_FEW_ENTRANTS: the fewest the tournament starts with.'),
      maxEntrants: int('TOURNAMENT_FULL: the maximum of entrants.'),
      tableSizeMin: int('TOO_FEW_ENTRANTS: the fewest players at a table.'),
      tableSizeMax: int('TOO_FEW_ENTRANTS: the most players at a table.'),
      tournamentStatus: str('REGISTRATION_CLOSED, TOURNAMENT_OVER: the tournament status.'),
      entrantStatus: str('INVALID_COMMAND: the entrant is already withdrawn or disqualified.'),
      checks: {
        type: 'object',
        description: 'NOT_READY: every readiness check by name.',
        additionalProperties: ref('HealthCheckResult'),
      },
    },
    {
      optional: [
        'instance',
        'requestId',
        'errors',
        'currentVersion',
        'latestVersion',
        'currentSeat',
        'openSeats',
        'seat',
        'box',
        'hold',
        'dice',
        'option',
        'value',
        'field',
        'known',
        'limit',
        'retryAfterSeconds',
        'checks',
        'setAside',
        'faces',
        'points',
        'entryThreshold',
        'maxDepth',
        'reason',
        'fields',
        'first',
        'second',
        'treeSize',
        'ruleSet',
        'format',
        'supported',
        'entrants',
        'minEntrants',
        'maxEntrants',
        'tableSizeMin',
        'tableSizeMax',
        'tournamentStatus',
        'entrantStatus',
      ],
      description:
        'RFC 9457 problem details (application/problem+json) with the stable `code`. Clients branch on `code`, never on `title` or `detail`.',
    },
  ),
};
