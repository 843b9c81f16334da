import { Field, InputType, Int } from '@nestjs/graphql';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { ArrayMaxSize, IsArray, IsInt, IsOptional, IsString, MaxLength, ValidateNested } from 'class-validator';
import { AuthenticationResponseInput, RegistrationResponseInput } from './webauthn.dto';

/** Types and outer bounds only: the rules (username form, password policy, names) answer with their own codes. */
@InputType({ description: 'A username to claim.' })
export class ClaimUsernameInput {
  @Field({
    description: '3 to 24 of a-z A-Z 0-9 _ -; unique without regard to case (INVALID_USERNAME, USERNAME_TAKEN).',
  })
  @ApiProperty({ example: 'ada_l', minLength: 3, maxLength: 24, pattern: '^[A-Za-z0-9_-]{3,24}$' })
  @IsString()
  @MaxLength(100)
  username: string;
}

@InputType({ description: 'A new password (and the current one, when replacing it).' })
export class SetPasswordInput {
  @Field({ description: '8 to 128 characters, not a common password (WEAK_PASSWORD).' })
  @ApiProperty({ example: 'correct horse battery staple', minLength: 8, maxLength: 128 })
  @IsString()
  @MaxLength(1024)
  password: string;

  @Field(() => String, { nullable: true, description: 'Required when the account already has a password.' })
  @ApiPropertyOptional({ type: String, maxLength: 128 })
  @IsOptional()
  @IsString()
  @MaxLength(1024)
  currentPassword?: string | null;
}

@InputType({ description: "An authenticator's answer to passkey registration options, with a name for the passkey." })
export class AddPasskeyInput {
  @Field({ description: 'What the player calls this passkey: 1 to 64 characters.' })
  @ApiProperty({ example: 'Laptop', minLength: 1, maxLength: 64 })
  @IsString()
  @MaxLength(200)
  name: string;

  @Field(() => RegistrationResponseInput)
  @ApiProperty({ type: RegistrationResponseInput })
  @ValidateNested()
  @Type(() => RegistrationResponseInput)
  response: RegistrationResponseInput;
}

@InputType({ description: 'A new name for a passkey.' })
export class RenamePasskeyInput {
  @Field({ description: '1 to 64 characters.' })
  @ApiProperty({ example: 'Phone', minLength: 1, maxLength: 64 })
  @IsString()
  @MaxLength(200)
  name: string;
}

@InputType({ description: 'Sign in with a username and password.' })
export class PasswordSignInInput {
  @Field() @ApiProperty({ example: 'ada_l' }) @IsString() @MaxLength(100) username: string;
  @Field() @ApiProperty({ example: 'correct horse battery staple' }) @IsString() @MaxLength(1024) password: string;
  @Field(() => String, { nullable: true, description: 'A name for this device (default: its User-Agent).' })
  @ApiPropertyOptional({ type: String, maxLength: 64 })
  @IsOptional()
  @IsString()
  @MaxLength(200)
  deviceLabel?: string | null;
}

@InputType({ description: "Sign in with a passkey: the authenticator's answer to passkey sign-in options." })
export class PasskeySignInInput {
  @Field(() => AuthenticationResponseInput)
  @ApiProperty({ type: AuthenticationResponseInput })
  @ValidateNested()
  @Type(() => AuthenticationResponseInput)
  response: AuthenticationResponseInput;

  @Field(() => String, { nullable: true, description: 'A name for this device (default: its User-Agent).' })
  @ApiPropertyOptional({ type: String, maxLength: 64 })
  @IsOptional()
  @IsString()
  @MaxLength(200)
  deviceLabel?: string | null;
}

/** Types and outer bounds only: the service checks the name, the scopes (UNKNOWN_SCOPE) and the expiry. */
@InputType({ description: 'A new personal access token (docs/accounts.md "Scoped tokens").' })
export class CreateAccessTokenInput {
  @Field({ description: 'What you call it: 1 to 64 characters.' })
  @ApiProperty({ example: 'score bot', minLength: 1, maxLength: 64 })
  @IsString()
  @MaxLength(200)
  name: string;

  @Field(() => [String], {
    description:
      'What it may do: one or more of game:read, game:create, game:play, tournament:read, tournament:write, webhook:write, advice:read, account:read, account:write (UNKNOWN_SCOPE otherwise); only scopes the token creating it holds (INSUFFICIENT_SCOPE).',
  })
  @ApiProperty({ type: [String], example: ['game:read', 'game:play'], minItems: 1, maxItems: 20 })
  @IsArray()
  @ArrayMaxSize(20)
  @IsString({ each: true })
  @MaxLength(64, { each: true })
  scopes: string[];

  @Field(() => Int, {
    nullable: true,
    description:
      "Days until it stops working, 1 to 366; omitted: never (a scoped token creating it: no later than that token's own expiry).",
  })
  @ApiPropertyOptional({ type: 'integer', minimum: 1, maximum: 366, nullable: true })
  @IsOptional()
  @IsInt()
  expiresInDays?: number | null;
}
