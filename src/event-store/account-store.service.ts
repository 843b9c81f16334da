/**
 * The account event store: account_events is the account's own append-only stream with the
 * expected-version rule of the other aggregates: ONE statement upserts `accounts` WHERE version =
 * expected and inserts the events from the written row; another writer first → VERSION_CONFLICT,
 * nothing stored. The same statement keeps what sign-ins look up in step with the events (the
 * case-folded username, unique; the password hash; the passkeys by credential id) and writes the
 * security log's lines for the events (docs/accounts.md). Not hash-chained: accounts carry no dice,
 * and nothing in them is for third parties to verify (decision 0106). No cache: commands are rare.
 */
import { Inject, Injectable } from '@nestjs/common';
import { Pool } from 'pg';
import { DomainException } from '../common/errors';
import { PG_POOL } from '../database/pg-pool';
import { dbOr } from '../database/unit-of-work';
import {
  emptyAccount,
  evolveAccount,
  usernameKey,
  type AccountCommand,
  type AccountEvent,
  type AccountState,
} from '@fairdice/core/rules/account';
import { UUID_PATTERN as UUID } from '@fairdice/core/fairness/ids';

export interface LoadedAccount {
  state: AccountState;
  /** argon2id PHC string, or null (no password). Kept beside the stream, never in an event. */
  passwordHash: string | null;
}

/** What a command writes besides its events. */
export interface AccountAppendExtras {
  /** The new password hash when the command set one. */
  passwordHash?: string;
  /** The client address, for the security log. */
  address: string | null;
  /** A new passkey's signature counter at registration. */
  passkeyCounter?: number;
}

const conflict = () => new DomainException('VERSION_CONFLICT', 'The account changed meanwhile; retry');

@Injectable()
export class AccountStore {
  constructor(@Inject(PG_POOL) private readonly pool: Pool) {}

  /** The account of a player (an empty one, version 0, for a guest who never claimed anything). */
  async load(playerId: string): Promise<LoadedAccount> {
    if (!UUID.test(playerId)) throw new Error('account store: not a UUID');
    const db = dbOr(this.pool);
    const a = await db.query<{ password_hash: string | null }>(
      'SELECT password_hash FROM accounts WHERE player_id = $1',
      [playerId],
    );
    if (a.rows.length === 0) return { state: emptyAccount(playerId), passwordHash: null };
    const ev = await db.query<{ type: AccountEvent['type']; payload: { data: unknown } }>(
      'SELECT type, payload FROM account_events WHERE account_id = $1 ORDER BY version',
      [playerId],
    );
    const state = ev.rows.reduce(
      (s: AccountState, e) => evolveAccount(s, { type: e.type, data: e.payload.data } as AccountEvent),
      emptyAccount(playerId),
    );
    return { state, passwordHash: a.rows[0].password_hash };
  }

