import { Field, GraphQLISODateTime, ID, Int, ObjectType } from '@nestjs/graphql';
import { ApiProperty } from '@nestjs/swagger';
import { connectionOf } from '../../common/graphql/connection';
import { PlayerModel } from '../../players/dto/player.model';

@ObjectType('Passkey', { description: 'A passkey of the account.' })
export class PasskeyModel {
  @Field(() => ID, { description: 'The service id of the passkey (for rename and removal).' })
  @ApiProperty({ format: 'uuid' })
  id: string;
  @Field({ description: 'The WebAuthn credential id (base64url).' }) @ApiProperty() credentialId: string;
  @Field() @ApiProperty({ example: 'Laptop' }) name: string;
  @Field({ description: 'singleDevice or multiDevice (a synced passkey).' })
  @ApiProperty({ example: 'multiDevice' })
  deviceType: string;
  @Field() @ApiProperty() backedUp: boolean;
  @Field(() => GraphQLISODateTime) @ApiProperty({ type: String, format: 'date-time' }) createdAt: Date;
  @Field(() => GraphQLISODateTime, { nullable: true })
  @ApiProperty({ type: String, format: 'date-time', nullable: true })
  lastUsedAt: Date | null;
}

@ObjectType('Account', { description: 'My account: username and credentials (docs/accounts.md).' })
export class AccountModel {
  @Field(() => ID) @ApiProperty({ format: 'uuid' }) playerId: string;
  @Field(() => String, { nullable: true, description: 'Null for a guest.' })
  @ApiProperty({ type: String, nullable: true, example: 'ada_l' })
  username: string | null;
  @Field({ description: 'True once a username is claimed.' }) @ApiProperty() claimed: boolean;
  @Field() @ApiProperty() hasPassword: boolean;
  @Field(() => [PasskeyModel]) @ApiProperty({ type: [PasskeyModel] }) passkeys: PasskeyModel[];
}

@ObjectType('Session', { description: 'A signed-in device.' })
export class SessionModel {
  @Field(() => ID) @ApiProperty({ format: 'uuid' }) id: string;
  @Field({ description: 'The device label given at sign-in, else its User-Agent.' }) @ApiProperty() label: string;
  @Field(() => GraphQLISODateTime) @ApiProperty({ type: String, format: 'date-time' }) createdAt: Date;
  @Field(() => GraphQLISODateTime, { description: 'Updated at most once a minute.' })
  @ApiProperty({ type: String, format: 'date-time' })
  lastUsedAt: Date;
  @Field(() => String, { nullable: true, description: 'Client address at sign-in.' })
  @ApiProperty({ type: String, nullable: true })
  address: string | null;
  @Field(() => [String], { description: '"*" = every scope (the only value today).' })
  @ApiProperty({ type: [String], example: ['*'] })
  scopes: string[];
  @Field({ description: 'True for the session of the token that asked.' }) @ApiProperty() current: boolean;
}

@ObjectType('AccessToken', {
  description: 'A personal access token (docs/accounts.md "Scoped tokens"); its secret was shown once, at creation.',
})
export class AccessTokenModel {
  @Field(() => ID) @ApiProperty({ format: 'uuid' }) id: string;
  @Field({ description: 'What the owner called it.' }) @ApiProperty({ example: 'score bot' }) name: string;
  @Field(() => [String], { description: 'What it may do (docs/accounts.md, the scope table).' })
  @ApiProperty({ type: [String], example: ['game:read', 'game:play'] })
  scopes: string[];
  @Field(() => GraphQLISODateTime) @ApiProperty({ type: String, format: 'date-time' }) createdAt: Date;
  @Field(() => GraphQLISODateTime, { description: 'Updated at most once a minute.' })
  @ApiProperty({ type: String, format: 'date-time' })
  lastUsedAt: Date;
  @Field(() => GraphQLISODateTime, { nullable: true, description: 'When it stops working; null: never.' })
  @ApiProperty({ type: String, format: 'date-time', nullable: true })
  expiresAt: Date | null;
  @Field({ description: 'True for the token that asked.' }) @ApiProperty() current: boolean;
}

@ObjectType('CreatedAccessToken', {
  description: 'A new personal access token: the secret (shown once; only its hash is stored) and the token.',
})
export class CreatedAccessTokenModel {
  @Field() @ApiProperty({ example: 'fd_3q2...' }) token: string;
  @Field(() => AccessTokenModel) @ApiProperty({ type: AccessTokenModel }) accessToken: AccessTokenModel;
}

@ObjectType('SignedIn', {
  description: "A new session's token (shown once; only its hash is stored), the session and the player.",
})
export class SignedInModel {
  @Field() @ApiProperty({ example: 'fd_3q2...' }) token: string;
  @Field(() => SessionModel) @ApiProperty({ type: SessionModel }) session: SessionModel;
  @Field(() => PlayerModel) @ApiProperty({ type: PlayerModel }) player: PlayerModel;
}

@ObjectType('SignedOutEverywhere', { description: 'What signing out everywhere revoked.' })
export class SignedOutEverywhereModel {
  @Field(() => Int) @ApiProperty() revokedSessions: number;
  @Field({ description: "True when the player's own token was retired too (the account has a credential)." })
  @ApiProperty()
  playerTokenRetired: boolean;
}

