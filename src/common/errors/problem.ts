import { GraphQLError } from 'graphql';
import { DomainException } from './domain.exception';
import { ERROR_MAP, type ErrorCode, isErrorCode } from './error-codes';

/** RFC 9457 problem details, with our stable `code`. */
export interface Problem {
  type: string;
  title: string;
  status: number;
  detail: string;
  code: ErrorCode;
  instance?: string;
  requestId?: string;
  errors?: unknown;
  [extra: string]: unknown;
}

export const PROBLEM_TYPE_BASE = 'https://fairdice.dev/problems/';

export interface NormalizedError {
  problem: Problem;
  headers: Record<string, string>;
  /** True for errors we did not anticipate (logged with their stack, never shown). */
  unexpected: boolean;
}

const statusToCode = (status: number): ErrorCode => {
  switch (status) {
    case 400:
      return 'VALIDATION_FAILED';
    case 401:
      return 'UNAUTHENTICATED';
    case 403:
      return 'FORBIDDEN';
    case 404:
      return 'ROUTE_NOT_FOUND';
    case 412:
      return 'PRECONDITION_FAILED';
    case 413:
      return 'PAYLOAD_TOO_LARGE';
    case 414:
      return 'URI_TOO_LONG';
    case 415:
      return 'UNSUPPORTED_MEDIA_TYPE';
    case 429:
      return 'RATE_LIMITED';
    case 503:
      return 'DATABASE_UNAVAILABLE';
    default:
      return 'INTERNAL';
  }
};

/** The members read of a thrown value (an Error, a pg or Prisma error, a Nest or Fastify one). */
interface ErrorLike {
  code?: string | number;
  message?: string;
  cause?: unknown;
  originalError?: unknown;
  statusCode?: unknown;
  getStatus?: () => number;
  getResponse?: () => unknown;
}

/**
 * Is this a failure to reach PostgreSQL's primary (refused, reset, terminated, pool timeout, or a
 * session that landed on a standby during a failover: 25006, read-only)?
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  const seen = new Set<unknown>();
  let current = error as ErrorLike | null | undefined;
  while (current && typeof current === 'object' && !seen.has(current)) {
    seen.add(current);
    const code = String(current.code ?? '');
    const message = String(current.message ?? '');
    if (
      [
        'ECONNREFUSED',
        'ECONNRESET',
        'ETIMEDOUT',
        'EPIPE',
        'ENOTFOUND',
        '57P01',
        '57P02',
        '57P03',
        // read_only_sql_transaction: during a failover a connection can reach a node still in
        // recovery (just promoted, or a stale route); retried, the command reaches the primary.
        '25006',
        '08000',
        '08001',
        '08003',
        '08006',
        'P1001',
        'P1002',
        'P1017',
        'P2024',
      ].includes(code)
    )
      return true;
    if (
      /ECONNREFUSED|Connection terminated|connection timeout|timeout exceeded when trying to connect|terminating connection|the database system is (starting up|shutting down)|Can't reach database server|Server has closed the connection|Client has encountered a connection error/i.test(
        message,
      )
    )
      return true;
    current = (current.cause ?? current.originalError) as ErrorLike | null | undefined;
  }
  return false;
}

/** Turns anything thrown into a problem. Unexpected errors become a bare 500. */
export function normalizeError(error: unknown, instance?: string): NormalizedError {
  if (error instanceof DomainException) {
    const { status, title } = ERROR_MAP[error.code];
    return {
      problem: {
        // Details first: a detail named like a standard member (Farkle's INVALID_COMMAND `type`)
        // must never overwrite the problem's own type, title, status, code or instance.
        ...(error.details ?? {}),
        type: PROBLEM_TYPE_BASE + error.code.toLowerCase().replace(/_/g, '-'),
        title,
        status,
        detail: error.message,
        code: error.code,
        instance,
      },
      headers: error.headers ?? {},
      unexpected: false,
    };
  }
  if (isDatabaseUnavailable(error)) {
    return normalizeError(
      new DomainException(
        'DATABASE_UNAVAILABLE',
        'The database cannot be reached right now. Retry after a few seconds.',
        undefined,
        { 'retry-after': '2' },
      ),
      instance,
    );
  }
  const anyError = error as ErrorLike | null | undefined;
  // NestJS HttpException (e.g. 404 for unknown routes) and Fastify errors (body too large, bad JSON).
  const status: number | undefined =
    typeof anyError?.getStatus === 'function'
      ? anyError.getStatus()
      : typeof anyError?.statusCode === 'number'
        ? anyError.statusCode
        : undefined;
  if (status !== undefined && ((status >= 400 && status < 500) || status === 503)) {
    const fastifyCode = String(anyError?.code ?? '');
    const code: ErrorCode =
      fastifyCode === 'FST_ERR_CTP_BODY_TOO_LARGE'
        ? 'PAYLOAD_TOO_LARGE'
        : fastifyCode === 'FST_ERR_CTP_INVALID_MEDIA_TYPE'
          ? 'UNSUPPORTED_MEDIA_TYPE'
          : statusToCode(status);
    const response = typeof anyError?.getResponse === 'function' ? anyError.getResponse() : undefined;
    const raw: unknown =
      typeof response === 'object' && response && 'message' in response ? response.message : anyError?.message;
    const detail = Array.isArray(raw) ? raw.join('; ') : String((raw as string | undefined) ?? ERROR_MAP[code].title);
    const { title } = ERROR_MAP[code];
    if (code === 'DATABASE_UNAVAILABLE')
      return normalizeError(
        new DomainException(code, 'The database cannot be reached right now. Retry after a few seconds.', undefined, {
          'retry-after': '2',
        }),
        instance,
      );
    return {
      problem: {
        type: PROBLEM_TYPE_BASE + code.toLowerCase().replace(/_/g, '-'),
        title,
        status: ERROR_MAP[code].status,
        detail: sanitizeDetail(detail),
        code,
        instance,
      },
      headers: {},
      unexpected: false,
    };
  }
  return {
    problem: {
      type: PROBLEM_TYPE_BASE + 'internal',
      title: ERROR_MAP.INTERNAL.title,
      status: 500,
      detail: 'An unexpected error occurred. It has been logged.',
      code: 'INTERNAL',
      instance,
    },
    headers: {},
    unexpected: true,
  };
}

// Framework messages for client errors are safe, but cap their length.
const sanitizeDetail = (detail: string) => detail.slice(0, 500);

/** The same error as GraphQL sees it: message plus extensions.code (and status). */
export function toGraphQLError(error: unknown): { graphqlError: GraphQLError; normalized: NormalizedError } {
  if (error instanceof GraphQLError && isErrorCode(error.extensions?.code)) {
    return {
      graphqlError: error,
      normalized: normalizeError(new DomainException(error.extensions.code, error.message)),
    };
  }
  const normalized = normalizeError(error);
  const { problem } = normalized;
  const { type: _type, title: _title, status, detail, code, instance: _instance, ...extra } = problem;
  const graphqlError = new GraphQLError(detail, {
    extensions: {
      code,
      status,
      ...extra,
      ...(normalized.headers['retry-after'] ? { retryAfter: Number(normalized.headers['retry-after']) } : {}),
    },
  });
  return { graphqlError, normalized };
}
