import { Field, Float, GraphQLISODateTime, ID, Int, ObjectType } from '@nestjs/graphql';
import { ApiProperty } from '@nestjs/swagger';
import { connectionOf } from '../../common/graphql/connection';

/** Unrounded IEEE doubles (docs/ratings.md §2.5). */
const DOUBLE = { type: 'number', format: 'double' } as const;

const CURSOR_DOC = {
  type: String,
  nullable: true,
  description: 'Pass as `cursor` for the next page (opaque); null on the last page.',
};

@ObjectType({ description: 'Glicko-2 values on the Glicko scale (docs/ratings.md), unrounded.' })
export class RatingValuesView {
  @Field(() => Float) @ApiProperty({ ...DOUBLE, example: 1500 }) rating: number;
  @Field(() => Float, { description: 'Rating deviation.' }) @ApiProperty({ ...DOUBLE, example: 350 }) rd: number;
  @Field(() => Float) @ApiProperty({ ...DOUBLE, example: 0.06 }) volatility: number;
}

@ObjectType({ description: "A player's rating in one pool (docs/ratings.md)." })
export class PlayerRatingView extends RatingValuesView {
  @Field({ description: 'The pool: penta, simple, bonus or farkle.' }) @ApiProperty({ example: 'penta' }) pool: string;
  @Field(() => Float, { description: 'The deviation now: rd grown by the time since the last rated game.' })
  @ApiProperty({ ...DOUBLE, description: 'The deviation now: rd grown by the time since the last rated game.' })
  currentRd: number;
  @Field({ description: 'The current deviation is above 110.' })
  @ApiProperty({ description: 'The current deviation is above 110.' })
  provisional: boolean;
  @Field(() => Int) @ApiProperty() games: number;
  @Field(() => Int, { description: 'Pairwise results won (one per opponent and game).' }) @ApiProperty() wins: number;
  @Field(() => Int) @ApiProperty() draws: number;
  @Field(() => Int) @ApiProperty() losses: number;
  @Field(() => GraphQLISODateTime) @ApiProperty({ type: String, format: 'date-time' }) lastGameAt: Date;
}

@ObjectType({ description: "One rated game's change of a player's rating." })
export class RatingHistoryEntryView {
  @Field(() => Int, { description: 'The order in which the rated results applied.' }) @ApiProperty() seq: number;
  @Field(() => ID) @ApiProperty({ format: 'uuid' }) gameId: string;
  @Field() @ApiProperty() pool: string;
  @Field(() => GraphQLISODateTime) @ApiProperty({ type: String, format: 'date-time' }) finishedAt: Date;
  @Field(() => RatingValuesView) @ApiProperty({ type: RatingValuesView }) before: RatingValuesView;
  @Field(() => RatingValuesView) @ApiProperty({ type: RatingValuesView }) after: RatingValuesView;
  @Field(() => Int) @ApiProperty() wins: number;
  @Field(() => Int) @ApiProperty() draws: number;
  @Field(() => Int) @ApiProperty() losses: number;
}

@ObjectType({ description: 'One seat of a rated result.' })
export class RatedSeatView {
  @Field(() => Int) @ApiProperty() seat: number;
  @Field(() => ID) @ApiProperty({ format: 'uuid' }) playerId: string;
  @Field(() => Int, { description: 'Final total.' }) @ApiProperty() total: number;
  @Field({ description: 'Quit or ran out of time at least once: loses to every player who did not.' })
  @ApiProperty()
  forfeited: boolean;
}

@ObjectType({ description: "A player's ratings before and after a rated game." })
export class RatingChangeView {
  @Field(() => ID) @ApiProperty({ format: 'uuid' }) playerId: string;
  @Field(() => RatingValuesView) @ApiProperty({ type: RatingValuesView }) before: RatingValuesView;
  @Field(() => RatingValuesView) @ApiProperty({ type: RatingValuesView }) after: RatingValuesView;
}

@ObjectType({ description: 'A finished rated game as the ratings used it (docs/ratings.md §4).' })
export class RatedResultView {
  @Field(() => Int, { description: 'The order in which the results applied: recompute in this order.' })
  @ApiProperty()
  seq: number;
  @Field(() => ID) @ApiProperty({ format: 'uuid' }) gameId: string;
  @Field() @ApiProperty() pool: string;
  @Field(() => GraphQLISODateTime) @ApiProperty({ type: String, format: 'date-time' }) finishedAt: Date;
  @Field(() => [RatedSeatView]) @ApiProperty({ type: [RatedSeatView] }) seats: RatedSeatView[];
  @Field(() => [RatingChangeView]) @ApiProperty({ type: [RatingChangeView] }) changes: RatingChangeView[];
}

@ObjectType({ description: "One line of a pool's rating leaderboard." })
export class RatingLeaderboardEntryView {
  @Field(() => Int) @ApiProperty() rank: number;
  @Field(() => ID) @ApiProperty({ format: 'uuid' }) playerId: string;
  @Field() @ApiProperty() displayName: string;
  @Field(() => Float) @ApiProperty(DOUBLE) rating: number;
  @Field(() => Float) @ApiProperty(DOUBLE) rd: number;
  @Field(() => Int) @ApiProperty() games: number;
  @Field(() => GraphQLISODateTime) @ApiProperty({ type: String, format: 'date-time' }) lastGameAt: Date;
}

export class PlayerRatingsList {
  @ApiProperty({ type: [PlayerRatingView] }) items: PlayerRatingView[];
}
export class RatingHistoryPage {
  @ApiProperty({ type: [RatingHistoryEntryView] }) items: RatingHistoryEntryView[];
  @ApiProperty(CURSOR_DOC) nextCursor: string | null;
}
export class RatedResultPage {
  @ApiProperty({ type: [RatedResultView] }) items: RatedResultView[];
  @ApiProperty(CURSOR_DOC) nextCursor: string | null;
}
export class RatingLeaderboardPage {
  @ApiProperty({ type: [RatingLeaderboardEntryView] }) items: RatingLeaderboardEntryView[];
  @ApiProperty(CURSOR_DOC) nextCursor: string | null;
}

@ObjectType('RatingHistoryConnection', { description: "A player's rating history in a pool, newest first." })
export class RatingHistoryConnection extends connectionOf(RatingHistoryEntryView, 'RatingHistory', 'rating change') {}
@ObjectType('RatedResultConnection', { description: 'The rated results of a pool, in the order they applied.' })
export class RatedResultConnection extends connectionOf(RatedResultView, 'RatedResult', 'rated result') {}
@ObjectType('RatingLeaderboardConnection', { description: "A pool's rating leaderboard, high first." })
export class RatingLeaderboardConnection extends connectionOf(
  RatingLeaderboardEntryView,
  'RatingLeaderboard',
  'leaderboard line',
) {}
