import { ApolloDriver, ApolloDriverConfig } from '@nestjs/apollo';
import { DynamicModule, Module } from '@nestjs/common';
import { GraphQLModule } from '@nestjs/graphql';
import type { GraphQLWsSubscriptionsConfig } from '@nestjs/graphql';
import type { Context } from 'graphql-ws';
import { DocumentNode, GraphQLSchema, parse, Source, specifiedRules, validate } from 'graphql';
import { AppConfig, APP_CONFIG } from './config/config';
import { DatabaseModule } from './database/database.module';
import { HealthModule } from './health/health.module';
import { MetricsModule } from './metrics/metrics.module';
import { ServiceInfoModule } from './service-info/service-info.module';
import { PlayersModule } from './players/players.module';
import { isOptionalAuth } from './players/auth.guard';
import { describeScopes } from './players/require-scope';
import { GamesModule } from './games/games.module';
import { AuditModule } from './audit/audit.module';
import { ScoringModule } from './scoring/scoring.module';
import { AsyncModule } from './async/async.module';
import { TournamentsModule } from './tournaments/tournaments.module';
import { PlayerEventsModule } from './player-events/player-events.module';
import { AccountsModule } from './accounts/accounts.module';
import { OAuthModule } from './oauth/oauth.module';
import { RatingsModule } from './ratings/ratings.module';
import { ChallengesModule } from './challenges/challenges.module';
import { MatchmakingModule } from './matchmaking/matchmaking.module';
import { AdviceModule } from './advice/advice.module';
import { toGraphQLError } from './common/errors';
import { ReliabilityModule } from './reliability/reliability.module';
import { CommandsModule } from './commands/commands.module';
import { httpOperationsOnly, noStoreCacheControl } from './reliability/graphql/transport';
import { ApolloServerPluginCacheControlDisabled } from '@apollo/server/plugin/disabled';
import { KeysModule } from './keys/keys.module';
import { resolveServiceKeys, ServiceKeys } from './keys/service-keys';
import { TransparencyModule } from './transparency/transparency.module';
import {
  documentShapeError,
  GRAPHQL_MAX_TOKENS,
  graphqlLimitRules,
  isTokenLimitError,
  isValidationAborted,
  QUERY_TOO_COMPLEX,
} from './reliability/graphql/limits';
import { graphqlRateLimitPlugin } from './reliability/rate-limit/graphql-rate-limit';
import { STREAM_LIMITS, StreamLimits } from './reliability/streams/stream-limits';
import { graphqlWsLimitHooks } from './reliability/streams/websocket-limits';

/** What formatError reads of the error Apollo hands it (a GraphQLError, or anything thrown). */
interface ApolloErrorLike {
  originalError?: { extensions?: Record<string, unknown> } | null;
  extensions?: { http?: { status?: unknown } };
}

export interface AppModuleOptions {
  config: AppConfig;
  /** The PostgreSQL URL actually used (the embedded server's when DATABASE_URL is unset). */
  databaseUrl: string;
  /** Pool size: 1 for the embedded database, which serves one connection at a time. */
  poolMax: number;
  /**
   * The signing and seed-encryption keys (src/keys). Default: from the configuration, or, for the
   * embedded database only, generated in memory (main.ts passes the data directory's keys).
   */
  keys?: ServiceKeys;
}

