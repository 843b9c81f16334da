/**
 * Accounts in the web client (docs/accounts.md): sign in with a passkey or a password on the
 * registration screen, and "Your account" (#/account): username, password, passkeys, your devices
 * (sessions), signing out everywhere, and access tokens (create with scopes, list, revoke). Passkeys go through the browser's WebAuthn API with the
 * options' JSON forms (PublicKeyCredential.parse…FromJSON, credential.toJSON()).
 */
import { useCallback, useEffect, useState } from 'react';
import type { components } from '@fairdice/client';
import { api, sentence, session, unwrap, type StoredPlayer } from './api';

type Account = components['schemas']['AccountModel'];
type Session = components['schemas']['SessionModel'];
type SignedIn = components['schemas']['SignedInModel'];
type AccessToken = components['schemas']['AccessTokenModel'];

/**
 * The scopes a personal access token may ask for (docs/accounts.md §11.1; the service's vocabulary
 * is src/players/scopes.ts, and test/web/accounts.e2e-spec.ts checks this list against it).
 */
const TOKEN_SCOPES: ReadonlyArray<readonly [scope: string, label: string]> = [
  ['game:read', 'read your games and streams'],
  ['game:create', 'create games, take and leave seats'],
  ['game:play', 'make moves'],
  ['tournament:read', 'read tournaments'],
  ['tournament:write', 'create, run and enter tournaments'],
  ['webhook:write', 'manage webhooks'],
  ['advice:read', 'ask for advice'],
  ['account:read', 'read your account'],
  ['account:write', 'change settings, manage access tokens'],
];

function remember(signedIn: SignedIn): StoredPlayer {
  const p = { id: signedIn.player.id, displayName: signedIn.player.displayName };
  session.save(signedIn.token, p);
  return p;
}

/** Sign-in for a player who has an account: a passkey, or username and password. */
export function SignIn({ onSignedIn }: { onSignedIn: (p: StoredPlayer) => void }) {
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const run = (work: () => Promise<SignedIn>) => {
    setBusy(true);
    setError(null);
    work()
      .then((signedIn) => onSignedIn(remember(signedIn)))
      .catch((err: unknown) => setError(sentence(err)))
      .finally(() => setBusy(false));
  };
  return (
    <section aria-labelledby="sign-in-heading">
      <h2 id="sign-in-heading">Sign in to your account</h2>
      <button
        type="button"
        disabled={busy}
        onClick={() =>
          run(async () => {
            const { publicKey } = unwrap(await api.POST('/v1/accounts/sign-in/passkey/options', { body: {} }));
            const credential = (await navigator.credentials.get({
              publicKey: PublicKeyCredential.parseRequestOptionsFromJSON(publicKey),
            })) as PublicKeyCredential | null;
            if (!credential) throw new Error('No passkey was chosen.');
            const response = credential.toJSON() as components['schemas']['AuthenticationResponseInput'];
            return unwrap(await api.POST('/v1/accounts/sign-in/passkey', { body: { response } }));
          })
        }
      >
        Sign in with a passkey
      </button>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          run(async () =>
            unwrap(await api.POST('/v1/accounts/sign-in/password', { body: { username: username.trim(), password } })),
          );
        }}
      >
        <label htmlFor="sign-in-username">Username</label>
        <input
          id="sign-in-username"
          value={username}
          onChange={(e) => setUsername(e.target.value)}
          autoComplete="username webauthn"
        />
        <label htmlFor="sign-in-password">Password</label>
        <input
          id="sign-in-password"
          type="password"
          value={password}
          onChange={(e) => setPassword(e.target.value)}
          autoComplete="current-password"
        />
        <button type="submit" disabled={busy}>
          Sign in
        </button>
      </form>
      {error && (
        <p role="alert" className="error">
          {error}
        </p>
      )}
    </section>
  );
}

