export * from './types';
export * from './decide';
export * from './seat-order';
