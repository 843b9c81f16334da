export * from './dice';
export * from './errors';
export * from './family';
export * from './replay';
