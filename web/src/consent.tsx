/**
 * The OAuth consent page (docs/oauth.md) at /oauth/authorize?response_type=code&client_id=…: what
 * a third-party app asks for (its name, the host it sends the player back to, the scopes with
 * their descriptions), and Approve / Deny. The API checks the request; a wrong client or redirect
 * URI is shown as an error here and never redirected to. A visitor who is not signed in is asked
 * to sign in or play as a guest first (`signIn`). No cookie: the answer is sent with the player's
 * bearer token, as every call of this client.
 */
import { useEffect, useState, type ReactNode } from 'react';
import type { components } from '@fairdice/client';
import { api, sentence, unwrap, type StoredPlayer } from './api';

type Authorization = components['schemas']['AuthorizationModel'];

/** The parameters of an authorization request the API reads; any other is left out. */
const PARAMS = [
  'response_type',
  'client_id',
  'redirect_uri',
  'scope',
  'state',
  'code_challenge',
  'code_challenge_method',
] as const;
type Params = Partial<Record<(typeof PARAMS)[number], string>>;

function requestParams(search: string): Params {
  const url = new URLSearchParams(search);
  const params: Params = {};
  for (const name of PARAMS) {
    const value = url.get(name);
    if (value !== null) params[name] = value;
  }
  return params;
}

export function Consent({ me, signIn }: { me: StoredPlayer | null; signIn: ReactNode }) {
  const [params] = useState(() => requestParams(location.search));
  const [request, setRequest] = useState<Authorization | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    api
      .GET('/v1/oauth/authorization', { params: { query: params } })
      .then((r) => setRequest(unwrap(r)))
      .catch((err: unknown) => setError(sentence(err)));
  }, [params]);

  const answer = (approved: boolean) => {
    setBusy(true);
    setError(null);
    api
      .POST('/v1/oauth/authorization', { body: { ...params, approved } })
      .then((r) => location.assign(unwrap(r).redirectTo))
      .catch((err: unknown) => {
        setError(sentence(err));
        setBusy(false);
      });
  };

  return (
    <main id="main" tabIndex={-1} className="consent">
      <h1>fairdice</h1>
      {error && !request && (
        <>
          <h2>This app's request cannot be answered</h2>
          <p role="alert" className="error">
            {error}
          </p>
          <p>
            Nothing was shared. <a href="/">Go to fairdice</a>
          </p>
        </>
      )}
      {!error && !request && <p aria-busy="true">Reading the request…</p>}
      {request && (
        <section aria-labelledby="consent-heading">
          <h2 id="consent-heading">
            <strong>{request.clientName}</strong> wants to use your fairdice account
          </h2>
          <p>
            After you answer, you go back to <strong className="redirect-host">{request.redirectHost}</strong>.
          </p>
          <p>It asks to:</p>
          <ul className="scopes" aria-label="Scopes asked">
            {request.scopes.map((s) => (
              <li key={s.name}>
                <code>{s.name}</code>: {s.description}
              </li>
            ))}
          </ul>
          {me ? (
            <>
              <p>
                Signed in as <strong>{me.displayName}</strong>. It never sees your password or your own token, and you
                can revoke it at any time.
              </p>
              <div className="actions">
                <button type="button" disabled={busy} onClick={() => answer(true)}>
                  Approve
                </button>
                <button type="button" disabled={busy} onClick={() => answer(false)}>
                  Deny
                </button>
              </div>
              {error && (
                <p role="alert" className="error">
                  {error}
                </p>
              )}
            </>
          ) : (
            <>
              <p>Sign in or play as a guest first; then you can approve or deny.</p>
              {signIn}
            </>
          )}
        </section>
      )}
    </main>
  );
}
