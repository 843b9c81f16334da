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
    },
    { optional: ['message', 'delayMs', 'limitMs', 'poolWaitMs', 'responseTimeMs'] },
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
      value: str('INVALID_OPTIONS: the value given, as text.'),
      field: str('The field the error is about.'),
      known: arrayOf(str(), 'INVALID_COMMAND: the known commands.'),
      limit: int('RATE_LIMITED: the limit per minute.'),
      retryAfterSeconds: int('RATE_LIMITED: seconds until the window ends (as Retry-After).'),
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
      ],
      description:
        'RFC 9457 problem details (application/problem+json) with the stable `code`. Clients branch on `code`, never on `title` or `detail`.',
    },
  ),
};
