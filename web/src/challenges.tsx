/**
 * Challenges in the web client (docs/challenges.md): a player's page (#/players/<id>) with its
 * Challenge form, my pending challenges on the home page (incoming: accept or decline; mine:
 * cancel), and a challenge's own page (#/challenge/<id>), the link of an open challenge.
 */
import { useCallback, useEffect, useState } from 'react';
import { api, sentence, unwrap, type Challenge, type MyChallenges, type StoredPlayer } from './api';
import { RULE_SET_TITLES } from './util';

const POOLS = ['penta', 'simple', 'bonus', 'farkle'] as const;
const TIMES: Array<[number, string]> = [
  [30, '30 seconds'],
  [60, '1 minute'],
  [300, '5 minutes'],
  [3600, '1 hour'],
  [86_400, '1 day'],
];
const REASONS: Array<[string, string]> = [
  ['generic', 'No, thanks'],
  ['later', 'Later'],
  ['tooFast', 'Too fast'],
  ['tooSlow', 'Too slow'],
  ['rated', 'I’d rather play casual'],
  ['casual', 'I’d rather play rated'],
  ['variant', 'Another game'],
];

const timeText = (s: number) => TIMES.find(([v]) => v === s)?.[1] ?? `${s} s`;
const what = (c: Challenge) =>
  `${RULE_SET_TITLES[c.pool] ?? c.pool} · ${c.rated ? 'rated' : 'casual'} · ${timeText(c.turnTimeLimitSeconds)} per move`;

/** The form that challenges `opponentId` (null: an open challenge, shared by its link). */
export function ChallengeForm({ opponentId, onMade }: { opponentId: string | null; onMade: (c: Challenge) => void }) {
  const [pool, setPool] = useState<(typeof POOLS)[number]>('simple');
  const [rated, setRated] = useState(false);
  const [time, setTime] = useState(300);
  const [message, setMessage] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  return (
    <form
      className="challenge-form"
      aria-label="Challenge"
      onSubmit={(e) => {
        e.preventDefault();
        setBusy(true);
        setError(null);
        api
          .POST('/v1/challenges', {
            body: {
              ...(opponentId ? { opponent: opponentId } : {}),
              pool,
              rated,
              turnTimeLimitSeconds: time,
              ...(message.trim() ? { message: message.trim() } : {}),
            },
          })
          .then((r) => onMade(unwrap(r)))
          .catch((err: unknown) => setError(sentence(err)))
          .finally(() => setBusy(false));
      }}
    >
      <label>
        Game{' '}
        <select value={pool} onChange={(e) => setPool(e.target.value as (typeof POOLS)[number])}>
          {POOLS.map((p) => (
            <option key={p} value={p}>
              {RULE_SET_TITLES[p]}
            </option>
          ))}
        </select>
      </label>
      <label>
        Time per move{' '}
        <select value={time} onChange={(e) => setTime(Number(e.target.value))}>
          {TIMES.map(([v, label]) => (
            <option key={v} value={v}>
              {label}
            </option>
          ))}
        </select>
      </label>
      <label>
        <input type="checkbox" checked={rated} onChange={(e) => setRated(e.target.checked)} /> Rated
      </label>
      <label>
        Message{' '}
        <input value={message} maxLength={280} onChange={(e) => setMessage(e.target.value)} placeholder="Optional" />
      </label>
      <button type="submit" disabled={busy}>
        Send challenge
      </button>
      {error && (
        <p role="alert" className="error">
          {error}
        </p>
      )}
    </form>
  );
}

/** A player's public page: their name, ratings, and the Challenge button. */
export function PlayerPage({ playerId, me }: { playerId: string; me: StoredPlayer }) {
  const [name, setName] = useState<string | null>(null);
  const [ratings, setRatings] = useState<Array<{ pool: string; rating: number; provisional: boolean }>>([]);
  const [challenging, setChallenging] = useState(false);
  const [made, setMade] = useState<Challenge | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    Promise.all([
      api.GET('/v1/players/{id}', { params: { path: { id: playerId } } }).then(unwrap),
      api.GET('/v1/players/{id}/ratings', { params: { path: { id: playerId } } }).then(unwrap),
    ])
      .then(([p, r]) => {
        setName(p.displayName);
        setRatings(r.items);
      })
      .catch((err: unknown) => setError(sentence(err)));
  }, [playerId]);
  return (
    <div className="player-page">
      <h1>{name ?? 'Player'}</h1>
      {error && (
        <p role="alert" className="error">
          {error}
        </p>
      )}
      {ratings.length > 0 && (
        <ul className="list" aria-label="Ratings">
          {ratings.map((r) => (
            <li key={r.pool}>
              {RULE_SET_TITLES[r.pool as keyof typeof RULE_SET_TITLES] ?? r.pool}: {Math.round(r.rating)}
              {r.provisional ? '?' : ''}
            </li>
          ))}
        </ul>
      )}
      {playerId === me.id ? (
        <p>This is you.</p>
      ) : made ? (
        <p role="status">
          Challenge sent: {what(made)}. <a href={`#/challenge/${made.id}`}>See it</a>
        </p>
      ) : challenging ? (
        <ChallengeForm opponentId={playerId} onMade={setMade} />
      ) : (
        name && (
          <button type="button" onClick={() => setChallenging(true)}>
            Challenge
          </button>
        )
      )}
    </div>
  );
}

/**
 * My pending challenges (home page): incoming ones with Accept and Decline, mine with Cancel.
 * `list` is read by the home page with its other lists (again on each event of my stream).
 */
