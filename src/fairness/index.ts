export * from './seeds';
export * from './derivation';
export * from './canonical';
export * from './hash-chain';
