/**
 * One tournament (#/tournament/<id>): its settings and commitment, registering (with a seed made in
 * this browser) and withdrawing, my games, the live standings (the SDK's SSE reader), the
 * organizer's close / start / cancel, and once it has ended its audit bundle verified here with
 * @fairdice/core's tournament verifier (the same code as `fairdice verify-tournament`).
 */
import { useCallback, useEffect, useRef, useState, type FormEvent, type ReactNode } from 'react';
import { verifyTournamentBundle, type TournamentVerifyReport } from '@fairdice/core/fairness/tournament-verifier';
import {
  api,
  followStandings,
  notedCommitment,
  randomSeed,
  unwrap,
  type StoredPlayer,
  type Tournament,
  type TournamentStandings,
} from './api';
import { FORMAT_TITLES, RefusalLine, TOURNAMENT_STATUS, refusalOf, type Refusal } from './tournaments';
import { RULE_SET_TITLES } from './util';

type Command = () => Promise<{ data?: Tournament; error?: unknown; response: Response }>;
/** Sends a tournament command; true when the service accepted it. */
type Run = (command: Command) => Promise<boolean>;

const ended = (t: Tournament) => t.status === 'finished' || t.status === 'cancelled';

export function TournamentPage({ tournamentId, me }: { tournamentId: string; me: StoredPlayer }) {
  const [t, setT] = useState<Tournament | null>(null);
  const [standings, setStandings] = useState<TournamentStandings | null>(null);
  const [live, setLive] = useState(true);
  const [refusal, setRefusal] = useState<Refusal | null>(null);
  const [busy, setBusy] = useState(false);
  const version = useRef(0);
  const accept = useCallback((next: Tournament) => {
    if (next.version < version.current) return; // an older answer arriving late
    version.current = next.version;
    notedCommitment(next.id, next.commitment);
    setT(next);
  }, []);
  const refresh = useCallback(async () => {
    try {
      accept(unwrap(await api.GET('/v1/tournaments/{id}', { params: { path: { id: tournamentId } } })));
    } catch (err) {
      setRefusal(refusalOf(err));
    }
  }, [accept, tournamentId]);
  const standingsVersion = useRef(-1);
  const showStandings = useCallback((s: TournamentStandings) => {
    if (s.version < standingsVersion.current) return; // the stream already gave newer ones
    standingsVersion.current = s.version;
    setStandings(s);
  }, []);
  // Every change of the tournament (a registration, the close, the start, a round's end) is pushed as
  // standings of a newer version, and every (re)connection starts with the current ones: the page
  // re-reads the tournament then, and does not poll (decision 0069).
  useEffect(() => {
    const controller = new AbortController();
    void followStandings(
      tournamentId,
      (s) => {
        showStandings(s);
        // Standings of a newer tournament version: a round started or ended, someone registered…
        if (s.version > version.current) void refresh();
      },
      setLive,
      controller.signal,
    );
    return () => controller.abort();
  }, [tournamentId, refresh, showStandings]);

  const run: Run = useCallback(
    async (command) => {
      setBusy(true);
      setRefusal(null);
      try {
        accept(unwrap(await command()));
        return true;
      } catch (err) {
        setRefusal(refusalOf(err));
        void refresh();
        return false;
      } finally {
        setBusy(false);
      }
    },
    [accept, refresh],
  );

  if (!t) return refusal ? <RefusalLine refusal={refusal} /> : <p>Loading the tournament…</p>;
  const over = ended(t);
  return (
    <div className="tournament">
      <div className="game-head">
        <h1>
          {t.name} <span className="muted">· {TOURNAMENT_STATUS[t.status]}</span>
        </h1>
        <span role="status" className={live || over ? 'live' : 'live off'}>
          {over ? '' : live ? 'Live' : 'Reconnecting…'}
        </span>
      </div>
      <RefusalLine refusal={refusal} />
      <Settings t={t} />
      <Commitment t={t} />
      <Entry t={t} me={me} run={run} busy={busy} />
      <MyGames t={t} me={me} />
      <Standings t={t} standings={standings} me={me} />
      {t.organizerId === me.id && !over && <Organizer t={t} run={run} busy={busy} />}
      {over && <TournamentAudit t={t} />}
    </div>
  );
}

