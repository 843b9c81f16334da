import { acceptedRequestId, clientErrorResponse } from './client-errors';

describe('socket-level client errors and request ids', () => {
  it.each([
    ['HPE_HEADER_OVERFLOW', 431, 'REQUEST_HEADERS_TOO_LARGE'],
    ['ERR_HTTP_REQUEST_TIMEOUT', 408, 'REQUEST_TIMEOUT'],
    ['HPE_INVALID_METHOD', 400, 'MALFORMED_REQUEST'],
    [undefined, 400, 'MALFORMED_REQUEST'],
  ])('%s → %d problem+json %s with a correct Content-Length', (errorCode, status, code) => {
    const raw = clientErrorResponse(errorCode);
    const [head, body] = raw.split('\r\n\r\n');
    expect(head.split('\r\n')[0]).toMatch(new RegExp(`^HTTP/1\\.1 ${status} [\\x20-\\x7e]+$`));
    expect(head).toContain('Content-Type: application/problem+json');
    expect(head).toContain(`Content-Length: ${Buffer.byteLength(body)}`);
    expect(JSON.parse(body)).toMatchObject({ status, code });
  });

  it('accepts 1-64 of [A-Za-z0-9._:-] as a request id, nothing else', () => {
    for (const ok of ['a', 'req-1.2:3_x', 'A'.repeat(64), '4c1e9f0e-2b7a-4c1e-9f0e-2b7a4c1e9f0e'])
      expect(acceptedRequestId(ok)).toBe(ok);
    for (const bad of ['', 'A'.repeat(65), 'a b', '<x>', 'é', 'a\nb', ['a'], 42, undefined])
      expect(acceptedRequestId(bad)).toBeUndefined();
  });
});
