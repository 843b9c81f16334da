import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { FastifyInstance } from 'fastify';
import { DomainException } from '../common/errors/domain.exception';
import { normalizeError } from '../common/errors/problem';

/**
 * GET /verify: the self-contained audit verifier page (packages/verifier, built by `npm run build`
 * into packages/verifier/dist/verify.html). One inline script (@fairdice/core's verifyBundle, the
 * same code as `fairdice verify`) and one inline style; no other resource, no network.
 *
 * Its Content-Security-Policy admits exactly that script and that style by SHA-256, computed here
 * from the file that is served (so the header cannot drift from the page), and nothing else.
 */
export const VERIFY_PAGE_PATH = '/verify';

export interface VerifyPage {
  html: Buffer;
  csp: string;
  etag: string;
}

const sha256Source = (text: string) => `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;

/** The policy for a page whose only code is `script` and `style` (inline, admitted by hash). */
export function verifyPageCsp(html: string): string {
  const scripts = [...html.matchAll(/<script>([\s\S]*?)<\/script>/g)].map((m) => m[1]);
  const styles = [...html.matchAll(/<style>([\s\S]*?)<\/style>/g)].map((m) => m[1]);
  if (scripts.length !== 1 || styles.length !== 1)
    throw new Error('the verifier page must hold one inline script and one inline style');
  return [
    "default-src 'none'",
    `script-src ${sha256Source(scripts[0])}`,
    `style-src ${sha256Source(styles[0])}`,
    "img-src 'none'",
    "connect-src 'none'",
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
  ].join('; ');
}

/** The built page, or null when this deployment has not built it. */
export function loadVerifyPage(): VerifyPage | null {
  let file: string;
  try {
    file = require.resolve('fairdice-verify/verify.html');
  } catch {
    return null;
  }
  let html: Buffer;
  try {
    html = readFileSync(file);
  } catch {
    return null;
  }
  return {
    html,
    csp: verifyPageCsp(html.toString('utf8')),
    etag: `"${createHash('sha256').update(html).digest('base64url').slice(0, 27)}"`,
  };
}

export function registerVerifyPage(fastify: FastifyInstance): void {
  let page: VerifyPage | null = null;
  fastify.get(VERIFY_PAGE_PATH, async (request, reply) => {
    page ??= loadVerifyPage();
    if (!page) {
      const { problem } = normalizeError(
        new DomainException(
          'ROUTE_NOT_FOUND',
          'The verifier page is not built in this deployment (npm run build writes packages/verifier/dist/verify.html).',
        ),
        request.url,
      );
      return reply.code(problem.status).type('application/problem+json').send(problem);
    }
    // The same headers on a 304: a browser revalidating its copy updates the stored headers with these.
    reply.header('content-security-policy', page.csp).header('cache-control', 'no-cache').header('etag', page.etag);
    if (request.headers['if-none-match'] === page.etag) return reply.code(304).send();
    return reply.type('text/html; charset=utf-8').send(page.html);
  });
}
