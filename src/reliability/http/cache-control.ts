/**
 * The request's Cache-Control (RFC 9111 §5.2.1): `no-cache` or `max-age=0` asks for an answer
 * checked against the origin, here PostgreSQL, instead of an instance's cache (decision 0150).
 * Other directives, and a header that does not parse, are ignored, as HTTP caches ignore them.
 */
export function asksForFreshRead(header: unknown): boolean {
  if (typeof header !== 'string' || header.length > 1024) return false;
  for (const part of header.split(',')) {
    const directive = part.trim().toLowerCase();
    if (directive === 'no-cache' || /^max-age\s*=\s*"?0+"?$/.test(directive)) return true;
  }
  return false;
}
