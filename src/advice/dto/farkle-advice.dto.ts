/** The stateless Farkle advisor's input and answer (POST /v1/advice/farkle, query farkleAdvice; docs/advice.md). */
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
import { FarkleOptionsInput } from '../../common/graphql/game-options';
import { apiRef } from '../../common/openapi/json-schema';
import { OmitOrGive } from './omit-or-give';
import {
  FARKLE_ACTIONS,
  FarkleActionEnum,
  BANK_OR_ROLL,
  BankOrRollEnum,
  FARKLE_OBJECTIVES,
  FarkleObjectiveEnum,
  ADVICE_OBJECTIVES,
  AdviceObjectiveEnum,
} from './advice-enums';

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
      'fewestTurns: expected turns (counting this one) if banking after it; winProbability: the chance to win if banking after it; null when banking is not allowed (and with beatLeader).',
  })
  @ApiProperty({ type: 'number', format: 'double', nullable: true })
  bank: number | null;
  @Field(() => Float, {
    nullable: true,
    description:
      'fewestTurns: expected turns if rolling on after it; winProbability: the chance to win if rolling on (null with beatLeader).',
  })
  @ApiProperty({ type: 'number', format: 'double', nullable: true })
  roll: number | null;
  @Field(() => Float, {
    description:
      'The value of this set-aside with the better follow-up: expected turns (fewestTurns), chance to beat the leader (beatLeader) or chance to win the game, a tie counting half (winProbability: its winChance).',
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
  @Field(() => Int, {
    nullable: true,
    description:
      'winProbability: the other player’s total (at or above the target: it reached the target and this is the player’s last turn).',
  })
  @ApiProperty({ type: Number, nullable: true })
  opponent: number | null;
  @Field(() => Float, {
    description:
      'Value of the position: expected turns to the target from the start of this turn (fewestTurns), the chance to beat the leader from here (beatLeader), or the chance to win the game from here (winProbability; at the start of a turn, from the start of the turn).',
  })
  @ApiProperty({ type: 'number', format: 'double' })
  value: number;
  @Field(() => Float, {
    nullable: true,
    description:
      'For a player not on the board yet (rules with an entry threshold): the best chance to bank at least the entry threshold this turn, from here. Null when already on the board or without an entry threshold.',
  })
  @ApiProperty({ type: 'number', format: 'double', nullable: true })
  onBoardChance: number | null;
  @Field(() => FarkleMoveView, { nullable: true, description: 'The optimal move; null on a farkle.' })
  @ApiProperty({ type: FarkleMoveView, nullable: true })
  best: FarkleMoveView | null;
  @Field(() => [FarkleSetAsideAdviceView], { description: 'Every scoring set-aside of the roll, best first.' })
  @ApiProperty({ type: [FarkleSetAsideAdviceView] })
  setAsides: FarkleSetAsideAdviceView[];
  @Field(() => Float, {
    nullable: true,
    description:
      'Without a roll, after a set-aside: the value of banking now, expected turns or chance to win (null: not allowed).',
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

@InputType({ description: 'The other player of a two-player game, for win-probability advice.' })
export class FarkleOpponentInput {
  @Field(() => Int, {
    description:
      'The opponent’s banked total (a multiple of 50; 0 or at least the entry threshold; at or above the target: the opponent reached it and this is the player’s last turn).',
  })
  @ApiProperty({ minimum: 0, maximum: 1000000 })
  @IsInt()
  @Min(0)
  @Max(1_000_000)
  banked: number;
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

  @Field(() => AdviceObjectiveEnum, {
    nullable: true,
    description:
      'expected (default): fewest expected turns (with lastRound: beat the leader); winProbability: the chance to win a two-player game against `opponent` (needs opponent, not with lastRound).',
  })
  @ApiPropertyOptional({ enum: ADVICE_OBJECTIVES, default: 'expected' })
  @OmitOrGive()
  @IsIn(ADVICE_OBJECTIVES)
  objective?: string;

  @Field(() => FarkleOpponentInput, {
    nullable: true,
    description: 'winProbability: the other player of the two-player game.',
  })
  @ApiPropertyOptional({ type: FarkleOpponentInput })
  @OmitOrGive()
  @IsObject()
  @ValidateNested()
  @Type(() => FarkleOpponentInput)
  opponent?: FarkleOpponentInput;
}
