/**
 * The shell: registration or sign-in, a hash router (#/, #/game/<id>, #/profile, #/account,
 * #/replay/<id>[/<version>], #/analysis/<id>, #/tournaments, #/tournament/<id>, #/players/<id>,
 * #/challenge/<id>), the header; and the OAuth consent page at the path /oauth/authorize (consent.tsx).
 */
import { useEffect, useState } from 'react';
import { AccountPage, SignIn } from './account';
import { AnalysisPage } from './analysis';
import { Consent } from './consent';
import { api, sentence, session, unwrap, type StoredPlayer } from './api';
import { ChallengePage, PlayerPage } from './challenges';
import { GamePage } from './game';
import { Home } from './home';
import { Profile, Replay } from './profile';
import { stopPushOnSignOut } from './push';
import { TournamentPage } from './tournament';
import { TournamentList } from './tournaments';

function useRoute(): string {
  const [hash, setHash] = useState(location.hash);
  useEffect(() => {
    const onChange = () => setHash(location.hash);
    window.addEventListener('hashchange', onChange);
    return () => window.removeEventListener('hashchange', onChange);
  }, []);
  return hash.replace(/^#/, '') || '/';
}

export function App() {
  const [player, setPlayer] = useState<StoredPlayer | null>(() => (session.token() ? session.player() : null));
  const route = useRoute();
  // The first render has mounted and its handlers are attached: bench/web-client.ts reads this mark.
  useEffect(() => {
    performance.mark('fairdice:interactive');
  }, []);
  useEffect(() => {
    // The main landmark takes the focus on every new screen, so keyboard and screen-reader users start there.
    document.getElementById('main')?.focus();
  }, [route]);
  // The authorization endpoint of OAuth (docs/oauth.md): a path of its own, not a hash route.
  if (location.pathname === '/oauth/authorize')
    return <Consent me={player} signIn={<Register onRegistered={setPlayer} embedded />} />;
  if (!player) return <Register onRegistered={setPlayer} />;
  const game = /^\/game\/([0-9a-f-]{36})$/.exec(route);
  const replay = /^\/replay\/([0-9a-f-]{36})(?:\/(\d+))?$/.exec(route);
  const analysis = /^\/analysis\/([0-9a-f-]{36})$/.exec(route);
  const tournament = /^\/tournament\/([0-9a-f-]{36})$/.exec(route);
  const playerPage = /^\/players\/([0-9a-f-]{36})$/.exec(route);
  const challenge = /^\/challenge\/([0-9a-f-]{36})$/.exec(route);
  return (
    <>
      <header className="top">
        <a href="#/" className="brand">
          fairdice
        </a>
        <nav aria-label="Main">
          <a href="#/">Games</a>
          <a href="#/tournaments">Tournaments</a>
          <a href="#/profile">Profile</a>
          <a href="#/account">Account</a>
        </nav>
        <span className="me" aria-label="Signed in as">
          {player.displayName}
        </span>
      </header>
      <main id="main" tabIndex={-1}>
        {game ? (
          <GamePage key={game[1]} gameId={game[1]} me={player} />
        ) : replay ? (
          <Replay key={route} gameId={replay[1]} me={player} start={replay[2] ? Number(replay[2]) : undefined} />
        ) : analysis ? (
          <AnalysisPage key={analysis[1]} gameId={analysis[1]} />
        ) : tournament ? (
          <TournamentPage key={tournament[1]} tournamentId={tournament[1]} me={player} />
        ) : playerPage ? (
          <PlayerPage key={playerPage[1]} playerId={playerPage[1]} me={player} />
        ) : challenge ? (
          <ChallengePage key={challenge[1]} challengeId={challenge[1]} me={player} />
        ) : route === '/account' ? (
          <AccountPage
            onSignedOut={() => {
              void stopPushOnSignOut(player.id).finally(() => {
                session.clear();
                setPlayer(null);
              });
            }}
          />
        ) : route === '/tournaments' ? (
          <TournamentList me={player} />
        ) : route === '/profile' ? (
          <Profile
            onSignOut={() => {
              void stopPushOnSignOut(player.id).finally(() => {
                session.clear();
                setPlayer(null);
              });
            }}
          />
        ) : (
          <Home me={player} />
        )}
      </main>
    </>
  );
}

/** Registration as a guest, or sign-in; `embedded` inside another page (the consent page). */
function Register({ onRegistered, embedded = false }: { onRegistered: (p: StoredPlayer) => void; embedded?: boolean }) {
  const [name, setName] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const Outer = embedded ? 'div' : 'main';
  return (
    <Outer {...(embedded ? {} : { id: 'main', tabIndex: -1 })} className="register">
      {!embedded && <h1>fairdice</h1>}
      <p>Dice games with every roll provable. Pick a name to play; your token stays in this browser.</p>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          setBusy(true);
          setError(null);
          api
            .POST('/v1/players', { body: { displayName: name.trim() } })
            .then((r) => {
              const registered = unwrap(r);
              const p = { id: registered.player.id, displayName: registered.player.displayName };
              session.save(registered.token, p);
              onRegistered(p);
            })
            .catch((err: unknown) => setError(sentence(err)))
            .finally(() => setBusy(false));
        }}
      >
        <label htmlFor="display-name">Your name</label>
        <input id="display-name" value={name} onChange={(e) => setName(e.target.value)} autoComplete="nickname" />
        <button type="submit" disabled={busy}>
          Start playing
        </button>
      </form>
      {error && (
        <p role="alert" className="error">
          {error}
        </p>
      )}
      <SignIn onSignedIn={onRegistered} />
    </Outer>
  );
}
