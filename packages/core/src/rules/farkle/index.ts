export * from './options';
export * from './scoring';
export * from './types';
export * from './game';
