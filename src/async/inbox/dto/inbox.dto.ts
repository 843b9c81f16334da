import { Field, GraphQLISODateTime, ID, Int, ObjectType } from '@nestjs/graphql';
import { ApiProperty } from '@nestjs/swagger';
import { PageQuery } from '../../../common/dto/pagination';
import { apiRef } from '../../../common/openapi/json-schema';
import { GameFamilyEnum, RuleSetNameEnum } from '../../../common/graphql/enums';

@ObjectType({ description: 'A game awaiting my move.' })
export class InboxItem {
  @Field(() => ID) @ApiProperty({ format: 'uuid' }) gameId: string;
  @Field(() => RuleSetNameEnum) @ApiProperty(apiRef('RuleSetName')) ruleSet: string;
  @Field(() => GameFamilyEnum) @ApiProperty(apiRef('GameFamily')) family: string;
  @Field(() => Int, { description: 'Version to expect (If-Match) for my next move.' }) @ApiProperty() version: number;
  @Field(() => Int, { description: 'The seat to move (mine; a hot seat of mine for creators).' })
  @ApiProperty()
  seat: number;
  @Field(() => Int) @ApiProperty() seatCount: number;
  @Field(() => Int, { nullable: true }) @ApiProperty({ type: Number, nullable: true }) turnTimeLimitSeconds:
    number | null;
  @Field(() => GraphQLISODateTime, {
    nullable: true,
    description: 'When the server moves for me (null: no time limit).',
  })
  @ApiProperty({ type: Date, nullable: true })
  deadline: Date | null;
  @Field(() => GraphQLISODateTime, { description: 'When the game last changed.' }) @ApiProperty() updatedAt: Date;
}

@ObjectType({ description: 'My games awaiting my move, the nearest deadline first.' })
export class InboxPage {
  @Field(() => [InboxItem]) @ApiProperty({ type: [InboxItem] }) items: InboxItem[];
  @Field(() => Int, { nullable: true }) @ApiProperty({ type: Number, nullable: true }) nextOffset: number | null;
}

export class InboxQuery extends PageQuery {}
