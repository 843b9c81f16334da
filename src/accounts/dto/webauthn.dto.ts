/**
 * The WebAuthn JSON (W3C WebAuthn Level 3, PublicKeyCredential.toJSON() and the options'
 * JSON forms) as typed, closed schemas for both transports: what the service sends to
 * navigator.credentials.create()/get() and what the browser answers (docs/accounts.md).
 */
import { Type } from 'class-transformer';
import { Field, InputType, Int, ObjectType } from '@nestjs/graphql';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsArray, IsBoolean, IsInt, IsOptional, IsString, MaxLength, ValidateNested } from 'class-validator';

const B64 = { type: String, description: 'base64url' } as const;

// --- what the browser answers ---

@InputType('CredPropsInput', { description: 'The credProps extension output.' })
export class CredPropsInput {
  @Field({ nullable: true, description: 'Whether the credential is discoverable (resident).' })
  @ApiPropertyOptional()
  @IsOptional()
  @IsBoolean()
  rk?: boolean;
}

@InputType('ClientExtensionResultsInput', {
  description: "The client's extension outputs (only credProps is asked for).",
})
export class ClientExtensionResultsInput {
  @Field(() => CredPropsInput, { nullable: true })
  @ApiPropertyOptional({ type: CredPropsInput })
  @IsOptional()
  @ValidateNested()
  @Type(() => CredPropsInput)
  credProps?: CredPropsInput;
}

@InputType('AttestationResponseInput', {
  description: "An authenticator's attestation (AuthenticatorAttestationResponseJSON).",
})
export class AttestationResponseInput {
  @Field() @ApiProperty(B64) @IsString() @MaxLength(4096) clientDataJSON: string;
  @Field() @ApiProperty(B64) @IsString() @MaxLength(65536) attestationObject: string;
  @Field({ nullable: true })
  @ApiPropertyOptional(B64)
  @IsOptional()
  @IsString()
  @MaxLength(65536)
  authenticatorData?: string;
  @Field(() => [String], { nullable: true })
  @ApiPropertyOptional({ type: [String], example: ['internal', 'hybrid'] })
  @IsOptional()
  @IsArray()
  @IsString({ each: true })
  @MaxLength(32, { each: true })
  transports?: string[];
  @Field(() => Int, { nullable: true, description: 'COSE algorithm (-7 ES256, -8 EdDSA, -257 RS256).' })
  @ApiPropertyOptional({ type: 'integer' })
  @IsOptional()
  @IsInt()
  publicKeyAlgorithm?: number;
  @Field({ nullable: true }) @ApiPropertyOptional(B64) @IsOptional() @IsString() @MaxLength(8192) publicKey?: string;
}

@InputType('AssertionResponseInput', {
  description: "An authenticator's assertion (AuthenticatorAssertionResponseJSON).",
})
export class AssertionResponseInput {
  @Field() @ApiProperty(B64) @IsString() @MaxLength(4096) clientDataJSON: string;
  @Field() @ApiProperty(B64) @IsString() @MaxLength(65536) authenticatorData: string;
  @Field() @ApiProperty(B64) @IsString() @MaxLength(4096) signature: string;
  @Field(() => String, { nullable: true, description: 'The player id as 16 bytes, base64url.' })
  @ApiPropertyOptional({ type: String, nullable: true, description: 'base64url' })
  @IsOptional()
  @IsString()
  @MaxLength(256)
  userHandle?: string | null;
}

/** The members both responses share (an abstract GraphQL input: its fields go to each subclass). */
@InputType({ isAbstract: true })
abstract class CredentialFields {
  @Field({ description: 'The credential id (base64url).' }) @ApiProperty(B64) @IsString() @MaxLength(1400) id: string;
  @Field() @ApiProperty(B64) @IsString() @MaxLength(1400) rawId: string;
  @Field({ description: '"public-key".' })
  @ApiProperty({ example: 'public-key' })
  @IsString()
  @MaxLength(32)
  type: string;
  @Field(() => String, { nullable: true, description: 'platform or cross-platform.' })
  @ApiPropertyOptional({ type: String, nullable: true, example: 'platform' })
  @IsOptional()
  @IsString()
  @MaxLength(32)
  authenticatorAttachment?: string | null;
  @Field(() => ClientExtensionResultsInput, { nullable: true })
  @ApiPropertyOptional({ type: ClientExtensionResultsInput })
  @IsOptional()
  @ValidateNested()
  @Type(() => ClientExtensionResultsInput)
  clientExtensionResults?: ClientExtensionResultsInput;
}

@InputType('RegistrationResponseInput', {
  description: 'The PublicKeyCredential from navigator.credentials.create(), as JSON (RegistrationResponseJSON).',
})
export class RegistrationResponseInput extends CredentialFields {
  @Field(() => AttestationResponseInput)
  @ApiProperty({ type: AttestationResponseInput })
  @ValidateNested()
  @Type(() => AttestationResponseInput)
  response: AttestationResponseInput;
}

