import type { FastifyReply, FastifyRequest } from 'fastify';

/**
 * `Link: <…>; rel="next"` (RFC 8288) for a REST list: the request's own path and query with
 * `cursor` set to the next page's cursor (and any `offset` dropped). A relative reference, so it
 * is right behind any proxy. No rel="next" on the last page; other links already set are kept.
 */
export function setNextLink(request: FastifyRequest, reply: FastifyReply, nextCursor: string | null): void {
  if (nextCursor === null) return;
  const url = new URL(request.url, 'http://relative.invalid');
  url.searchParams.delete('offset');
  url.searchParams.delete('after');
  url.searchParams.set('cursor', nextCursor);
  const next = `<${url.pathname}${url.search}>; rel="next"`;
  // Kept beside a link already set (e.g. rel="deprecation" when a deprecated parameter is used).
  const earlier = reply.getHeader('link');
  reply.header('link', earlier ? `${String(earlier)}, ${next}` : next);
}

/** The Link response header as OpenAPI declares it on the paged REST lists. */
export const NEXT_LINK_HEADER = {
  Link: {
    description:
      'RFC 8288 link to the next page, a relative reference: `<…?cursor=…>; rel="next"`. Absent on the last page.',
    schema: { type: 'string' },
  },
};
