/**
 * Every move of a game, from the tables of each family: the REST routes (GamesController), the
 * GraphQL mutations (GamesResolver) and the commands (GameCommands) are made from these entries.
 * The order is the routes' order in openapi/openapi.json (the contract is compared byte for byte):
 * a new move goes at the end.
 */
import { FARKLE_MOVES } from './farkle.moves';
import { FIVE_DICE_MOVES } from './five-dice.moves';
import { LOBBY_COMMANDS, QUIT, ROLL } from './game-commands.moves';
import type { GameMove } from './move-definition';

export const GAME_MOVES: readonly GameMove[] = [...LOBBY_COMMANDS, ROLL, ...FIVE_DICE_MOVES, ...FARKLE_MOVES, QUIT];

/** The move of this name (tests, and callers inside the service). */
export function gameMove(name: string): GameMove {
  const move = GAME_MOVES.find((m) => m.name === name);
  if (!move) throw new Error(`No game move named ${name}`);
  return move;
}
