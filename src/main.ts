import { ConfigError, loadConfig } from './config/config';
import { createApp } from './app.factory';
import { createPinoLogger } from './common/logging/logger';
import { resolveDatabase } from './database/database-lifecycle';
import { installGracefulShutdown } from './shutdown';
import { KeysError, resolveServiceKeys } from './keys/service-keys';

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
  const database = await resolveDatabase({
    databaseUrl: config.DATABASE_URL,
    dataDir: config.PGLITE_DATA_DIR,
    migrateOnStart: config.MIGRATE_ON_START,
    poolMax: config.DATABASE_POOL_MAX,
    log: (line: string) => logger.info({ context: 'Database' }, line),
  });
  let keys;
  try {
    // After the database: PGlite has created its data directory. Only the embedded default may create its keys, in its data directory (src/keys).
    keys = resolveServiceKeys(config, config.embeddedDatabase ? config.PGLITE_DATA_DIR : null);
  } catch (error) {
    if (error instanceof KeysError) {
      process.stderr.write(`Invalid keys: ${error.message}\n`);
      await database.stop();
      process.exit(1);
    }
    throw error;
  }
  const app = await createApp({ config, databaseUrl: database.url, poolMax: database.poolMax, logger, keys });
  installGracefulShutdown(app, { timeoutMs: config.SHUTDOWN_TIMEOUT_MS, logger, onClosed: () => database.stop() });
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

bootstrap().catch((error) => {
  process.stderr.write(`fairdice failed to start: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
