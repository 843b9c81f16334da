import { Field, Float, ID, InputType, Int, ObjectType, registerEnumType } from '@nestjs/graphql';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  ArrayMinSize,
  IsArray,
  IsIn,
  IsInt,
  IsObject,
  IsOptional,
  Max,
  Min,
  ValidateIf,
  ValidateNested,
} from 'class-validator';
import { BoxIdEnum, enumOf, GameFamilyEnum, RuleSetNameEnum } from '../../common/graphql/enums';
import { FarkleOptionsInput, FiveDiceOptionsInput } from '../../common/graphql/game-options';
import { apiRef } from '../../common/openapi/json-schema';
import { FilledBoxInput } from '../../scoring/dto/scoring.dto';

/**
 * Optional, but not nullable: a field whose absence means something (no roll yet, no dice left
 * given) must be left out, never null (null used to be read as "absent" and advised on another
 * position). @IsOptional would let null through.
 */
const OmitOrGive = () => ValidateIf((_object, value) => value !== undefined);

// ------------------------------------------------------------------ enums

export const FIVE_DICE_ACTIONS = ['roll', 'hold', 'score'] as const;
export const FiveDiceActionEnum = enumOf(FIVE_DICE_ACTIONS);
registerEnumType(FiveDiceActionEnum, {
  name: 'FiveDiceAction',
  description: 'roll: the turn has not been rolled yet; hold: keep `hold` and roll again; score: enter `box` now.',
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
    'By expected-value loss against optimal play (docs/advice.md): best 0 (a tie counts), good < 0.5, inaccuracy < 2, mistake < 6, blunder ≥ 6 points.',
});

// ------------------------------------------------------------------ five dice

@ObjectType({ description: 'One distinct hold (by kept faces) and its value.' })
export class HoldAdviceView {
  @Field(() => [Int], { description: 'Indices (0-4, ascending) of the dice to keep.' })
  @ApiProperty({ type: [Number] })
  hold: number[];
  @Field(() => [Int], { description: 'The kept faces, ascending. All five: score now (the best box).' })
  @ApiProperty({ type: [Number] })
  kept: number[];
  @Field(() => Float, { description: 'Expected final score with this hold and optimal play after it.' })
  @ApiProperty({ type: 'number', format: 'double' })
  expected: number;
}

@ObjectType({ description: 'One allowed box for the dice and its value.' })
export class BoxAdviceView {
  @Field(() => BoxIdEnum) @ApiProperty(apiRef('BoxId')) box: string;
  @Field(() => Int) @ApiProperty() points: number;
  @Field(() => Int, { description: 'Extra five-of-a-kind bonus this roll earns.' }) @ApiProperty() bonus: number;
  @Field(() => Float, { description: 'Expected final score if entered here, with optimal play after it.' })
  @ApiProperty({ type: 'number', format: 'double' })
  expected: number;
}

@ObjectType({ description: 'The optimal move.' })
export class FiveDiceMoveView {
  @Field(() => FiveDiceActionEnum) @ApiProperty({ enum: FIVE_DICE_ACTIONS }) action: string;
  @Field(() => [Int], { nullable: true, description: 'hold: the dice indices to keep.' })
  @ApiProperty({ type: [Number], nullable: true })
  hold: number[] | null;
  @Field(() => BoxIdEnum, { nullable: true, description: 'score: the box.' })
  @ApiProperty({ ...apiRef('BoxId'), nullable: true })
  box: string | null;
  @Field(() => Float, { description: 'Expected final score of this move.' })
  @ApiProperty({ type: 'number', format: 'double' })
  expected: number;
}

@ObjectType({ description: 'Optimal five-dice advice for one position (docs/advice.md).' })
export class FiveDiceAdviceView {
  @Field(() => Float, {
    description: 'Expected final score of the sheet at the start of this turn under optimal play.',
  })
  @ApiProperty({ type: 'number', format: 'double' })
  expectedAtTurnStart: number;
  @Field(() => [Int], { nullable: true, description: 'The dice (null before the first roll of the turn).' })
  @ApiProperty({ type: [Number], nullable: true })
  dice: number[] | null;
  @Field(() => Int, { description: 'Rolls left this turn: 3 before the first roll, then 2, 1, 0.' })
  @ApiProperty({ minimum: 0, maximum: 3 })
  rollsLeft: number;
  @Field(() => FiveDiceMoveView) @ApiProperty({ type: FiveDiceMoveView }) best: FiveDiceMoveView;
  @Field(() => [HoldAdviceView], { description: 'Every distinct hold, best first (empty with 0 or 3 rolls left).' })
  @ApiProperty({ type: [HoldAdviceView] })
  holds: HoldAdviceView[];
  @Field(() => [BoxAdviceView], { description: 'Every allowed box, best first (empty before the first roll).' })
  @ApiProperty({ type: [BoxAdviceView] })
  boxes: BoxAdviceView[];
}

