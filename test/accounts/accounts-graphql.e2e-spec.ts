/**
 * Accounts over GraphQL (docs/accounts.md): the same operations as REST, with the same codes in
 * errors[].extensions.code, and nothing stored on a refusal.
 */
import type { AddressInfo } from 'node:net';
import { createClient } from 'graphql-ws';
import { gql, registerPlayer, type TestApp } from '../helpers/app';
import { rowCounts } from '../helpers/row-counts';
import { SoftwareAuthenticator } from '../helpers/webauthn-authenticator';
import { accountsApp, freshAddress, freshUsername, ORIGIN, poolOf } from './helpers';

// eslint-disable-next-line @typescript-eslint/no-require-imports -- ws ships no types here (@types/ws is not installed)
const WebSocket: unknown = require('ws');

const PASSWORD = 'dice are nice 42';
const ACCOUNT =
  'playerId username claimed hasPassword passkeys { id credentialId name deviceType backedUp createdAt lastUsedAt }';
const SIGNED_IN = 'token session { id label address scopes current createdAt lastUsedAt } player { id displayName }';

describe('accounts (GraphQL)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await accountsApp();
  });
  afterAll(async () => {
    await t?.close();
  });

  /** POST /graphql from `address` (X-Forwarded-For). */
  async function gqlFrom(address: string, query: string, variables: Record<string, unknown> = {}, token?: string) {
    const req = t.http().post('/graphql').set('content-type', 'application/json').set('x-forwarded-for', address);
    if (token) req.set('authorization', `Bearer ${token}`);
    return (await req.send({ query, variables })).body as { data?: any; errors?: any[] };
  }

  /** The request must fail with `code` and change no data table. */
  async function refused(run: () => Promise<{ errors?: any[] }>, code: string, except: string[] = []) {
    const before = await rowCounts(poolOf(t));
    const body = await run();
    // Every error carries the code (input coercion may report each missing field).
    expect([...new Set(body.errors?.map((e) => e.extensions?.code))]).toEqual([code]);
    const after = await rowCounts(poolOf(t));
    for (const table of except) {
      delete before[table];
      delete after[table];
    }
    expect(after).toEqual(before);
    return body.errors![0];
  }

  const CLAIM = `mutation($u: String!) { claimUsername(input: { username: $u }) { ${ACCOUNT} } }`;
  const SET_PASSWORD = `mutation($p: String!, $c: String) { setPassword(input: { password: $p, currentPassword: $c }) { ${ACCOUNT} } }`;
  const SIGN_IN = `mutation($u: String!, $p: String!, $d: String) { signInWithPassword(input: { username: $u, password: $p, deviceLabel: $d }) { ${SIGNED_IN} } }`;

  it('claims a username, sets a password, signs in on another device; taken, bad and weak inputs are refused', async () => {
    const address = freshAddress();
    const a = await registerPlayer(t, 'Ada');
    const b = await registerPlayer(t, 'Bob');
    const username = freshUsername('Gq');
    const claimed = await gqlFrom(address, CLAIM, { u: username }, a.token);
    expect(claimed.data.claimUsername).toMatchObject({ playerId: a.id, username, claimed: true, hasPassword: false });
    await refused(() => gqlFrom(address, CLAIM, { u: username.toUpperCase() }, b.token), 'USERNAME_TAKEN');
    await refused(() => gqlFrom(address, CLAIM, { u: 'no spaces allowed' }, b.token), 'INVALID_USERNAME');
    await refused(() => gqlFrom(address, CLAIM, { u: 'x' }, b.token), 'INVALID_USERNAME');
    await refused(() => gqlFrom(address, SET_PASSWORD, { p: PASSWORD }, b.token), 'USERNAME_REQUIRED');
    const weak = await refused(() => gqlFrom(address, SET_PASSWORD, { p: 'qwertyuiop' }, a.token), 'WEAK_PASSWORD');
    expect(weak.extensions.passwordProblem).toBe('common');
    await refused(() => gqlFrom(address, SET_PASSWORD, { p: 'short' }, a.token), 'WEAK_PASSWORD');
    expect((await gqlFrom(address, SET_PASSWORD, { p: PASSWORD }, a.token)).data.setPassword.hasPassword).toBe(true);

    const signedIn = await gqlFrom(address, SIGN_IN, { u: username, p: PASSWORD, d: 'Phone' });
    expect(signedIn.data.signInWithPassword).toMatchObject({
      session: { label: 'Phone', address, scopes: ['*'] },
      player: { id: a.id, displayName: 'Ada' },
    });
    const token = signedIn.data.signInWithPassword.token;
    expect((await gql(t, '{ me { id } }', {}, token)).data.me.id).toBe(a.id);

    const wrong = await refused(
      () => gqlFrom(address, SIGN_IN, { u: username, p: 'wrong password' }),
      'INVALID_CREDENTIALS',
      ['security_log'],
    );
    const unknown = await refused(
      () => gqlFrom(address, SIGN_IN, { u: freshUsername('nobody'), p: 'wrong password' }),
      'INVALID_CREDENTIALS',
    );
    expect(unknown.message).toBe(wrong.message);

    const sessions = await gql(
      t,
      '{ sessions(first: 10) { edges { node { label current } } pageInfo { hasNextPage } } }',
      {},
      token,
    );
    expect(sessions.data.sessions.edges).toEqual([{ node: { label: 'Phone', current: true } }]);
    const log = await gql(
      t,
      '{ securityLog(first: 2) { edges { node { type address detail { method sessionId } } } pageInfo { hasNextPage endCursor } } }',
      {},
      token,
    );
    expect(log.data.securityLog.edges.map((e: any) => e.node.type)).toEqual(['signInFailed', 'signIn']);
    expect(log.data.securityLog.pageInfo.hasNextPage).toBe(true);
    await refused(() => gql(t, '{ securityLog(first: 0) { edges { cursor } } }', {}, token), 'VALIDATION_FAILED');
    await refused(() => gql(t, '{ securityLog(after: "nope") { edges { cursor } } }', {}, token), 'INVALID_CURSOR');

    // The last credential cannot go.
    await refused(() => gql(t, `mutation { removePassword { ${ACCOUNT} } }`, {}, token), 'LAST_CREDENTIAL');
    // Revoke the session: its token stops working.
    const id = signedIn.data.signInWithPassword.session.id;
    expect((await gql(t, 'mutation($id: ID!) { revokeSession(id: $id) }', { id }, a.token)).data.revokeSession).toBe(
      true,
    );
    expect((await gql(t, '{ me { id } }', {}, token)).errors?.[0]?.extensions?.code).toBe('UNAUTHENTICATED');
    await refused(() => gql(t, 'mutation($id: ID!) { revokeSession(id: $id) }', { id }, a.token), 'SESSION_NOT_FOUND');
    await refused(() => gql(t, 'mutation { revokeSession(id: "nope") }', {}, a.token), 'VALIDATION_FAILED');
  });

  it('registers a passkey and signs in with it; a replayed or malformed response is refused', async () => {
    const a = await registerPlayer(t, 'Ada');
    await gql(t, CLAIM, { u: freshUsername('GqPk') }, a.token);
    const authenticator = new SoftwareAuthenticator(ORIGIN);
    const options = (
      await gql(
        t,
        'mutation { passkeyRegistrationOptions { challenge rp { id name } user { id name displayName } attestation authenticatorSelection { residentKey userVerification } excludeCredentials { id } } }',
        {},
        a.token,
      )
    ).data.passkeyRegistrationOptions;
    const ADD = `mutation($name: String!, $response: RegistrationResponseInput!) { addPasskey(input: { name: $name, response: $response }) { ${ACCOUNT} } }`;
    const registration = authenticator.register(options);
    const added = await gql(t, ADD, { name: 'Laptop', response: registration }, a.token);
    expect(added.errors).toBeUndefined();
    expect(added.data.addPasskey.passkeys).toEqual([expect.objectContaining({ name: 'Laptop' })]);
    await refused(() => gql(t, ADD, { name: 'Again', response: registration }, a.token), 'WEBAUTHN_CHALLENGE_INVALID');

    const SIGN_IN_PASSKEY = `mutation($response: AuthenticationResponseInput!) { signInWithPasskey(input: { response: $response, deviceLabel: "Tablet" }) { ${SIGNED_IN} } }`;
    const signInOptions = (
      await gql(
        t,
        'mutation { passkeySignInOptions { challenge rpId timeout userVerification allowCredentials { id } } }',
      )
    ).data.passkeySignInOptions;
    const response = authenticator.authenticate(signInOptions);
    const signedIn = await gql(t, SIGN_IN_PASSKEY, { response });
    expect(signedIn.data.signInWithPasskey.player.id).toBe(a.id);
    await refused(() => gql(t, SIGN_IN_PASSKEY, { response }), 'WEBAUTHN_CHALLENGE_INVALID');
    // An incomplete response fails the input type; a complete one with a bad clientDataJSON fails verification.
    await refused(() => gql(t, SIGN_IN_PASSKEY, { response: { id: 'AAAA' } }), 'VALIDATION_FAILED');
    const garbled = { ...response, response: { ...(response.response as object), clientDataJSON: 'bm90IGpzb24' } };
    await refused(() => gql(t, SIGN_IN_PASSKEY, { response: garbled }), 'WEBAUTHN_VERIFICATION_FAILED');

    const passkeyId = added.data.addPasskey.passkeys[0].id;
    await refused(
      () => gql(t, `mutation($id: ID!) { removePasskey(id: $id) { ${ACCOUNT} } }`, { id: passkeyId }, a.token),
      'LAST_CREDENTIAL',
    );
    const renamed = await gql(
      t,
      `mutation($id: ID!) { renamePasskey(id: $id, input: { name: "Desk" }) { ${ACCOUNT} } }`,
      { id: passkeyId },
      a.token,
    );
    expect(renamed.data.renamePasskey.passkeys[0].name).toBe('Desk');
    const out = await gql(t, 'mutation { signOutEverywhere { revokedSessions playerTokenRetired } }', {}, a.token);
    expect(out.data.signOutEverywhere).toEqual({ revokedSessions: 1, playerTokenRetired: true });
    expect((await gql(t, '{ account { playerId } }', {}, a.token)).errors?.[0]?.extensions?.code).toBe(
      'UNAUTHENTICATED',
    );
  });

  it('refuses to sign in over a graphql-ws WebSocket (UNSUPPORTED_OPERATION): the limits count per address', async () => {
    const ws = await accountsApp();
    try {
      await ws.app.listen({ port: 0, host: '127.0.0.1' });
      const port = (ws.app.getHttpServer().address() as AddressInfo).port;
      const client = createClient({
        url: `ws://127.0.0.1:${port}/graphql`,
        webSocketImpl: WebSocket,
        retryAttempts: 0,
      });
      try {
        const result = await new Promise<any>((resolve, reject) => {
          let last: unknown;
          client.subscribe(
            { query: SIGN_IN, variables: { u: freshUsername('ws'), p: 'some password' } },
            { next: (v) => (last = v), error: reject, complete: () => resolve(last) },
          );
        });
        expect(result.errors?.map((e: any) => e.extensions?.code)).toEqual(['UNSUPPORTED_OPERATION']);
      } finally {
        await client.dispose();
      }
    } finally {
      await ws.close();
    }
  });
});