function Settings({ t }: { t: Tournament }) {
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

function Commitment({ t }: { t: Tournament }) {
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

function Entry({ t, me, run, busy }: { t: Tournament; me: StoredPlayer; run: Run; busy: boolean }) {
  const mine = t.entrants.find((e) => e.playerId === me.id);
  const path = { params: { path: { id: t.id } } };
  return (
    <section aria-labelledby="entry-h">
      <h2 id="entry-h">Your entry</h2>
      {!mine ? (
        t.status === 'registering' ? (
          <>
            <p className="muted">Your seed is made in this browser and becomes part of every round seed.</p>
            <button
              type="button"
              className="primary"
              disabled={busy}
              onClick={() =>
                void run(() =>
                  api.POST('/v1/tournaments/{id}/entrants', { ...path, body: { clientSeed: randomSeed() } }),
                )
              }
            >
              Register
            </button>
          </>
        ) : (
          <p>You are not an entrant; registration is closed.</p>
        )
      ) : (
        <>
          <p>
            You are entrant {mine.number}
            {mine.status !== 'active' ? ` (${mine.status}${mine.reason ? `: ${mine.reason}` : ''})` : ''}. Your seed:{' '}
            <code className="hash">{mine.clientSeed}</code>
          </p>
          {mine.status === 'active' && !ended(t) && (
            <ReasonForm
              summary="Withdraw from this tournament"
              explain="You are seated in no later round; a game you are playing goes on. Your results so far stay."
              button="Withdraw"
              busy={busy}
              onConfirm={(reason) =>
                run(() =>
                  api.POST('/v1/tournaments/{id}/entrants/{playerId}/withdraw', {
                    params: { path: { id: t.id, playerId: me.id } },
                    body: { reason },
                  }),
                )
              }
            />
          )}
        </>
      )}
    </section>
  );
}

function MyGames({ t, me }: { t: Tournament; me: StoredPlayer }) {
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

function Standings({ t, standings, me }: { t: Tournament; standings: TournamentStandings | null; me: StoredPlayer }) {
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

function Organizer({ t, run, busy }: { t: Tournament; run: Run; busy: boolean }) {
  const path = { params: { path: { id: t.id } } };
  return (
    <section aria-labelledby="organizer-h">
      <h2 id="organizer-h">Organizer</h2>
      <div className="actions">
        {t.status === 'registering' && (
          <button
            type="button"
            disabled={busy}
            onClick={() => void run(() => api.POST('/v1/tournaments/{id}/close', { ...path, body: {} }))}
          >
            Close registration
          </button>
        )}
        {(t.status === 'registering' || t.status === 'closed') && (
          <button
            type="button"
            className="primary"
            disabled={busy}
            onClick={() => void run(() => api.POST('/v1/tournaments/{id}/start', { ...path, body: {} }))}
          >
            Start the tournament
          </button>
        )}
      </div>
      <ReasonForm
        summary="Cancel this tournament"
        explain="The reason is recorded and the tournament seed revealed; games already running go on as ordinary games."
        button="Cancel the tournament"
        busy={busy}
        onConfirm={(reason) => run(() => api.POST('/v1/tournaments/{id}/cancel', { ...path, body: { reason } }))}
      />
    </section>
  );
}

/** A step that needs a confirmation and a recorded reason (withdraw, cancel). */
function ReasonForm(props: {
  summary: string;
  explain: string;
  button: string;
  busy: boolean;
  onConfirm: (reason: string) => Promise<boolean>;
}) {
  const [reason, setReason] = useState('');
  const submit = (e: FormEvent) => {
    e.preventDefault();
    void props.onConfirm(reason.trim());
  };
  return (
    <details className="quit">
      <summary>{props.summary}</summary>
      <form onSubmit={submit}>
        <p>{props.explain}</p>
        <label>
          Reason <input value={reason} onChange={(e) => setReason(e.target.value)} required maxLength={500} />
        </label>{' '}
        <button type="submit" disabled={props.busy || !reason.trim()}>
          {props.button}
        </button>
      </form>
    </details>
  );
}

/** The whole tournament's audit bundle once it has ended: a download, and verified here. */
function TournamentAudit({ t }: { t: Tournament }) {
  const noted = notedCommitment(t.id, t.commitment);
  const [download, setDownload] = useState<string | null>(null);
  const [report, setReport] = useState<TournamentVerifyReport | null>(null);
  const [sameCommitment, setSameCommitment] = useState(true);
  const [refusal, setRefusal] = useState<Refusal | null>(null);
  useEffect(() => {
    let url: string | null = null;
    api
      .GET('/v1/tournaments/{id}/audit', { params: { path: { id: t.id } } })
      .then(unwrap)
      .then((bundle) => {
        url = URL.createObjectURL(new Blob([JSON.stringify(bundle, null, 2)], { type: 'application/json' }));
        setDownload(url);
        setSameCommitment(bundle.commitment === noted);
        setReport(verifyTournamentBundle(bundle));
      })
      .catch((err: unknown) => setRefusal(refusalOf(err)));
    return () => {
      if (url) URL.revokeObjectURL(url);
    };
  }, [t.id, noted]);
  const ok = !!report?.ok && sameCommitment;
  return (
    <section aria-labelledby="audit-h" className="trust">
      <h2 id="audit-h">Audit</h2>
      <RefusalLine refusal={refusal} />
      {report && (
        <div className={ok ? 'verdict ok' : 'verdict bad'} role="status" data-testid="tournament-verdict">
          <p>
            <strong>
              {ok
                ? 'Verified: every seed, draw, game and result of this tournament checks out.'
                : !sameCommitment
                  ? `The bundle's commitment is not the one this browser noted (${noted}).`
                  : `Not verified: ${report.failure?.name}${report.failure?.detail ? `: ${report.failure.detail}` : ''}.`}
            </strong>{' '}
            ({report.checks.filter((c) => c.ok).length} checks passed)
          </p>
          <details>
            <summary>Every check</summary>
            <ul>
              {report.checks.map((c) => (
                <li key={c.name}>
                  {c.ok ? '✔' : '✘'} {c.name}
                  {c.detail ? `: ${c.detail}` : ''}
                </li>
              ))}
            </ul>
          </details>
        </div>
      )}
      {download && (
        <p>
          <a href={download} download={`fairdice-tournament-${t.id}.json`}>
            Download the tournament’s audit bundle
          </a>{' '}
          <span className="muted">
            (check it offline with <code>npx fairdice verify</code>)
          </span>
        </p>
      )}
    </section>
  );
}
