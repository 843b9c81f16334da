/**
 * Builds the real application for end-to-end tests, on the database the global setup prepared
 * (process.env.DATABASE_URL: a fresh PostgreSQL database or the embedded PGlite server).
 */
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import pino from 'pino';
import request from 'supertest';
import { createApp } from '../../src/app.factory';
import { loadConfig } from '../../src/config/config';

export interface TestApp {
  app: NestFastifyApplication;
  /** supertest agent bound to the app's HTTP server */
  http: () => ReturnType<typeof request>;
  close(): Promise<void>;
}

export async function createTestApp(
  options: { listen?: boolean; env?: Record<string, string>; logger?: pino.Logger } = {},
): Promise<TestApp> {
  const url = process.env.DATABASE_URL;
  if (!url) throw new Error('DATABASE_URL is not set: run the e2e tests through jest (global setup)');
  // Webhook receivers in the tests listen on 127.0.0.1: the address checks are off unless a test turns them on.
  const config = loadConfig({
    NODE_ENV: 'test',
    LOG_LEVEL: 'silent',
    WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true',
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
  await app.init();
  await app.getHttpAdapter().getInstance().ready();
  if (options.listen) await app.listen({ port: 0, host: '127.0.0.1' });
  return {
    app,
    http: () => request(app.getHttpServer()),
    close: () => app.close(),
  };
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