/** GraphQL: code-first, schema kept in memory (`npm run schema:generate` writes src/schema.gql). */
export const graphqlOptions = (config: AppConfig, streams: StreamLimits): ApolloDriverConfig => {
  const ws = graphqlWsLimitHooks(streams);
  const limitRules = graphqlLimitRules({
    maxDepth: config.GRAPHQL_MAX_DEPTH,
    maxCost: config.GRAPHQL_MAX_COST,
    maxAliases: config.GRAPHQL_MAX_ALIASES,
  });
  return {
    driver: ApolloDriver,
    autoSchemaFile: true,
    sortSchema: true,
    // No introspection query over the new schema at every start (about 170 ms of CPU): Apollo
    // validates the final schema when it starts (assertValidSchema), and a broken type throws
    // before that, when Nest prints the schema to build it again (decision 0161).
    buildSchemaOptions: { skipCheck: true },
    // Each root field's description names the scope its resolver declared (src/players/require-scope.ts).
    transformSchema: (schema: GraphQLSchema) => describeScopes(schema, isOptionalAuth),
    path: '/graphql',
    // Our own offline GraphiQL page is served at /graphiql (see src/graphiql); Apollo's landing page loads from a CDN.
    playground: false,
    graphiql: false,
    introspection: true,
    includeStacktraceInErrorResponses: false,
    // Subscriptions get the same document limits as HTTP (graphql-ws parses and validates itself),
    // and the live-connection caps (src/reliability/streams): subscriptions per connection, the
    // player's connections, connection_init within WS_CONNECTION_INIT_TIMEOUT_MS.
    subscriptions: {
      'graphql-ws': {
        connectionInitWaitTimeout: ws.connectionInitWaitTimeout,
        onConnect: ws.onConnect,
        onSubscribe: (ctx: Context, id: string, payload: { query?: unknown }) => {
          const shape = typeof payload.query === 'string' ? documentShapeError(payload.query) : null;
          if (shape) return [shape];
          return ws.takeSubscription(ctx, id) ?? undefined;
        },
        // Complete (client or server), error, and the socket's close give the slot back.
        onComplete: (ctx: Context, id: string) => ws.releaseSubscription(ctx, id),
        onError: (ctx: Context, id: string) => ws.releaseSubscription(ctx, id),
        onClose: (ctx: Context) => ws.onClose(ctx),
        // graphql-ws accepts parse/validate (Nest's type lists fewer of its options; it passes all).
        parse: (source: string | Source) => parse(source, { maxTokens: GRAPHQL_MAX_TOKENS }),
        validate: (schema: GraphQLSchema, document: DocumentNode) =>
          validate(schema, document, [...specifiedRules, ...limitRules]),
      } as GraphQLWsSubscriptionsConfig,
    },
    // Limits (docs/operations.md): one operation per HTTP request, bounded size, depth, cost and
    // aliases, all refused before execution.
    allowBatchedHttpRequests: false,
    parseOptions: { maxTokens: GRAPHQL_MAX_TOKENS },
    validationRules: limitRules,
    // A mutation is charged per root field against the rate limit before it executes.
    // Cache-Control: no-store once per answer instead of Apollo's per-field cache-hint hook.
    plugins: [
      graphqlRateLimitPlugin(),
      httpOperationsOnly,
      ApolloServerPluginCacheControlDisabled() as unknown as typeof noStoreCacheControl,
      noStoreCacheControl,
    ],
    // Production: no "Did you mean ...?" field suggestions (they reveal the schema bit by bit).
    hideSchemaDetailsFromClientErrors: config.NODE_ENV === 'production',
    formatError: (formatted, error) => {
      const tooComplex =
        (error as ApolloErrorLike | null)?.originalError?.extensions?.code === QUERY_TOO_COMPLEX ||
        isTokenLimitError(formatted.message) ||
        isValidationAborted(formatted.message);
      if (tooComplex) {
        const merged: Record<string, unknown> = {
          // graphql-js's own limits carry no details: name them.
          ...(isTokenLimitError(formatted.message) ? { limit: 'tokens', maximum: GRAPHQL_MAX_TOKENS } : {}),
          ...(isValidationAborted(formatted.message) ? { limit: 'validation' } : {}),
          ...(error as ApolloErrorLike | null)?.originalError?.extensions,
        };
        const { code: _c, http: _h, stacktrace: _s, ...limit } = merged;
        return {
          message: formatted.message,
          locations: formatted.locations,
          extensions: { ...limit, code: QUERY_TOO_COMPLEX, status: 400 },
        };
      }
      if (config.NODE_ENV === 'production' && typeof formatted.message === 'string') {
        formatted = { ...formatted, message: formatted.message.replace(/\s*Did you mean .*$/s, '') };
      }
      // Errors from inside resolvers already passed through AllExceptionsFilter; this catches
      // the rest (parse/validation errors, errors thrown by Apollo itself).
      // Errors Apollo raises itself with an HTTP 4xx head but no code (a persisted-query hash that
      // does not match its query, an unsupported persisted-query version) are client errors too.
      const httpStatus = Number((error as ApolloErrorLike | null)?.extensions?.http?.status ?? 0);
      const code =
        (formatted.extensions?.code === undefined || formatted.extensions?.code === 'INTERNAL_SERVER_ERROR') &&
        httpStatus >= 400 &&
        httpStatus < 500
          ? 'BAD_REQUEST'
          : formatted.extensions?.code;
      if (
        code === 'GRAPHQL_VALIDATION_FAILED' ||
        code === 'GRAPHQL_PARSE_FAILED' ||
        code === 'BAD_USER_INPUT' ||
        code === 'BAD_REQUEST' ||
        code === 'PERSISTED_QUERY_NOT_FOUND' ||
        code === 'OPERATION_RESOLUTION_FAILURE'
      ) {
        return {
          message: formatted.message,
          locations: formatted.locations,
          path: formatted.path,
          extensions: { code: 'VALIDATION_FAILED', status: 400, graphqlCode: code },
        };
      }
      if (typeof code === 'string' && /^[A-Z_]+$/.test(code) && code !== 'INTERNAL_SERVER_ERROR') {
        const { stacktrace: _s, ...extensions } = formatted.extensions ?? {};
        return { ...formatted, extensions };
      }
      const { graphqlError } = toGraphQLError((error as ApolloErrorLike | null)?.originalError ?? error);
      return {
        message: graphqlError.message,
        locations: formatted.locations,
        path: formatted.path,
        extensions: graphqlError.extensions,
      };
    },
  };
};

