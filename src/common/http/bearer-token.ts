/** Reads "Bearer <token>" from an Authorization header value (REST, GraphQL, rate limiting). */
export function bearerToken(header: unknown): string | null {
  if (typeof header !== 'string') return null;
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  return match ? match[1] : null;
}
