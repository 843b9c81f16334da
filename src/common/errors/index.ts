export * from './error-codes';
export * from './domain.exception';
export * from './problem';
export * from './all-exceptions.filter';
export * from './validation.pipe';
