/** The Farkle family's own moves (packages/core/src/rules/farkle): setting dice aside, banking. */
import { Int } from '@nestjs/graphql';
import { SetAsideInput } from '../dto/game.inputs';
import { defineMove, familyMove, play } from './move-definition';

const setAside = defineMove<SetAsideInput>({
  name: 'setAside',
  scope: 'game:play',
  rest: {
    method: 'POST',
    path: ':id/set-aside',
    summary: 'Farkle: set scoring dice of the current roll aside',
    body: { type: SetAsideInput },
    problems: [
      'GAME_NOT_STARTED',
      'NOT_YOUR_TURN',
      'ROLL_REQUIRED',
      'INVALID_SELECTION',
      'SELECTION_DOES_NOT_SCORE',
      'ALREADY_SET_ASIDE',
      'INVALID_COMMAND',
    ],
  },
  graphql: { name: 'setAside', args: [{ name: 'dice', type: () => [Int], metatype: Array }] },
  command: {
    build: (player, { dice }) => familyMove('farkle', 'set dice aside', () => play(player, { type: 'setAside', dice })),
  },
});

const bank = defineMove({
  name: 'bank',
  scope: 'game:play',
  rest: {
    method: 'POST',
    path: ':id/bank',
    summary: "Farkle: bank the turn's points",
    problems: [
      'GAME_NOT_STARTED',
      'NOT_YOUR_TURN',
      'ROLL_REQUIRED',
      'NOTHING_SET_ASIDE',
      'BELOW_ENTRY_THRESHOLD',
      'INVALID_COMMAND',
    ],
  },
  graphql: { name: 'bank' },
  command: { build: (player) => familyMove('farkle', 'bank', () => play(player, { type: 'bank' })) },
});

export const FARKLE_MOVES = [setAside, bank];
