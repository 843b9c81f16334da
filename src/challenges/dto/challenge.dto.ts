/** Challenge inputs and views, shared by REST (class-validator + OpenAPI) and GraphQL (docs/challenges.md). */
import { Field, GraphQLISODateTime, ID, InputType, Int, ObjectType } from '@nestjs/graphql';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsBoolean, IsIn, IsInt, IsOptional, IsString, Matches, Max, MaxLength, Min, MinLength } from 'class-validator';
import { CHALLENGE_LIMITS, DECLINE_REASONS } from '@fairdice/core/rules/challenge';
import { RATING_POOLS } from '@fairdice/core/rules/ratings';

const OPPONENT_DOC =
  'The challenged player: their id (UUID) or username (any case). Absent or null: an open challenge, accepted by the first player who opens its link (/challenge/{id}) and accepts.';
const TIME_DOC = `Time per move in seconds (${CHALLENGE_LIMITS.turnTimeLimitMin} to ${CHALLENGE_LIMITS.turnTimeLimitMax}): the game's per-move time limit.`;

@InputType({ description: 'A challenge to a two-player game (docs/challenges.md).' })
export class CreateChallengeInput {
  @Field(() => String, { nullable: true, description: OPPONENT_DOC })
  @ApiPropertyOptional({ type: String, maxLength: 64, description: OPPONENT_DOC })
  @IsOptional()
  @IsString()
  @MinLength(1)
  @MaxLength(64)
  opponent?: string | null;

  @Field({ description: 'The pool (rule set with its default options): penta, simple, bonus or farkle.' })
  @ApiProperty({ enum: RATING_POOLS, description: 'The pool (rule set with its default options).' })
  @IsIn(RATING_POOLS)
  pool: string;

  @Field({ nullable: true, description: 'A rated game (docs/ratings.md); default false (casual).' })
  @ApiPropertyOptional({ default: false, description: 'A rated game (docs/ratings.md); default false (casual).' })
  @IsOptional()
  @IsBoolean()
  rated?: boolean;

  @Field(() => Int, { description: TIME_DOC })
  @ApiProperty({
    minimum: CHALLENGE_LIMITS.turnTimeLimitMin,
    maximum: CHALLENGE_LIMITS.turnTimeLimitMax,
    description: TIME_DOC,
  })
  @IsInt()
  @Min(CHALLENGE_LIMITS.turnTimeLimitMin)
  @Max(CHALLENGE_LIMITS.turnTimeLimitMax)
  turnTimeLimitSeconds: number;

  @Field(() => String, {
    nullable: true,
    description: `A message to the challenged player, at most ${CHALLENGE_LIMITS.messageMax} characters (trimmed; no control characters but line breaks).`,
  })
  @ApiPropertyOptional({ type: String, maxLength: CHALLENGE_LIMITS.messageMax })
  @IsOptional()
  @IsString()
  @MaxLength(CHALLENGE_LIMITS.messageMax)
  // eslint-disable-next-line no-control-regex
  @Matches(/^[^\u0000-\u0008\u000b-\u001f\u007f]*$/, {
    message: 'message must not contain control characters but line breaks',
  })
  message?: string | null;
}

const REASON_DOC = `Why: ${DECLINE_REASONS.join(', ')} (default generic).`;

@InputType({ description: 'Declining a challenge.' })
export class DeclineChallengeInput {
  @Field(() => String, { nullable: true, description: REASON_DOC })
  @ApiPropertyOptional({ enum: DECLINE_REASONS, default: 'generic', description: REASON_DOC })
  @IsOptional()
  @IsIn(DECLINE_REASONS)
  reason?: string | null;
}

@ObjectType({ description: 'A player of a challenge.' })
export class ChallengePlayerView {
  @Field(() => ID) @ApiProperty({ format: 'uuid' }) id: string;
  @Field() @ApiProperty() displayName: string;
  @Field(() => String, { nullable: true, description: 'The claimed username, if any.' })
  @ApiProperty({ type: String, nullable: true })
  username: string | null;
}

@ObjectType({ description: 'A challenge (docs/challenges.md).' })
export class ChallengeView {
  @Field(() => ID) @ApiProperty({ format: 'uuid' }) id: string;
  @Field(() => Int) @ApiProperty() version: number;
  @Field({
    description:
      'pending, accepted, declined, cancelled or expired (a pending challenge past expiresAt shows expired at once).',
  })
  @ApiProperty({ enum: ['pending', 'accepted', 'declined', 'cancelled', 'expired'] })
  status: string;
  @Field(() => ChallengePlayerView) @ApiProperty({ type: ChallengePlayerView }) challenger: ChallengePlayerView;
  @Field(() => ChallengePlayerView, {
    nullable: true,
    description: 'The challenged player; for an open challenge, null until taken (then the taker).',
  })
  @ApiProperty({ type: ChallengePlayerView, nullable: true })
  opponent: ChallengePlayerView | null;
  @Field({ description: 'No opponent named: accepted by the first taker of its link.' })
  @ApiProperty()
  open: boolean;
  @Field() @ApiProperty({ enum: RATING_POOLS }) pool: string;
  @Field() @ApiProperty() rated: boolean;
  @Field(() => Int) @ApiProperty() turnTimeLimitSeconds: number;
  @Field(() => String, { nullable: true }) @ApiProperty({ type: String, nullable: true }) message: string | null;
  @Field(() => GraphQLISODateTime) @ApiProperty({ type: String, format: 'date-time' }) createdAt: Date;
  @Field(() => GraphQLISODateTime) @ApiProperty({ type: String, format: 'date-time' }) expiresAt: Date;
  @Field(() => GraphQLISODateTime, {
    nullable: true,
    description: 'When it was accepted, declined, cancelled or expired.',
  })
  @ApiProperty({ type: String, format: 'date-time', nullable: true })
  endedAt: Date | null;
  @Field(() => ID, { nullable: true, description: 'The game an acceptance started.' })
  @ApiProperty({ type: String, format: 'uuid', nullable: true })
  gameId: string | null;
  @Field(() => String, { nullable: true, description: 'Why it was declined.' })
  @ApiProperty({ type: String, enum: DECLINE_REASONS, nullable: true })
  declineReason: string | null;
  @Field({ description: "The link page of the challenge in the web client: '/challenge/{id}'." })
  @ApiProperty({ example: '/challenge/0b5c…' })
  url: string;
}

@ObjectType({ description: 'My pending challenges.' })
export class MyChallengesView {
  @Field(() => [ChallengeView], { description: 'Challenges to me, newest first.' })
  @ApiProperty({ type: [ChallengeView] })
  incoming: ChallengeView[];
  @Field(() => [ChallengeView], { description: 'Challenges I made (direct and open), newest first.' })
  @ApiProperty({ type: [ChallengeView] })
  outgoing: ChallengeView[];
}
