import { randomUUID } from 'node:crypto';
import { RequestMethod } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import { DocumentBuilder, type OpenAPIObject, SwaggerModule } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Logger as Pino } from 'pino';
import { AppModule, type AppModuleOptions } from './app.module';
import { AllExceptionsFilter, normalizeError, strictValidationPipe } from './common/errors';
import { createPinoLogger, PinoNestLogger } from './common/logging/logger';
import { registerGraphiql } from './graphiql/graphiql';
import { registerVerifyPage } from './verify-page/verify-page';
import { registerWebApp } from './web-app/web-app';
import { registerOAuthEndpoints } from './oauth/oauth-endpoints';
import { OAuthService } from './oauth/oauth.service';
import { PG_POOL } from './database/pg-pool';
import { ReadRouter } from './database/read-routing';
import { registerSecurity } from './reliability/http/security';
import { registerGraphqlPrecheck } from './reliability/graphql/http-precheck';
import { registerBodyParsers } from './reliability/http/json-body';
import { registerRequestHeaderChecks } from './reliability/http/request-headers';
import {
  acceptedRequestId,
  answerClientError,
  MAX_HEADER_BYTES,
  REQUEST_TIMEOUT_MS,
} from './reliability/http/client-errors';
import { registerRateLimit } from './reliability/rate-limit/rate-limit';
import { STREAM_LIMITS, type StreamLimits } from './reliability/streams/stream-limits';
import { clientAddressOf, registerWebSocketLimits } from './reliability/streams/websocket-limits';
import { PlayersService } from './players/players.service';
import { METRICS, type Metrics } from './metrics/metrics';
import { serviceInfo } from './service-info/service-info';
import { completeOpenApiDocument } from './common/openapi/document';
import { WEBHOOK_SCHEMAS, WEBHOOKS } from './async/webhooks/webhook-payloads';
import { configureSse } from './common/http/sse';
import { registerCompiledSerializers } from './common/http/compiled-serializers';
import { registerVersionETags } from './reliability/http/version-etag';
import { GamesService } from './games/games.service';
import type { RateCharge } from './games/channel/channel-context';
import { registerCommandChannel } from './games/channel/command-channel';

/** Largest request body accepted (bytes). Commands are tiny; this stops abuse early. */
export const BODY_LIMIT_BYTES = 64 * 1024;

/** Routes that stay outside the /v1 prefix. */
const UNVERSIONED = [
  { path: 'health', method: RequestMethod.GET },
  { path: 'health/ready', method: RequestMethod.GET },
];

export interface CreateAppOptions extends AppModuleOptions {
  logger?: Pino;
}

/**
 * Builds the fully configured application (not yet listening). main.ts, the end-to-end tests
 * and the schema/OpenAPI generators all use this, so they see the same app.
 */
