export * from './types';
export * from './evolve';
export * from './decide';
export * from './create';
export * from './play';
export * from './access';
