export * from './types';
export * from './decide';
export * from './standings';
