/** A game's advice for the player to move, and the post-game analysis of a finished five-dice game (docs/advice.md). */
import { Field, Float, ID, Int, ObjectType } from '@nestjs/graphql';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional } from 'class-validator';
import { BoxIdEnum, GameFamilyEnum } from '../../common/graphql/enums';
import { apiRef } from '../../common/openapi/json-schema';
import {
  ADVICE_OBJECTIVES,
  type AdviceObjective,
  BANK_OR_ROLL,
  BankOrRollEnum,
  DECISION_KINDS,
  DecisionKindEnum,
  DECISION_LABELS,
  DecisionLabelEnum,
} from './advice-enums';
import { FiveDiceAdviceView } from './five-dice-advice.dto';
import { FarkleAdviceView } from './farkle-advice.dto';

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

@ObjectType({
  description:
    'One decision of a finished game, against optimal play: five dice by expected score (and, in the endgame, win chance); two-player Farkle by win chance.',
})
export class DecisionView {
  @Field(() => Int, { description: 'Version of the event that made the decision.' }) @ApiProperty() version: number;
  @Field(() => Int) @ApiProperty() seat: number;
  @Field(() => Int, { description: 'The turn of this seat, from 1.' }) @ApiProperty() turn: number;
  @Field(() => DecisionKindEnum) @ApiProperty({ enum: DECISION_KINDS }) kind: string;
  @Field(() => [Int], { description: 'The dice the decision was made on (Farkle: the roll).' })
  @ApiProperty({ type: [Number] })
  dice: number[];
  @Field(() => Int, { description: 'hold: rolls left when deciding (2 or 1); box: 0 or more; setAside: 0.' })
  @ApiProperty()
  rollsLeft: number;
  @Field(() => [Int], {
    nullable: true,
    description: 'hold: the faces kept (all five: scored); setAside: the faces set aside.',
  })
  @ApiProperty({ type: [Number], nullable: true })
  kept: number[] | null;
  @Field(() => BoxIdEnum, { nullable: true, description: 'box: the box chosen.' })
  @ApiProperty({ ...apiRef('BoxId'), nullable: true })
  box: string | null;
  @Field(() => [Int], { nullable: true, description: 'hold: the optimal kept faces; setAside: the optimal set-aside.' })
  @ApiProperty({ type: [Number], nullable: true })
  bestKept: number[] | null;
  @Field(() => BoxIdEnum, { nullable: true, description: 'box: the optimal box.' })
  @ApiProperty({ ...apiRef('BoxId'), nullable: true })
  bestBox: string | null;
  @Field(() => Int, { nullable: true, description: 'setAside: turn points before this set-aside.' })
  @ApiProperty({ type: Number, nullable: true })
  turnPoints: number | null;
  @Field(() => BankOrRollEnum, { nullable: true, description: 'setAside: banked or rolled on after it.' })
  @ApiProperty({ enum: BANK_OR_ROLL, nullable: true })
  then: string | null;
  @Field(() => BankOrRollEnum, {
    nullable: true,
    description: 'setAside: the optimal follow-up of the optimal set-aside.',
  })
  @ApiProperty({ enum: BANK_OR_ROLL, nullable: true })
  bestThen: string | null;
  @Field(() => Float, {
    description: 'Expected final score of the move played (setAside: its chance to win, as winChance).',
  })
  @ApiProperty({ type: 'number', format: 'double' })
  expected: number;
  @Field(() => Float, { description: 'Expected final score of the optimal move (setAside: bestWinChance).' })
  @ApiProperty({ type: 'number', format: 'double' })
  bestExpected: number;
  @Field(() => Float, { description: 'bestExpected − expected (0 for an optimal move).' })
  @ApiProperty({ type: 'number', format: 'double' })
  loss: number;
  @Field(() => Float, {
    nullable: true,
    description:
      'The chance to win (a tie counts half) after the move played: two-player Farkle decisions, and five-dice endgame decisions (every other seat finished); null where the decision is judged by expected score only.',
  })
  @ApiProperty({ type: 'number', format: 'double', nullable: true })
  winChance: number | null;
  @Field(() => Float, { nullable: true, description: 'The chance to win after the optimal move.' })
  @ApiProperty({ type: 'number', format: 'double', nullable: true })
  bestWinChance: number | null;
  @Field(() => Float, {
    nullable: true,
    description: 'bestWinChance − winChance (0 for an optimal move); the label is by this loss when it is set.',
  })
  @ApiProperty({ type: 'number', format: 'double', nullable: true })
  winChanceLoss: number | null;
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
  @Field(() => Float, {
    description: 'Sum of the decisions’ losses (five dice: expected points; two-player Farkle: win chance).',
  })
  @ApiProperty({ type: 'number', format: 'double' })
  totalLoss: number;
  @Field(() => Float, {
    description:
      'Five dice: 100 × (optimal expected score − total loss) / optimal expected score; two-player Farkle: 100 × (1 − total win-chance loss), floored at 0 (docs/advice.md).',
  })
  @ApiProperty({ type: 'number', format: 'double' })
  accuracy: number;
  @Field(() => Int, { nullable: true, description: 'The final score.' })
  @ApiProperty({ type: Number, nullable: true })
  score: number | null;
}

@ObjectType({
  description:
    'Post-game analysis of a finished five-dice or two-player Farkle game, from its events (docs/advice.md).',
})
export class GameAnalysisView {
  @Field(() => ID) @ApiProperty({ format: 'uuid' }) gameId: string;
  @Field(() => Float, {
    description:
      'Five dice: the expected final score of an empty sheet under optimal play (these rules). Two-player Farkle: the first player’s chance to win from the start with both players playing for the win.',
  })
  @ApiProperty({ type: 'number', format: 'double' })
  optimalExpectedScore: number;
  @Field(() => [SeatAnalysisView]) @ApiProperty({ type: [SeatAnalysisView] }) seats: SeatAnalysisView[];
  @Field(() => [DecisionView], { description: 'Every decision, in game order.' })
  @ApiProperty({ type: [DecisionView] })
  decisions: DecisionView[];
}

/** GET /v1/games/{id}/advice?objective=… (GraphQL: gameAdvice(gameId, objective)). */
export class GameAdviceQuery {
  @ApiPropertyOptional({
    enum: ADVICE_OBJECTIVES,
    default: 'expected',
    description:
      'expected (default): the solo objective; winProbability: the chance to win a two-seat Farkle game (422 WIN_PROBABILITY_UNSUPPORTED for other games).',
  })
  @IsOptional()
  @IsIn(ADVICE_OBJECTIVES)
  objective?: AdviceObjective;
}
