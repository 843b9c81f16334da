/**
 * Decorators that describe an operation's errors and headers in OpenAPI. They leave `x-fairdice-*`
 * markers on the operation; completeOpenApiDocument (document.ts) expands them into responses,
 * header parameters and security, and removes the markers. Declared beside the handler, so the
 * contract stays next to the code that gives it.
 */
import { applyDecorators } from '@nestjs/common';
import { ApiBody, ApiExtension } from '@nestjs/swagger';
import type { ErrorCode } from '../errors/error-codes';

export const PROBLEMS_MARKER = 'x-fairdice-problems';
export const REQUEST_HEADERS_MARKER = 'x-fairdice-request-headers';
export const OPTIONAL_AUTH_MARKER = 'x-fairdice-optional-auth';
export const DEPRECATION_MARKER = 'x-fairdice-deprecation';
/** The scope an operation needs (src/players/require-scope.ts): security [{ bearer: [scope] }]. */
export const SCOPE_MARKER = 'x-fairdice-scope';

/** Request headers the document declares once (components.parameters) and operations name. */
export type RequestHeaderName =
  | 'Cache-Control'
  | 'Idempotency-Key'
  | 'If-Match'
  | 'If-None-Match'
  | 'Last-Event-ID'
  | 'Prefer';

let problemsSeq = 0;

/**
 * The error codes an operation can answer with (application/problem+json). Their statuses come
 * from ERROR_MAP; repeat the decorator on the class and the method as needed (they add up).
 */
export const ApiProblems = (...codes: ErrorCode[]) => ApiExtension(`${PROBLEMS_MARKER}-${++problemsSeq}`, codes);

/** The operation reads these request headers (declared with their validation in components.parameters). */
export const ApiRequestHeaders = (...names: RequestHeaderName[]) =>
  ApiExtension(`${REQUEST_HEADERS_MARKER}-${++problemsSeq}`, names);

/** Anonymous calls work; a token, when sent, must be valid: security [{}, {bearer: []}]. */
export const ApiOptionalAuth = () => ApiExtension(OPTIONAL_AUTH_MARKER, true);

/** Errors every operation that reads a JSON body can give (src/reliability/http/json-body.ts). */
export const BODY_PROBLEMS: ErrorCode[] = [
  'VALIDATION_FAILED',
  'JSON_TOO_DEEP',
  'PAYLOAD_TOO_LARGE',
  'UNSUPPORTED_MEDIA_TYPE',
];
/** Errors of a route with a path parameter: a malformed one (400) or one over 100 characters (414). */
export const PATH_PROBLEMS: ErrorCode[] = ['VALIDATION_FAILED', 'URI_TOO_LONG'];
/** Errors of a game command besides the rules' own (src/games/games.service.ts, src/reliability). */
export const COMMAND_PROBLEMS: ErrorCode[] = [
  ...BODY_PROBLEMS,
  'UNAUTHENTICATED',
  'GAME_NOT_FOUND',
  'NOT_SEATED',
  'PRECONDITION_FAILED',
  'VERSION_CONFLICT',
  'IDEMPOTENCY_KEY_REUSED',
  'IDEMPOTENCY_IN_PROGRESS',
  'GAME_FINISHED',
  'DATABASE_UNAVAILABLE',
];

/** ApiProblems for a command: the common ones plus the rules' codes of this command. */
export const ApiCommandProblems = (...ruleCodes: ErrorCode[]) =>
  applyDecorators(ApiProblems(...COMMAND_PROBLEMS, ...PATH_PROBLEMS, ...ruleCodes));

/** The body of a command without parameters: absent or `{}` (NoFieldsPipe). */
export const ApiNoFieldsBody = () =>
  ApiBody({ required: false, schema: { $ref: '#/components/schemas/EmptyObject' } as never });

/** The header of the public reads a standby may answer (DATABASE_READ_URL; docs/operations.md "Read routing"). */
export const STALENESS_HEADER_DOC = { 'X-Data-Staleness-Ms': { $ref: '#/components/headers/XDataStalenessMs' } };
