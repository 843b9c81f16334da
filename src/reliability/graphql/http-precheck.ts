import type { FastifyInstance } from 'fastify';
import { documentShapeError } from './limits';

/**
 * Runs documentShapeError on GraphQL documents sent over HTTP (POST body or GET ?query=) before
 * Apollo parses them, and answers 400 with a GraphQL error (extensions.code QUERY_TOO_COMPLEX)
 * when a document has too many tokens or nests too deeply. (graphql-ws: see app.module.ts.)
 */
export function registerGraphqlPrecheck(fastify: FastifyInstance, path = '/graphql'): void {
  fastify.addHook('preHandler', async (request, reply) => {
    if (request.url !== path && !request.url.startsWith(path + '?')) return;
    const fromBody = (request.body as { query?: unknown } | null | undefined)?.query;
    const fromUrl = (request.query as { query?: unknown } | null | undefined)?.query;
    const source = typeof fromBody === 'string' ? fromBody : typeof fromUrl === 'string' ? fromUrl : null;
    if (source === null) return;
    const error = documentShapeError(source);
    if (!error) return;
    return reply
      .code(400)
      .type('application/json; charset=utf-8')
      .send({ errors: [{ message: error.message, extensions: error.extensions }] });
  });
}
