import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { DomainException } from '../common/errors/domain.exception';
import { normalizeError } from '../common/errors/problem';

/**
 * The reference web client (web/, built by `npm run build` into web/dist) at GET /, its
 * content-hashed files at GET /assets/<file> and its service worker at GET /sw.js. Nothing else: the API keeps /v1, /graphql, /docs,
 * /health, /metrics, /verify, and an unknown path is still a ROUTE_NOT_FOUND problem (the client
 * routes with the URL fragment, #/game/<id>, so no catch-all is needed). The page talks to the
 * service only through the public API (docs/web.md, decision 0065).
 *
 * Its Content-Security-Policy admits its own origin only: scripts and styles from /assets, fetch to
 * the API; no inline code, no other host.
 */
export const WEB_APP_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

/** The service worker's own policy (a worker takes the CSP of its script's response): it loads and fetches nothing. */
export const SERVICE_WORKER_CSP = "default-src 'none'";

/** web/dist of this checkout: two levels above src/web-app (ts-jest, swc) or three above dist/src/web-app. */
export function findWebDist(from: string = __dirname): string | null {
  let dir = from;
  for (let i = 0; i < 4; i++) {
    const candidate = join(dir, 'web', 'dist');
    if (existsSync(join(candidate, 'index.html'))) return candidate;
    dir = dirname(dir);
  }
  return null;
}

interface Built {
  index: Buffer;
  /** web/dist/sw.js, absent from builds before it existed. */
  serviceWorker: Buffer | null;
  assets: Map<string, { body: Buffer; type: string }>;
}

function load(dist: string): Built {
  const assets = new Map<string, { body: Buffer; type: string }>();
  for (const file of readdirSync(join(dist, 'assets'))) {
    const type = file.endsWith('.js')
      ? 'text/javascript; charset=utf-8'
      : file.endsWith('.css')
        ? 'text/css; charset=utf-8'
        : 'application/octet-stream';
    assets.set(file, { body: readFileSync(join(dist, 'assets', file)), type });
  }
  const sw = join(dist, 'sw.js');
  return {
    index: readFileSync(join(dist, 'index.html')),
    serviceWorker: existsSync(sw) ? readFileSync(sw) : null,
    assets,
  };
}

function notFound(request: FastifyRequest, reply: FastifyReply, detail: string) {
  const { problem } = normalizeError(new DomainException('ROUTE_NOT_FOUND', detail), request.url);
  return reply.code(problem.status).type('application/problem+json').send(problem);
}

export function registerWebApp(fastify: FastifyInstance, dist: string | null = findWebDist()): void {
  let built: Built | null = null;
  const get = () => (built ??= dist ? load(dist) : null);
  const index = async (request: FastifyRequest, reply: FastifyReply) => {
    const app = get();
    if (!app)
      return notFound(
        request,
        reply,
        'The web client is not built in this deployment (npm run build writes web/dist). The API is at /v1 and /graphql.',
      );
    reply.header('content-security-policy', WEB_APP_CSP).header('cache-control', 'no-cache');
    return reply.type('text/html; charset=utf-8').send(app.index);
  };
  // eslint-disable-next-line @typescript-eslint/no-unnecessary-type-assertion -- needed: tsc rejects `hide` (a @fastify/swagger extension FastifySchema lacks) without it
  fastify.get('/', { schema: { hide: true } as object }, index);
  // The OAuth consent page (docs/oauth.md): the authorization endpoint that RFC 8414 metadata names.
  // eslint-disable-next-line @typescript-eslint/no-unnecessary-type-assertion -- as for / above
  fastify.get('/oauth/authorize', { schema: { hide: true } as object }, index);
  // The service worker (Web Push notifications, docs/web.md): at the root so its scope is the whole
  // client. no-cache: the browser checks for a new version on every registration and navigation
  // (it never keeps one longer than 24 h anyway); Service-Worker-Allowed states the scope it may take.
  // eslint-disable-next-line @typescript-eslint/no-unnecessary-type-assertion -- as for / above
  fastify.get('/sw.js', { schema: { hide: true } as object }, async (request, reply) => {
    const body = get()?.serviceWorker;
    if (!body) return notFound(request, reply, 'No service worker in this build.');
    reply
      .header('content-security-policy', SERVICE_WORKER_CSP)
      .header('cache-control', 'no-cache')
      .header('service-worker-allowed', '/');
    return reply.type('text/javascript; charset=utf-8').send(body);
  });
  fastify.get<{ Params: { file: string } }>(
    '/assets/:file',
    { schema: { hide: true } as object },
    async (request, reply) => {
      const asset = get()?.assets.get(request.params.file);
      if (!asset) return notFound(request, reply, 'No such asset.');
      // Content-hashed names: a new build has new names, so a copy never goes stale.
      reply.header('cache-control', 'public, max-age=31536000, immutable');
      return reply.type(asset.type).send(asset.body);
    },
  );
}
