/** The five-dice family's own moves (packages/core/src/rules/five-dice): scoring a box. */
import { BoxIdEnum } from '../../common/graphql/enums';
import { ScoreInput } from '../dto/game.inputs';
import { defineMove, familyMove, play } from './move-definition';

const score = defineMove<ScoreInput>({
  name: 'score',
  scope: 'game:play',
  rest: {
    method: 'POST',
    path: ':id/score',
    summary: 'Five dice: enter the dice in a box',
    body: { type: ScoreInput },
    problems: [
      'GAME_NOT_STARTED',
      'NOT_YOUR_TURN',
      'ROLL_REQUIRED',
      'UNKNOWN_BOX',
      'BOX_ALREADY_FILLED',
      'BOX_NOT_ALLOWED',
      'INVALID_COMMAND',
    ],
  },
  graphql: {
    name: 'score',
    description: 'Five dice: enter the dice in a box (POST /v1/games/{id}/score).',
    args: [{ name: 'box', type: () => BoxIdEnum, metatype: String }],
    deprecatedAliases: [
      {
        name: 'scoreBox',
        deprecationReason: 'Renamed score (as POST /v1/games/{id}/score), whose box is a BoxId enum value.',
        args: [{ name: 'box', type: () => String, metatype: String }],
      },
    ],
  },
  command: {
    build: (player, { box }) => familyMove('five-dice', 'score a box', () => play(player, { type: 'score', box })),
  },
});

export const FIVE_DICE_MOVES = [score];
