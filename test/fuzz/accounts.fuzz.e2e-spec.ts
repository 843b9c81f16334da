/**
 * Accounts fuzz (issue 26; a file of its own beside api.fuzz.e2e-spec.ts, which already fuzzes
 * every account operation's shape from openapi.json and the GraphQL schema): here, inputs that
 * pass the schema but not the ceremony. Random WebAuthn sign-in responses; valid registration
 * responses with one part corrupted; random usernames and passwords. Every answer is a 4xx with a
 * known code, never a 5xx or a success, and nothing is stored but what a refusal records by
 * design: the sign-in counters (sign_in_failures, excluded from row counts) and, for a wrong
 * password of an existing account, its security-log line.
 */
import fc from 'fast-check';
import { ERROR_MAP } from '../../src/common/errors';
import { registerPlayer, type TestApp } from '../helpers/app';
import { rowCounts } from '../helpers/row-counts';
import { describeOnce } from '../helpers/suites';
import { SoftwareAuthenticator } from '../helpers/webauthn-authenticator';
import { accountsApp, freshUsername, ORIGIN, poolOf } from '../accounts/helpers';

jest.setTimeout(120_000);

const RUNS = 30;
const b64u = fc.uint8Array({ minLength: 0, maxLength: 80 }).map((b) => Buffer.from(b).toString('base64url'));
const json = (v: unknown) => Buffer.from(JSON.stringify(v)).toString('base64url');

describeOnce('fuzz: accounts refuse well-formed but wrong credentials with a code, storing nothing', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await accountsApp({ SIGN_IN_ADDRESS_FREE_ATTEMPTS: '100000', SIGN_IN_ACCOUNT_FREE_ATTEMPTS: '1000' });
  });
  afterAll(async () => {
    await t?.close();
  });

  const known = (res: { status: number; body: any }) =>
    res.status >= 400 && res.status < 500 && Object.prototype.hasOwnProperty.call(ERROR_MAP, res.body?.code);

  it('random passkey sign-in responses', async () => {
    const challenge = fc.oneof(b64u, fc.constant(undefined));
    await fc.assert(
      fc.asyncProperty(
        fc.record({
          id: b64u,
          clientDataJSON: fc.oneof(
            b64u,
            fc
              .record({
                type: fc.constantFrom('webauthn.get', 'webauthn.create', 'x'),
                challenge,
                origin: fc.constantFrom(ORIGIN, 'https://evil.test'),
              })
              .map(json),
          ),
          authenticatorData: b64u,
          signature: b64u,
          userHandle: fc.oneof(b64u, fc.constant(null)),
        }),
        async (r) => {
          const before = await rowCounts(poolOf(t));
          const res = await t
            .http()
            .post('/v1/accounts/sign-in/passkey')
            .send({
              response: {
                id: r.id,
                rawId: r.id,
                type: 'public-key',
                response: {
                  clientDataJSON: r.clientDataJSON,
                  authenticatorData: r.authenticatorData,
                  signature: r.signature,
                  userHandle: r.userHandle,
                },
                clientExtensionResults: {},
              },
            });
          expect(known(res)).toBe(true);
          expect(await rowCounts(poolOf(t))).toEqual(before);
        },
      ),
      { numRuns: RUNS },
    );
  });

  it('valid registration responses with one part corrupted', async () => {
    const a = await registerPlayer(t, 'Fuzz');
    await t
      .http()
      .put('/v1/accounts/me/username')
      .set(a.auth)
      .send({ username: freshUsername('fz') })
      .expect(200);
    const authenticator = new SoftwareAuthenticator(ORIGIN);
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom('attestationObject', 'clientDataJSON', 'id'),
        fc.uint8Array({ minLength: 1, maxLength: 300 }),
        fc.nat(),
        async (part, bytes, at) => {
          const before = await rowCounts(poolOf(t));
          const options = await t.http().post('/v1/accounts/me/passkeys/options').set(a.auth).send({}).expect(200);
          const response = authenticator.register(options.body.publicKey) as any;
          const inner = response.response;
          if (part === 'id') response.id = response.rawId = Buffer.from(bytes).toString('base64url');
          else {
            // Overwrite a slice of the part with the random bytes (the challenge may survive or not).
            const raw = Buffer.from(inner[part], 'base64url');
            const start = at % Math.max(1, raw.length);
            Buffer.from(bytes).copy(raw, start);
            inner[part] = raw.toString('base64url');
          }
          const res = await t.http().post('/v1/accounts/me/passkeys').set(a.auth).send({ name: 'Fuzzed', response });
          // A corrupted id may still verify when the attestation is intact (the id in the
          // attestation is the truth): then the passkey is added. Anything else is a coded 4xx.
          if (res.status === 201) return;
          expect(known(res)).toBe(true);
          // The options' challenge row is gone again (spent or still there and then cleaned): compare without it.
          await poolOf(t).query('DELETE FROM webauthn_challenges');
          const after = await rowCounts(poolOf(t));
          expect({ ...after, webauthn_challenges: 0 }).toEqual({ ...before, webauthn_challenges: 0 });
        },
      ),
      { numRuns: RUNS },
    );
  });

  it('random usernames and passwords', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.string({ maxLength: 40 }),
        fc.string({ maxLength: 200, unit: 'binary' }),
        async (username, password) => {
          const before = await rowCounts(poolOf(t));
          const res = await t.http().post('/v1/accounts/sign-in/password').send({ username, password });
          expect(known(res)).toBe(true);
          expect(await rowCounts(poolOf(t))).toEqual(before);
        },
      ),
      { numRuns: RUNS * 2 },
    );
  });
});
