/** A tournament page's audit section: the bundle, downloaded and verified in this browser (@fairdice/core's tournament verifier). */
import { useEffect, useState } from 'react';
import { verifyTournamentBundle, type TournamentVerifyReport } from '@fairdice/core/fairness/tournament-verifier';
import { api, notedCommitment, unwrap, type Tournament } from './api';
import { RefusalLine, refusalOf, type Refusal } from './tournaments';

/** The whole tournament's audit bundle once it has ended: a download, and verified here. */
export function TournamentAudit({ t }: { t: Tournament }) {
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