export async function createApp(options: CreateAppOptions): Promise<NestFastifyApplication> {
  const logger = options.logger ?? createPinoLogger(options.config.LOG_LEVEL);
  const adapter = new FastifyAdapter({
    loggerInstance: logger,
    bodyLimit: BODY_LIMIT_BYTES,
    // The client's x-request-id only when it is a short safe id; otherwise a new UUID (never echoed or logged as sent).
    requestIdHeader: false,
    genReqId: (request: { headers: Record<string, unknown> }) =>
      acceptedRequestId(request.headers['x-request-id']) ?? randomUUID(),
    // Headers above this size get 431 REQUEST_HEADERS_TOO_LARGE from the socket-level handler below.
    http: { maxHeaderSize: MAX_HEADER_BYTES },
    // A request (headers and body, at most 64 KiB) must arrive within this time: a client that
    // trickles it byte by byte (slowloris) gets 408 REQUEST_TIMEOUT and its socket is closed.
    // Responses, SSE streams and WebSockets are not limited by it.
    requestTimeout: REQUEST_TIMEOUT_MS,
    clientErrorHandler: answerClientError,
    // The router's own refusals (a malformed URL, a path parameter over 100 characters) come
    // before any hook or Nest filter: answer them as problem+json here.
    frameworkErrors: (error: Error, request: FastifyRequest, reply: FastifyReply) => {
      const { problem, headers } = normalizeError(error, request.url?.split('?')[0]);
      problem.requestId = String(request.id);
      void reply.code(problem.status).headers(headers).type('application/problem+json').send(problem);
    },
    // Idle keep-alive sockets close at shutdown; in-flight requests are allowed to finish.
    forceCloseConnections: 'idle',
    return503OnClosing: true,
    // request.ip (rate-limit buckets) follows X-Forwarded-For only from the proxies named here.
    // (Fastify 5 takes a hop count too; the adapter's option type predates it.)
    trustProxy: options.config.TRUST_PROXY as boolean | string[],
  });
  const app = await NestFactory.create<NestFastifyApplication>(AppModule.forRoot(options), adapter, {
    logger: new PinoNestLogger(logger),
    bufferLogs: false,
    // Our own parsers (src/reliability/http/json-body.ts): JSON with depth and number checks, nothing else.
    bodyParser: false,
  });
  app.setGlobalPrefix('v1', { exclude: UNVERSIONED });
  app.useGlobalPipes(strictValidationPipe());
  app.useGlobalFilters(new AllExceptionsFilter());

  const fastify = app.getHttpAdapter().getInstance();
  // Game views written by a serializer compiled from the OpenAPI schema (decision 0141); under
  // NODE_ENV=test each one is also checked against JSON.stringify.
  registerCompiledSerializers(fastify, { verify: options.config.NODE_ENV === 'test' });
  // ETag: "<version>" on game and tournament answers (the routes marked by versionETags).
  registerVersionETags(fastify);
  registerBodyParsers(fastify);
  // Before CORS, rate limits and auth: a request with two Authorization headers is refused.
  registerRequestHeaderChecks(fastify);
  // Callback hooks, not async ones: no promise per request on every route.
  fastify.addHook('onSend', (request, reply, payload, done) => {
    reply.header('x-request-id', request.id);
    done(null, payload);
  });
  // Secure headers, CORS (CORS_ORIGINS) and rate limits (RATE_LIMIT_*): src/reliability, docs/operations.md.
  await registerSecurity(app, { corsOrigins: options.config.CORS_ORIGINS });
  const players = app.get(PlayersService);
  let chargeRequest: RateCharge | null = null;
  if (options.config.RATE_LIMIT_ENABLED) {
    chargeRequest = registerRateLimit(
      fastify,
      app.get(PG_POOL),
      {
        perMinute: options.config.RATE_LIMIT_PER_MINUTE,
        registrationsPerMinute: options.config.RATE_LIMIT_REGISTRATIONS_PER_MINUTE,
      },
      // Kept with the request: its auth guard does not authenticate the token a second time.
      async (token, request) => (await players.authenticateRequest(request, token))?.id ?? null,
      logger,
    );
  }
  // Live-connection caps (docs/operations.md "Live connections"): WebSockets per address here, at
  // the upgrade; per player and per connection in graphql-ws's hooks (app.module); SSE in the routes.
  const streams = app.get<StreamLimits>(STREAM_LIMITS);
  streams.playerOf = async (token) => (await players.authenticate(token))?.id ?? null;
  streams.watchToken = (token, playerId, onRevoked) => players.watchToken(token, playerId, onRevoked);
  const closeGraphqlWebSockets = registerWebSocketLimits(
    app.getHttpServer(),
    streams,
    clientAddressOf(options.config.TRUST_PROXY),
  );
  // The WebSocket command channel at /v1/ws (src/games/channel; decision 0123): the same limits and rate buckets.
  const channel = registerCommandChannel(app.getHttpServer(), {
    games: app.get(GamesService),
    authenticate: (token) => players.authenticate(token),
    watchToken: (token, playerId, onRevoked) => players.watchToken(token, playerId, onRevoked),
    limits: streams,
    addressOf: clientAddressOf(options.config.TRUST_PROXY),
    charge: chargeRequest,
    settings: {
      maxInFlight: options.config.WS_MAX_COMMANDS_IN_FLIGHT,
      maxBufferedBytes: options.config.WS_MAX_BUFFERED_BYTES,
      authTimeoutMs: options.config.WS_CONNECTION_INIT_TIMEOUT_MS,
    },
    logger,
  });
  // Long-lived connections end at shutdown (clients reconnect to an instance that is up): the
  // HTTP server's close would otherwise wait for them until SHUTDOWN_TIMEOUT_MS. SSE streams end
  // in configureSse's hook.
  fastify.addHook('preClose', (done) => {
    channel.close();
    closeGraphqlWebSockets();
    done();
  });
  // SSE back-pressure (src/common/http/sse.ts): a reader past the bound is dropped, and counted.
  const sseMetrics = options.config.METRICS_ENABLED ? app.get<Metrics>(METRICS) : null;
  configureSse(fastify, {
    maxBufferedBytes: options.config.SSE_MAX_BUFFERED_BYTES,
    onDropped: sseMetrics ? () => sseMetrics.sseDropped.inc() : undefined,
  });
  // Prometheus metrics (docs/operations.md "Metrics"): latency of every request, and /metrics
  // here unless METRICS_PORT moves it to a listener of its own (src/metrics).
  if (options.config.METRICS_ENABLED) {
    const metrics = app.get<Metrics>(METRICS);
    metrics.observeLiveConnections(() => streams.counts());
    const reads = app.get(ReadRouter);
    if (reads.enabled) metrics.observeReadRouting(reads);
    streams.onRefused = (kind, reason) => metrics.streamRefusals.inc({ kind, reason });
    fastify.addHook('onResponse', (request, reply, done) => {
      // The route template (/v1/games/:id), never the raw URL: label values stay few.
      const route = request.routeOptions.url ?? 'unmatched';
      metrics.httpDuration.observe(
        { method: request.method, route, status: String(reply.statusCode) },
        reply.elapsedTime / 1000,
      );
      done();
    });
    if (options.config.METRICS_PORT === undefined) {
      fastify.get('/metrics', async (_request, reply) => {
        const { contentType, body } = await metrics.scrape();
        return reply.type(contentType).send(body);
      });
    }
  }
  registerGraphqlPrecheck(fastify);
  registerGraphiql(fastify);
  // The offline audit verifier page (packages/verifier; docs/fairness.md §6).
  registerVerifyPage(fastify);
  // The reference web client at / (web/, built by npm run build; docs/web.md).
  registerWebApp(fastify);
  // OAuth's RFC-shaped endpoints outside /v1: token, revocation, metadata (docs/oauth.md).
  registerOAuthEndpoints(fastify, app.get(OAuthService));

  // Built on the first request for /docs, /docs-json or /docs-yaml, not at start: a server nobody
  // reads the docs of never holds the document (decision 0140).
  SwaggerModule.setup('docs', app, () => buildOpenApiDocument(app), {
    customSiteTitle: 'fairdice API',
    jsonDocumentUrl: 'docs-json',
    yamlDocumentUrl: 'docs-yaml',
  });
  return app;
}

/** The OpenAPI 3.1 document, as served at /docs-json and committed in openapi/openapi.json. */
export function buildOpenApiDocument(app: NestFastifyApplication): OpenAPIObject {
  const config = new DocumentBuilder()
    .setOpenAPIVersion('3.1.0')
    .setTitle('fairdice API')
    .setDescription(
      'Turn-based dice games as a service: the five-dice score sheet (penta, simple, bonus) and Farkle. ' +
        'Every roll is auditable (commit-reveal). Errors are RFC 9457 application/problem+json with a stable `code`. ' +
        'The same operations are available over GraphQL at /graphql.',
    )
    .setVersion(serviceInfo().version)
    .addBearerAuth({ type: 'http', scheme: 'bearer', description: 'The token returned once by POST /v1/players' })
    .build();
  const document = SwaggerModule.createDocument(app, config, {
    operationIdFactory: (controller, method) => `${controller.replace(/Controller$/, '')}_${method}`,
  });
  return completeOpenApiDocument(document, { webhooks: WEBHOOKS, webhookSchemas: WEBHOOK_SCHEMAS });
}
