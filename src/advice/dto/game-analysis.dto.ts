/** A game's advice for the player to move, and the post-game analysis of a finished five-dice game (docs/advice.md). */
import { Field, Float, ID, Int, ObjectType } from '@nestjs/graphql';
import { ApiProperty } from '@nestjs/swagger';
import { BoxIdEnum, GameFamilyEnum } from '../../common/graphql/enums';
import { apiRef } from '../../common/openapi/json-schema';
import { DECISION_KINDS, DecisionKindEnum, DECISION_LABELS, DecisionLabelEnum } from './advice-enums';
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
  @Field(() => Float, {
    nullable: true,
    description:
      'Endgame decisions (every other seat finished): the chance to finish above the best other total with the move played (a tie counts half); null for decisions judged by expected score.',
  })
  @ApiProperty({ type: 'number', format: 'double', nullable: true })
  winChance: number | null;
  @Field(() => Float, { nullable: true, description: 'Endgame decisions: the win chance of the best move.' })
  @ApiProperty({ type: 'number', format: 'double', nullable: true })
  bestWinChance: number | null;
  @Field(() => Float, {
    nullable: true,
    description: 'Endgame decisions: bestWinChance − winChance; the label is then by this loss (labelOfWinLoss).',
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
