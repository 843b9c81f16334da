/**
 * The RFC-shaped endpoints of the authorization server, outside /v1 (docs/oauth.md):
 * - POST /oauth/token (RFC 6749 §3.2), POST /oauth/revoke (RFC 7009): form bodies
 *   (application/x-www-form-urlencoded), answers and errors in the RFCs' JSON (`error`,
 *   `error_description`), not problem+json: OAuth client libraries read those;
 * - GET /.well-known/oauth-authorization-server (RFC 8414).
 * They are not in the OpenAPI document (which describes the JSON API); test/oauth checks their
 * bad forms directly.
 */
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { FormAnswer, OAuthService } from './oauth.service';

/** Largest form accepted (bytes): a token request is a few hundred. */
const FORM_LIMIT_BYTES = 8 * 1024;
const FORM_TYPE = 'application/x-www-form-urlencoded';

/** A parsed form, or why it is refused: a parameter sent twice (RFC 6749 §3.1) or not a form. */
type ParsedForm = { form: Record<string, string> } | { refused: string };

export function parseForm(body: unknown): ParsedForm {
  if (typeof body !== 'string') return { refused: `Invalid request: content must be ${FORM_TYPE}` };
  const form: Record<string, string> = {};
  for (const [key, value] of new URLSearchParams(body)) {
    if (Object.prototype.hasOwnProperty.call(form, key))
      return { refused: `Invalid request: parameter \`${key.slice(0, 40)}\` sent more than once` };
    // Empty values count as absent (RFC 6749 §3.1).
    if (value !== '') form[key] = value;
  }
  return { form };
}

const send = (reply: FastifyReply, answer: FormAnswer) => {
  // Tokens and their errors are never cached (RFC 6749 §5.1).
  void reply.header('cache-control', 'no-store').header('pragma', 'no-cache').code(answer.status);
  return answer.body === null ? reply.send() : reply.type('application/json').send(answer.body);
};

const invalidRequest = (description: string): FormAnswer => ({
  status: 400,
  body: { error: 'invalid_request', error_description: description },
});

export function registerOAuthEndpoints(fastify: FastifyInstance, oauth: OAuthService): void {
  void fastify.register((scope, _opts, done) => {
    // The form parser exists in this scope only: the rest of the API still takes JSON alone.
    scope.addContentTypeParser(FORM_TYPE, { parseAs: 'string', bodyLimit: FORM_LIMIT_BYTES }, (_req, body, next) =>
      next(null, body),
    );
    const hidden = { schema: { hide: true } as object };
    scope.post('/oauth/token', hidden, async (request, reply) => {
      const parsed = parseForm(request.headers['content-type']?.startsWith(FORM_TYPE) ? request.body : null);
      if ('refused' in parsed) return send(reply, invalidRequest(parsed.refused));
      const headers: Record<string, string> = {};
      for (const [name, value] of Object.entries(request.headers)) if (typeof value === 'string') headers[name] = value;
      return send(reply, await oauth.token(parsed.form, headers));
    });
    scope.post('/oauth/revoke', hidden, async (request, reply) => {
      const parsed = parseForm(request.headers['content-type']?.startsWith(FORM_TYPE) ? request.body : null);
      if ('refused' in parsed) return send(reply, invalidRequest(parsed.refused));
      return send(reply, await oauth.revoke(parsed.form));
    });
    scope.get('/.well-known/oauth-authorization-server', hidden, async (_request, reply) =>
      reply.header('cache-control', 'public, max-age=3600').send(oauth.metadata()),
    );
    done();
  });
}
