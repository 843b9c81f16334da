/**
 * Accounts over REST (docs/accounts.md): a guest claims a username, adds a password and passkeys
 * (answered by a software authenticator), signs in on other devices, lists and revokes its
 * sessions, reads its security log; and every bad form is refused with its code, storing nothing.
 */
import { createTestApp, registerPlayer, type TestApp } from '../helpers/app';
import { rowCounts } from '../helpers/row-counts';
import { SoftwareAuthenticator } from '../helpers/webauthn-authenticator';
import { accountsApp, claimedWithPassword, freshAddress, freshUsername, ORIGIN, poolOf, RP_ID } from './helpers';

const PASSWORD = 'dice are nice 42';

describe('accounts (REST)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await accountsApp();
  });
  afterAll(async () => {
    await t?.close();
  });

  /** `send` must be refused with `status` and `code`, and no data table may change. */
  async function refused(
    send: () => PromiseLike<{ status: number; body: any }>,
    status: number,
    code: string,
    except: string[] = [],
  ): Promise<any> {
    const before = await rowCounts(poolOf(t));
    const res = await send();
    expect({ status: res.status, code: res.body.code }).toEqual({ status, code });
    const after = await rowCounts(poolOf(t));
    for (const table of except) {
      delete before[table];
      delete after[table];
    }
    expect(after).toEqual(before);
    return res.body;
  }

  describe('usernames', () => {
    it('a guest claims a username; another player cannot take it in any case (409 USERNAME_TAKEN)', async () => {
      const a = await registerPlayer(t, 'Ada');
      const b = await registerPlayer(t, 'Bob');
      const me0 = await t.http().get('/v1/accounts/me').set(a.auth).expect(200);
      expect(me0.body).toEqual({ playerId: a.id, username: null, claimed: false, hasPassword: false, passkeys: [] });
      const name = freshUsername('Ada');
      const res = await t.http().put('/v1/accounts/me/username').set(a.auth).send({ username: name }).expect(200);
      expect(res.body).toMatchObject({ playerId: a.id, username: name, claimed: true });
      await refused(
        () => t.http().put('/v1/accounts/me/username').set(b.auth).send({ username: name.toUpperCase() }),
        409,
        'USERNAME_TAKEN',
      );
      // The display name stays free text.
      expect((await t.http().get('/v1/players/me').set(a.auth).expect(200)).body.displayName).toBe('Ada');
    });

    it.each([
      ['too short', 'ab', 400, 'INVALID_USERNAME'],
      ['too long', 'a'.repeat(25), 400, 'INVALID_USERNAME'],
      ['a space', 'ada lovelace', 400, 'INVALID_USERNAME'],
      ['a dot', 'ada.l', 400, 'INVALID_USERNAME'],
      ['non-ASCII letters', 'adé_l', 400, 'INVALID_USERNAME'],
      ['empty', '', 400, 'INVALID_USERNAME'],
      ['a number', 12345, 400, 'VALIDATION_FAILED'],
      ['absent', undefined, 400, 'VALIDATION_FAILED'],
    ])('refuses a username that is %s and stores nothing', async (_what, username, status, code) => {
      const a = await registerPlayer(t, 'Ada');
      await refused(() => t.http().put('/v1/accounts/me/username').set(a.auth).send({ username }), status, code);
    });

    it('refuses an unknown field, and a request without a token', async () => {
      const a = await registerPlayer(t, 'Ada');
      await refused(
        () => t.http().put('/v1/accounts/me/username').set(a.auth).send({ username: freshUsername(), admin: true }),
        400,
        'VALIDATION_FAILED',
      );
      await refused(
        () => t.http().put('/v1/accounts/me/username').send({ username: freshUsername() }),
        401,
        'UNAUTHENTICATED',
      );
    });
  });

  describe('passwords', () => {
    it('needs a username first (USERNAME_REQUIRED) and refuses short, long and common passwords (WEAK_PASSWORD)', async () => {
      const a = await registerPlayer(t, 'Ada');
      await refused(
        () => t.http().put('/v1/accounts/me/password').set(a.auth).send({ password: PASSWORD }),
        409,
        'USERNAME_REQUIRED',
      );
      await t.http().put('/v1/accounts/me/username').set(a.auth).send({ username: freshUsername() }).expect(200);
      const short = await refused(
        () => t.http().put('/v1/accounts/me/password').set(a.auth).send({ password: 'short1!' }),
        400,
        'WEAK_PASSWORD',
      );
      expect(short).toMatchObject({ passwordProblem: 'tooShort', minLength: 8, maxLength: 128 });
      for (const common of ['password1', 'iloveyou', 'Qwertyuiop', '1234567890'])
        expect(
          (
            await refused(
              () => t.http().put('/v1/accounts/me/password').set(a.auth).send({ password: common }),
              400,
              'WEAK_PASSWORD',
            )
          ).passwordProblem,
        ).toBe('common');
      await refused(
        () =>
          t
            .http()
            .put('/v1/accounts/me/password')
            .set(a.auth)
            .send({ password: 'x'.repeat(129) }),
        400,
        'WEAK_PASSWORD',
      );
      await refused(
        () => t.http().put('/v1/accounts/me/password').set(a.auth).send({ password: 42 }),
        400,
        'VALIDATION_FAILED',
      );
      expect((await t.http().get('/v1/accounts/me').set(a.auth).expect(200)).body.hasPassword).toBe(false);
    });

    it('signs in on another device with username + password: a session token for the same player and games', async () => {
      const address = freshAddress();
      const username = freshUsername('Pw');
      const a = await claimedWithPassword(t, username, PASSWORD, address);
      const game = await t.http().post('/v1/games').set(a.auth).send({ ruleSet: 'penta', seats: 1 }).expect(201);
      // The username is matched without regard to case.
      const res = await t
        .http()
        .post('/v1/accounts/sign-in/password')
        .set('x-forwarded-for', address)
        .set('user-agent', 'Phone browser')
        .send({ username: username.toLowerCase(), password: PASSWORD })
        .expect(200);
      expect(res.body.token).toMatch(/^fd_[A-Za-z0-9_-]{43}$/);
      expect(res.body.token).not.toBe(a.token);
      expect(res.body.player.id).toBe(a.id);
      expect(res.body.session).toMatchObject({ label: 'Phone browser', address, scopes: ['*'] });
      const session = { authorization: `Bearer ${res.body.token}` };
      expect((await t.http().get('/v1/players/me').set(session).expect(200)).body.id).toBe(a.id);
      const games = await t.http().get('/v1/games').set(session).expect(200);
      expect(games.body.items.map((g: { id: string }) => g.id)).toContain(game.body.id);
      // Only the hash of the token is stored.
      const stored = await poolOf(t).query('SELECT token_hash FROM sessions WHERE id = $1', [res.body.session.id]);
      expect(stored.rows[0].token_hash).toMatch(/^[0-9a-f]{64}$/);
      expect(JSON.stringify(stored.rows)).not.toContain(res.body.token);
      // The old player token keeps working beside the session.
      await t.http().get('/v1/players/me').set(a.auth).expect(200);
    });

    it('answers a wrong password and an unknown username alike (401 INVALID_CREDENTIALS), and logs the failure', async () => {
      const address = freshAddress();
      const username = freshUsername('Wr');
      const a = await claimedWithPassword(t, username, PASSWORD, address);
      const wrong = await refused(
        () =>
          t
            .http()
            .post('/v1/accounts/sign-in/password')
            .set('x-forwarded-for', address)
            .send({ username, password: 'not the password' }),
        401,
        'INVALID_CREDENTIALS',
        ['security_log'],
      );
      const unknown = await refused(
        () =>
          t
            .http()
            .post('/v1/accounts/sign-in/password')
            .set('x-forwarded-for', address)
            .send({ username: freshUsername('nobody'), password: 'not the password' }),
        401,
        'INVALID_CREDENTIALS',
      );
      const strip = ({ instance: _i, requestId: _r, ...rest }: any) => rest;
      expect(strip(unknown)).toEqual(strip(wrong));
      const log = await t.http().get('/v1/accounts/me/security-log').set(a.auth).expect(200);
      expect(log.body.items[0]).toMatchObject({ type: 'signInFailed', address, detail: { method: 'password' } });
      const sessions = await poolOf(t).query('SELECT count(*)::int AS n FROM sessions WHERE player_id = $1', [a.id]);
      expect(sessions.rows[0].n).toBe(0);
    });

    it('locks a username after 5 free attempts: the next one is refused (429 SIGN_IN_LOCKED, Retry-After) even with the right password', async () => {
      const address = freshAddress();
      const username = freshUsername('Lk');
      await claimedWithPassword(t, username, PASSWORD, address);
      const attempt = (password: string, from = address) =>
        t.http().post('/v1/accounts/sign-in/password').set('x-forwarded-for', from).send({ username, password });
      for (let i = 0; i < 6; i++) expect((await attempt('wrong password ' + i)).status).toBe(401);
      // The lock is the username's: another address is refused too.
      const locked = await attempt(PASSWORD, freshAddress());
      expect(locked.status).toBe(429);
      expect(locked.body.code).toBe('SIGN_IN_LOCKED');
      expect(Number(locked.headers['retry-after'])).toBeGreaterThan(0);
      expect(Number(locked.headers['retry-after'])).toBeLessThanOrEqual(60);
    });

    it('locks an address that guesses many usernames (SIGN_IN_ADDRESS_FREE_ATTEMPTS = 8 here)', async () => {
      const address = freshAddress();
      const username = freshUsername('Ad');
      await claimedWithPassword(t, username, PASSWORD, freshAddress());
      for (let i = 0; i < 9; i++) {
        const res = await t
          .http()
          .post('/v1/accounts/sign-in/password')
          .set('x-forwarded-for', address)
          .send({ username: freshUsername('guess'), password: 'some guess ' + i });
        expect(res.status).toBe(401);
      }
      const res = await t
        .http()
        .post('/v1/accounts/sign-in/password')
        .set('x-forwarded-for', address)
        .send({ username, password: PASSWORD });
      expect({ status: res.status, code: res.body.code }).toEqual({ status: 429, code: 'SIGN_IN_LOCKED' });
      // From another address the account is not locked.
      await t
        .http()
        .post('/v1/accounts/sign-in/password')
        .set('x-forwarded-for', freshAddress())
        .send({ username, password: PASSWORD })
        .expect(200);
    });

    it('replaces a password only with the current one', async () => {
      const address = freshAddress();
      const username = freshUsername('Ch');
      const a = await claimedWithPassword(t, username, PASSWORD, address);
      const next = 'another fine passphrase';
      await refused(
        () =>
          t.http().put('/v1/accounts/me/password').set(a.auth).set('x-forwarded-for', address).send({ password: next }),
        400,
        'VALIDATION_FAILED',
      );
      await refused(
        () =>
          t
            .http()
            .put('/v1/accounts/me/password')
            .set(a.auth)
            .set('x-forwarded-for', address)
            .send({ password: next, currentPassword: 'wrong one!' }),
        401,
        'INVALID_CREDENTIALS',
        ['security_log'],
      );
      await t
        .http()
        .put('/v1/accounts/me/password')
        .set(a.auth)
        .set('x-forwarded-for', address)
        .send({ password: next, currentPassword: PASSWORD })
        .expect(200);
      await t
        .http()
        .post('/v1/accounts/sign-in/password')
        .set('x-forwarded-for', address)
        .send({ username, password: next })
        .expect(200);
      const hash = await poolOf(t).query('SELECT password_hash FROM accounts WHERE player_id = $1', [a.id]);
      expect(hash.rows[0].password_hash).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    });
  });

  describe('passkeys', () => {
    async function withPasskey(name = 'Laptop') {
      const a = await registerPlayer(t, 'Ada');
      const username = freshUsername('Pk');
      await t.http().put('/v1/accounts/me/username').set(a.auth).send({ username }).expect(200);
      const authenticator = new SoftwareAuthenticator(ORIGIN);
      const options = await t.http().post('/v1/accounts/me/passkeys/options').set(a.auth).send({}).expect(200);
      const response = authenticator.register(options.body.publicKey);
      const added = await t.http().post('/v1/accounts/me/passkeys').set(a.auth).send({ name, response }).expect(201);
      return {
        a,
        username,
        authenticator,
        options: options.body.publicKey,
        registration: response,
        account: added.body,
      };
    }

    async function signIn(authenticator: SoftwareAuthenticator, overrides = {}) {
      const options = await t.http().post('/v1/accounts/sign-in/passkey/options').send({}).expect(200);
      const response = authenticator.authenticate(options.body.publicKey, overrides);
      return {
        options: options.body.publicKey,
        response,
        res: await t.http().post('/v1/accounts/sign-in/passkey').send({ response, deviceLabel: 'Tablet' }),
      };
    }

    it('issues options for a discoverable credential with user verification preferred and attestation none', async () => {
      const { options, account, a } = await withPasskey();
      expect(options).toMatchObject({
        rp: { id: RP_ID, name: 'fairdice' },
        attestation: 'none',
        authenticatorSelection: { residentKey: 'required', requireResidentKey: true, userVerification: 'preferred' },
      });
      expect(Buffer.from(options.user.id, 'base64url').toString('hex')).toBe(a.id.replace(/-/g, ''));
      expect(account.passkeys).toEqual([
        expect.objectContaining({ name: 'Laptop', deviceType: 'singleDevice', backedUp: false, lastUsedAt: null }),
      ]);
      const signInOptions = await t.http().post('/v1/accounts/sign-in/passkey/options').send({}).expect(200);
      expect(signInOptions.body.publicKey).toMatchObject({ rpId: RP_ID, userVerification: 'preferred' });
      expect(signInOptions.body.publicKey.allowCredentials ?? []).toEqual([]);
    });

    it('signs in with a passkey on another device: a session of the same player', async () => {
      const { a, authenticator } = await withPasskey();
      const { res } = await signIn(authenticator);
      expect(res.status).toBe(200);
      expect(res.body.player.id).toBe(a.id);
      expect(res.body.session.label).toBe('Tablet');
      const me = await t.http().get('/v1/players/me').set('authorization', `Bearer ${res.body.token}`).expect(200);
      expect(me.body.id).toBe(a.id);
      const account = await t.http().get('/v1/accounts/me').set(a.auth).expect(200);
      expect(account.body.passkeys[0].lastUsedAt).not.toBeNull();
    });

    it('refuses a replayed sign-in response (WEBAUTHN_CHALLENGE_INVALID) and stores nothing', async () => {
      const { authenticator } = await withPasskey();
      const { response, res } = await signIn(authenticator);
      expect(res.status).toBe(200);
      await refused(
        () => t.http().post('/v1/accounts/sign-in/passkey').send({ response }),
        400,
        'WEBAUTHN_CHALLENGE_INVALID',
      );
    });

    it('refuses a replayed registration response', async () => {
      const { a, registration } = await withPasskey();
      await refused(
        () => t.http().post('/v1/accounts/me/passkeys').set(a.auth).send({ name: 'Again', response: registration }),
        400,
        'WEBAUTHN_CHALLENGE_INVALID',
      );
    });

    it('refuses an expired challenge', async () => {
      const { authenticator } = await withPasskey();
      const options = await t.http().post('/v1/accounts/sign-in/passkey/options').send({}).expect(200);
      await poolOf(t).query(`UPDATE webauthn_challenges SET expires_at = now() - interval '1 second'`);
      const response = authenticator.authenticate(options.body.publicKey);
      await refused(
        () => t.http().post('/v1/accounts/sign-in/passkey').send({ response }),
        400,
        'WEBAUTHN_CHALLENGE_INVALID',
      );
    });

    it('refuses a sign-in challenge used to register, and a registration of another player', async () => {
      const { a } = await withPasskey();
      const other = await registerPlayer(t, 'Eve');
      await t
        .http()
        .put('/v1/accounts/me/username')
        .set(other.auth)
        .send({ username: freshUsername('Eve') })
        .expect(200);
      const authenticator = new SoftwareAuthenticator(ORIGIN);
      const signInOptions = await t.http().post('/v1/accounts/sign-in/passkey/options').send({}).expect(200);
      const asRegistration = authenticator.register({
        ...signInOptions.body.publicKey,
        rp: { id: RP_ID },
        user: { id: 'AAAA' },
      });
      await refused(
        () => t.http().post('/v1/accounts/me/passkeys').set(a.auth).send({ name: 'X', response: asRegistration }),
        400,
        'WEBAUTHN_CHALLENGE_INVALID',
      );
      const eveOptions = await t.http().post('/v1/accounts/me/passkeys/options').set(other.auth).send({}).expect(200);
      const eves = authenticator.register(eveOptions.body.publicKey);
      await refused(
        () => t.http().post('/v1/accounts/me/passkeys').set(a.auth).send({ name: 'X', response: eves }),
        400,
        'WEBAUTHN_CHALLENGE_INVALID',
      );
    });

    it.each([
      ['an empty object', () => ({}), 'VALIDATION_FAILED'],
      [
        'no clientDataJSON',
        () => ({ id: 'AAAA', rawId: 'AAAA', type: 'public-key', response: {} }),
        'VALIDATION_FAILED',
      ],
      [
        'an unknown member',
        () => ({
          id: 'AAAA',
          rawId: 'AAAA',
          type: 'public-key',
          response: { clientDataJSON: 'AA', authenticatorData: 'AA', signature: 'AA', extra: 1 },
        }),
        'VALIDATION_FAILED',
      ],
      [
        'clientDataJSON that is not JSON',
        () => ({
          id: 'AAAA',
          rawId: 'AAAA',
          type: 'public-key',
          response: { clientDataJSON: 'bm90IGpzb24', authenticatorData: 'AA', signature: 'AA' },
        }),
        'WEBAUTHN_VERIFICATION_FAILED',
      ],
      [
        'clientDataJSON without a challenge',
        () => ({
          id: 'AAAA',
          rawId: 'AAAA',
          type: 'public-key',
          response: {
            clientDataJSON: Buffer.from('{"type":"webauthn.get"}').toString('base64url'),
            authenticatorData: 'AA',
            signature: 'AA',
          },
        }),
        'WEBAUTHN_VERIFICATION_FAILED',
      ],
      [
        'a wrong type',
        () => ({
          id: 'AAAA',
          rawId: 'AAAA',
          type: 'password',
          response: { clientDataJSON: 'AA', authenticatorData: 'AA', signature: 'AA' },
        }),
        'WEBAUTHN_VERIFICATION_FAILED',
      ],
      [
        'an id that is not base64url',
        () => ({
          id: 'a b',
          rawId: 'a b',
          type: 'public-key',
          response: { clientDataJSON: 'AA', authenticatorData: 'AA', signature: 'AA' },
        }),
        'WEBAUTHN_VERIFICATION_FAILED',
      ],
    ])('refuses a malformed sign-in response: %s', async (_what, make, code) => {
      await refused(() => t.http().post('/v1/accounts/sign-in/passkey').send({ response: make() }), 400, code);
    });

    it('refuses a response that is not an object, or extra fields (VALIDATION_FAILED)', async () => {
      await refused(
        () => t.http().post('/v1/accounts/sign-in/passkey').send({ response: 'x' }),
        400,
        'VALIDATION_FAILED',
      );
      await refused(
        () => t.http().post('/v1/accounts/sign-in/passkey').send({ response: {}, extra: 1 }),
        400,
        'VALIDATION_FAILED',
      );
      await refused(
        () => t.http().post('/v1/accounts/sign-in/passkey/options').send({ x: 1 }),
        400,
        'VALIDATION_FAILED',
      );
    });

    it('refuses a forged signature, a wrong origin and an unknown passkey; a forged one is logged', async () => {
      const { a, authenticator } = await withPasskey();
      const forged = await signIn(authenticator, { tamper: true });
      expect({ status: forged.res.status, code: forged.res.body.code }).toEqual({
        status: 400,
        code: 'WEBAUTHN_VERIFICATION_FAILED',
      });
      const wrongOrigin = await signIn(authenticator, { origin: 'https://evil.test' });
      expect(wrongOrigin.res.body.code).toBe('WEBAUTHN_VERIFICATION_FAILED');
      const stranger = new SoftwareAuthenticator(ORIGIN);
      stranger.register({ challenge: 'AAAA', rp: { id: RP_ID }, user: { id: 'AAAA' } });
      const unknown = await signIn(stranger);
      expect(unknown.res.body.code).toBe('WEBAUTHN_VERIFICATION_FAILED');
      const sessions = await poolOf(t).query('SELECT count(*)::int AS n FROM sessions WHERE player_id = $1', [a.id]);
      expect(sessions.rows[0].n).toBe(0);
      const log = await t.http().get('/v1/accounts/me/security-log').set(a.auth).expect(200);
      expect(log.body.items.filter((e: any) => e.type === 'signInFailed').length).toBe(2);
    });

    it('refuses a signature counter that does not move on (a cloned authenticator)', async () => {
      const { authenticator } = await withPasskey();
      expect((await signIn(authenticator, { counter: 5 })).res.status).toBe(200);
      const again = await signIn(authenticator, { counter: 5 });
      expect({ status: again.res.status, code: again.res.body.code }).toEqual({
        status: 400,
        code: 'WEBAUTHN_VERIFICATION_FAILED',
      });
    });

    it('names, renames and removes passkeys; the last credential cannot be removed (409 LAST_CREDENTIAL)', async () => {
      const { a, account } = await withPasskey('Laptop');
      const first = account.passkeys[0].id;
      await refused(() => t.http().delete(`/v1/accounts/me/passkeys/${first}`).set(a.auth), 409, 'LAST_CREDENTIAL');
      await refused(
        () => t.http().patch(`/v1/accounts/me/passkeys/${first}`).set(a.auth).send({ name: '   ' }),
        400,
        'INVALID_CREDENTIAL_NAME',
      );
      await refused(
        () =>
          t
            .http()
            .patch(`/v1/accounts/me/passkeys/00000000-0000-4000-8000-000000000000`)
            .set(a.auth)
            .send({ name: 'X' }),
        404,
        'CREDENTIAL_NOT_FOUND',
      );
      await refused(() => t.http().delete(`/v1/accounts/me/passkeys/not-a-uuid`).set(a.auth), 400, 'VALIDATION_FAILED');
      const renamed = await t
        .http()
        .patch(`/v1/accounts/me/passkeys/${first}`)
        .set(a.auth)
        .send({ name: ' Work laptop ' })
        .expect(200);
      expect(renamed.body.passkeys[0].name).toBe('Work laptop');
      // A second passkey, then the first can go.
      const second = new SoftwareAuthenticator(ORIGIN);
      const options = await t.http().post('/v1/accounts/me/passkeys/options').set(a.auth).send({}).expect(200);
      expect(options.body.publicKey.excludeCredentials.map((c: any) => c.id)).toEqual([
        account.passkeys[0].credentialId,
      ]);
      await refused(
        () =>
          t
            .http()
            .post('/v1/accounts/me/passkeys')
            .set(a.auth)
            .send({ name: '', response: second.register(options.body.publicKey) }),
        400,
        'INVALID_CREDENTIAL_NAME',
      );
      const options2 = await t.http().post('/v1/accounts/me/passkeys/options').set(a.auth).send({}).expect(200);
      await t
        .http()
        .post('/v1/accounts/me/passkeys')
        .set(a.auth)
        .send({ name: 'Phone', response: second.register(options2.body.publicKey) })
        .expect(201);
      const after = await t.http().delete(`/v1/accounts/me/passkeys/${first}`).set(a.auth).expect(200);
      expect(after.body.passkeys.map((p: any) => p.name)).toEqual(['Phone']);
      // A password beside it: now the passkey may go, then the password is the last.
      await t.http().put('/v1/accounts/me/password').set(a.auth).send({ password: PASSWORD }).expect(200);
      await t.http().delete(`/v1/accounts/me/passkeys/${after.body.passkeys[0].id}`).set(a.auth).expect(200);
      await refused(() => t.http().delete('/v1/accounts/me/password').set(a.auth), 409, 'LAST_CREDENTIAL');
      const log = await t.http().get('/v1/accounts/me/security-log?limit=100').set(a.auth).expect(200);
      expect(log.body.items.map((e: any) => e.type).reverse()).toEqual([
        'usernameClaimed',
        'passkeyAdded',
        'passkeyRenamed',
        'passkeyAdded',
        'passkeyRemoved',
        'passwordSet',
        'passkeyRemoved',
      ]);
    });

    it('needs a claimed username before registering a passkey (USERNAME_REQUIRED)', async () => {
      const a = await registerPlayer(t, 'Ada');
      await refused(
        () => t.http().post('/v1/accounts/me/passkeys/options').set(a.auth).send({}),
        409,
        'USERNAME_REQUIRED',
      );
    });
  });

  describe('sessions and the security log', () => {
    it('lists sessions (the current one marked), revokes one, and signs out everywhere', async () => {
      const address = freshAddress();
      const username = freshUsername('Se');
      const a = await claimedWithPassword(t, username, PASSWORD, address);
      const signIn = async (label: string) =>
        (
          await t
            .http()
            .post('/v1/accounts/sign-in/password')
            .set('x-forwarded-for', address)
            .send({ username, password: PASSWORD, deviceLabel: label })
            .expect(200)
        ).body;
      const phone = await signIn('Phone');
      const tablet = await signIn('Tablet');
      const laptop = await signIn('Laptop');
      const asPhone = { authorization: `Bearer ${phone.token}` };
      const list = await t.http().get('/v1/accounts/me/sessions?limit=2').set(asPhone).expect(200);
      expect(list.body.items.map((s: any) => s.label)).toEqual(['Laptop', 'Tablet']);
      expect(list.body.nextCursor).toEqual(expect.any(String));
      const rest = await t
        .http()
        .get(`/v1/accounts/me/sessions?limit=2&cursor=${list.body.nextCursor}`)
        .set(asPhone)
        .expect(200);
      expect(rest.body.items).toEqual([
        expect.objectContaining({ label: 'Phone', current: true, address, scopes: ['*'] }),
      ]);
      expect(rest.body.nextCursor).toBeNull();
      await refused(() => t.http().get('/v1/accounts/me/sessions?cursor=bad!').set(asPhone), 400, 'INVALID_CURSOR');

      // Revoking one: its token stops working at once; another player cannot revoke it.
      const other = await registerPlayer(t, 'Eve');
      await refused(
        () => t.http().delete(`/v1/accounts/me/sessions/${tablet.session.id}`).set(other.auth),
        404,
        'SESSION_NOT_FOUND',
      );
      await t.http().delete(`/v1/accounts/me/sessions/${tablet.session.id}`).set(asPhone).expect(204);
      await t.http().get('/v1/players/me').set('authorization', `Bearer ${tablet.token}`).expect(401);
      await refused(
        () => t.http().delete(`/v1/accounts/me/sessions/${tablet.session.id}`).set(asPhone),
        404,
        'SESSION_NOT_FOUND',
      );

      // Everywhere: every session and the player's own token (the account has a password).
      const out = await t.http().post('/v1/accounts/me/sign-out-everywhere').set(asPhone).send({}).expect(200);
      expect(out.body).toEqual({ revokedSessions: 2, playerTokenRetired: true });
      for (const token of [phone.token, laptop.token, a.token])
        await t.http().get('/v1/players/me').set('authorization', `Bearer ${token}`).expect(401);
      const back = await signIn('Phone again');
      const log = await t
        .http()
        .get('/v1/accounts/me/security-log?limit=3')
        .set('authorization', `Bearer ${back.token}`)
        .expect(200);
      expect(log.body.items.map((e: any) => e.type)).toEqual(['signIn', 'signedOutEverywhere', 'sessionRevoked']);
      expect(log.body.items[2].detail).toMatchObject({ sessionId: tablet.session.id, method: null });
      const next = await t
        .http()
        .get(`/v1/accounts/me/security-log?limit=3&cursor=${log.body.nextCursor}`)
        .set('authorization', `Bearer ${back.token}`)
        .expect(200);
      expect(next.body.items.map((e: any) => e.type)).toEqual(['signIn', 'signIn', 'signIn']);
    });

    it("a guest's sign-out everywhere keeps its own token (it has no other way back in)", async () => {
      const a = await registerPlayer(t, 'Guest');
      const out = await t.http().post('/v1/accounts/me/sign-out-everywhere').set(a.auth).send({}).expect(200);
      expect(out.body).toEqual({ revokedSessions: 0, playerTokenRetired: false });
      await t.http().get('/v1/players/me').set(a.auth).expect(200);
    });
  });
});

describe('accounts configuration', () => {
  it('refuses a WebAuthn origin list that is not origins', async () => {
    await expect(createTestApp({ env: { WEBAUTHN_ORIGINS: 'not an origin' } })).rejects.toThrow(/WEBAUTHN_ORIGINS/);
  });
});