/** #/account: username, password, passkeys, devices. */
export function AccountPage({ onSignedOut }: { onSignedOut: () => void }) {
  const [account, setAccount] = useState<Account | null>(null);
  const [sessions, setSessions] = useState<Session[]>([]);
  const [error, setError] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  const [currentPassword, setCurrentPassword] = useState('');
  const [passkeyName, setPasskeyName] = useState('');
  const [tokens, setTokens] = useState<AccessToken[]>([]);
  const [tokenName, setTokenName] = useState('');
  const [tokenScopes, setTokenScopes] = useState<string[]>([]);
  const [tokenDays, setTokenDays] = useState('');
  const [newToken, setNewToken] = useState<string | null>(null);

  const load = useCallback(async () => {
    const a = unwrap(await api.GET('/v1/accounts/me'));
    setAccount(a);
    setUsername((u) => u || a.username || '');
    setSessions(unwrap(await api.GET('/v1/accounts/me/sessions', { params: { query: { limit: 100 } } })).items);
    setTokens(unwrap(await api.GET('/v1/accounts/me/tokens', { params: { query: { limit: 100 } } })).items);
  }, []);
  useEffect(() => {
    load().catch((err: unknown) => setError(sentence(err)));
  }, [load]);

  const act = (work: () => Promise<unknown>, done: string) => {
    setError(null);
    setNotice(null);
    work()
      .then(() => load())
      .then(() => setNotice(done))
      .catch((err: unknown) => setError(sentence(err)));
  };

  if (!account) return error ? <p role="alert">{error}</p> : <p>Loading your account…</p>;
  return (
    <>
      <h1>Your account</h1>
      <p>
        {account.claimed
          ? `Signed up as ${account.username}. Sign in on another device with a passkey or your password.`
          : 'You play as a guest: your games live in this browser only. Choose a username and add a passkey or a password to keep them on any device.'}
      </p>
      <section aria-labelledby="username-heading">
        <h2 id="username-heading">Username</h2>
        <form
          onSubmit={(e) => {
            e.preventDefault();
            act(
              async () => unwrap(await api.PUT('/v1/accounts/me/username', { body: { username: username.trim() } })),
              'Username saved.',
            );
          }}
        >
          <label htmlFor="account-username">Username (3 to 24 of a–z, 0–9, _ and -)</label>
          <input
            id="account-username"
            value={username}
            onChange={(e) => setUsername(e.target.value)}
            autoComplete="username"
          />
          <button type="submit">Save username</button>
        </form>
      </section>
      <section aria-labelledby="passkeys-heading">
        <h2 id="passkeys-heading">Passkeys</h2>
        <ul aria-label="Your passkeys">
          {account.passkeys.map((p: Account['passkeys'][number]) => (
            <li key={p.id}>
              {p.name}{' '}
              <button
                type="button"
                onClick={() =>
                  act(
                    async () =>
                      unwrap(await api.DELETE('/v1/accounts/me/passkeys/{id}', { params: { path: { id: p.id } } })),
                    `Passkey ${p.name} removed.`,
                  )
                }
              >
                Remove {p.name}
              </button>
            </li>
          ))}
        </ul>
        <form
          onSubmit={(e) => {
            e.preventDefault();
            const name = passkeyName.trim() || 'Passkey';
            act(async () => {
              const { publicKey } = unwrap(await api.POST('/v1/accounts/me/passkeys/options', { body: {} }));
              const credential = (await navigator.credentials.create({
                // The service's JSON is the WebAuthn JSON form; its string members are the DOM's enums.
                publicKey: PublicKeyCredential.parseCreationOptionsFromJSON(
                  publicKey as PublicKeyCredentialCreationOptionsJSON,
                ),
              })) as PublicKeyCredential | null;
              if (!credential) throw new Error('No passkey was made.');
              const response = credential.toJSON() as components['schemas']['RegistrationResponseInput'];
              return unwrap(await api.POST('/v1/accounts/me/passkeys', { body: { name, response } }));
            }, `Passkey ${name} added.`);
          }}
        >
          <label htmlFor="passkey-name">Name of the new passkey</label>
          <input id="passkey-name" value={passkeyName} onChange={(e) => setPasskeyName(e.target.value)} />
          <button type="submit">Add a passkey</button>
        </form>
      </section>
      <section aria-labelledby="password-heading">
        <h2 id="password-heading">Password</h2>
        <form
          onSubmit={(e) => {
            e.preventDefault();
            act(async () => {
              const body = account.hasPassword ? { password, currentPassword } : { password };
              return unwrap(await api.PUT('/v1/accounts/me/password', { body }));
            }, 'Password saved.');
          }}
        >
          {account.hasPassword && (
            <>
              <label htmlFor="current-password">Current password</label>
              <input
                id="current-password"
                type="password"
                value={currentPassword}
                onChange={(e) => setCurrentPassword(e.target.value)}
                autoComplete="current-password"
              />
            </>
          )}
          <label htmlFor="new-password">New password (8 characters or more)</label>
          <input
            id="new-password"
            type="password"
            value={password}
            onChange={(e) => setPassword(e.target.value)}
            autoComplete="new-password"
          />
          <button type="submit">Save password</button>
        </form>
      </section>
      <section aria-labelledby="devices-heading">
        <h2 id="devices-heading">Your devices</h2>
        <ul aria-label="Your devices">
          {sessions.map((s) => (
            <li key={s.id}>
              {s.label}
              {s.current ? ' (this device)' : ''}, signed in {new Date(s.createdAt).toLocaleString()}
              {s.address ? ` from ${s.address}` : ''}{' '}
              {!s.current && (
                <button
                  type="button"
                  onClick={() =>
                    act(
                      async () =>
                        unwrap(await api.DELETE('/v1/accounts/me/sessions/{id}', { params: { path: { id: s.id } } })),
                      `${s.label} signed out.`,
                    )
                  }
                >
                  Sign out {s.label}
                </button>
              )}
            </li>
          ))}
        </ul>
        <button
          type="button"
          onClick={() => {
            setError(null);
            api
              .POST('/v1/accounts/me/sign-out-everywhere', { body: {} })
              .then((r) => {
                unwrap(r);
                session.clear();
                onSignedOut();
              })
              .catch((err: unknown) => setError(sentence(err)));
          }}
        >
          Sign out everywhere
        </button>
      </section>
      <section aria-labelledby="tokens-heading">
        <h2 id="tokens-heading">Access tokens</h2>
        <p>For your own programs: a token that may do only what you tick. It is shown once.</p>
        <ul aria-label="Your access tokens">
          {tokens.map((tk) => (
            <li key={tk.id}>
              {tk.name}: {tk.scopes.join(', ')}
              {tk.expiresAt ? `, expires ${new Date(tk.expiresAt).toLocaleDateString()}` : ''}{' '}
              <button
                type="button"
                onClick={() =>
                  act(
                    async () =>
                      unwrap(await api.DELETE('/v1/accounts/me/tokens/{id}', { params: { path: { id: tk.id } } })),
                    `Access token ${tk.name} revoked.`,
                  )
                }
              >
                Revoke {tk.name}
              </button>
            </li>
          ))}
        </ul>
        <form
          onSubmit={(e) => {
            e.preventDefault();
            const name = tokenName.trim() || 'Access token';
            const days = tokenDays.trim() ? Number(tokenDays) : undefined;
            act(async () => {
              const made = unwrap(
                await api.POST('/v1/accounts/me/tokens', {
                  body: { name, scopes: tokenScopes, ...(days === undefined ? {} : { expiresInDays: days }) },
                }),
              );
              setNewToken(made.token);
              setTokenName('');
              setTokenScopes([]);
              return made;
            }, `Access token ${name} created. Copy it now: it is not shown again.`);
          }}
        >
          <label htmlFor="token-name">Name of the new token</label>
          <input id="token-name" value={tokenName} onChange={(e) => setTokenName(e.target.value)} />
          <fieldset>
            <legend>Scopes</legend>
            {TOKEN_SCOPES.map(([scope, label]) => (
              <label key={scope}>
                <input
                  type="checkbox"
                  name="scope"
                  value={scope}
                  checked={tokenScopes.includes(scope)}
                  onChange={(e) =>
                    setTokenScopes((list) => (e.target.checked ? [...list, scope] : list.filter((x) => x !== scope)))
                  }
                />
                {scope} ({label})
              </label>
            ))}
          </fieldset>
          <label htmlFor="token-days">Expires after (days, empty: never)</label>
          <input id="token-days" inputMode="numeric" value={tokenDays} onChange={(e) => setTokenDays(e.target.value)} />
          <button type="submit">Create an access token</button>
        </form>
        {newToken && (
          <p>
            Your new token: <code aria-label="New access token">{newToken}</code>
          </p>
        )}
      </section>
      {notice && <p role="status">{notice}</p>}
      {error && (
        <p role="alert" className="error">
          {error}
        </p>
      )}
    </>
  );
}
