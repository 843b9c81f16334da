/**
 * The prompt to secure a guest account (issue 26, docs/accounts.md §12): once a guest's game has
 * finished, its record lives only in this browser's storage until the player claims a username and
 * adds a passkey or a password. Shown on a finished game's page until the account is secured or the
 * player says "Not now" (remembered in this browser).
 */
import { useEffect, useState } from 'react';
import { api } from './api';

const DISMISSED_KEY = 'fairdice.secureAccountPrompt.dismissed';

export function SecureAccountPrompt({ finished }: { finished: boolean }) {
  const [guest, setGuest] = useState(false);
  const [dismissed, setDismissed] = useState(() => localStorage.getItem(DISMISSED_KEY) === '1');
  useEffect(() => {
    if (!finished || dismissed) return;
    let stale = false;
    void api.GET('/v1/accounts/me').then(({ data }) => {
      // Secured: a username and a credential to sign in with on another device.
      if (!stale && data) setGuest(!data.claimed || (!data.hasPassword && data.passkeys.length === 0));
    });
    return () => {
      stale = true;
    };
  }, [finished, dismissed]);
  if (!finished || dismissed || !guest) return null;
  return (
    <aside className="secure-account" aria-labelledby="secure-account-h">
      <h2 id="secure-account-h">Keep your games</h2>
      <p>
        You play as a guest: this game, your statistics and your best scores live in this browser only. Choose a
        username and add a passkey or a password to keep them on any device.
      </p>
      <p>
        <a href="#/account">Secure your account</a>{' '}
        <button
          type="button"
          onClick={() => {
            localStorage.setItem(DISMISSED_KEY, '1');
            setDismissed(true);
          }}
        >
          Not now
        </button>
      </p>
    </aside>
  );
}
