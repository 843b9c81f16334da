/**
 * Trust: the commitment from the start (noted in this browser at first sight), and once the game is
 * over the audit bundle verified here with @fairdice/core's verifier — the same code as
 * `fairdice verify` and the /verify page — against that noted commitment. Any bundle file can be
 * checked too (e.g. one kept from another device, or one somebody altered).
 */
import { useEffect, useState } from 'react';
import { verifyBundle, type VerifyReport } from '@fairdice/core/fairness/verifier';
import { verdictLine } from '@fairdice/core/fairness/verify-command';
import { api, notedCommitment, sentence, unwrap, type GameView } from './api';

interface Outcome {
  source: string;
  report: VerifyReport;
}

export function Trust({ game }: { game: GameView }) {
  const over = game.status === 'finished' || game.status === 'abandoned';
  const noted = notedCommitment(game.id, game.commitment);
  const [auto, setAuto] = useState<Outcome | null>(null);
  const [file, setFile] = useState<Outcome | null>(null);
  const [download, setDownload] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    if (!over) return;
    let url: string | null = null;
    api
      .GET('/v1/games/{id}/audit', { params: { path: { id: game.id } } })
      .then(unwrap)
      .then((bundle) => {
        const text = JSON.stringify(bundle, null, 2);
        url = URL.createObjectURL(new Blob([text], { type: 'application/json' }));
        setDownload(url);
        setAuto({ source: 'the audit bundle of this game', report: verifyBundle(bundle, { commitment: noted }) });
      })
      .catch((err: unknown) => setError(sentence(err)));
    return () => {
      if (url) URL.revokeObjectURL(url);
    };
  }, [over, game.id, noted]);

  return (
    <section aria-labelledby="trust-h" className="trust">
      <h2 id="trust-h">Fairness</h2>
      <p>
        Commitment (the hash of the server’s secret seed, fixed before any roll):{' '}
        <code className="hash" data-testid="commitment">
          {game.commitment}
        </code>
      </p>
      {noted && noted !== game.commitment && (
        <p role="alert" className="error">
          This browser noted a different commitment for this game ({noted}).
        </p>
      )}
      {!over && (
        <p className="muted">When the game ends, the server seed is revealed and this page checks every roll.</p>
      )}
      {error && (
        <p role="alert" className="error">
          {error}
        </p>
      )}
      {auto && <Verdict outcome={auto} />}
      {download && (
        <p>
          <a href={download} download={`fairdice-${game.id}.json`}>
            Download the audit bundle
          </a>
        </p>
      )}
      {over && (
        <p>
          <label>
            Verify a bundle file{' '}
            <input
              type="file"
              accept="application/json,.json"
              onChange={(e) => {
                const chosen = e.target.files?.[0];
                if (!chosen) return;
                void chosen.text().then((text) => {
                  let parsed: unknown;
                  try {
                    parsed = JSON.parse(text);
                  } catch {
                    setError(`${chosen.name} is not a JSON file.`);
                    return;
                  }
                  setError(null);
                  setFile({ source: chosen.name, report: verifyBundle(parsed, { commitment: noted }) });
                });
              }}
            />
          </label>
        </p>
      )}
      {file && <Verdict outcome={file} />}
    </section>
  );
}

function Verdict({ outcome }: { outcome: Outcome }) {
  const { report } = outcome;
  const passed = report.checks.filter((c) => c.status === 'pass').length;
  const skipped = report.checks.filter((c) => c.status === 'skipped').length;
  return (
    <div className={report.ok ? 'verdict ok' : 'verdict bad'} role="status" data-testid="verdict">
      <p>
        <strong>{verdictLine(report)}</strong> ({outcome.source}: {passed} checks passed
        {skipped ? `, ${skipped} skipped` : ''}
        {report.summary ? `, ${report.summary.rolls} rolls re-derived, ${report.summary.events} events chained` : ''})
      </p>
      <details>
        <summary>Every check</summary>
        <ul>
          {report.checks.map((c) => (
            <li key={c.name}>
              {c.status === 'pass' ? '✔' : c.status === 'fail' ? '✘' : '–'} {c.name}
              {c.detail ? `: ${c.detail}` : ''}
            </li>
          ))}
        </ul>
      </details>
    </div>
  );
}
