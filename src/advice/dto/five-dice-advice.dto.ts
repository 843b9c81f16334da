/** The stateless five-dice advisor's input and answer (POST /v1/advice/five-dice, query fiveDiceAdvice; docs/advice.md). */
import { Field, Float, InputType, Int, ObjectType } from '@nestjs/graphql';
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
  ValidateNested,
} from 'class-validator';
import { BoxIdEnum, RuleSetNameEnum } from '../../common/graphql/enums';
import { FiveDiceOptionsInput } from '../../common/graphql/game-options';
import { apiRef } from '../../common/openapi/json-schema';
import { FilledBoxInput } from '../../scoring/dto/scoring.dto';
import { OmitOrGive } from './omit-or-give';
import { ENDGAME_STATUSES, EndgameStatusEnum, FIVE_DICE_ACTIONS, FiveDiceActionEnum } from './advice-enums';

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
  @Field(() => Float, {
    nullable: true,
    description:
      'Endgame: the chance to finish above toBeat with this move and the best play after it (a tie counts half); null outside the endgame (winChanceStatus).',
  })
  @ApiProperty({ type: 'number', format: 'double', nullable: true })
  winChance: number | null;
}

@ObjectType({ description: 'One allowed box for the dice and its value.' })
export class BoxAdviceView {
  @Field(() => BoxIdEnum) @ApiProperty(apiRef('BoxId')) box: string;
  @Field(() => Int) @ApiProperty() points: number;
  @Field(() => Int, { description: 'Extra five-of-a-kind bonus this roll earns.' }) @ApiProperty() bonus: number;
  @Field(() => Float, { description: 'Expected final score if entered here, with optimal play after it.' })
  @ApiProperty({ type: 'number', format: 'double' })
  expected: number;
  @Field(() => Float, {
    nullable: true,
    description:
      'Endgame: the chance to finish above toBeat with this move and the best play after it (a tie counts half); null outside the endgame (winChanceStatus).',
  })
  @ApiProperty({ type: 'number', format: 'double', nullable: true })
  winChance: number | null;
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
  @Field(() => Float, {
    nullable: true,
    description:
      'Endgame: the chance to finish above toBeat with this move and the best play after it (a tie counts half); null outside the endgame (winChanceStatus).',
  })
  @ApiProperty({ type: 'number', format: 'double', nullable: true })
  winChance: number | null;
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
  @Field(() => Int, {
    nullable: true,
    description:
      'Endgame: the total to beat (the best other total once every other seat finished, or the input); null otherwise.',
  })
  @ApiProperty({ type: Number, nullable: true })
  toBeat: number | null;
  @Field(() => EndgameStatusEnum, {
    description:
      'solved: the win chances are given; noTarget: no total to beat (not the endgame); tooManyOpenBoxes: more open boxes than the endgame solver takes (ENDGAME_MAX_OPEN_BOXES, 4): expected-score advice only.',
  })
  @ApiProperty({ enum: ENDGAME_STATUSES })
  winChanceStatus: string;
  @Field(() => Float, {
    nullable: true,
    description:
      'Endgame: the chance to finish above toBeat from the start of this turn (a tie counts half); null unless winChanceStatus is solved.',
  })
  @ApiProperty({ type: 'number', format: 'double', nullable: true })
  winChanceAtTurnStart: number | null;
  @Field(() => FiveDiceMoveView, {
    nullable: true,
    description: 'Endgame: the move with the highest win chance (what the expert computer plays); null unless solved.',
  })
  @ApiProperty({ type: FiveDiceMoveView, nullable: true })
  bestWin: FiveDiceMoveView | null;
  @Field(() => Float, {
    nullable: true,
    description:
      'The chance of reaching the upper bonus from this position under optimal (expected-score) play; null when it is decided (reached or out of reach), the bonus is worth 0, or the options are not a preset’s (computed for penta, simple and bonus only).',
  })
  @ApiProperty({ type: 'number', format: 'double', nullable: true })
  upperBonusChance: number | null;
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

  @Field(() => Int, {
    nullable: true,
    description:
      'Endgame: the best total of the other players, who have all finished; the advice then adds the chance to finish above it (a tie counts half). Omit otherwise.',
  })
  @ApiPropertyOptional({ minimum: 0, maximum: 100000, example: 240 })
  @OmitOrGive()
  @IsInt()
  @Min(0)
  @Max(100000)
  toBeat?: number;
}
