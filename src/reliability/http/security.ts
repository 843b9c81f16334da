/**
 * Secure headers (helmet's, computed once: secure-headers.ts) and CORS (@fastify/cors).
 *
 * - Every response gets helmet's headers with a strict Content-Security-Policy for an API
 *   (default-src 'none'; frame-ancestors 'none'). The two HTML tools, Swagger UI (/docs) and
 *   GraphiQL (/graphiql), get a relaxed policy limited to their own origin: they need inline
 *   bootstrap scripts and styles, data: images and (GraphiQL) fetch/WebSocket to /graphql.
 *   A route that sets its own policy keeps it: the verifier page (/verify) admits its one inline
 *   script and style by SHA-256 and nothing else (src/verify-page).
 * - CORS is closed unless CORS_ORIGINS lists origins ("*" = any). Bearer tokens are sent in a
 *   header, so credentials (cookies) are never allowed.
 */
import fastifyCors from '@fastify/cors';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { helmetHeaders } from './secure-headers';

export const API_CSP = "default-src 'none'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'";
export const TOOLS_CSP = [
  "default-src 'self'",
  "script-src 'self' 'unsafe-inline'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "font-src 'self' data:",
  "connect-src 'self' ws: wss:",
  "worker-src 'self' blob:",
  "frame-ancestors 'self'",
  "base-uri 'self'",
  "form-action 'self'",
].join('; ');

const TOOLS = /^\/(docs|graphiql)(\/|$|\?)/;

/** Headers CORS lets browsers read and send. */
const EXPOSED = [
  'ETag',
  'Retry-After',
  'X-Request-Id',
  'Idempotent-Replayed',
  'Preference-Applied',
  'RateLimit-Limit',
  'RateLimit-Remaining',
  'RateLimit-Reset',
  'Location',
];
const ALLOWED = [
  'Authorization',
  'Content-Type',
  'Idempotency-Key',
  'If-Match',
  'If-None-Match',
  'Cache-Control',
  'Prefer',
  'X-Request-Id',
  'Last-Event-ID',
  'apollo-require-preflight',
];

export function parseCorsOrigins(value: string | undefined): string[] | '*' | null {
  if (!value) return null;
  const origins = value
    .split(',')
    .map((o) => o.trim())
    .filter(Boolean);
  return origins.includes('*') ? '*' : origins;
}

export async function registerSecurity(app: NestFastifyApplication, options: { corsOrigins?: string }): Promise<void> {
  const origins = parseCorsOrigins(options.corsOrigins);
  const secureHeaders = helmetHeaders({
    // Set per response below (strict for the API, relaxed for the HTML tools).
    contentSecurityPolicy: false,
    // The HTML tools load only same-origin resources; keep cross-origin isolation headers off
    // so that API responses stay readable by allowed CORS origins.
    crossOriginEmbedderPolicy: false,
    crossOriginResourcePolicy: { policy: origins === null ? 'same-origin' : 'cross-origin' },
  });
  const fastify = app.getHttpAdapter().getInstance();
  const names = Object.keys(secureHeaders);
  // On the raw response at request time, as helmet did: a route may still replace one of them,
  // and a hijacked reply (an SSE stream) writes them too.
  fastify.addHook('onRequest', (_request, reply, done) => {
    const raw = reply.raw;
    for (const name of names) raw.setHeader(name, secureHeaders[name]);
    done();
  });
  // A callback hook (no promise per response).
  fastify.addHook('onSend', (request, reply, payload, done) => {
    if (TOOLS.test(request.url)) reply.header('content-security-policy', TOOLS_CSP);
    else if (!reply.hasHeader('content-security-policy')) reply.header('content-security-policy', API_CSP);
    done(null, payload);
  });

  if (origins !== null) {
    await app.register(fastifyCors, {
      origin: origins === '*' ? '*' : origins,
      credentials: false,
      methods: ['GET', 'HEAD', 'POST', 'OPTIONS'],
      allowedHeaders: ALLOWED,
      exposedHeaders: EXPOSED,
      maxAge: 600,
    });
  }
}