@InputType({ description: 'A five-dice position to advise on, without a game.' })
export class FiveDiceAdviceInput {
  @Field(() => RuleSetNameEnum, { description: 'penta, simple or bonus.' })
  @ApiProperty({ enum: ['penta', 'simple', 'bonus'] })
  @IsIn(['penta', 'simple', 'bonus'])
  ruleSet: string;

  @Field(() => FiveDiceOptionsInput, { nullable: true, description: 'Overrides of the preset options.' })
  @ApiPropertyOptional(apiRef('FiveDiceOptionsOverrides'))
  @IsOptional()
  @IsObject()
  options?: Record<string, unknown>;

  @Field(() => [FilledBoxInput], { nullable: true, description: 'The boxes already filled (others are open).' })
  @ApiPropertyOptional({ type: [FilledBoxInput] })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(13)
  @ValidateNested({ each: true })
  @Type(() => FilledBoxInput)
  filled?: FilledBoxInput[];

  @Field(() => Int, {
    nullable: true,
    description: 'Extra five-of-a-kind bonuses earned so far (a multiple of the rule set’s bonus; default 0).',
  })
  @ApiPropertyOptional({ minimum: 0, maximum: 1200, default: 0 })
  @IsOptional()
  @IsInt()
  @Min(0)
  @Max(1200)
  extraBonus?: number;

  @Field(() => [Int], { nullable: true, description: 'Five dice, 1 to 6; omit before the first roll (rollsLeft 3).' })
  @ApiPropertyOptional({ type: [Number], minItems: 5, maxItems: 5, example: [3, 3, 3, 5, 5] })
  @OmitOrGive()
  @IsArray()
  @ArrayMinSize(5)
  @ArrayMaxSize(5)
  @IsInt({ each: true })
  @Min(1, { each: true })
  @Max(6, { each: true })
  dice?: number[];

  @Field(() => Int, { description: 'Rolls left this turn: 0, 1 or 2 with dice; 3 without.' })
  @ApiProperty({ minimum: 0, maximum: 3 })
  @IsInt()
  @Min(0)
  @Max(3)
  rollsLeft: number;
}

// ------------------------------------------------------------------ farkle

@ObjectType({ description: 'One scoring set-aside of the roll and its value.' })
export class FarkleSetAsideAdviceView {
  @Field(() => [Int], { description: 'Indices into the roll, ascending.' })
  @ApiProperty({ type: [Number] })
  dice: number[];
  @Field(() => [Int]) @ApiProperty({ type: [Number] }) faces: number[];
  @Field(() => Int) @ApiProperty() points: number;
  @Field(() => Int, { description: 'Dice the next roll would throw (6 after hot dice).' })
  @ApiProperty()
  diceLeft: number;
  @Field(() => BankOrRollEnum, { description: 'What to do after this set-aside.' })
  @ApiProperty({ enum: BANK_OR_ROLL })
  then: string;
  @Field(() => Float, {
    nullable: true,
    description:
      'fewestTurns: expected turns (counting this one) if banking after it; null when banking is not allowed.',
  })
  @ApiProperty({ type: 'number', format: 'double', nullable: true })
  bank: number | null;
  @Field(() => Float, { nullable: true, description: 'fewestTurns: expected turns if rolling on after it.' })
  @ApiProperty({ type: 'number', format: 'double', nullable: true })
  roll: number | null;
  @Field(() => Float, {
    description:
      'The value of this set-aside with the better follow-up: expected turns (fewestTurns) or chance to win (beatLeader).',
  })
  @ApiProperty({ type: 'number', format: 'double' })
  value: number;
}

@ObjectType({ description: 'The optimal Farkle move.' })
export class FarkleMoveView {
  @Field(() => FarkleActionEnum) @ApiProperty({ enum: FARKLE_ACTIONS }) action: string;
  @Field(() => [Int], { nullable: true, description: 'setAside: the roll indices to set aside.' })
  @ApiProperty({ type: [Number], nullable: true })
  dice: number[] | null;
  @Field(() => BankOrRollEnum, { nullable: true, description: 'setAside: bank or roll after it.' })
  @ApiProperty({ enum: BANK_OR_ROLL, nullable: true })
  then: string | null;
  @Field(() => Float) @ApiProperty({ type: 'number', format: 'double' }) value: number;
}

