/**
 * Play now and the open seeks (docs/matchmaking.md): a seek with the defaults below; the page
 * waits for gameStarted on my event stream (followed by the lobby) and opens the game. The list
 * shows the other players' open seeks; "Play" posts the same seek, which the matchmaker pairs.
 */
import { useCallback, useEffect, useRef, useState } from 'react';
import { api, sentence, unwrap, type Seek, type SeekInput, type StoredPlayer } from './api';
import { RULE_SET_TITLES } from './util';

/** Play now: penta, 2 seats, rated, 60 s per move, no rating bounds (the window around my rating). */
export const PLAY_NOW: SeekInput = { pool: 'penta', seats: 2, rated: true, turnTimeLimitSeconds: 60 };

/**
 * `gameStarted` tells the lobby a game of mine started: `onGameStarted` is the hook Home calls
 * with it (a ref, so that the lobby's stream is not reopened when the waiting seek changes).
 */
export function PlayNow({
  me,
  onGameStarted,
  changed,
}: {
  me: StoredPlayer;
  onGameStarted: { current: (() => void) | null };
  /** Bumped by the lobby when my events say something changed: the list is read again. */
  changed: number;
}) {
  const [waiting, setWaiting] = useState<Seek | null>(null);
  const [seeks, setSeeks] = useState<Seek[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const waitingRef = useRef<Seek | null>(null);
  waitingRef.current = waiting;

  const loadList = useCallback(async () => {
    try {
      setSeeks(unwrap(await api.GET('/v1/seeks', { params: { query: { limit: 50 } } })).items);
    } catch (err) {
      setError(sentence(err));
    }
  }, []);
  useEffect(() => {
    void loadList();
  }, [loadList, changed]);

  /** Opens the game once my waiting seek is paired (asked when gameStarted arrives, and once after posting). */
  const checkPaired = useCallback(async () => {
    const mine = waitingRef.current;
    if (!mine) return;
    const now = unwrap(await api.GET('/v1/seeks/{id}', { params: { path: { id: mine.id } } }));
    if (now.status === 'paired' && now.gameId) {
      setWaiting(null);
      location.hash = `#/game/${now.gameId}`;
    } else if (now.status === 'cancelled') setWaiting(null);
  }, []);
  useEffect(() => {
    onGameStarted.current = () => void checkPaired().catch((err: unknown) => setError(sentence(err)));
    return () => {
      onGameStarted.current = null;
    };
  }, [checkPaired, onGameStarted]);

  const seek = async (input: SeekInput) => {
    setBusy(true);
    setError(null);
    try {
      const posted = unwrap(await api.POST('/v1/seeks', { body: input }));
      waitingRef.current = posted;
      setWaiting(posted);
      // Paired before this page followed the answer: gameStarted may already have come.
      await checkPaired();
      void loadList();
    } catch (err) {
      setError(sentence(err));
    } finally {
      setBusy(false);
    }
  };
  const cancel = async () => {
    if (!waiting) return;
    setBusy(true);
    try {
      unwrap(await api.DELETE('/v1/seeks/{id}', { params: { path: { id: waiting.id } } }));
      setWaiting(null);
      void loadList();
    } catch (err) {
      // Paired meanwhile: the game is there.
      await checkPaired().catch(() => undefined);
      setError(sentence(err));
    } finally {
      setBusy(false);
    }
  };
  const others = (seeks ?? []).filter((s) => s.playerId !== me.id);
  return (
    <section aria-labelledby="play-now-h">
      <h2 id="play-now-h">Play now</h2>
      {error && (
        <p role="alert" className="error">
          {error}
        </p>
      )}
      {waiting ? (
        <p role="status">
          Looking for an opponent: {describeSeek(waiting)}…{' '}
          <button type="button" disabled={busy} onClick={() => void cancel()}>
            Stop looking
          </button>
        </p>
      ) : (
        <p>
          <button type="button" disabled={busy} onClick={() => void seek(PLAY_NOW)}>
            Play now
          </button>{' '}
          <span className="muted">{describeSeek(PLAY_NOW)}, against a player of similar rating</span>
        </p>
      )}
      <h3 id="seeks-h">Open seeks</h3>
      {seeks === null ? (
        <p>Loading…</p>
      ) : others.length === 0 ? (
        <p>Nobody else is looking for a game right now.</p>
      ) : (
        <ul className="list" aria-labelledby="seeks-h">
          {others.map((s) => (
            <li key={s.id}>
              {s.playerName} ({s.rating === null ? 'unrated' : Math.round(s.rating)}) · {describeSeek(s)}{' '}
              {!waiting && (
                <button
                  type="button"
                  disabled={busy}
                  aria-label={`Play ${s.playerName}: ${describeSeek(s)}`}
                  onClick={() =>
                    void seek({
                      pool: s.pool,
                      seats: s.seats,
                      rated: s.rated,
                      ...(s.turnTimeLimitSeconds !== null
                        ? { turnTimeLimitSeconds: s.turnTimeLimitSeconds as SeekInput['turnTimeLimitSeconds'] }
                        : {}),
                    })
                  }
                >
                  Play
                </button>
              )}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

function describeSeek(s: Pick<Seek, 'pool' | 'seats' | 'rated'> & { turnTimeLimitSeconds?: number | null }): string {
  const time = s.turnTimeLimitSeconds ? `${s.turnTimeLimitSeconds} s per move` : 'no time limit';
  return `${RULE_SET_TITLES[s.pool]} · ${s.seats} seats · ${s.rated ? 'rated' : 'casual'} · ${time}`;
}