@InputType('AuthenticationResponseInput', {
  description: 'The PublicKeyCredential from navigator.credentials.get(), as JSON (AuthenticationResponseJSON).',
})
export class AuthenticationResponseInput extends CredentialFields {
  @Field(() => AssertionResponseInput)
  @ApiProperty({ type: AssertionResponseInput })
  @ValidateNested()
  @Type(() => AssertionResponseInput)
  response: AssertionResponseInput;
}

// --- what the service sends ---

@ObjectType('RelyingParty')
export class RelyingPartyModel {
  @Field() @ApiProperty({ example: 'fairdice.example' }) id: string;
  @Field() @ApiProperty({ example: 'fairdice' }) name: string;
}

@ObjectType('WebAuthnUser')
export class WebAuthnUserModel {
  @Field({ description: 'The player id as 16 bytes, base64url (the user handle).' }) @ApiProperty(B64) id: string;
  @Field({ description: 'The username.' }) @ApiProperty() name: string;
  @Field({ description: 'The display name.' }) @ApiProperty() displayName: string;
}

@ObjectType('PublicKeyCredentialParameters')
export class PubKeyCredParamModel {
  @Field(() => Int) @ApiProperty({ type: 'integer', example: -7 }) alg: number;
  @Field() @ApiProperty({ example: 'public-key' }) type: string;
}

@ObjectType('PublicKeyCredentialDescriptor')
export class CredentialDescriptorModel {
  @Field() @ApiProperty(B64) id: string;
  @Field() @ApiProperty({ example: 'public-key' }) type: string;
  @Field(() => [String]) @ApiProperty({ type: [String] }) transports: string[];
}

@ObjectType('AuthenticatorSelection')
export class AuthenticatorSelectionModel {
  @Field() @ApiProperty({ example: 'required' }) residentKey: string;
  @Field() @ApiProperty() requireResidentKey: boolean;
  @Field() @ApiProperty({ example: 'preferred' }) userVerification: string;
}

@ObjectType('WebAuthnExtensions')
export class ExtensionsModel {
  @Field({ description: 'Ask the browser whether the credential is discoverable.' }) @ApiProperty() credProps: boolean;
}

@ObjectType('PasskeyCreationOptions', {
  description:
    'PublicKeyCredentialCreationOptionsJSON: pass to navigator.credentials.create({ publicKey }) (after PublicKeyCredential.parseCreationOptionsFromJSON).',
})
export class CreationOptionsModel {
  @Field(() => RelyingPartyModel) @ApiProperty({ type: RelyingPartyModel }) rp: RelyingPartyModel;
  @Field(() => WebAuthnUserModel) @ApiProperty({ type: WebAuthnUserModel }) user: WebAuthnUserModel;
  @Field({ description: 'Single-use, expires after timeout ms.' }) @ApiProperty(B64) challenge: string;
  @Field(() => [PubKeyCredParamModel])
  @ApiProperty({ type: [PubKeyCredParamModel] })
  pubKeyCredParams: PubKeyCredParamModel[];
  @Field(() => Int) @ApiProperty({ type: 'integer', example: 300000 }) timeout: number;
  @Field(() => [CredentialDescriptorModel], { description: 'The passkeys the account has already.' })
  @ApiProperty({ type: [CredentialDescriptorModel] })
  excludeCredentials: CredentialDescriptorModel[];
  @Field(() => AuthenticatorSelectionModel)
  @ApiProperty({ type: AuthenticatorSelectionModel })
  authenticatorSelection: AuthenticatorSelectionModel;
  @Field() @ApiProperty({ example: 'none' }) attestation: string;
  @Field(() => ExtensionsModel) @ApiProperty({ type: ExtensionsModel }) extensions: ExtensionsModel;
}

@ObjectType('PasskeyRequestOptions', {
  description:
    'PublicKeyCredentialRequestOptionsJSON: pass to navigator.credentials.get({ publicKey }) (after PublicKeyCredential.parseRequestOptionsFromJSON).',
})
export class RequestOptionsModel {
  @Field({ description: 'Single-use, expires after timeout ms.' }) @ApiProperty(B64) challenge: string;
  @Field(() => Int) @ApiProperty({ type: 'integer', example: 300000 }) timeout: number;
  @Field() @ApiProperty({ example: 'fairdice.example' }) rpId: string;
  @Field(() => [CredentialDescriptorModel], { description: 'Empty: any discoverable passkey of this site.' })
  @ApiProperty({ type: [CredentialDescriptorModel] })
  allowCredentials: CredentialDescriptorModel[];
  @Field() @ApiProperty({ example: 'preferred' }) userVerification: string;
}

/** REST: the options under `publicKey`, as navigator.credentials takes them. */
export class PasskeyCreationOptionsView {
  @ApiProperty({ type: CreationOptionsModel }) publicKey: CreationOptionsModel;
}
export class PasskeyRequestOptionsView {
  @ApiProperty({ type: RequestOptionsModel }) publicKey: RequestOptionsModel;
}
