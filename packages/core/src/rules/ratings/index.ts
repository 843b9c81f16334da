export * from './glicko2';
export * from './game-results';
export * from './pools';
