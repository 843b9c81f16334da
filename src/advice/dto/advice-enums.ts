/** The advice API's enums (GraphQL enums registered here; OpenAPI by apiRef): actions, objectives, decision kinds and labels. */
import { registerEnumType } from '@nestjs/graphql';
import { enumOf } from '../../common/graphql/enums';

export const FIVE_DICE_ACTIONS = ['roll', 'hold', 'score'] as const;
export const FiveDiceActionEnum = enumOf(FIVE_DICE_ACTIONS);
registerEnumType(FiveDiceActionEnum, {
  name: 'FiveDiceAction',
  description: 'roll: the turn has not been rolled yet; hold: keep `hold` and roll again; score: enter `box` now.',
});
export const ENDGAME_STATUSES = ['solved', 'noTarget', 'tooManyOpenBoxes'] as const;
export const EndgameStatusEnum = enumOf(ENDGAME_STATUSES);
registerEnumType(EndgameStatusEnum, {
  name: 'EndgameStatus',
  description:
    'Five-dice endgame win chances: solved (given); noTarget (no total to beat: not the endgame); tooManyOpenBoxes (past the endgame solver’s open-box maximum: expected-score advice only).',
});
export const FARKLE_ACTIONS = ['roll', 'setAside', 'bank'] as const;
export const FarkleActionEnum = enumOf(FARKLE_ACTIONS);
registerEnumType(FarkleActionEnum, {
  name: 'FarkleAction',
  description: 'roll: roll the dice left; setAside: set `dice` aside, then `then` (bank or roll); bank: bank now.',
});
export const BANK_OR_ROLL = ['bank', 'roll'] as const;
export const BankOrRollEnum = enumOf(BANK_OR_ROLL);
registerEnumType(BankOrRollEnum, { name: 'BankOrRoll', description: 'Bank the turn points, or roll the dice left.' });
export const FARKLE_OBJECTIVES = ['fewestTurns', 'beatLeader', 'winProbability'] as const;
export const FarkleObjectiveEnum = enumOf(FARKLE_OBJECTIVES);
registerEnumType(FarkleObjectiveEnum, {
  name: 'FarkleObjective',
  description:
    'fewestTurns: values are expected turns to reach the target (lower is better); beatLeader: the last-round adjustment, values are chances to finish above the leader (higher is better); winProbability: two players, values are chances to win the game against `opponent` (a tie counts half; higher is better).',
});
/** What the advice maximises, asked for by the caller (a game's advice, the stateless Farkle advisor). */
export const ADVICE_OBJECTIVES = ['expected', 'winProbability'] as const;
export type AdviceObjective = (typeof ADVICE_OBJECTIVES)[number];
export const AdviceObjectiveEnum = enumOf(ADVICE_OBJECTIVES);
registerEnumType(AdviceObjectiveEnum, {
  name: 'AdviceObjective',
  description:
    'expected (the default): the solo objective, the expected final score (five dice) or the fewest expected turns (Farkle, with the last-round adjustment); winProbability: the chance to win a two-player Farkle game, a tie counting half (five dice: the same view as expected, whose endgame fields carry the win chances; docs/advice.md).',
});
export const DECISION_KINDS = ['hold', 'box', 'setAside'] as const;
export const DecisionKindEnum = enumOf(DECISION_KINDS);
registerEnumType(DecisionKindEnum, {
  name: 'DecisionKind',
  description:
    'hold: which dice to keep after a roll with rolls left (keeping all five = scoring now); box: where to score; setAside (Farkle): which scoring dice to set aside from a roll, then bank or roll.',
});
export const DECISION_LABELS = ['best', 'good', 'inaccuracy', 'mistake', 'blunder'] as const;
export const DecisionLabelEnum = enumOf(DECISION_LABELS);
registerEnumType(DecisionLabelEnum, {
  name: 'DecisionLabel',
  description:
    'By loss against optimal play (docs/advice.md). Expected points (five dice): best 0 (a tie counts), good < 0.5, inaccuracy < 2, mistake < 6, blunder ≥ 6. Win chance (two-player Farkle, and five-dice endgame decisions once every other seat finished): best ≤ 1e-9, good < 0.01, inaccuracy < 0.03, mistake < 0.08, blunder ≥ 0.08.',
});
