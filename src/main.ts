import { applyRuntimeFlags } from './runtime-flags';
import type { Logger as Pino } from 'pino';
import { type AppConfig, ConfigError, loadConfig } from './config/config';
import { createApp } from './app.factory';
import { createPinoLogger } from './common/logging/logger';
import { type ResolvedDatabase, resolveDatabase } from './database/database-lifecycle';
import {
  isTransientStartupError,
  pingDatabase,
  retryUntilReady,
  startWaitingServer,
} from './reliability/startup/database-wait';
import { installGracefulShutdown } from './shutdown';
import { KeysError, resolveServiceKeys } from './keys/service-keys';

// First: V8 flags that must be set before Prisma compiles its WebAssembly (decision 0140).
applyRuntimeFlags();

async function bootstrap() {
  let config;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      // One line, naming the variable; no stack.
      process.stderr.write(`${error.message}\n`);
      process.exit(1);
    }
    throw error;
  }
  const logger = createPinoLogger(config.LOG_LEVEL);
  const { database, waiting } = await prepareDatabase(config, logger);
  let keys;
  try {
    // After the database: PGlite has created its data directory. Only the embedded default may
    // create its keys, in its data directory (src/keys).
    keys = resolveServiceKeys(config, config.embeddedDatabase ? config.PGLITE_DATA_DIR : null);
  } catch (error) {
    if (error instanceof KeysError) {
      process.stderr.write(`Invalid keys: ${error.message}\n`);
      await waiting?.close();
      await database.stop();
      process.exit(1);
    }
    throw error;
  }
  const app = await createApp({ config, databaseUrl: database.url, poolMax: database.poolMax, logger, keys });
  installGracefulShutdown(app, { timeoutMs: config.SHUTDOWN_TIMEOUT_MS, logger, onClosed: () => database.stop() });
  // Everything is ready before the waiting server lets go of the port: the gap is one listen().
  await app.init();
  await waiting?.close();
  await app.listen({ port: config.PORT, host: config.HOST });
  logger.info(
    {
      context: 'Bootstrap',
      port: config.PORT,
      database: config.embeddedDatabase ? `embedded (${config.PGLITE_DATA_DIR})` : 'postgresql',
    },
    `fairdice listening on http://${config.HOST}:${config.PORT} (REST /v1, GraphQL /graphql, docs /docs, GraphiQL /graphiql)`,
  );
}

/**
 * The database, migrated. An external PostgreSQL that is down, starting or full is waited for
 * (src/reliability/startup/database-wait.ts): with backoff, for DATABASE_STARTUP_TIMEOUT_MS, while a waiting
 * server answers /health (200) and /health/ready (503) on the service's port.
 */
async function prepareDatabase(
  config: AppConfig,
  logger: Pino,
): Promise<{ database: ResolvedDatabase; waiting: { close(): Promise<void> } | null }> {
  const log = (line: string) => logger.info({ context: 'Database' }, line);
  const resolve = () =>
    resolveDatabase({
      databaseUrl: config.DATABASE_URL,
      directUrl: config.DATABASE_DIRECT_URL,
      dataDir: config.PGLITE_DATA_DIR,
      migrateOnStart: config.MIGRATE_ON_START,
      poolMax: config.DATABASE_POOL_MAX,
      log,
    });
  if (config.DATABASE_URL === undefined) return { database: await resolve(), waiting: null };
  const url = config.DATABASE_URL;
  let waiting: { close(): Promise<void> } | null = null;
  let stopping = false;
  const stop = () => {
    stopping = true;
    logger.info({ context: 'Bootstrap' }, 'signal while waiting for the database: exiting');
    void (waiting?.close() ?? Promise.resolve()).finally(() => process.exit(0));
  };
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
  try {
    const database = await retryUntilReady(
      async () => {
        try {
          await pingDatabase(url, config.DATABASE_CONNECT_TIMEOUT_MS);
          return await resolve();
        } catch (error) {
          if (waiting === null && isTransientStartupError(error)) {
            waiting = await startWaitingServer(config.PORT, config.HOST);
            logger.warn(
              { context: 'Bootstrap', port: config.PORT },
              `database not reachable: waiting up to ${config.DATABASE_STARTUP_TIMEOUT_MS} ms; /health/ready answers 503 meanwhile`,
            );
          }
          throw error;
        }
      },
      {
        timeoutMs: config.DATABASE_STARTUP_TIMEOUT_MS,
        log: (line) => logger.warn({ context: 'Database' }, line),
        aborted: () => stopping,
      },
    );
    return { database, waiting };
  } catch (error) {
    await (waiting as { close(): Promise<void> } | null)?.close();
    throw error;
  } finally {
    process.removeListener('SIGTERM', stop);
    process.removeListener('SIGINT', stop);
  }
}

bootstrap().catch((error) => {
  process.stderr.write(`fairdice failed to start: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