@ObjectType('SecurityLogDetail', { description: 'What a security log line is about (members by type; others null).' })
export class SecurityLogDetailModel {
  @Field(() => String, { nullable: true, description: 'signIn, signInFailed: password or passkey.' })
  @ApiProperty({ type: String, nullable: true, enum: ['password', 'passkey'] })
  method: string | null;
  @Field(() => String, { nullable: true, description: 'signIn, sessionRevoked: the session.' })
  @ApiProperty({ type: String, nullable: true, format: 'uuid' })
  sessionId: string | null;
  @Field(() => String, { nullable: true, description: 'signIn: the device label.' })
  @ApiProperty({ type: String, nullable: true })
  label: string | null;
  @Field(() => String, { nullable: true, description: 'passkeyAdded, passkeyRenamed, passkeyRemoved: the passkey.' })
  @ApiProperty({ type: String, nullable: true, format: 'uuid' })
  passkeyId: string | null;
  @Field(() => String, { nullable: true, description: 'signIn, signInFailed with a passkey: its credential id.' })
  @ApiProperty({ type: String, nullable: true })
  credentialId: string | null;
  @Field(() => String, {
    nullable: true,
    description: 'passkeyAdded, passkeyRenamed: the name; accessTokenCreated, accessTokenRevoked: the token name.',
  })
  @ApiProperty({ type: String, nullable: true })
  name: string | null;
  @Field(() => String, { nullable: true, description: 'usernameClaimed: the username.' })
  @ApiProperty({ type: String, nullable: true })
  username: string | null;
  @Field(() => String, {
    nullable: true,
    description: 'signInFailed: passwordChange when the current password given to change it was wrong.',
  })
  @ApiProperty({ type: String, nullable: true })
  reason: string | null;
  @Field(() => Boolean, { nullable: true, description: 'passwordSet: whether it replaced one.' })
  @ApiProperty({ type: Boolean, nullable: true })
  replaced: boolean | null;
  @Field(() => Int, { nullable: true, description: 'signedOutEverywhere: sessions revoked.' })
  @ApiProperty({ type: 'integer', nullable: true })
  revokedSessions: number | null;
  @Field(() => Boolean, {
    nullable: true,
    description: "signedOutEverywhere: whether the player's own token was retired.",
  })
  @ApiProperty({ type: Boolean, nullable: true })
  playerTokenRetired: boolean | null;
  @Field(() => String, { nullable: true, description: 'accessTokenCreated, accessTokenRevoked: the token.' })
  @ApiProperty({ type: String, nullable: true, format: 'uuid' })
  tokenId: string | null;
  @Field(() => [String], { nullable: true, description: 'accessTokenCreated: its scopes.' })
  @ApiProperty({ type: [String], nullable: true })
  scopes: string[] | null;
  @Field(() => String, { nullable: true, description: 'accessTokenCreated: when it expires (null: never).' })
  @ApiProperty({ type: String, nullable: true, format: 'date-time' })
  expiresAt: string | null;
}

@ObjectType('SecurityLogEntry', { description: 'One line of the security log.' })
export class SecurityLogEntryModel {
  @Field(() => ID) @ApiProperty({ example: '42' }) id: string;
  @Field({
    description:
      'signIn, signInFailed, sessionRevoked, signedOutEverywhere, usernameClaimed, passwordSet, passwordRemoved, passkeyAdded, passkeyRenamed, passkeyRemoved, accessTokenCreated, accessTokenRevoked.',
  })
  @ApiProperty({ example: 'signIn' })
  type: string;
  @Field(() => GraphQLISODateTime) @ApiProperty({ type: String, format: 'date-time' }) createdAt: Date;
  @Field(() => String, { nullable: true }) @ApiProperty({ type: String, nullable: true }) address: string | null;
  @Field(() => SecurityLogDetailModel) @ApiProperty({ type: SecurityLogDetailModel }) detail: SecurityLogDetailModel;
}

export class SessionPage {
  @ApiProperty({ type: [SessionModel] }) items: SessionModel[];
  @ApiProperty({
    type: String,
    nullable: true,
    description: 'Pass as `cursor` for the next page (opaque); null on the last page.',
  })
  nextCursor: string | null;
}

export class AccessTokenPage {
  @ApiProperty({ type: [AccessTokenModel] }) items: AccessTokenModel[];
  @ApiProperty({
    type: String,
    nullable: true,
    description: 'Pass as `cursor` for the next page (opaque); null on the last page.',
  })
  nextCursor: string | null;
}

export class SecurityLogPage {
  @ApiProperty({ type: [SecurityLogEntryModel] }) items: SecurityLogEntryModel[];
  @ApiProperty({
    type: String,
    nullable: true,
    description: 'Pass as `cursor` for the next page (opaque); null on the last page.',
  })
  nextCursor: string | null;
}

@ObjectType('SessionConnection')
export class SessionConnection extends connectionOf(SessionModel, 'Session', 'session') {}

@ObjectType('AccessTokenConnection')
export class AccessTokenConnection extends connectionOf(AccessTokenModel, 'AccessToken', 'access token') {}

@ObjectType('SecurityLogConnection')
export class SecurityLogConnection extends connectionOf(SecurityLogEntryModel, 'SecurityLog', 'security log entry') {}
