export * from './types';
export * from './decide';
export * from './pairing';
export * from './seat-order';
