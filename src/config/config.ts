import { z } from 'zod';

/**
 * The service's configuration, read from the environment once at start-up.
 * A bad value stops the process with one line naming the variable (see `loadConfig`).
 */
const booleanFlag = z
  .enum(['true', 'false', '1', '0', 'yes', 'no'], { message: 'must be true or false' })
  .transform((v) => v === 'true' || v === '1' || v === 'yes');

const postgresUrl = z
  .string()
  .refine((v) => {
    try {
      const u = new URL(v);
      return (u.protocol === 'postgres:' || u.protocol === 'postgresql:') && u.hostname.length > 0;
    } catch {
      return false;
    }
  }, 'must be a postgresql:// URL such as postgresql://user:pass@host:5432/db');

const positiveInt = (name: string) =>
  z
    .string()
    .regex(/^\d+$/, `must be a whole number`)
    .transform(Number)
    .refine((n) => n > 0, `${name} must be greater than 0`);

export const configSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test'], { message: 'must be development, production or test' }).default('development'),
  HOST: z.string().min(1).default('0.0.0.0'),
  PORT: z
    .string()
    .regex(/^\d+$/, 'must be a port number (0-65535)')
    .transform(Number)
    .refine((n) => n >= 0 && n <= 65535, 'must be a port number (0-65535)')
    .default(3000),
  DATABASE_URL: postgresUrl.optional(),
  DATABASE_POOL_MAX: positiveInt('DATABASE_POOL_MAX').default(10),
  PGLITE_DATA_DIR: z.string().min(1).default('./data/pglite'),
  MIGRATE_ON_START: booleanFlag.default(true),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'], { message: 'must be one of fatal, error, warn, info, debug, trace, silent' }).default('info'),
  SHUTDOWN_TIMEOUT_MS: positiveInt('SHUTDOWN_TIMEOUT_MS').default(10000),
  GRAPHIQL: booleanFlag.optional(),
});

export type AppConfig = z.output<typeof configSchema> & {
  /** True when no DATABASE_URL is set: the embedded PGlite database is used. */
  embeddedDatabase: boolean;
};

export class ConfigError extends Error {}

/** Parses the environment. Throws ConfigError whose message is one line naming the variable. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): AppConfig {
  // Empty strings mean "unset" (docker-compose and shells often pass VAR= ).
  const input = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== ''));
  const parsed = configSchema.safeParse(input);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const name = String(issue.path[0] ?? 'environment');
    const shown = env[name] === undefined ? '' : ` (got "${String(env[name]).slice(0, 60)}")`;
    throw new ConfigError(`Invalid configuration: ${name} ${issue.message}${shown}`);
  }
  return { ...parsed.data, embeddedDatabase: parsed.data.DATABASE_URL === undefined };
}

/** Injection token for the typed configuration. */
export const APP_CONFIG = Symbol('APP_CONFIG');
