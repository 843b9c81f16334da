/**
 * What Fastify cannot route: request ids and the socket-level client errors.
 *
 * - x-request-id: a client's id is used (logged, echoed in the response header and in problem
 *   bodies) only when it is a short safe token; anything else (4 KB, markup, several headers) is
 *   ignored and a UUID generated instead.
 * - Client errors that Node's HTTP parser raises before any request exists (headers larger than
 *   MAX_HEADER_BYTES, a malformed request line, a header timeout) are answered on the socket
 *   with a problem+json body and a stable code, then the connection is closed. There is no
 *   request, so no requestId and no hooks (CORS, helmet) run.
 */
import type { Socket } from 'node:net';
import { ERROR_MAP, type ErrorCode, PROBLEM_TYPE_BASE } from '../../common/errors';

/** Largest total size of the request line and headers (Node's default, stated explicitly). */
export const MAX_HEADER_BYTES = 16 * 1024;

/** Time to receive a whole request (headers and body). */
export const REQUEST_TIMEOUT_MS = 30_000;

const SAFE_REQUEST_ID = /^[A-Za-z0-9._:-]{1,64}$/;

/** The client's request id when it is 1-64 of [A-Za-z0-9._:-]; otherwise undefined. */
export function acceptedRequestId(header: unknown): string | undefined {
  return typeof header === 'string' && SAFE_REQUEST_ID.test(header) ? header : undefined;
}

/** The raw HTTP response of a client error (status line, headers, problem+json body). */
export function clientErrorResponse(errorCode: string | undefined): string {
  const code: ErrorCode =
    errorCode === 'HPE_HEADER_OVERFLOW'
      ? 'REQUEST_HEADERS_TOO_LARGE'
      : errorCode === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? 'REQUEST_TIMEOUT'
        : 'MALFORMED_REQUEST';
  const { status, title } = ERROR_MAP[code];
  const detail =
    code === 'REQUEST_HEADERS_TOO_LARGE'
      ? `The request line and headers exceed ${MAX_HEADER_BYTES} bytes`
      : code === 'REQUEST_TIMEOUT'
        ? 'The request was not received in time'
        : 'The HTTP request could not be parsed';
  const body = JSON.stringify({
    type: PROBLEM_TYPE_BASE + code.toLowerCase().replace(/_/g, '-'),
    title,
    status,
    detail,
    code,
  });
  const reason = title.replace(/[^\x20-\x7e]/g, '');
  return (
    `HTTP/1.1 ${status} ${reason}\r\n` +
    `Content-Type: application/problem+json\r\n` +
    `Content-Length: ${Buffer.byteLength(body)}\r\n` +
    `Connection: close\r\n\r\n${body}`
  );
}

/** Fastify's clientErrorHandler: answers as problem+json (see the file comment). */
export function answerClientError(err: Error & { code?: string }, socket: Socket): void {
  // A reset connection has nobody to answer.
  if (err.code === 'ECONNRESET' || socket.destroyed) return;
  if (socket.writable) socket.write(clientErrorResponse(err.code));
  socket.destroy(err);
}
