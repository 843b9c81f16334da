/** Inputs shared by REST (class-validator + OpenAPI) and GraphQL (@InputType). */
import { Field, InputType, Int, registerEnumType } from '@nestjs/graphql';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { QueryInteger } from '../../common/dto/query-integer';
import { CursorQuery, PageQuery } from '../../common/dto/pagination';
import {
  ArrayMaxSize,
  IsArray,
  IsBoolean,
  IsIn,
  IsInt,
  IsObject,
  IsOptional,
  IsString,
  Length,
  Matches,
  Max,
  MaxLength,
  Min,
  registerDecorator,
  ValidateNested,
  ValidationArguments,
} from 'class-validator';
import { validateClientSeed } from '@fairdice/core/fairness/seeds';
import { RULE_SET_NAMES } from '@fairdice/core/rules/registry';
import { apiRef } from '../../common/openapi/json-schema';
import { MemoizedValidation } from '../../common/errors/validation.pipe';
import { AdviceSettingEnum, ComputerLevelEnum, RuleSetNameEnum, VisibilityEnum } from '../../common/graphql/enums';
import { ADVICE_SETTINGS, type AdviceSetting, COMPUTER_LEVELS } from '@fairdice/core/rules/game/types';
import { SEAT_NAME_PATTERN } from '@fairdice/core/rules/game/create';
import { GameOptionsInput } from '../../common/graphql/game-options';

/** 1..128 visible ASCII characters (fairness/seeds.ts validateClientSeed). */
export function IsClientSeed() {
  return (object: object, propertyName: string) =>
    registerDecorator({
      name: 'isClientSeed',
      target: object.constructor,
      propertyName,
      validator: {
        validate: (value: unknown) => validateClientSeed(value) === null,
        defaultMessage: (args: ValidationArguments) =>
          `${args.property}: ${validateClientSeed(args.value) ?? 'invalid'}`,
      },
    });
}

@InputType({ description: 'A seat the service plays.' })
export class ComputerSeatInput {
  @Field(() => Int, { description: "The seat (1 or later: seat 0 is the creator's; not a hot seat)." })
  @ApiProperty({ minimum: 1, maximum: 7, example: 1 })
  @IsInt()
  @Min(0)
  @Max(7)
  seat: number;

  @Field(() => ComputerLevelEnum, { description: 'expert, optimal, standard or beginner (docs/advice.md).' })
  @ApiProperty({ ...apiRef('ComputerLevel'), example: 'standard' })
  @IsString()
  @IsIn(COMPUTER_LEVELS)
  level: string;
}

@InputType({ description: 'A new game.' })
export class CreateGameInput {
  @Field(() => RuleSetNameEnum, { description: 'Rule-set preset: penta, simple, bonus or farkle.' })
  @ApiProperty({ ...apiRef('RuleSetName'), example: 'penta' })
  @IsString()
  @IsIn(RULE_SET_NAMES)
  ruleSet: string;

  @Field(() => GameOptionsInput, {
    nullable: true,
    description: "Overrides of the preset's options (validated by the family: INVALID_OPTIONS).",
  })
  @ApiPropertyOptional({ ...apiRef('GameOptionsOverrides'), example: { target: 2000, entryThreshold: 0 } })
  @IsOptional()
  @IsObject()
  options?: Record<string, unknown>;

  @Field(() => Int, { description: 'Number of seats, 1 to 8.' })
  @ApiProperty({ minimum: 1, maximum: 8, example: 2 })
  @IsInt()
  @Min(1)
  @Max(8)
  seats: number;

  @Field(() => VisibilityEnum, {
    nullable: true,
    description: 'public (default: listed, readable by anyone) or private (only its seats see it).',
  })
  @ApiPropertyOptional({ ...apiRef('Visibility'), default: 'public' })
  @IsOptional()
  @IsIn(['public', 'private'])
  visibility?: 'public' | 'private';

  @Field(() => Int, {
    nullable: true,
    description: 'Seats after the creator played by the creator on the same screen (default 0).',
  })
  @ApiPropertyOptional({ minimum: 0, maximum: 7, default: 0 })
  @IsOptional()
  @IsInt()
  @Min(0)
  @Max(7)
  hotSeats?: number;

  @Field(() => [String], {
    nullable: true,
    description:
      "Names of the hot seats in seat order, one per hot seat (default: none; every hot seat then shows the creator's name). Each 1 to 40 characters with a visible one, no control characters.",
  })
  @ApiPropertyOptional({
    type: [String],
    maxItems: 7,
    description:
      "Names of the hot seats in seat order, one per hot seat (default: none; every hot seat then shows the creator's name). Each 1 to 40 characters with a visible one, no control characters.",
  })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(7)
  @IsString({ each: true })
  @Length(1, 40, { each: true })
  @Matches(SEAT_NAME_PATTERN, {
    each: true,
    message: 'hotSeatNames: each name needs a visible character and no control characters',
  })
  hotSeatNames?: string[];

