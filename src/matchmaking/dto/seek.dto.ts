/** Seek inputs and views (docs/matchmaking.md), shared by REST (class-validator + OpenAPI) and GraphQL. */
import { Field, Float, GraphQLISODateTime, ID, InputType, Int, ObjectType } from '@nestjs/graphql';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsBoolean, IsInt, IsOptional, IsString, Max, MaxLength, Min } from 'class-validator';
import { RATING_POOLS } from '@fairdice/core/rules/ratings';
import { SEEK_LIMITS, TIME_CONTROLS } from '@fairdice/core/rules/seek';
import { connectionOf } from '../../common/graphql/connection';

const L = SEEK_LIMITS;

@InputType({ description: 'A seek: the game I want to be paired into (docs/matchmaking.md).' })
export class CreateSeekInput {
  @Field({
    description: `The pool: ${RATING_POOLS.join(', ')} (its default options). Another value: 400 UNKNOWN_POOL.`,
  })
  @ApiProperty({ enum: RATING_POOLS, description: 'The pool (a rule set with its default options).' })
  @IsString()
  @MaxLength(40)
  pool: string;

  @Field(() => Int, { description: `Seats of the game, ${L.seatsMin} to ${L.seatsMax}.` })
  @ApiProperty({ type: 'integer', minimum: L.seatsMin, maximum: L.seatsMax })
  @IsInt()
  @Min(L.seatsMin)
  @Max(L.seatsMax)
  seats: number;

  @Field({ description: 'A rated game (docs/ratings.md) or a casual one.' })
  @ApiProperty()
  @IsBoolean()
  rated: boolean;

  @Field(() => Int, {
    nullable: true,
    description: `Lowest opponent rating accepted (${L.ratingMin}–${L.ratingMax}); absent: my rating − 200. Widens while the seek waits.`,
  })
  @ApiPropertyOptional({ type: 'integer', minimum: L.ratingMin, maximum: L.ratingMax, nullable: true })
  @IsOptional()
  @IsInt()
  ratingMin?: number | null;

  @Field(() => Int, {
    nullable: true,
    description: `Highest opponent rating accepted (${L.ratingMin}–${L.ratingMax}); absent: my rating + 200. Widens while the seek waits.`,
  })
  @ApiPropertyOptional({ type: 'integer', minimum: L.ratingMin, maximum: L.ratingMax, nullable: true })
  @IsOptional()
  @IsInt()
  ratingMax?: number | null;

  @Field(() => Int, {
    nullable: true,
    description: `Seconds per move, one of ${TIME_CONTROLS.join(', ')}; required for a rated seek, absent for none (casual).`,
  })
  @ApiPropertyOptional({ type: 'integer', enum: [...TIME_CONTROLS], nullable: true })
  @IsOptional()
  @IsInt()
  turnTimeLimitSeconds?: number | null;
}

@ObjectType('Seek', { description: 'A seek in the lobby (docs/matchmaking.md).' })
export class SeekView {
  @Field(() => ID) @ApiProperty({ format: 'uuid' }) id: string;
  @Field(() => ID) @ApiProperty({ format: 'uuid' }) playerId: string;
  @Field() @ApiProperty() playerName: string;
  @Field({ description: 'penta, simple, bonus or farkle.' }) @ApiProperty({ enum: RATING_POOLS }) pool: string;
  @Field(() => Int) @ApiProperty({ type: 'integer' }) seats: number;
  @Field() @ApiProperty() rated: boolean;
  @Field(() => Int, { nullable: true })
  @ApiProperty({ type: 'integer', nullable: true })
  ratingMin: number | null;
  @Field(() => Int, { nullable: true })
  @ApiProperty({ type: 'integer', nullable: true })
  ratingMax: number | null;
  @Field(() => Int, { nullable: true })
  @ApiProperty({ type: 'integer', nullable: true })
  turnTimeLimitSeconds: number | null;
  @Field(() => Float, {
    nullable: true,
    description: "The seeker's rating in the pool now (null: no rated game there yet; pairs as 1500).",
  })
  @ApiProperty({ type: 'number', format: 'double', nullable: true })
  rating: number | null;
  @Field({ description: 'open, paired or cancelled.' })
  @ApiProperty({ enum: ['open', 'paired', 'cancelled'] })
  status: string;
  @Field(() => ID, { nullable: true, description: 'The game the seek was paired into.' })
  @ApiProperty({ format: 'uuid', nullable: true, type: String })
  gameId: string | null;
  @Field(() => GraphQLISODateTime) @ApiProperty() createdAt: Date;
}

export class SeekPage {
  @ApiProperty({ type: [SeekView] }) items: SeekView[];
  @ApiProperty({
    type: String,
    nullable: true,
    description: 'Pass as `cursor` for the next page (opaque); null on the last page.',
  })
  nextCursor: string | null;
}

@ObjectType('SeekConnection', { description: 'The open seeks, oldest first.' })
export class SeekConnection extends connectionOf(SeekView, 'Seek', 'open seek') {}
