import { Field, GraphQLISODateTime, ID, Int, ObjectType } from '@nestjs/graphql';
import { ApiProperty } from '@nestjs/swagger';
import { apiRef } from '../../common/openapi/json-schema';
import { RuleSetNameEnum } from '../../common/graphql/enums';
import { connectionOf } from '../../common/graphql/connection';
import {
  ENTRANT_STATUSES,
  EntrantStatusEnum,
  TOURNAMENT_FORMATS,
  TournamentFormatEnum,
} from '../../common/graphql/tournament-enums';

@ObjectType({ description: 'Statistics of a player for one rule set.' })
export class RuleSetStatsModel {
  @Field(() => RuleSetNameEnum) @ApiProperty(apiRef('RuleSetName')) ruleSet: string;
  @Field(() => Int, { description: 'Finished games of any kind.' }) @ApiProperty() gamesFinished: number;
  @Field(() => Int, { description: 'Finished one-seat games.' }) @ApiProperty() soloGamesFinished: number;
  @Field(() => Int, { nullable: true, description: 'Best total in a one-seat game (hot-seat games do not count).' })
  @ApiProperty({ type: Number, nullable: true })
  soloBestScore: number | null;
  @Field(() => Int, { description: 'Multiplayer games against players only, won outright.' })
  @ApiProperty()
  wins: number;
  @Field(() => Int, { description: 'Multiplayer games against players only, lost.' }) @ApiProperty() losses: number;
  @Field(() => Int, { description: 'Multiplayer games against players only in which the first place was shared.' })
  @ApiProperty()
  ties: number;
  @Field(() => Int, { description: 'Finished games with a computer seat (also in gamesFinished; never solo).' })
  @ApiProperty()
  computerGamesFinished: number;
  @Field(() => Int, { description: 'Games with a computer seat won outright (not in wins).' })
  @ApiProperty()
  computerWins: number;
  @Field(() => Int, { description: 'Games with a computer seat lost (not in losses).' })
  @ApiProperty()
  computerLosses: number;
  @Field(() => Int, { description: 'Games with a computer seat with a shared first place (not in ties).' })
  @ApiProperty()
  computerTies: number;
}

@ObjectType({ description: 'A registered player.' })
export class PlayerModel {
  @Field(() => ID) @ApiProperty({ format: 'uuid' }) id: string;
  @Field() @ApiProperty({ example: 'Ada' }) displayName: string;
  @Field(() => GraphQLISODateTime) @ApiProperty({ type: String, format: 'date-time' }) createdAt: Date;
}

@ObjectType({ description: 'My profile with statistics per rule set.' })
export class MeModel extends PlayerModel {
  @Field(() => [RuleSetStatsModel]) @ApiProperty({ type: [RuleSetStatsModel] }) stats: RuleSetStatsModel[];
}

@ObjectType({ description: 'A bearer token, shown once. Send it as "Authorization: Bearer <token>".' })
export class TokenModel {
  @Field() @ApiProperty({ example: 'fd_3q2...' }) token: string;
}

@ObjectType({ description: 'The registered player and their token (shown once; only its hash is stored).' })
export class RegisteredPlayerModel {
  @Field(() => PlayerModel) @ApiProperty({ type: PlayerModel }) player: PlayerModel;
  @Field() @ApiProperty({ example: 'fd_3q2...' }) token: string;
}

@ObjectType({ description: "A player's place in a finished tournament (docs/tournaments.md §4)." })
export class TournamentResultView {
  @Field(() => ID) @ApiProperty({ format: 'uuid' }) tournamentId: string;
  @Field() @ApiProperty() name: string;
  @Field(() => RuleSetNameEnum) @ApiProperty(apiRef('RuleSetName')) ruleSet: string;
  @Field(() => TournamentFormatEnum)
  @ApiProperty({ enum: TOURNAMENT_FORMATS, enumName: 'TournamentFormat' })
  format: string;
  @Field(() => Int, { description: 'Rank in the final standings (shared when tied).' })
  @ApiProperty({ description: 'Rank in the final standings (shared when tied).' })
  rank: number;
  @Field({ description: 'Another entrant has the same rank (shown as "1=").' })
  @ApiProperty({ description: 'Another entrant has the same rank (shown as "1=").' })
  tied: boolean;
  @Field(() => Int, { description: 'Entrants ranked.' })
  @ApiProperty({ description: 'Entrants ranked.' })
  entrants: number;
  @Field(() => Int) @ApiProperty() totalScore: number;
  @Field(() => Int) @ApiProperty() matchPoints: number;
  @Field(() => EntrantStatusEnum) @ApiProperty({ enum: ENTRANT_STATUSES, enumName: 'EntrantStatus' }) status: string;
  @Field(() => GraphQLISODateTime) @ApiProperty({ type: String, format: 'date-time' }) finishedAt: Date;
}

