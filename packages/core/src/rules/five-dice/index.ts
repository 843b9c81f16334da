export * from './types';
export * from './options';
export * from './scoring';
export * from './decider';
export * from './computer';
export * from './simulate';