  /**
   * Appends `events` decided on `loaded` at its version. VERSION_CONFLICT when the account moved
   * on, USERNAME_TAKEN when another account holds the username (any case), CREDENTIAL_ALREADY_REGISTERED
   * when another account registered the passkey.
   */
  async append(
    loaded: LoadedAccount,
    events: readonly AccountEvent[],
    command: AccountCommand,
    extras: AccountAppendExtras,
  ): Promise<LoadedAccount> {
    const state = events.reduce(evolveAccount, loaded.state);
    if (events.length === 0) return loaded;
    const passwordHash = state.hasPassword ? (extras.passwordHash ?? loaded.passwordHash) : null;
    const from = loaded.state.version;
    const records = events.map((e, i) => ({
      version: from + i + 1,
      type: e.type,
      payload: { data: e.data, command: i === 0 ? redact(command) : null },
    }));
    const added = events.flatMap((e) =>
      e.type === 'passkeyAdded'
        ? [
            {
              credential_id: e.data.passkey.credentialId,
              name: e.data.passkey.name,
              public_key: e.data.passkey.publicKey,
              transports: e.data.passkey.transports,
              counter: extras.passkeyCounter ?? 0,
            },
          ]
        : [],
    );
    const renamed = events.flatMap((e) =>
      e.type === 'passkeyRenamed' ? [{ credential_id: e.data.credentialId, name: e.data.name }] : [],
    );
    const removed = events.flatMap((e) => (e.type === 'passkeyRemoved' ? [e.data.credentialId] : []));
    const log = events.map((e) => ({ type: e.type, detail: logDetail(e) }));
    let res;
    try {
      res = await dbOr(this.pool).query(
        `WITH a AS (
           INSERT INTO accounts (player_id, username, username_key, password_hash, version, created_at, updated_at)
           VALUES ($1, $3, $4, $5, $6, now(), now())
           ON CONFLICT (player_id) DO UPDATE
             SET username = EXCLUDED.username, username_key = EXCLUDED.username_key,
                 password_hash = EXCLUDED.password_hash, version = EXCLUDED.version, updated_at = now()
             WHERE accounts.version = $2
           RETURNING player_id),
         e AS (
           INSERT INTO account_events (account_id, version, type, payload)
           SELECT a.player_id, x.version, x.type, x.payload
             FROM a, jsonb_to_recordset($7::jsonb) AS x(version int, type text, payload jsonb)),
         pa AS (
           INSERT INTO account_passkeys (credential_id, account_id, name, public_key, transports, counter)
           SELECT x.credential_id, a.player_id, x.name, x.public_key,
                  ARRAY(SELECT jsonb_array_elements_text(x.transports)), x.counter
             FROM a, jsonb_to_recordset($8::jsonb)
               AS x(credential_id text, name text, public_key text, transports jsonb, counter bigint)),
         pr AS (
           UPDATE account_passkeys p SET name = x.name
             FROM a, jsonb_to_recordset($9::jsonb) AS x(credential_id text, name text)
            WHERE p.account_id = a.player_id AND p.credential_id = x.credential_id),
         pd AS (
           DELETE FROM account_passkeys p USING a
            WHERE p.account_id = a.player_id AND p.credential_id = ANY($10::text[])),
         l AS (
           INSERT INTO security_log (player_id, type, address, detail)
           SELECT a.player_id, x.type, $11, x.detail
             FROM a, jsonb_to_recordset($12::jsonb) AS x(type text, detail jsonb))
         SELECT player_id FROM a`,
        [
          loaded.state.id,
          from,
          state.username,
          state.username === null ? null : usernameKey(state.username),
          passwordHash,
          state.version,
          JSON.stringify(records),
          JSON.stringify(added),
          JSON.stringify(renamed),
          removed,
          extras.address,
          JSON.stringify(log),
        ],
      );
    } catch (err) {
      const e = err as { code?: string; constraint?: string };
      if (e.code === '23505' && e.constraint === 'accounts_username_key_key')
        throw new DomainException('USERNAME_TAKEN', 'That username is taken (usernames are compared without case)');
      if (e.code === '23505' && e.constraint === 'account_passkeys_pkey')
        throw new DomainException('CREDENTIAL_ALREADY_REGISTERED', 'This passkey is already registered');
      if (e.code === '23505') throw conflict();
      throw err;
    }
    if (res.rows.length === 0) throw conflict();
    return { state, passwordHash };
  }
}

/** The command as stored with its first event: a passkey's public key is already in the event. */
function redact(command: AccountCommand): unknown {
  return command.type === 'addPasskey' ? { type: command.type, credentialId: command.passkey.credentialId } : command;
}

/** What the owner's security log shows of an event. */
function logDetail(e: AccountEvent): Record<string, unknown> {
  switch (e.type) {
    case 'usernameClaimed':
      return { username: e.data.username };
    case 'passwordSet':
      return { replaced: e.data.replaced };
    case 'passkeyAdded':
      return { passkeyId: e.data.passkey.id, name: e.data.passkey.name };
    case 'passkeyRenamed':
      return { passkeyId: e.data.passkeyId, name: e.data.name };
    case 'passkeyRemoved':
      return { passkeyId: e.data.passkeyId };
    default:
      return {};
  }
}
