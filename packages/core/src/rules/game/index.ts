export * from './types';
export * from './evolve';
export * from './decide';