@ObjectType({ description: 'Farkle advice for one position (docs/advice.md).' })
export class FarkleAdviceView {
  @Field(() => FarkleObjectiveEnum) @ApiProperty({ enum: FARKLE_OBJECTIVES }) objective: string;
  @Field(() => Int) @ApiProperty() banked: number;
  @Field(() => Int, { description: 'Turn points before the current roll’s set-aside.' })
  @ApiProperty()
  turnPoints: number;
  @Field(() => [Int], { nullable: true, description: 'The roll to set aside from, if any.' })
  @ApiProperty({ type: [Number], nullable: true })
  dice: number[] | null;
  @Field(() => Int, {
    nullable: true,
    description: 'beatLeader: the leader’s total to finish strictly above.',
  })
  @ApiProperty({ type: Number, nullable: true })
  leader: number | null;
  @Field(() => Float, {
    description:
      'Value of the position: expected turns to the target from the start of this turn (fewestTurns) or the chance to beat the leader from here (beatLeader).',
  })
  @ApiProperty({ type: 'number', format: 'double' })
  value: number;
  @Field(() => FarkleMoveView, { nullable: true, description: 'The optimal move; null on a farkle.' })
  @ApiProperty({ type: FarkleMoveView, nullable: true })
  best: FarkleMoveView | null;
  @Field(() => [FarkleSetAsideAdviceView], { description: 'Every scoring set-aside of the roll, best first.' })
  @ApiProperty({ type: [FarkleSetAsideAdviceView] })
  setAsides: FarkleSetAsideAdviceView[];
  @Field(() => Float, {
    nullable: true,
    description: 'Without a roll, after a set-aside: expected turns if banking now (null: not allowed).',
  })
  @ApiProperty({ type: 'number', format: 'double', nullable: true })
  bank: number | null;
  @Field(() => Float, { nullable: true, description: 'Without a roll: the value of rolling the dice left.' })
  @ApiProperty({ type: 'number', format: 'double', nullable: true })
  roll: number | null;
}

@InputType({ description: 'The last round of a multiplayer game, for the end-game adjustment.' })
export class FarkleLastRoundInput {
  @Field(() => Int, { description: 'The highest total among the other players (a multiple of 50).' })
  @ApiProperty({ minimum: 0, maximum: 1000000 })
  @IsInt()
  @Min(0)
  @Max(1_000_000)
  leader: number;
}

@InputType({ description: 'A Farkle position to advise on, without a game.' })
export class FarkleAdviceInput {
  @Field(() => FarkleOptionsInput, { nullable: true, description: 'Overrides of the farkle options.' })
  @ApiPropertyOptional(apiRef('FarkleOptionsOverrides'))
  @IsOptional()
  @IsObject()
  options?: Record<string, unknown>;

  @Field(() => Int, { description: 'The player’s banked total (a multiple of 50, below the target).' })
  @ApiProperty({ minimum: 0, maximum: 1000000 })
  @IsInt()
  @Min(0)
  @Max(1_000_000)
  banked: number;

  @Field(() => Int, { description: 'Turn points so far, before the roll’s set-aside (a multiple of 50).' })
  @ApiProperty({ minimum: 0, maximum: 1000000 })
  @IsInt()
  @Min(0)
  @Max(1_000_000)
  turnPoints: number;

  @Field(() => [Int], {
    nullable: true,
    description: 'The roll (1-6 dice, faces 1-6): advise which dice to set aside.',
  })
  @ApiPropertyOptional({ type: [Number], minItems: 1, maxItems: 6, example: [1, 5, 2, 2, 2, 6] })
  @OmitOrGive()
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(6)
  @IsInt({ each: true })
  @Min(1, { each: true })
  @Max(6, { each: true })
  dice?: number[];

  @Field(() => Int, {
    nullable: true,
    description: 'Without dice: the dice the next roll would throw (1-6; 6 after hot dice): advise bank or roll.',
  })
  @ApiPropertyOptional({ minimum: 1, maximum: 6 })
  @OmitOrGive()
  @IsInt()
  @Min(1)
  @Max(6)
  diceLeft?: number;

  @Field(() => FarkleLastRoundInput, {
    nullable: true,
    description: 'In the last round, trailing: maximise the chance to finish above the leader.',
  })
  @ApiPropertyOptional({ type: FarkleLastRoundInput })
  @IsOptional()
  @ValidateNested()
  @Type(() => FarkleLastRoundInput)
  lastRound?: FarkleLastRoundInput;
}

// ------------------------------------------------------------------ game advice and analysis

@ObjectType({ description: 'Advice for the current state of a game, for the player to move.' })
export class GameAdviceView {
  @Field(() => ID) @ApiProperty({ format: 'uuid' }) gameId: string;
  @Field(() => Int, { description: 'The game version the advice is for.' }) @ApiProperty() version: number;
  @Field(() => GameFamilyEnum) @ApiProperty(apiRef('GameFamily')) family: string;
  @Field(() => Int, { description: 'The seat to move.' }) @ApiProperty() seat: number;
  @Field(() => FiveDiceAdviceView, { nullable: true })
  @ApiProperty({ type: FiveDiceAdviceView, nullable: true })
  fiveDice: FiveDiceAdviceView | null;
  @Field(() => FarkleAdviceView, { nullable: true })
  @ApiProperty({ type: FarkleAdviceView, nullable: true })
  farkle: FarkleAdviceView | null;
}

