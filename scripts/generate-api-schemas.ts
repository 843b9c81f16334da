/**
 * Writes the GraphQL schema (src/schema.gql) and the OpenAPI 3.1 document (openapi/openapi.json)
 * from the code. Both are committed; test/api/api-schemas.e2e-spec.ts fails when they are stale.
 * Usage: npm run schema:generate
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { renderApiSchemas } from '../src/api-schemas';
import { loadConfig } from '../src/config/config';
import { createApp } from '../src/app.factory';
import { resolveDatabase } from '../src/database/database-lifecycle';
import pino from 'pino';

async function main() {
  const root = join(__dirname, '..', '..');
  const config = loadConfig({ LOG_LEVEL: 'warn' });
  const database = await resolveDatabase({ databaseUrl: null, dataDir: null, migrateOnStart: true });
  const app = await createApp({
    config,
    databaseUrl: database.url,
    poolMax: database.poolMax,
    logger: pino({ level: 'warn' }),
  });
  await app.init();
  const { graphql, openapi } = renderApiSchemas(app);
  writeFileSync(join(root, 'src', 'schema.gql'), graphql);
  mkdirSync(join(root, 'openapi'), { recursive: true });
  writeFileSync(join(root, 'openapi', 'openapi.json'), openapi);
  await app.close();
  await database.stop();
  console.log('wrote src/schema.gql and openapi/openapi.json');
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