  @Field(() => Int, {
    nullable: true,
    description:
      'Time limit per move in seconds (1 to 604800 = 7 days; none by default). When it runs out, the server completes the turn with the computer\'s choice (events marked reason "timeout"); every move restarts the clock.',
  })
  @ApiPropertyOptional({
    minimum: 1,
    maximum: 604800,
    description:
      'Time limit per move in seconds (1 s to 7 days; none by default). When it runs out, the server completes the turn with the computer\'s choice (events marked reason "timeout"); every move restarts the clock.',
  })
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(604800)
  turnTimeLimitSeconds?: number;

  @Field(() => [ComputerSeatInput], {
    nullable: true,
    description:
      'Seats the service plays, each at its level; they are taken at creation and move by themselves on their turn (docs/advice.md). Not seat 0, not a hot seat, each seat once.',
  })
  @ApiPropertyOptional({
    type: [ComputerSeatInput],
    maxItems: 7,
    description:
      'Seats the service plays, each at its level; they are taken at creation and move by themselves on their turn (docs/advice.md). Not seat 0, not a hot seat, each seat once.',
  })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(7)
  @ValidateNested({ each: true })
  @Type(() => ComputerSeatInput)
  computerSeats?: ComputerSeatInput[];

  @Field(() => ComputerLevelEnum, {
    nullable: true,
    description: "The level the game's timeouts and auto-scores play with (default standard).",
  })
  @ApiPropertyOptional({
    ...apiRef('ComputerLevel'),
    default: 'standard',
    description: "The level the game's timeouts and auto-scores play with (default standard).",
  })
  @IsOptional()
  @IsString()
  @IsIn(COMPUTER_LEVELS)
  computerLevel?: string;
  @Field(() => AdviceSettingEnum, {
    nullable: true,
    description:
      'allowed (default) or forbidden: whether the service gives advice for this game (docs/advice.md). Forbidden stops the service from helping, not a player from computing advice elsewhere.',
  })
  @ApiPropertyOptional({ ...apiRef('AdviceSetting'), default: 'allowed' })
  @IsOptional()
  @IsIn(ADVICE_SETTINGS)
  advice?: AdviceSetting;

  @Field({
    nullable: true,
    description:
      "A rated game (docs/ratings.md): its result updates the players' Glicko-2 ratings. Needs a rating pool's rule set (penta, simple, bonus, farkle) with no option overrides, no hot or computer seats, advice forbidden (the default when rated), turnTimeLimitSeconds, public visibility.",
  })
  @ApiPropertyOptional({
    default: false,
    description:
      "A rated game (docs/ratings.md): its result updates the players' Glicko-2 ratings. Needs a rating pool's rule set (penta, simple, bonus, farkle) with no option overrides, no hot or computer seats, advice forbidden (the default when rated), turnTimeLimitSeconds, public visibility.",
  })
  @IsOptional()
  @IsBoolean()
  rated?: boolean;

  // Seeds given before the commitment exists protect nobody (docs/fairness.md §2.1): these two
  // fields are still recognised so that old clients get the clear SEED_BEFORE_COMMITMENT error
  // (decision record 0014), and nothing is created.
  @Field({
    nullable: true,
    deprecationReason: 'Rejected (SEED_BEFORE_COMMITMENT): set your seed after creation with setSeed, or in startGame.',
  })
  @ApiPropertyOptional({
    deprecated: true,
    description:
      'Rejected with SEED_BEFORE_COMMITMENT: a seed given before the commitment is published protects nobody. Set it after creation (PUT /v1/games/{id}/seeds) or in the start request.',
  })
  @IsOptional()
  @IsClientSeed()
  clientSeed?: string;

  @Field({
    nullable: true,
    deprecationReason: 'Rejected (SEED_BEFORE_COMMITMENT): set the organizer seed after creation with setSeed.',
  })
  @ApiPropertyOptional({
    deprecated: true,
    description:
      'Rejected with SEED_BEFORE_COMMITMENT. The creator sets the organizer seed after creation: PUT /v1/games/{id}/seeds { organizer: true, clientSeed }.',
  })
  @IsOptional()
  @IsClientSeed()
  organizerSeed?: string;
}

@InputType({ description: 'Joining a game.' })
export class JoinGameInput {
  @Field(() => Int, { nullable: true, description: 'The seat to take (from 0); the first open one when absent.' })
  @ApiPropertyOptional({ minimum: 0, maximum: 7 })
  @IsOptional()
  @IsInt()
  @Min(0)
  @Max(7)
  seat?: number;

