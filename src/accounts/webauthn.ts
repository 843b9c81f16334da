/**
 * Passkeys through @simplewebauthn/server (decision 0107): discoverable credentials (resident
 * key required), user verification preferred, attestation 'none'. Challenges are random
 * (the library's 32 bytes), stored as their SHA-256 with a purpose, the player they were issued to
 * (registration) and an expiry, and consumed once: the row is deleted by the statement that finds
 * it, before the response is verified, so a replayed response finds none
 * (WEBAUTHN_CHALLENGE_INVALID). The challenge is read from the response's clientDataJSON.
 */
import { createHash } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import type { Pool } from 'pg';
import {
  generateAuthenticationOptions,
  generateRegistrationOptions,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
  type AuthenticationResponseJSON,
  type RegistrationResponseJSON,
} from '@simplewebauthn/server';
import type { CreationOptionsModel, RequestOptionsModel } from './dto/webauthn.dto';
import { DomainException } from '../common/errors';
import { PG_POOL } from '../database/pg-pool';
import type { Passkey } from '@fairdice/core/rules/account';

export interface RelyingParty {
  id: string;
  name: string;
  origins: string[];
}
export const RELYING_PARTY = Symbol('RELYING_PARTY');

/** How long a challenge may be answered. */
export const CHALLENGE_TTL_SECONDS = 300;
/** COSE algorithms accepted: ES256, EdDSA, RS256 (what platform authenticators make). */
const ALGORITHMS = [-7, -8, -257];
const BASE64URL = /^[A-Za-z0-9_-]+$/;

type Purpose = 'register' | 'authenticate';

const challengeHash = (challenge: string) => createHash('sha256').update(challenge, 'utf8').digest('hex');

const invalid = (why: string) => new DomainException('WEBAUTHN_VERIFICATION_FAILED', why);

/** The parts of a WebAuthn response every check needs, or WEBAUTHN_VERIFICATION_FAILED. */
export function responseShape(response: unknown, kind: 'attestation' | 'assertion'): { id: string; challenge: string } {
  if (typeof response !== 'object' || response === null || Array.isArray(response))
    throw invalid('response must be the PublicKeyCredential as JSON (id, rawId, type, response)');
  const r = response as Record<string, unknown>;
  const inner = r.response as Record<string, unknown> | undefined;
  if (typeof r.id !== 'string' || !BASE64URL.test(r.id) || r.id.length > 1364 || r.type !== 'public-key')
    throw invalid('response.id must be a base64url credential id and response.type "public-key"');
  if (typeof inner !== 'object' || inner === null || typeof inner.clientDataJSON !== 'string')
    throw invalid('response.response.clientDataJSON is missing');
  if (kind === 'attestation' && typeof inner.attestationObject !== 'string')
    throw invalid('response.response.attestationObject is missing');
  if (kind === 'assertion' && (typeof inner.authenticatorData !== 'string' || typeof inner.signature !== 'string'))
    throw invalid('response.response.authenticatorData and signature are required');
  let client: unknown;
  try {
    client = JSON.parse(Buffer.from(inner.clientDataJSON, 'base64url').toString('utf8'));
  } catch {
    throw invalid('clientDataJSON is not base64url JSON');
  }
  const challenge = (client as { challenge?: unknown } | null)?.challenge;
  if (typeof challenge !== 'string' || !BASE64URL.test(challenge) || challenge.length > 256)
    throw invalid('clientDataJSON has no challenge');
  return { id: r.id, challenge };
}

@Injectable()
export class WebAuthn {
  constructor(
    @Inject(PG_POOL) private readonly pool: Pool,
    @Inject(RELYING_PARTY) readonly rp: RelyingParty,
  ) {}

  async registrationOptions(
    player: { id: string; username: string; displayName: string },
    existing: readonly Pick<Passkey, 'credentialId' | 'transports'>[],
  ): Promise<CreationOptionsModel> {
    const options = await generateRegistrationOptions({
      rpName: this.rp.name,
      rpID: this.rp.id,
      userName: player.username,
      userDisplayName: player.displayName,
      userID: uuidBytes(player.id),
      attestationType: 'none',
      timeout: CHALLENGE_TTL_SECONDS * 1000,
      excludeCredentials: existing.map((p) => ({ id: p.credentialId, transports: p.transports as never })),
      authenticatorSelection: { residentKey: 'required', requireResidentKey: true, userVerification: 'preferred' },
      supportedAlgorithmIDs: ALGORITHMS,
    });
    await this.storeChallenge(options.challenge, 'register', player.id);
    // The closed shape the API documents (the library may add members in later versions).
    return {
      rp: { id: this.rp.id, name: this.rp.name },
      user: { id: options.user.id, name: options.user.name, displayName: options.user.displayName },
      challenge: options.challenge,
      pubKeyCredParams: options.pubKeyCredParams.map((p) => ({ alg: p.alg, type: p.type })),
      timeout: CHALLENGE_TTL_SECONDS * 1000,
      excludeCredentials: (options.excludeCredentials ?? []).map((c) => ({
        id: c.id,
        type: c.type,
        transports: (c.transports ?? []).map(String),
      })),
      authenticatorSelection: { residentKey: 'required', requireResidentKey: true, userVerification: 'preferred' },
      attestation: 'none',
      extensions: { credProps: true },
    };
  }

