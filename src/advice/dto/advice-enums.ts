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
export const FARKLE_OBJECTIVES = ['fewestTurns', 'beatLeader'] as const;
export const FarkleObjectiveEnum = enumOf(FARKLE_OBJECTIVES);
registerEnumType(FarkleObjectiveEnum, {
  name: 'FarkleObjective',
  description:
    'fewestTurns: values are expected turns to reach the target (lower is better); beatLeader: the last-round adjustment, values are chances to finish above the leader (higher is better).',
});
export const DECISION_KINDS = ['hold', 'box'] as const;
export const DecisionKindEnum = enumOf(DECISION_KINDS);
registerEnumType(DecisionKindEnum, {
  name: 'DecisionKind',
  description:
    'hold: which dice to keep after a roll with rolls left (keeping all five = scoring now); box: where to score.',
});
export const DECISION_LABELS = ['best', 'good', 'inaccuracy', 'mistake', 'blunder'] as const;
export const DecisionLabelEnum = enumOf(DECISION_LABELS);
registerEnumType(DecisionLabelEnum, {
  name: 'DecisionLabel',
  description:
    'By expected-value loss against optimal play (docs/advice.md): best 0 (a tie counts), good < 0.5, inaccuracy < 2, mistake < 6, blunder ≥ 6 points. Decisions judged by win chance (winChanceLoss set): best ≤ 1e-9, good < 0.01, inaccuracy < 0.03, mistake < 0.08, else blunder.',
});
