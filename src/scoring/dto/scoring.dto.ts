import { Field, InputType, Int, ObjectType } from '@nestjs/graphql';
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
  IsString,
  Max,
  Min,
  ValidateNested,
} from 'class-validator';
import { JSONScalar } from '../../common/graphql/json.scalar';
import { BoxIdEnum, GameFamilyEnum, RuleSetNameEnum } from '../../common/graphql/enums';
import { FarkleOptionsInput, FiveDiceOptionsInput } from '../../common/graphql/game-options';
import { BOX_IDS } from '@fairdice/core/rules/five-dice/types';
import { apiRef } from '../../common/openapi/json-schema';

@ObjectType({ description: 'A named rule set a game can be created with.' })
export class RuleSetModel {
  @Field(() => RuleSetNameEnum, { description: 'Name to pass as ruleSet.' })
  @ApiProperty(apiRef('RuleSetName'))
  name: string;
  @Field(() => GameFamilyEnum, { description: 'Game family: five-dice or farkle.' })
  @ApiProperty(apiRef('GameFamily'))
  family: string;
  @Field() @ApiProperty() title: string;
  @Field() @ApiProperty() description: string;
  @Field(() => JSONScalar, {
    description: 'The preset option values; a game may override them (see docs/rules.md).',
    deprecationReason: 'Use ruleOptions: the same values, typed per family.',
  })
  @ApiProperty(apiRef('GameOptions'))
  options: Record<string, unknown>;
  @Field(() => Int) @ApiProperty() minSeats: number;
  @Field(() => Int) @ApiProperty() maxSeats: number;
}

@InputType({ description: 'A filled box and its points.' })
export class FilledBoxInput {
  @Field(() => BoxIdEnum, { description: 'Box id, e.g. threeOfAKind.' })
  @ApiProperty(apiRef('BoxId'))
  @IsString()
  @IsIn(BOX_IDS)
  box: string;

  @Field(() => Int)
  @ApiProperty({ minimum: 0, maximum: 50 })
  @IsInt()
  @Min(0)
  @Max(50)
  points: number;
}

@InputType({ description: 'Dice and a score sheet to evaluate under a five-dice rule set.' })
export class FiveDiceScoreInput {
  @Field(() => RuleSetNameEnum, { description: 'penta, simple or bonus (a five-dice rule set).' })
  @ApiProperty({ enum: ['penta', 'simple', 'bonus'] })
  @IsIn(['penta', 'simple', 'bonus'])
  ruleSet: string;

  @Field(() => FiveDiceOptionsInput, { nullable: true, description: 'Overrides of the preset options.' })
  @ApiPropertyOptional(apiRef('FiveDiceOptionsOverrides'))
  @IsOptional()
  @IsObject()
  options?: Record<string, unknown>;

  @Field(() => [Int], { description: 'Five dice, 1 to 6.' })
  @ApiProperty({ type: [Number], minItems: 5, maxItems: 5, example: [3, 3, 3, 5, 5] })
  @IsArray()
  @ArrayMinSize(5)
  @ArrayMaxSize(5)
  @IsInt({ each: true })
  @Min(1, { each: true })
  @Max(6, { each: true })
  dice: number[];

  @Field(() => [FilledBoxInput], { nullable: true, description: 'The boxes already filled (others are open).' })
  @ApiPropertyOptional({ type: [FilledBoxInput] })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(13)
  @ValidateNested({ each: true })
  @Type(() => FilledBoxInput)
  filled?: FilledBoxInput[];
}

@ObjectType({ description: 'What the dice would score in one open box.' })
export class BoxOptionModel {
  @Field(() => BoxIdEnum) @ApiProperty(apiRef('BoxId')) box: string;
  @Field(() => Int) @ApiProperty() points: number;
  @Field(() => Int, { description: 'Extra five-of-a-kind bonus earned by this roll wherever it is entered.' })
  @ApiProperty()
  bonus: number;
  @Field({ description: 'False when the forced joker forbids this box.' }) @ApiProperty() allowed: boolean;
}

@ObjectType({ description: 'Every open box with the score the dice would get there.' })
export class ScoreOptionsModel {
  @Field(() => [BoxOptionModel]) @ApiProperty({ type: [BoxOptionModel] }) boxes: BoxOptionModel[];
  @Field({ description: 'No allowed open box scores: the player must sacrifice one.' })
  @ApiProperty()
  mustSacrifice: boolean;
  @Field({ description: 'A joker rule applies to this roll.' }) @ApiProperty() jokerActive: boolean;
  @Field() @ApiProperty() fiveOfAKind: boolean;
}

@InputType({ description: 'One roll of Farkle dice to evaluate.' })
export class FarkleScoreInput {
  @Field(() => [Int], { description: '1 to 6 dice, 1 to 6.' })
  @ApiProperty({ type: [Number], minItems: 1, maxItems: 6, example: [1, 5, 2, 2, 2, 6] })
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(6)
  @IsInt({ each: true })
  @Min(1, { each: true })
  @Max(6, { each: true })
  dice: number[];

  @Field(() => FarkleOptionsInput, { nullable: true, description: 'Overrides of the farkle options (e.g. straights).' })
  @ApiPropertyOptional(apiRef('FarkleOptionsOverrides'))
  @IsOptional()
  @IsObject()
  options?: Record<string, unknown>;
}

@ObjectType({ description: 'Dice that may be set aside together, and their points.' })
export class FarkleSelectionModel {
  @Field(() => [Int], { description: 'Indices into the roll.' }) @ApiProperty({ type: [Number] }) dice: number[];
  @Field(() => [Int]) @ApiProperty({ type: [Number] }) faces: number[];
  @Field(() => Int) @ApiProperty() points: number;
}

@ObjectType({ description: 'The scoring selections of one Farkle roll.' })
export class FarkleSelectionsModel {
  @Field({ description: 'No die scores: a farkle.' }) @ApiProperty() farkle: boolean;
  @Field(() => [FarkleSelectionModel])
  @ApiProperty({ type: [FarkleSelectionModel] })
  selections: FarkleSelectionModel[];
  @Field(() => FarkleSelectionModel, { nullable: true })
  @ApiProperty({ type: FarkleSelectionModel, nullable: true })
  best: FarkleSelectionModel | null;
}
