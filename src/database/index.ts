export * from './embedded-postgres';
export * from './migrate';
export * from './database-lifecycle';
export * from './prisma.service';
export * from './read-routing';
export { DatabaseModule } from './database.module';
export type { DatabaseModuleAsyncOptions } from './database.module';
