import { Field, GraphQLISODateTime, ID, Int, ObjectType } from '@nestjs/graphql';
import { ApiProperty } from '@nestjs/swagger';
import { apiRef } from '../../common/openapi/json-schema';
import { RuleSetNameEnum } from '../../common/graphql/enums';

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