@ObjectType({
  description:
    "A player's public profile: name, since when, and statistics per rule set (from finished games; docs/api.md#players).",
})
export class PlayerProfileView extends PlayerModel {
  @Field(() => [RuleSetStatsModel]) @ApiProperty({ type: [RuleSetStatsModel] }) stats: RuleSetStatsModel[];
  @Field(() => [TournamentResultView], {
    description: 'Public tournaments the player entered that have finished, the 20 most recent first.',
  })
  @ApiProperty({
    type: [TournamentResultView],
    description: 'Public tournaments the player entered that have finished, the 20 most recent first.',
  })
  tournaments: TournamentResultView[];
}

@ObjectType({ description: "A player's best qualifying solo score in a rule set (docs/api.md#leaderboards)." })
export class SoloLeaderboardEntryView {
  @Field(() => Int, { description: 'Standard competition ranking by score: equal scores share a rank.' })
  @ApiProperty({ description: 'Standard competition ranking by score: equal scores share a rank.' })
  rank: number;
  @Field(() => ID) @ApiProperty({ format: 'uuid' }) playerId: string;
  @Field() @ApiProperty() displayName: string;
  @Field(() => Int) @ApiProperty() score: number;
  @Field(() => ID, { description: 'The game in which the score was made.' })
  @ApiProperty({ format: 'uuid', description: 'The game in which the score was made.' })
  gameId: string;
  @Field(() => GraphQLISODateTime) @ApiProperty({ type: String, format: 'date-time' }) finishedAt: Date;
}

export class SoloLeaderboardPage {
  @ApiProperty({ type: [SoloLeaderboardEntryView] }) items: SoloLeaderboardEntryView[];
  @ApiProperty({
    type: String,
    nullable: true,
    description: 'Pass as `cursor` for the next page (opaque); null on the last page.',
  })
  nextCursor: string | null;
}

@ObjectType('SoloLeaderboardConnection', {
  description: 'Best solo scores of a rule set, high first (Relay connection; decision 0061).',
})
export class SoloLeaderboardConnection extends connectionOf(
  SoloLeaderboardEntryView,
  'SoloLeaderboard',
  'leaderboard line',
) {}

@ObjectType({
  description: "A player's record in a rule set's finished public tournaments (docs/api.md#leaderboards).",
})
export class TournamentLeaderboardEntryView {
  @Field(() => Int, { description: 'Competition ranking by (wins, podiums): equal records share a rank.' })
  @ApiProperty({ description: 'Competition ranking by (wins, podiums): equal records share a rank.' })
  rank: number;
  @Field(() => ID) @ApiProperty({ format: 'uuid' }) playerId: string;
  @Field() @ApiProperty() displayName: string;
  @Field(() => Int, { description: 'Tournaments ranked first in, alone (a shared first place is no win).' })
  @ApiProperty({ description: 'Tournaments ranked first in, alone (a shared first place is no win).' })
  wins: number;
  @Field(() => Int, { description: 'Tournaments ranked first to third in.' })
  @ApiProperty({ description: 'Tournaments ranked first to third in.' })
  podiums: number;
  @Field(() => Int) @ApiProperty() tournamentsPlayed: number;
  @Field(() => Int) @ApiProperty() bestRank: number;
}

export class TournamentLeaderboardPage {
  @ApiProperty({ type: [TournamentLeaderboardEntryView] }) items: TournamentLeaderboardEntryView[];
  @ApiProperty({
    type: String,
    nullable: true,
    description: 'Pass as `cursor` for the next page (opaque); null on the last page.',
  })
  nextCursor: string | null;
}

@ObjectType('TournamentLeaderboardConnection', {
  description: "Players' records in a rule set's finished public tournaments, best first (Relay connection).",
})
export class TournamentLeaderboardConnection extends connectionOf(
  TournamentLeaderboardEntryView,
  'TournamentLeaderboard',
  'leaderboard line',
) {}
