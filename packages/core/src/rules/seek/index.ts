export * from './types';
export * from './decide';
export * from './pairing';