@Module({})
export class AppModule {
  static forRoot(options: AppModuleOptions): DynamicModule {
    const c = options.config;
    const streams = new StreamLimits({
      wsPerAddress: c.WS_MAX_CONNECTIONS_PER_ADDRESS,
      wsPerPlayer: c.WS_MAX_CONNECTIONS_PER_PLAYER,
      subscriptionsPerConnection: c.WS_MAX_SUBSCRIPTIONS_PER_CONNECTION,
      connectionInitTimeoutMs: c.WS_CONNECTION_INIT_TIMEOUT_MS,
      ssePerAddress: c.SSE_MAX_STREAMS_PER_ADDRESS,
    });
    return {
      module: AppModule,
      imports: [
        DatabaseModule.forRoot({
          url: options.databaseUrl,
          poolMax: options.poolMax,
          // With one connection (embedded) the wait is for the pool slot, not the network: be patient.
          connectTimeoutMs:
            options.poolMax === 1
              ? Math.max(options.config.DATABASE_CONNECT_TIMEOUT_MS, 30_000)
              : options.config.DATABASE_CONNECT_TIMEOUT_MS,
          queryTimeoutMs: options.config.DATABASE_QUERY_TIMEOUT_MS,
          // The standby for public reads (decision 0091; the configuration allows it only with DATABASE_URL).
          readUrl: options.config.DATABASE_READ_URL ?? null,
          readMaxLagMs: options.config.DATABASE_READ_MAX_LAG_MS,
          readLagCheckMs: options.config.DATABASE_READ_LAG_CHECK_MS,
          // Named statements (decision 0152): by default on a direct PostgreSQL only, not through a
          // transaction pooler (DATABASE_DIRECT_URL beside it); never on the embedded database
          // (its one connection, as above: one PGlite session outlives the pool's clients).
          preparedStatements:
            options.poolMax > 1 &&
            (options.config.DATABASE_PREPARED_STATEMENTS ?? options.config.DATABASE_DIRECT_URL === undefined),
        }),
        MetricsModule,
        GraphQLModule.forRoot<ApolloDriverConfig>(graphqlOptions(options.config, streams)),
        KeysModule.forRoot(options.keys ?? resolveServiceKeys(options.config, null)),
        ReliabilityModule,
        CommandsModule,
        HealthModule,
        ServiceInfoModule,
        PlayersModule,
        GamesModule,
        AuditModule,
        ScoringModule,
        AsyncModule,
        AdviceModule,
        TransparencyModule,
        TournamentsModule,
        PlayerEventsModule,
        AccountsModule,
        OAuthModule,
        RatingsModule,
        ChallengesModule,
        MatchmakingModule,
      ],
      providers: [
        { provide: APP_CONFIG, useValue: options.config },
        { provide: STREAM_LIMITS, useValue: streams },
      ],
      exports: [APP_CONFIG, STREAM_LIMITS],
      global: true,
    };
  }
}
