import type { INestApplication } from '@nestjs/common';
import type { Logger as Pino } from 'pino';

/**
 * SIGTERM/SIGINT: stop accepting connections, let in-flight requests finish (Fastify's close
 * waits for them), close the database pool, then exit. A second signal or the timeout forces exit.
 */
export function installGracefulShutdown(
  app: INestApplication,
  options: { timeoutMs: number; logger: Pino; onClosed?: () => Promise<void> },
): void {
  let closing = false;
  const shutdown = (signal: NodeJS.Signals) => {
    if (closing) {
      options.logger.warn({ signal }, 'second signal: exiting now');
      process.exit(1);
    }
    closing = true;
    options.logger.info({ signal }, 'shutting down: finishing in-flight requests');
    const timer = setTimeout(() => {
      options.logger.error('shutdown timed out: exiting');
      process.exit(1);
    }, options.timeoutMs);
    timer.unref();
    // Close the HTTP server first: Fastify stops accepting connections and waits for the
    // in-flight requests. Only then does Nest dispose providers (the database pool), which
    // those requests may still be using.
    const fastify = app.getHttpAdapter().getInstance() as { close?: () => Promise<void> } | undefined;
    Promise.resolve(fastify?.close?.())
      .then(() => app.close().catch(() => undefined))
      .then(() => options.onClosed?.())
      .then(() => {
        options.logger.info('shut down cleanly');
        process.exit(0);
      })
      .catch((error) => {
        options.logger.error({ err: error }, 'error during shutdown');
        process.exit(1);
      });
  };
  process.on('SIGTERM', shutdown);
  process.on('SIGINT', shutdown);
}
