/**
 * My record (per rule set), my games (with the analysis of each finished five-dice game), and the
 * replay of a game move by move (the state at each version; #/replay/<id>/<version> starts there).
 */
import { useEffect, useState } from 'react';
import { noAnalysis } from './analysis';
import { api, sentence, unwrap, type GameSummary, type GameView, type Me, type StoredPlayer } from './api';
import { FarkleBoard } from './farkle';
import { FiveDiceBoard } from './five-dice';
import { RULE_SET_TITLES, type Act } from './util';

export function Profile({ onSignOut }: { onSignOut: () => void }) {
  const [me, setMe] = useState<Me | null>(null);
  const [games, setGames] = useState<GameSummary[]>([]);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    Promise.all([
      api.GET('/v1/players/me').then(unwrap),
      api.GET('/v1/games', { params: { query: { scope: 'mine', limit: 50 } } }).then(unwrap),
    ])
      .then(([m, g]) => {
        setMe(m);
        setGames(g.items);
      })
      .catch((err: unknown) => setError(sentence(err)));
  }, []);
  const finished = games.filter((g) => g.status === 'finished');
  return (
    <div className="profile">
      <h1>{me?.displayName ?? 'Profile'}</h1>
      {error && (
        <p role="alert" className="error">
          {error}
        </p>
      )}
      {me && (
        <table className="stats">
          <caption>Your record</caption>
          <thead>
            <tr>
              <th scope="col">Rule set</th>
              <th scope="col">Finished</th>
              <th scope="col">Solo best</th>
              <th scope="col">Wins</th>
              <th scope="col">Losses</th>
              <th scope="col">Ties</th>
            </tr>
          </thead>
          <tbody>
            {me.stats.map((s) => (
              <tr key={s.ruleSet}>
                <th scope="row">{RULE_SET_TITLES[s.ruleSet]}</th>
                <td>{s.gamesFinished}</td>
                <td>{s.soloBestScore ?? '—'}</td>
                <td>{s.wins}</td>
                <td>{s.losses}</td>
                <td>{s.ties}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <section aria-labelledby="history-h">
        <h2 id="history-h">Finished games</h2>
        {finished.length === 0 ? (
          <p>None yet.</p>
        ) : (
          <ul className="list">
            {finished.map((g) => (
              <li key={g.id}>
                {RULE_SET_TITLES[g.ruleSet]} · {new Date(g.updatedAt).toLocaleString()} ·{' '}
                <a href={`#/game/${g.id}`}>result and audit</a> · <a href={`#/replay/${g.id}`}>replay</a>
                {noAnalysis(g) === null && (
                  <>
                    {' '}
                    · <a href={`#/analysis/${g.id}`}>analysis</a>
                  </>
                )}
              </li>
            ))}
          </ul>
        )}
      </section>
      <button type="button" onClick={onSignOut}>
        Sign out of this browser
      </button>
    </div>
  );
}

const noAct: Act = () => Promise.resolve(false);

export function Replay({ gameId, start }: { gameId: string; me: StoredPlayer; start?: number }) {
  const [last, setLast] = useState<number | null>(null);
  const [analysable, setAnalysable] = useState(false);
  const [at, setAt] = useState(1);
  const [state, setState] = useState<GameView | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    api
      .GET('/v1/games/{id}', { params: { path: { id: gameId } } })
      .then(unwrap)
      .then((g) => {
        setLast(g.version);
        setAt(start ? Math.min(Math.max(1, start), g.version) : g.startedAt ? 1 : g.version);
        setAnalysable(noAnalysis(g) === null);
      })
      .catch((err: unknown) => setError(sentence(err)));
  }, [gameId, start]);
  useEffect(() => {
    if (last === null) return;
    api
      .GET('/v1/games/{id}/versions/{version}', { params: { path: { id: gameId, version: String(at) } } })
      .then(unwrap)
      .then(setState)
      .catch((err: unknown) => setError(sentence(err)));
  }, [gameId, at, last]);
  return (
    <div className="replay">
      <h1>Replay</h1>
      {error && (
        <p role="alert" className="error">
          {error}
        </p>
      )}
      {last !== null && (
        <div className="actions">
          <button type="button" disabled={at <= 1} onClick={() => setAt((v) => v - 1)}>
            Previous move
          </button>
          <label>
            Move <input type="range" min={1} max={last} value={at} onChange={(e) => setAt(Number(e.target.value))} />
          </label>
          <span role="status">
            Version {at} of {last}
          </span>
          <button type="button" disabled={at >= last} onClick={() => setAt((v) => v + 1)}>
            Next move
          </button>
        </div>
      )}
      {state?.fiveDice && <FiveDiceBoard game={state} myTurn={false} act={noAct} busy={false} readOnly />}
      {state?.farkle && <FarkleBoard game={state} myTurn={false} act={noAct} busy={false} readOnly />}
      {state && state.status === 'open' && <p>Before the start: seats are being taken.</p>}
      {state && state.dice.length > 0 && <p>Dice: {state.dice.join(' ')}</p>}
      <p>
        <a href={`#/game/${gameId}`}>Back to the game</a>
        {analysable && (
          <>
            {' '}
            · <a href={`#/analysis/${gameId}`}>Analysis</a>
          </>
        )}
      </p>
    </div>
  );
}