export function MyChallengesSection({ list, onChange }: { list: MyChallenges | null; onChange: () => void }) {
  const [error, setError] = useState<string | null>(null);
  const [reason, setReason] = useState('generic');
  const act = useCallback(
    (run: () => Promise<Challenge>) => {
      setError(null);
      run()
        .then((c) => {
          if (c.status === 'accepted' && c.gameId) location.hash = `#/game/${c.gameId}`;
          else onChange();
        })
        .catch((err: unknown) => setError(sentence(err)));
    },
    [onChange],
  );
  if (list === null || (list.incoming.length === 0 && list.outgoing.length === 0)) return null;
  const path = (id: string) => ({ params: { path: { id } } });
  return (
    <section aria-labelledby="challenges-h">
      <h2 id="challenges-h">Challenges</h2>
      {error && (
        <p role="alert" className="error">
          {error}
        </p>
      )}
      <ul className="list">
        {list.incoming.map((c) => (
          <li key={c.id} aria-label={`Challenge from ${c.challenger.displayName}`}>
            <strong>{c.challenger.displayName}</strong> challenges you: {what(c)}
            {c.message && <q className="muted"> {c.message}</q>}{' '}
            <button
              type="button"
              onClick={() => act(async () => unwrap(await api.POST('/v1/challenges/{id}/accept', path(c.id))))}
            >
              Accept
            </button>{' '}
            <select aria-label="Reason" value={reason} onChange={(e) => setReason(e.target.value)}>
              {REASONS.map(([v, label]) => (
                <option key={v} value={v}>
                  {label}
                </option>
              ))}
            </select>{' '}
            <button
              type="button"
              onClick={() =>
                act(async () =>
                  unwrap(
                    await api.POST('/v1/challenges/{id}/decline', {
                      ...path(c.id),
                      body: { reason: reason as 'generic' },
                    }),
                  ),
                )
              }
            >
              Decline
            </button>
          </li>
        ))}
        {list.outgoing.map((c) => (
          <li key={c.id}>
            You challenged{' '}
            {c.opponent ? (
              <strong>{c.opponent.displayName}</strong>
            ) : (
              <a href={`#/challenge/${c.id}`}>anyone with the link</a>
            )}
            : {what(c)}{' '}
            <button
              type="button"
              onClick={() => act(async () => unwrap(await api.POST('/v1/challenges/{id}/cancel', path(c.id))))}
            >
              Cancel
            </button>
          </li>
        ))}
      </ul>
      <OpenChallenge />
    </section>
  );
}

/** Make an open challenge: anyone with its link may accept it. */
export function OpenChallenge() {
  const [on, setOn] = useState(false);
  if (!on)
    return (
      <button type="button" onClick={() => setOn(true)}>
        Challenge anyone with a link
      </button>
    );
  return <ChallengeForm opponentId={null} onMade={(c) => (location.hash = `#/challenge/${c.id}`)} />;
}

/** A challenge's page: the link of an open challenge; accept, decline or cancel it here. */
export function ChallengePage({ challengeId, me }: { challengeId: string; me: StoredPlayer }) {
  const [c, setC] = useState<Challenge | null>(null);
  const [error, setError] = useState<string | null>(null);
  const load = useCallback(() => {
    api
      .GET('/v1/challenges/{id}', { params: { path: { id: challengeId } } })
      .then(unwrap)
      .then(setC)
      .catch((err: unknown) => setError(sentence(err)));
  }, [challengeId]);
  useEffect(load, [load]);
  const act = (run: () => Promise<Challenge>) => {
    setError(null);
    run()
      .then((next) => {
        if (next.status === 'accepted' && next.gameId) location.hash = `#/game/${next.gameId}`;
        else setC(next);
      })
      .catch((err: unknown) => setError(sentence(err)));
  };
  const path = { params: { path: { id: challengeId } } };
  const mine = c?.challenger.id === me.id;
  const forMe = c !== null && !mine && (c.open || c.opponent?.id === me.id);
  return (
    <div className="challenge-page">
      <h1>Challenge</h1>
      {error && (
        <p role="alert" className="error">
          {error}
        </p>
      )}
      {c && (
        <>
          <p>
            <strong>{c.challenger.displayName}</strong> challenges{' '}
            {c.open ? 'anyone with this link' : c.opponent?.displayName}: {what(c)}
          </p>
          {c.message && <blockquote>{c.message}</blockquote>}
          <p role="status">
            {c.status === 'pending'
              ? `Waiting for an answer until ${new Date(c.expiresAt).toLocaleString()}.`
              : `This challenge is ${c.status}.`}
          </p>
          {c.status === 'pending' && mine && c.open && (
            <p>
              Share this page’s address: <code>{location.href}</code>
            </p>
          )}
          {c.status === 'pending' && forMe && (
            <button
              type="button"
              onClick={() => act(async () => unwrap(await api.POST('/v1/challenges/{id}/accept', path)))}
            >
              Accept
            </button>
          )}{' '}
          {c.status === 'pending' && forMe && !c.open && (
            <button
              type="button"
              onClick={() =>
                act(async () => unwrap(await api.POST('/v1/challenges/{id}/decline', { ...path, body: {} })))
              }
            >
              Decline
            </button>
          )}
          {c.status === 'pending' && mine && (
            <button
              type="button"
              onClick={() => act(async () => unwrap(await api.POST('/v1/challenges/{id}/cancel', path)))}
            >
              Cancel
            </button>
          )}
          {c.gameId && (
            <p>
              <a href={`#/game/${c.gameId}`}>Go to the game</a>
            </p>
          )}
        </>
      )}
    </div>
  );
}
