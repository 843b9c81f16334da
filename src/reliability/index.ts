export * from './idempotency/idempotency-key';
export * from './idempotency/idempotency.service';
export * from './http/etag';
export * from './http/cache-control';
export * from './http/uuid.pipe';
export * from './reliability.module';
export * from './http/command-options';
export * from './http/prefer';
