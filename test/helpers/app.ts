/**
 * Builds the real application for end-to-end tests, on the database the global setup prepared
 * (process.env.DATABASE_URL: a fresh PostgreSQL database or the embedded PGlite server).
 */
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import pino from 'pino';
import request from 'supertest';
import { createApp } from '../../src/app.factory';
import type { Pool } from 'pg';
import { loadConfig } from '../../src/config/config';
import { PG_POOL } from '../../src/database/pg-pool';
import { SeedVault } from '../../src/keys/seed-vault';
import { recordResponse } from './contract';

export interface TestApp {
  app: NestFastifyApplication;
  /** supertest agent bound to the app's HTTP server */
  http: () => ReturnType<typeof request>;
  close(): Promise<void>;
}

/**
 * For suites under heavy concurrent load (a browser, hundreds of simultaneous requests) beside the
 * other Jest worker on two CI cores: a pool wait there can pass the production fail-fast of 1.5 s
 * and answer 503 DATABASE_UNAVAILABLE, which these suites do not test (the fault suites do). With
 * this env their apps wait for a pooled connection instead.
 */
export const WAIT_FOR_POOL_ENV = { DATABASE_CONNECT_TIMEOUT_MS: '15000' } as const;

export async function createTestApp(
  options: {
    listen?: boolean;
    env?: Record<string, string>;
    logger?: pino.Logger;
    databaseUrl?: string;
    /** false: do not check the responses against openapi/openapi.json (test/helpers/contract.ts). */
    contract?: boolean;
  } = {},
): Promise<TestApp> {
  const url = options.databaseUrl ?? process.env.DATABASE_URL;
  if (!url) throw new Error('DATABASE_URL is not set: run the e2e tests through jest (global setup)');
  // Webhook receivers in the tests listen on 127.0.0.1: the address checks are off unless a test turns them on.
  const config = loadConfig({
    NODE_ENV: 'test',
    LOG_LEVEL: 'silent',
    WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true',
    PUSH_ALLOW_PRIVATE_NETWORKS: 'true',
    // The matchmaker's passes run only where a test asks for them (test/matchmaking, test/web/seeks).
    MATCHMAKER_ENABLED: 'false',
    ...testKeys(),
    ...options.env,
    DATABASE_URL: url,
  });
  const poolMax = process.env.FAIRDICE_TEST_DB === 'embedded' ? 1 : 5;
  const app = await createApp({
    config,
    databaseUrl: url,
    poolMax,
    logger: options.logger ?? pino({ level: 'silent' }),
  });
  if (options.contract !== false) {
    // Every response is checked against the committed OpenAPI document (test/helpers/contract.ts).
    app
      .getHttpAdapter()
      .getInstance()
      .addHook('onSend', async (req, reply, payload) => {
        recordResponse({
          method: req.method,
          url: req.url,
          status: reply.statusCode,
          headers: reply.getHeaders(),
          body: typeof payload === 'string' ? payload : Buffer.isBuffer(payload) ? payload.toString('utf8') : undefined,
        });
        return payload;
      });
  }
  try {
    await app.init();
  } catch (err) {
    await app.close().catch(() => undefined); // a refused start leaves no pool or timer behind
    throw err;
  }
  await app.getHttpAdapter().getInstance().ready();
  if (options.listen) await app.listen({ port: 0, host: '127.0.0.1' });
  return {
    app,
    http: () => request(app.getHttpServer()),
    close: () => app.close(),
  };
}

/** The run's keys (global-setup.ts): LOG_SIGNING_KEY, SEED_ENCRYPTION_KEYS and the VAPID pair. */
export function testKeys(): {
  LOG_SIGNING_KEY: string;
  SEED_ENCRYPTION_KEYS: string;
  VAPID_PUBLIC_KEY: string;
  VAPID_PRIVATE_KEY: string;
} {
  const { LOG_SIGNING_KEY, SEED_ENCRYPTION_KEYS, VAPID_PUBLIC_KEY, VAPID_PRIVATE_KEY } = process.env;
  if (!LOG_SIGNING_KEY || !SEED_ENCRYPTION_KEYS || !VAPID_PUBLIC_KEY || !VAPID_PRIVATE_KEY)
    throw new Error('test keys are not set: run e2e tests through jest (global setup)');
  return { LOG_SIGNING_KEY, SEED_ENCRYPTION_KEYS, VAPID_PUBLIC_KEY, VAPID_PRIVATE_KEY };
}

/** The server seed of a game as stored (sealed at rest), opened with the app's key. */
export async function storedServerSeed(t: TestApp, gameId: string): Promise<string> {
  const { rows } = await t.app.get<Pool>(PG_POOL).query('SELECT server_seed FROM games WHERE id = $1', [gameId]);
  return t.app.get(SeedVault).open(gameId, rows[0].server_seed as string);
}

/** Registers a player through the API and returns its id and token. */
export async function registerPlayer(
  t: TestApp,
  displayName = 'Player',
): Promise<{ id: string; token: string; auth: { authorization: string } }> {
  const res = await t.http().post('/v1/players').send({ displayName }).expect(201);
  return { id: res.body.player.id, token: res.body.token, auth: { authorization: `Bearer ${res.body.token}` } };
}

/** POSTs a GraphQL document and returns the parsed body. */
export async function gql(t: TestApp, query: string, variables: Record<string, unknown> = {}, token?: string) {
  const req = t.http().post('/graphql').set('content-type', 'application/json');
  if (token) req.set('authorization', `Bearer ${token}`);
  const res = await req.send({ query, variables });
  return res.body as { data?: any; errors?: Array<{ message: string; extensions?: Record<string, any> }> };
}
