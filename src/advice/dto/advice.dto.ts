/**
 * The advice API's DTOs (REST and GraphQL), one module per endpoint family, re-exported here in
 * their declaration order: enums, five dice, Farkle, game advice and analysis.
 */
export * from './advice-enums';
export * from './five-dice-advice.dto';
export * from './farkle-advice.dto';
export * from './game-analysis.dto';
