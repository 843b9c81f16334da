export * from './types';
export * from './decide';
