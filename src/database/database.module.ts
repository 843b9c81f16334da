/**
 * Database access for Nest.
 *
 * Wiring (done by the app module, not here):
 *
 *   // main.ts, before creating the Nest app (database-lifecycle.ts):
 *   const db = await resolveDatabase({ databaseUrl, dataDir, migrateOnStart, poolMax, log });
 *   const app = ... AppModule.forRoot({ databaseUrl: db.url, poolMax: db.poolMax, ... });
 *   ... after `await app.close()` (the pool ends once every module is done with it):
 *   await db.stop();   // stops the embedded server, if any
 *
 *   // app.module.ts:
 *   imports: [DatabaseModule.forRoot({ url: db.url, poolMax: db.poolMax })]
 *   // or, when the URL comes from another provider (ConfigService):
 *   imports: [DatabaseModule.forRootAsync({ imports: [ConfigModule], inject: [AppConfig],
 *              useFactory: (c: AppConfig) => ({ url: c.databaseUrl, poolMax: c.dbPoolMax }) })]
 *
 * The module is global. It provides:
 *   - PG_POOL: the pg.Pool every query of the service goes through (with the embedded database
 *     poolMax is 1, so do not hold a pool client while awaiting another query on the pool, it
 *     would wait for itself). No Prisma client is loaded at run time: Prisma is the schema and
 *     the migrations (decision 0162);
 *   - DATABASE_OPTIONS: the resolved { url, poolMax };
 *   - ReadRouter: the public, staleness-tolerant reads, on the standby of `readUrl` when one is
 *     set and fresh enough, else on the primary (read-routing.ts).
 */
import {
  DynamicModule,
  Global,
  Inject,
  Injectable,
  Module,
  OnApplicationBootstrap,
  OnApplicationShutdown,
  Provider,
} from '@nestjs/common';
import type { InjectionToken, ModuleMetadata, OptionalFactoryDependency } from '@nestjs/common';
import { Pool } from 'pg';
import { createPgPool, DATABASE_OPTIONS, DatabaseOptions, PG_POOL } from './pg-pool';
import { ReadRouter } from './read-routing';

export { DATABASE_OPTIONS, PG_POOL, ReadRouter };
export type { DatabaseOptions };

/**
 * Ends the pool on app.close(): onApplicationShutdown runs after every onModuleDestroy, so
 * after other modules' cleanup that may still query.
 */
@Injectable()
class PgPoolCloser implements OnApplicationShutdown {
  constructor(@Inject(PG_POOL) private readonly pool: Pool) {}
  async onApplicationShutdown(): Promise<void> {
    if (!this.pool.ended) await this.pool.end();
  }
}

/** Starts the standby's lag checks once the app is up; closes its pool after the primary's users are done. */
@Injectable()
class ReadRouterLifecycle implements OnApplicationBootstrap, OnApplicationShutdown {
  constructor(private readonly router: ReadRouter) {}
  onApplicationBootstrap(): void {
    this.router.start();
  }
  async onApplicationShutdown(): Promise<void> {
    await this.router.close();
  }
}

const readRouterProvider: Provider = {
  provide: ReadRouter,
  inject: [PG_POOL, DATABASE_OPTIONS],
  useFactory: (pool: Pool, o: DatabaseOptions) =>
    new ReadRouter(
      pool,
      {
        url: o.readUrl ?? null,
        maxLagMs: o.readMaxLagMs ?? 5000,
        lagCheckMs: o.readLagCheckMs ?? 1000,
      },
      (url) => createPgPool({ ...o, url }, 'fairdice-read'),
    ),
};

export interface DatabaseModuleAsyncOptions {
  imports?: ModuleMetadata['imports'];
  inject?: (InjectionToken | OptionalFactoryDependency)[];
  useFactory: (...args: never[]) => DatabaseOptions | Promise<DatabaseOptions>;
}

const sharedProviders: Provider[] = [
  { provide: PG_POOL, inject: [DATABASE_OPTIONS], useFactory: (o: DatabaseOptions) => createPgPool(o) },
  PgPoolCloser,
  readRouterProvider,
  ReadRouterLifecycle,
];
const sharedExports = [PG_POOL, DATABASE_OPTIONS, ReadRouter];

@Global()
@Module({})
export class DatabaseModule {
  static forRoot(options: DatabaseOptions): DynamicModule {
    return {
      module: DatabaseModule,
      providers: [{ provide: DATABASE_OPTIONS, useValue: options }, ...sharedProviders],
      exports: sharedExports,
    };
  }

  static forRootAsync(options: DatabaseModuleAsyncOptions): DynamicModule {
    return {
      module: DatabaseModule,
      imports: options.imports ?? [],
      providers: [
        { provide: DATABASE_OPTIONS, inject: options.inject ?? [], useFactory: options.useFactory },
        ...sharedProviders,
      ],
      exports: sharedExports,
    };
  }
}
