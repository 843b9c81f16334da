/**
 * Header checks before anything reads the request (docs/operations.md, *Threat model*): a request
 * with more than one Authorization header is 400 MALFORMED_REQUEST. Node keeps only the first of
 * duplicate Authorization headers, so a proxy or client that adds a second one would otherwise be
 * authenticated as whichever came first, silently.
 */
import type { FastifyInstance } from 'fastify';
import { DomainException, normalizeError } from '../../common/errors';

/** How many times `name` (lower case) occurs in the raw header list. */
export function headerCount(rawHeaders: readonly string[], name: string): number {
  let n = 0;
  for (let i = 0; i < rawHeaders.length; i += 2) if (rawHeaders[i].toLowerCase() === name) n++;
  return n;
}

export function registerRequestHeaderChecks(fastify: FastifyInstance): void {
  // A callback hook (no promise per request); answering without done() ends the request here.
  fastify.addHook('onRequest', (request, reply, done) => {
    if (headerCount(request.raw.rawHeaders, 'authorization') <= 1) return done();
    const { problem, headers } = normalizeError(
      new DomainException('MALFORMED_REQUEST', 'Send one Authorization header, not several'),
      request.url.split('?')[0],
    );
    problem.requestId = String(request.id);
    void reply.code(problem.status).headers(headers).type('application/problem+json').send(problem);
  });
}
