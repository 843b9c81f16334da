/** Tournament inputs shared by REST (class-validator + OpenAPI) and GraphQL (@InputType). */
import { Field, InputType, Int, registerEnumType } from '@nestjs/graphql';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import {
  IsIn,
  IsInt,
  IsISO8601,
  IsObject,
  IsOptional,
  IsDefined,
  IsString,
  Max,
  MaxLength,
  Min,
  MinLength,
} from 'class-validator';
import { RULE_SET_NAMES } from '@fairdice/core/rules/registry';
import { TOURNAMENT_EVENT_TYPES, TOURNAMENT_LIMITS as L } from '@fairdice/core/rules/tournament';
import { apiRef } from '../../common/openapi/json-schema';
import { enumOf, RuleSetNameEnum, VisibilityEnum } from '../../common/graphql/enums';
import { GameOptionsInput } from '../../common/graphql/game-options';
import { IsClientSeed } from '../../games/dto/game.inputs';

// Moved to common (the players' public profiles show tournament results with the same enums).
import { TOURNAMENT_FORMATS, TournamentFormatEnum } from '../../common/graphql/tournament-enums';
export {
  ENTRANT_STATUSES,
  EntrantStatusEnum,
  TOURNAMENT_FORMATS,
  TOURNAMENT_STATUSES,
  TournamentFormatEnum,
  TournamentStatusEnum,
} from '../../common/graphql/tournament-enums';
export const TournamentEventTypeEnum = enumOf(TOURNAMENT_EVENT_TYPES);
registerEnumType(TournamentEventTypeEnum, {
  name: 'TournamentEventType',
  description: "The type of an event of the tournament's stream (docs/tournaments.md §6).",
});

@InputType({ description: 'A new tournament (docs/tournaments.md).' })
export class CreateTournamentInput {
  @Field({ description: 'Name, 1 to 100 characters.' })
  @ApiProperty({ minLength: 1, maxLength: L.nameLength.max, example: 'Winter penta open' })
  @IsString()
  @MinLength(1)
  @MaxLength(L.nameLength.max)
  name: string;

  @Field(() => RuleSetNameEnum)
  @ApiProperty({ ...apiRef('RuleSetName'), example: 'penta' })
  @IsString()
  @IsIn(RULE_SET_NAMES)
  ruleSet: string;

  @Field(() => GameOptionsInput, {
    nullable: true,
    description: "Overrides of the preset's options (INVALID_OPTIONS).",
  })
  @ApiPropertyOptional({ ...apiRef('GameOptionsOverrides') })
  @IsOptional()
  @IsObject()
  options?: Record<string, unknown>;

  @Field(() => TournamentFormatEnum, { description: 'duplicate (five-dice only) or tables.' })
  @ApiProperty({ enum: TOURNAMENT_FORMATS, enumName: 'TournamentFormat', example: 'duplicate' })
  @IsIn(TOURNAMENT_FORMATS)
  format: 'duplicate' | 'tables';

  @Field(() => VisibilityEnum, {
    nullable: true,
    description: 'public (default) or private (organizer and entrants only).',
  })
  @ApiPropertyOptional({ ...apiRef('Visibility'), default: 'public' })
  @IsOptional()
  @IsIn(['public', 'private'])
  visibility?: 'public' | 'private';

  @Field(() => Int, { description: `Maximum entrants, ${L.maxEntrants.min} to ${L.maxEntrants.max}.` })
  @ApiProperty({ minimum: L.maxEntrants.min, maximum: L.maxEntrants.max, example: 16 })
  @IsInt()
  @Min(L.maxEntrants.min)
  @Max(L.maxEntrants.max)
  maxEntrants: number;

  @Field(() => Int, { description: `Rounds, ${L.rounds.min} to ${L.rounds.max}.` })
  @ApiProperty({ minimum: L.rounds.min, maximum: L.rounds.max, example: 2 })
  @IsInt()
  @Min(L.rounds.min)
  @Max(L.rounds.max)
  rounds: number;

  @Field(() => Int, {
    nullable: true,
    description: 'Games per round per entrant (duplicate) or per table (tables); default 1.',
  })
  @ApiPropertyOptional({ minimum: L.gamesPerRound.min, maximum: L.gamesPerRound.max, default: 1 })
  @IsOptional()
  @IsInt()
  @Min(L.gamesPerRound.min)
  @Max(L.gamesPerRound.max)
  gamesPerRound?: number;

  @Field(() => Int, { nullable: true, description: 'tables: fewest players at a table (default 2). duplicate: 1.' })
  @ApiPropertyOptional({
    minimum: 1,
    maximum: 8,
    description: 'tables: fewest players at a table (default 2). duplicate: 1.',
  })
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(8)
  tableSizeMin?: number;

  @Field(() => Int, { nullable: true, description: 'tables: most players at a table (default 4). duplicate: 1.' })
  @ApiPropertyOptional({
    minimum: 1,
    maximum: 8,
    description: 'tables: most players at a table (default 4). duplicate: 1.',
  })
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(8)
  tableSizeMax?: number;

  @Field(() => Int, {
    nullable: true,
    description:
      'Per-move time limit of every game, seconds (1 to 604800): when it runs out the server completes the turn, so every game ends.',
  })
  @ApiPropertyOptional({ minimum: 1, maximum: 604800 })
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(604800)
  turnTimeLimitSeconds?: number;

  @Field({
    nullable: true,
    description: 'End of the entry window (ISO 8601, in the future); default: until the organizer closes.',
  })
  @ApiPropertyOptional({ format: 'date-time' })
  @IsOptional()
  @IsISO8601({ strict: true })
  entryClosesAt?: string;

  @Field({
    nullable: true,
    description:
      'Scheduled start (ISO 8601, in the future, not before entryClosesAt); default: the organizer starts it.',
  })
  @ApiPropertyOptional({ format: 'date-time' })
  @IsOptional()
  @IsISO8601({ strict: true })
  startsAt?: string;
}

@InputType({ description: 'Registration: your own client seed (generated when omitted).' })
export class RegisterInput {
  @Field({ nullable: true, description: '1 to 128 visible ASCII characters; part of every round seed.' })
  @ApiPropertyOptional({ minLength: 1, maxLength: 128, example: 'my-own-entropy-42' })
  @IsOptional()
  @IsClientSeed()
  clientSeed?: string;
}

@InputType({ description: "The organizer's seed (before registration closes)." })
export class OrganizerSeedInput {
  @Field()
  @ApiProperty({ minLength: 1, maxLength: 128, example: 'organizer-entropy' })
  @IsClientSeed()
  organizerSeed: string;
}

@InputType({ description: 'A recorded reason (1 to 500 characters).' })
export class ReasonInput {
  @Field()
  @ApiProperty({ minLength: 1, maxLength: L.reasonLength.max, example: 'no-show' })
  @IsDefined({ message: `reason is required (1 to ${L.reasonLength.max} characters)` })
  @IsString()
  @MinLength(1)
  @MaxLength(L.reasonLength.max)
  reason: string;
}