@ObjectType({ description: 'One decision of a finished five-dice game, against optimal play.' })
export class DecisionView {
  @Field(() => Int, { description: 'Version of the event that made the decision.' }) @ApiProperty() version: number;
  @Field(() => Int) @ApiProperty() seat: number;
  @Field(() => Int, { description: 'The turn of this seat, from 1.' }) @ApiProperty() turn: number;
  @Field(() => DecisionKindEnum) @ApiProperty({ enum: DECISION_KINDS }) kind: string;
  @Field(() => [Int], { description: 'The dice the decision was made on.' })
  @ApiProperty({ type: [Number] })
  dice: number[];
  @Field(() => Int, { description: 'hold: rolls left when deciding (2 or 1); box: 0 or more.' })
  @ApiProperty()
  rollsLeft: number;
  @Field(() => [Int], { nullable: true, description: 'hold: the faces kept (all five: scored).' })
  @ApiProperty({ type: [Number], nullable: true })
  kept: number[] | null;
  @Field(() => BoxIdEnum, { nullable: true, description: 'box: the box chosen.' })
  @ApiProperty({ ...apiRef('BoxId'), nullable: true })
  box: string | null;
  @Field(() => [Int], { nullable: true, description: 'hold: the optimal kept faces.' })
  @ApiProperty({ type: [Number], nullable: true })
  bestKept: number[] | null;
  @Field(() => BoxIdEnum, { nullable: true, description: 'box: the optimal box.' })
  @ApiProperty({ ...apiRef('BoxId'), nullable: true })
  bestBox: string | null;
  @Field(() => Float, { description: 'Expected final score of the move played.' })
  @ApiProperty({ type: 'number', format: 'double' })
  expected: number;
  @Field(() => Float, { description: 'Expected final score of the optimal move.' })
  @ApiProperty({ type: 'number', format: 'double' })
  bestExpected: number;
  @Field(() => Float, { description: 'bestExpected − expected (0 for an optimal move).' })
  @ApiProperty({ type: 'number', format: 'double' })
  loss: number;
  @Field(() => DecisionLabelEnum) @ApiProperty({ enum: DECISION_LABELS }) label: string;
  @Field(() => String, {
    nullable: true,
    description: 'Set when the service made the move for the seat (e.g. "timeout").',
  })
  @ApiProperty({ type: String, nullable: true })
  reason: string | null;
}

@ObjectType({ description: 'One seat’s summary.' })
export class SeatAnalysisView {
  @Field(() => Int) @ApiProperty() seat: number;
  @Field(() => ID, { nullable: true }) @ApiProperty({ type: String, format: 'uuid', nullable: true }) playerId:
    string | null;
  @Field(() => Int) @ApiProperty() decisions: number;
  @Field(() => Int, { description: 'Decisions equal to the optimal one (within 1e-9).' })
  @ApiProperty()
  optimal: number;
  @Field(() => Int) @ApiProperty() inaccuracies: number;
  @Field(() => Int) @ApiProperty() mistakes: number;
  @Field(() => Int) @ApiProperty() blunders: number;
  @Field(() => Float, { description: 'Sum of the decisions’ losses (expected points).' })
  @ApiProperty({ type: 'number', format: 'double' })
  totalLoss: number;
  @Field(() => Float, {
    description: '100 × (optimal expected score − total loss) / optimal expected score (docs/advice.md).',
  })
  @ApiProperty({ type: 'number', format: 'double' })
  accuracy: number;
  @Field(() => Int, { nullable: true, description: 'The final score.' })
  @ApiProperty({ type: Number, nullable: true })
  score: number | null;
}

@ObjectType({ description: 'Post-game analysis of a finished five-dice game, from its events (docs/advice.md).' })
export class GameAnalysisView {
  @Field(() => ID) @ApiProperty({ format: 'uuid' }) gameId: string;
  @Field(() => Float, { description: 'Expected final score of an empty sheet under optimal play (these rules).' })
  @ApiProperty({ type: 'number', format: 'double' })
  optimalExpectedScore: number;
  @Field(() => [SeatAnalysisView]) @ApiProperty({ type: [SeatAnalysisView] }) seats: SeatAnalysisView[];
  @Field(() => [DecisionView], { description: 'Every decision, in game order.' })
  @ApiProperty({ type: [DecisionView] })
  decisions: DecisionView[];
}
