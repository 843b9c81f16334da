export * from './dice-tables';
export * from './five-dice-solver';
export * from './five-dice-advice';
export * from './five-dice-endgame';
export * from './five-dice-bonus-chance';
export * from './five-dice-table-format';
export * from './farkle-solver';
export * from './farkle-two-player';
