import type { LoggerService } from '@nestjs/common';
import pino, { type Logger as Pino } from 'pino';

/**
 * One pino logger for the whole process: Fastify logs each request with its request id
 * (taken from `x-request-id` or generated), and Nest's own messages go through the same
 * instance, so every line is one JSON object.
 */
export function createPinoLogger(level: string): Pino {
  return pino({
    level,
    base: { service: 'fairdice' },
    timestamp: pino.stdTimeFunctions.isoTime,
    // Bearer tokens and seeds never reach the logs.
    redact: {
      paths: ['req.headers.authorization', 'req.headers.cookie', '*.token', '*.serverSeed'],
      censor: '[redacted]',
    },
    serializers: {
      req: (req) => ({ method: req.method, url: req.url, remoteAddress: req.ip ?? req.socket?.remoteAddress }),
    },
  });
}

export class PinoNestLogger implements LoggerService {
  constructor(private readonly pino: Pino) {}

  private write(level: 'info' | 'error' | 'warn' | 'debug' | 'trace' | 'fatal', message: unknown, params: unknown[]) {
    const context = typeof params[params.length - 1] === 'string' ? (params.pop() as string) : undefined;
    if (message !== null && typeof message === 'object') this.pino[level]({ context, ...message });
    else
      this.pino[level](
        {
          context,
          ...(params.length && typeof params[0] === 'string' && level === 'error' ? { stack: params[0] } : {}),
        },
        String(message),
      );
  }

  log(message: unknown, ...params: unknown[]) {
    this.write('info', message, params);
  }
  error(message: unknown, ...params: unknown[]) {
    this.write('error', message, params);
  }
  warn(message: unknown, ...params: unknown[]) {
    this.write('warn', message, params);
  }
  debug(message: unknown, ...params: unknown[]) {
    this.write('debug', message, params);
  }
  verbose(message: unknown, ...params: unknown[]) {
    this.write('trace', message, params);
  }
  fatal(message: unknown, ...params: unknown[]) {
    this.write('fatal', message, params);
  }
}
