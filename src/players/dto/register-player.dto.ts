import { Field, InputType } from '@nestjs/graphql';
import { ApiProperty } from '@nestjs/swagger';
import { IsString, Length, Matches } from 'class-validator';

@InputType({ description: 'A new player.' })
export class RegisterPlayerInput {
  @Field({ description: 'Name shown to other players: 1 to 40 characters, no control characters.' })
  @ApiProperty({ example: 'Ada', minLength: 1, maxLength: 40 })
  @IsString()
  @Length(1, 40)
  @Matches(/^[^\p{Cc}\p{Cf}]*[^\p{Cc}\p{Cf}\s][^\p{Cc}\p{Cf}]*$/u, {
    message: 'displayName must contain visible characters and no control characters',
  })
  displayName: string;
}
