import { Field, GraphQLISODateTime, ID, InputType, ObjectType } from '@nestjs/graphql';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ArrayMaxSize, IsArray, IsBoolean, IsOptional, IsString, MaxLength, MinLength } from 'class-validator';

/** Types and outer bounds only: the service answers INVALID_REDIRECT_URI, OAUTH_* with their own codes. */
@InputType({ description: 'An OAuth app to register: its name and exact redirect URIs.' })
export class RegisterOAuthClientInput {
  @Field({ description: '1 to 60 characters, shown on the consent page.' })
  @ApiProperty({ example: 'Dice Stats', minLength: 1, maxLength: 60, description: 'Shown on the consent page.' })
  @IsString()
  @MinLength(1)
  @MaxLength(60)
  name: string;

  @Field(() => [String], {
    description: 'Absolute https URIs (http for loopback hosts only), no fragment: 1 to 10 (INVALID_REDIRECT_URI).',
  })
  @ApiProperty({
    type: [String],
    minItems: 1,
    maxItems: 10,
    example: ['https://stats.example/callback'],
    description:
      'Absolute https URIs (http only for localhost, 127.0.0.1, [::1]), no fragment; an authorization request must name one of them exactly (INVALID_REDIRECT_URI).',
  })
  @IsArray()
  @ArrayMaxSize(10)
  @IsString({ each: true })
  @MaxLength(2000, { each: true })
  redirectUris: string[];
}

@ObjectType('OAuthClient', { description: 'An OAuth app I registered (docs/oauth.md).' })
export class OAuthClientModel {
  @Field(() => ID, { description: 'The client_id of the OAuth requests.' })
  @ApiProperty({ example: 'fdc_3q2-7wEAAAAAAAAAAAAAAA', description: 'The client_id of the OAuth requests.' })
  clientId: string;
  @Field() @ApiProperty({ example: 'Dice Stats' }) name: string;
  @Field(() => [String]) @ApiProperty({ type: [String] }) redirectUris: string[];
  @Field(() => GraphQLISODateTime) @ApiProperty({ type: String, format: 'date-time' }) createdAt: Date;
}

export class OAuthClientList {
  @ApiProperty({ type: [OAuthClientModel] }) items: OAuthClientModel[];
}

/** The authorization request as the consent page received it (the query of /oauth/authorize). */
export class AuthorizationQuery {
  @ApiPropertyOptional({ example: 'code', description: 'Must be "code".' })
  @IsOptional()
  @IsString()
  @MaxLength(100)
  response_type?: string;

  @ApiPropertyOptional({ example: 'fdc_3q2-7wEAAAAAAAAAAAAAAA' })
  @IsOptional()
  @IsString()
  @MaxLength(100)
  client_id?: string;

  @ApiPropertyOptional({
    example: 'https://stats.example/callback',
    description: 'One the client registered, exactly.',
  })
  @IsOptional()
  @IsString()
  @MaxLength(2000)
  redirect_uri?: string;

  @ApiPropertyOptional({ example: 'game:create game:play', description: 'Space-separated scopes.' })
  @IsOptional()
  @IsString()
  @MaxLength(1000)
  scope?: string;

  @ApiPropertyOptional({ description: 'Required: 1 to 500 printable ASCII characters, returned as sent.' })
  @IsOptional()
  @IsString()
  @MaxLength(1000)
  state?: string;

  @ApiPropertyOptional({ description: 'BASE64URL(SHA-256(code_verifier)), 43 characters.' })
  @IsOptional()
  @IsString()
  @MaxLength(200)
  code_challenge?: string;

  @ApiPropertyOptional({ example: 'S256', description: 'Must be "S256" ("plain" is refused).' })
  @IsOptional()
  @IsString()
  @MaxLength(100)
  code_challenge_method?: string;
}

/** The player's answer on the consent page, with the request it answers. */
export class AuthorizationDecisionInput extends AuthorizationQuery {
  @ApiProperty({ description: 'true: Approve (a code is issued); false: Deny (error=access_denied).' })
  @IsBoolean()
  approved: boolean;
}

export class ScopeModel {
  @ApiProperty({ example: 'game:play' }) name: string;
  @ApiProperty({ example: 'Make moves in your games: roll, score, set aside, bank, quit' }) description: string;
}

export class AuthorizationModel {
  @ApiProperty() clientId: string;
  @ApiProperty({ example: 'Dice Stats' }) clientName: string;
  @ApiProperty() redirectUri: string;
  @ApiProperty({ example: 'stats.example', description: 'The host the player is sent back to.' })
  redirectHost: string;
  @ApiProperty({ type: [ScopeModel] }) scopes: ScopeModel[];
  @ApiProperty() state: string;
}

export class AuthorizationRedirectModel {
  @ApiProperty({
    example: 'https://stats.example/callback?code=…&state=…',
    description: 'Where to send the browser: the redirect URI with code and state, or error=access_denied and state.',
  })
  redirectTo: string;
}

@ObjectType('OAuthGrant', { description: 'An app I connected: a grant still in force (docs/oauth.md).' })
export class OAuthGrantModel {
  @Field(() => ID, { description: 'For disconnectOAuthApp.' })
  @ApiProperty({ format: 'uuid', description: 'For DELETE /v1/oauth/grants/{grantId}.' })
  grantId: string;
  @Field() @ApiProperty() clientId: string;
  @Field() @ApiProperty({ example: 'Dice Stats' }) clientName: string;
  @Field(() => [String]) @ApiProperty({ type: [String], example: ['game:play'] }) scopes: string[];
  @Field(() => GraphQLISODateTime, { description: 'When the player approved.' })
  @ApiProperty({ type: String, format: 'date-time', description: 'When the player approved.' })
  createdAt: Date;
}

export class OAuthGrantList {
  @ApiProperty({ type: [OAuthGrantModel] }) items: OAuthGrantModel[];
}