  @Field({
    nullable: true,
    description:
      'Your client seed (1-128 visible ASCII). Absent: set it later (setSeed) before the start, or the service generates one at the start (marked generated in the audit).',
  })
  @ApiPropertyOptional()
  @IsOptional()
  @IsClientSeed()
  clientSeed?: string;
}

@InputType({ description: 'Setting or replacing a client seed while the game is open.' })
export class SetSeedInput {
  @Field({ description: 'The seed: 1-128 visible ASCII characters (0x21-0x7E), case-sensitive, used verbatim.' })
  @ApiProperty({ example: 'alice:my-own-entropy-7f3a' })
  @IsClientSeed()
  clientSeed: string;

  @Field(() => Int, {
    nullable: true,
    description: 'The seat whose seed this is (one you hold, hot seats included). Default: your lowest seat.',
  })
  @ApiPropertyOptional({ minimum: 0, maximum: 7 })
  @IsOptional()
  @IsInt()
  @Min(0)
  @Max(7)
  seat?: number;

  @Field({
    nullable: true,
    description: 'true: set the organizer seed instead (the creator only; first in the derivation list).',
  })
  @ApiPropertyOptional({ default: false })
  @IsOptional()
  @IsBoolean()
  organizer?: boolean;
}

@InputType({ description: "A seat's seed given with the start." })
export class SeatSeedInput {
  @Field(() => Int) @ApiProperty({ minimum: 0, maximum: 7 }) @IsInt() @Min(0) @Max(7) seat: number;
  @Field() @ApiProperty({ example: 'hot-seat-1:9c1e' }) @IsClientSeed() clientSeed: string;
}

@InputType({ description: 'Starting a game.' })
export class StartGameInput {
  @Field(() => [SeatSeedInput], {
    nullable: true,
    description:
      'Seeds for seats the creator holds (own seat, hot seats), fixed with the start. Any seat still without a seed gets one generated by the service, recorded as generated.',
  })
  @ApiPropertyOptional({ type: [SeatSeedInput] })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(8)
  @ValidateNested({ each: true })
  @Type(() => SeatSeedInput)
  seeds?: SeatSeedInput[];
}

@MemoizedValidation()
export class RollInput {
  @ApiPropertyOptional({
    type: [Number],
    description: 'Five dice: indices 0-4 of the dice to keep (empty on the first roll).',
    example: [0, 2],
  })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(6)
  @IsInt({ each: true })
  hold?: number[];
}

@MemoizedValidation()
export class ScoreInput {
  @ApiProperty({
    ...apiRef('BoxId'),
    example: 'fullHouse',
    description: 'The box to fill (another value: 400 UNKNOWN_BOX).',
  })
  @IsString()
  @MaxLength(40)
  box: string;
}

@MemoizedValidation()
export class SetAsideInput {
  @ApiProperty({
    type: [Number],
    description: 'Farkle: indices into the current roll of the scoring dice to set aside.',
    example: [0, 3],
  })
  @IsArray()
  @ArrayMaxSize(6)
  @IsInt({ each: true })
  dice: number[];
}

/** Commands without parameters accept no body fields (shared with token rotation). */
export { NoFieldsPipe } from '../../common/dto/no-fields.pipe';

/** Which games a list shows (REST `?scope=`, GraphQL `gamesConnection(scope:)`). */
export enum GameListScope {
  mine = 'mine',
  open = 'open',
}
registerEnumType(GameListScope, {
  name: 'GameListScope',
  description: 'mine: games I hold a seat in; open: open public games to join. Both newest first.',
});

export class ListGamesQuery extends PageQuery {
  @ApiPropertyOptional({
    enum: ['mine', 'open'],
    default: 'mine',
    description:
      'mine (needs a token): games I hold a seat in; open: open public games. Both newest first (created_at, then id, descending), so games being played keep their place.',
  })
  @IsOptional()
  @IsIn(['mine', 'open'])
  scope?: 'mine' | 'open';
}

export class EventsQuery extends CursorQuery {
  @ApiPropertyOptional({
    minimum: 0,
    default: 0,
    description: "Return events with a version greater than this (the stream's `after`). Not together with `cursor`.",
  })
  @IsOptional()
  @QueryInteger()
  @IsInt()
  @Min(0)
  @Max(2_147_483_647)
  after?: number;
}

export class StreamQuery {
  @ApiPropertyOptional({ minimum: 0, description: 'Resume after this version (Last-Event-ID takes precedence).' })
  @IsOptional()
  @QueryInteger()
  @IsInt()
  @Min(0)
  @Max(2_147_483_647)
  after?: number;
}
