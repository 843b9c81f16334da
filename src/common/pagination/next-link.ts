import type { FastifyReply, FastifyRequest } from 'fastify';

/**
 * `Link: <…>; rel="next"` (RFC 8288) for a REST list: the request's own path and query with
 * `cursor` set to the next page's cursor (and any `offset` dropped). A relative reference, so it
 * is right behind any proxy. No header on the last page.
 */
export function setNextLink(request: FastifyRequest, reply: FastifyReply, nextCursor: string | null): void {
  if (nextCursor === null) return;
  const url = new URL(request.url, 'http://relative.invalid');
  url.searchParams.delete('offset');
  url.searchParams.delete('after');
  url.searchParams.set('cursor', nextCursor);
  reply.header('link', `<${url.pathname}${url.search}>; rel="next"`);
}

/** The Link response header as OpenAPI declares it on the paged REST lists. */
export const NEXT_LINK_HEADER = {
  Link: {
    description:
      'RFC 8288 link to the next page, a relative reference: `<…?cursor=…>; rel="next"`. Absent on the last page.',
    schema: { type: 'string' },
  },
};
