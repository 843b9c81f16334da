/** A tournament page's read-only sections: its settings, its commitment, my games and the live standings. */
import type { ReactNode } from 'react';
import { notedCommitment, type StoredPlayer, type Tournament, type TournamentStandings } from './api';
import { FORMAT_TITLES } from './tournaments';
import { RULE_SET_TITLES } from './util';

export function Settings({ t }: { t: Tournament }) {
  const rows: Array<[string, ReactNode]> = [
    ['Organizer', t.organizerName ?? 'unnamed'],
    ['Rule set', RULE_SET_TITLES[t.ruleSet]],
    ['Format', FORMAT_TITLES[t.format]],
    ['Entrants', `${t.entrants.filter((e) => e.status === 'active').length} of ${t.maxEntrants}`],
    ['Rounds', `${t.roundDetails.length} of ${t.rounds} started`],
    ['Games per round', t.gamesPerRound],
    ...(t.format === 'tables'
      ? [['Players per table', `${t.tableSizeMin} to ${t.tableSizeMax}`] as [string, string]]
      : []),
    ['Time per move', t.turnTimeLimitSeconds ? `${t.turnTimeLimitSeconds} s` : 'no limit'],
    ['Visibility', t.visibility],
  ];
  if (t.cancelReason) rows.push(['Cancelled because', t.cancelReason]);
  return (
    <section aria-labelledby="settings-h">
      <h2 id="settings-h">Settings</h2>
      <dl className="settings">
        {rows.map(([term, value]) => (
          <div key={term}>
            <dt>{term}</dt>
            <dd>{value}</dd>
          </div>
        ))}
      </dl>
    </section>
  );
}

export function Commitment({ t }: { t: Tournament }) {
  const noted = notedCommitment(t.id, t.commitment);
  return (
    <section aria-labelledby="commitment-h" className="trust">
      <h2 id="commitment-h">Fairness</h2>
      <p>
        Commitment:{' '}
        <code className="hash" data-testid="tournament-commitment">
          {t.commitment}
        </code>
      </p>
      <p className="muted">
        The hash of the tournament seed, published before anyone registered: every round’s dice come from it, the
        organizer’s seed and every entrant’s seed, so nobody could choose it knowing the others.
      </p>
      {noted && noted !== t.commitment && (
        <p role="alert" className="error">
          This browser noted a different commitment for this tournament ({noted}).
        </p>
      )}
      {t.organizerSeed && (
        <p>
          Organizer seed: <code className="hash">{t.organizerSeed}</code>
        </p>
      )}
      {t.tournamentSeed && (
        <p>
          Tournament seed (revealed): <code className="hash">{t.tournamentSeed}</code>
        </p>
      )}
    </section>
  );
}

export function MyGames({ t, me }: { t: Tournament; me: StoredPlayer }) {
  const number = t.entrants.find((e) => e.playerId === me.id)?.number;
  if (number === undefined) return null;
  const games = t.roundDetails.flatMap((r) =>
    r.games.filter((g) => g.entrants.includes(number)).map((g) => ({ ...g, round: r.round })),
  );
  return (
    <section aria-labelledby="my-games-h">
      <h2 id="my-games-h">Your games</h2>
      {games.length === 0 ? (
        <p>None yet: the games are created when a round starts.</p>
      ) : (
        <ul className="list">
          {games.map((g) => (
            <li key={g.gameId}>
              <a href={`#/game/${g.gameId}`}>
                Round {g.round}, game {g.game + 1}
                {t.format === 'tables' ? `, table ${g.table + 1}` : ''}
              </a>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

export function Standings({
  t,
  standings,
  me,
}: {
  t: Tournament;
  standings: TournamentStandings | null;
  me: StoredPlayer;
}) {
  const duplicateRoundRunning = t.format === 'duplicate' && t.roundDetails.some((r) => !r.finished);
  return (
    <section aria-labelledby="standings-h">
      <h2 id="standings-h">Standings</h2>
      {standings === null ? (
        <p>Loading the standings…</p>
      ) : standings.rows.length === 0 ? (
        <p>Nobody has registered yet.</p>
      ) : (
        <div className="table-scroll" role="region" aria-labelledby="standings-caption" tabIndex={0} aria-live="polite">
          <table className="stats standings-table">
            <caption id="standings-caption">
              {standings.status === 'finished' ? 'Final standings' : 'Standings now'}
              {standings.live ? ' (running games counted as they stand)' : ''}
            </caption>
            <thead>
              <tr>
                <th scope="col">Rank</th>
                <th scope="col">Player</th>
                <th scope="col">Total score</th>
                <th scope="col">Match points</th>
                <th scope="col">Best game</th>
                <th scope="col">Games</th>
              </tr>
            </thead>
            <tbody>
              {standings.rows.map((r) => (
                <tr key={r.playerId} className={r.playerId === me.id ? 'me-row' : undefined}>
                  <td>{r.tied ? `${r.rank}=` : r.rank}</td>
                  <th scope="row">
                    {r.displayName ?? `Entrant ${r.entrant}`}
                    {r.status !== 'active' ? ` (${r.status})` : ''}
                  </th>
                  <td>{r.totalScore}</td>
                  <td>{r.matchPoints}</td>
                  <td>{r.bestGame}</td>
                  <td>{r.gamesPlayed}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {duplicateRoundRunning && (
        <p className="muted">A duplicate round counts when all its games have ended: everyone plays the same dice.</p>
      )}
    </section>
  );
}