  async authenticationOptions(): Promise<RequestOptionsModel> {
    const options = await generateAuthenticationOptions({
      rpID: this.rp.id,
      userVerification: 'preferred',
      timeout: CHALLENGE_TTL_SECONDS * 1000,
    });
    await this.storeChallenge(options.challenge, 'authenticate', null);
    return {
      challenge: options.challenge,
      timeout: CHALLENGE_TTL_SECONDS * 1000,
      rpId: this.rp.id,
      allowCredentials: [],
      userVerification: 'preferred',
    };
  }

  /** Verifies a registration response to a challenge issued to `playerId`; the credential to store. */
  async verifyRegistration(
    playerId: string,
    response: unknown,
  ): Promise<Omit<Passkey, 'name' | 'id'> & { counter: number }> {
    const { challenge } = responseShape(response, 'attestation');
    await this.consume(challenge, 'register', playerId);
    let result;
    try {
      result = await verifyRegistrationResponse({
        response: response as RegistrationResponseJSON,
        expectedChallenge: challenge,
        expectedOrigin: this.rp.origins,
        expectedRPID: this.rp.id,
        requireUserVerification: false,
        supportedAlgorithmIDs: ALGORITHMS,
      });
    } catch (err) {
      throw invalid(`The registration response is not valid: ${(err as Error).message}`);
    }
    if (!result.verified) throw invalid('The registration response is not valid');
    const info = result.registrationInfo;
    return {
      credentialId: info.credential.id,
      publicKey: Buffer.from(info.credential.publicKey).toString('base64url'),
      counter: info.credential.counter,
      transports: (info.credential.transports ?? []).map(String),
      deviceType: info.credentialDeviceType,
      backedUp: info.credentialBackedUp,
    };
  }

  /**
   * Verifies an authentication response against `credential` (found by the response's id); the
   * challenge must be one this service issued, unused and unexpired. The new signature counter.
   */
  async verifyAuthentication(
    response: unknown,
    challenge: string,
    credential: { credentialId: string; publicKey: string; counter: number; transports: string[] },
  ): Promise<{ newCounter: number; userVerified: boolean }> {
    let result;
    try {
      result = await verifyAuthenticationResponse({
        response: response as AuthenticationResponseJSON,
        expectedChallenge: challenge,
        expectedOrigin: this.rp.origins,
        expectedRPID: this.rp.id,
        requireUserVerification: false,
        credential: {
          id: credential.credentialId,
          publicKey: new Uint8Array(Buffer.from(credential.publicKey, 'base64url')),
          counter: credential.counter,
          transports: credential.transports,
        },
      });
    } catch (err) {
      throw invalid(`The authentication response is not valid: ${(err as Error).message}`);
    }
    if (!result.verified) throw invalid('The authentication response is not valid');
    return { newCounter: result.authenticationInfo.newCounter, userVerified: result.authenticationInfo.userVerified };
  }

  /** Deletes the challenge's row (single use) or throws WEBAUTHN_CHALLENGE_INVALID. */
  async consume(challenge: string, purpose: Purpose, playerId: string | null): Promise<void> {
    const { rowCount } = await this.pool.query(
      `DELETE FROM webauthn_challenges
        WHERE challenge_hash = $1 AND purpose = $2 AND player_id IS NOT DISTINCT FROM $3 AND expires_at > now()`,
      [challengeHash(challenge), purpose, playerId],
    );
    if (!rowCount)
      throw new DomainException(
        'WEBAUTHN_CHALLENGE_INVALID',
        'The challenge in clientDataJSON was not issued for this, was already used, or expired: ask for new options',
      );
  }

  private async storeChallenge(challenge: string, purpose: Purpose, playerId: string | null): Promise<void> {
    // Expired challenges go with the next one issued (index on expires_at).
    await this.pool.query('DELETE FROM webauthn_challenges WHERE expires_at <= now()');
    await this.pool.query(
      `INSERT INTO webauthn_challenges (challenge_hash, purpose, player_id, expires_at)
       VALUES ($1, $2, $3, now() + make_interval(secs => $4))`,
      [challengeHash(challenge), purpose, playerId, CHALLENGE_TTL_SECONDS],
    );
  }
}

/** A UUID's 16 bytes: the WebAuthn user handle of a player. */
export const uuidBytes = (id: string): Uint8Array<ArrayBuffer> =>
  new Uint8Array(Buffer.from(id.replace(/-/g, ''), 'hex'));

/** A user handle (base64url of 16 bytes) back as the player's UUID, or null. */
export function userHandleToId(handle: unknown): string | null {
  if (typeof handle !== 'string' || !BASE64URL.test(handle)) return null;
  const hex = Buffer.from(handle, 'base64url').toString('hex');
  if (hex.length !== 32) return null;
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
