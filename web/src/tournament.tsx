/**
 * One tournament (#/tournament/<id>): its settings and commitment, registering (with a seed made in
 * this browser) and withdrawing, my games, the live standings (the SDK's SSE reader), the
 * organizer's close / start / cancel, and once it has ended its audit bundle verified here with
 * @fairdice/core's tournament verifier (the same code as `fairdice verify-tournament`).
 */
import { useCallback, useEffect, useRef, useState } from 'react';
import {
  api,
  followStandings,
  notedCommitment,
  unwrap,
  type StoredPlayer,
  type Tournament,
  type TournamentStandings,
} from './api';
import { RefusalLine, TOURNAMENT_STATUS, refusalOf, type Refusal } from './tournaments';
import { ended, Entry, Organizer, type Run } from './tournament-actions';
import { TournamentAudit } from './tournament-audit';
import { Commitment, MyGames, Settings, Standings } from './tournament-views';

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
