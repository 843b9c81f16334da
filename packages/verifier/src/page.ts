/**
 * The browser side of the self-contained verifier page (dist/verify.html, served at GET /verify).
 * Bundled with @fairdice/core and @noble/hashes into the page's one inline script (build.js):
 * the same verifyBundle as `fairdice verify` and the `fairdice-verify` package. No network: the
 * bundle file is read locally (drop or file picker), nothing leaves the page.
 *
 * Options: the commitment written down before play, chain heads published during play, and the
 * transparency log's public key (as `fairdice verify --commitment/--head/--log-key`).
 *
 * For tests and scripts, #verdict carries the outcome as data attributes: data-status
 * (verified | failed | incomplete | error), data-failed-check, data-first-bad-version.
 */
import { exitCodeOf, verifyBundle, type VerifyOptions, type VerifyReport } from '@fairdice/core/fairness/verifier';
import { EXIT_FAILED, EXIT_OK, verdictLine } from '@fairdice/core/fairness/verify-command';

const $ = <T extends HTMLElement>(id: string): T => {
  const el = document.getElementById(id);
  if (!el) throw new Error(`#${id} is missing from the page`);
  return el as T;
};

function el<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  text?: string,
  className?: string,
): HTMLElementTagNameMap[K] {
  const e = document.createElement(tag);
  if (text !== undefined) e.textContent = text;
  if (className) e.className = className;
  return e;
}

const HEX64 = /^[0-9a-f]{64}$/;

const MARK: Record<string, string> = { pass: 'PASS', fail: 'FAIL', skipped: 'SKIP' };

function optionsFromForm(): VerifyOptions | string {
  const commitment = $<HTMLInputElement>('commitment').value.trim().toLowerCase();
  const heads = $<HTMLTextAreaElement>('heads')
    .value.split(/\s+/)
    .map((h) => h.trim().toLowerCase())
    .filter((h) => h !== '');
  if (commitment !== '' && !HEX64.test(commitment)) return 'the commitment must be 64 hex digits';
  if (heads.some((h) => !HEX64.test(h))) return 'each published head must be 64 hex digits';
  // The same option as the command line's --log-key: checks the tree head's signature (log-signature)
  // and requires the bundle's inclusion proof (log-inclusion), docs/fairness.md §9.4.
  const logKey = $<HTMLInputElement>('log-key').value.trim().toLowerCase();
  if (logKey !== '' && !HEX64.test(logKey)) return 'the log public key must be 64 hex digits (an Ed25519 public key)';
  return {
    ...(commitment !== '' ? { commitment } : {}),
    ...(heads.length ? { heads } : {}),
    ...(logKey !== '' ? { logKey } : {}),
  };
}

/** The command line's verdict line, and the outcome as the exit code would say it. */
function verdictOf(report: VerifyReport): { status: string; text: string } {
  const code = exitCodeOf(report);
  const status = code === EXIT_OK ? 'verified' : code === EXIT_FAILED ? 'failed' : 'incomplete';
  return { status, text: verdictLine(report, code) };
}

function showError(message: string): void {
  const verdict = $('verdict');
  verdict.textContent = message;
  verdict.dataset.status = 'error';
  delete verdict.dataset.failedCheck;
  delete verdict.dataset.firstBadVersion;
  $('report').hidden = false;
  $('details').hidden = true;
}

function render(report: VerifyReport, fileName: string): void {
  const verdict = $('verdict');
  const v = verdictOf(report);
  verdict.textContent = v.text;
  verdict.dataset.status = v.status;
  if (report.failure) verdict.dataset.failedCheck = report.failure.name;
  else delete verdict.dataset.failedCheck;
  if (report.firstBadVersion !== null) verdict.dataset.firstBadVersion = String(report.firstBadVersion);
  else delete verdict.dataset.firstBadVersion;
  verdict.className = `verdict ${v.status}`;
  $('file-name').textContent = fileName;

  const summary = $('summary');
  summary.replaceChildren();
  const s = report.summary;
  if (s) {
    const rows: Array<[string, string]> = [
      ['game', s.gameId],
      ['rule set', `${s.ruleSet} (${s.family}), status ${s.status}`],
      [
        'players',
        s.players
          .map(
            (p) =>
              `seat ${p.seat} ${p.playerId ?? 'computer'}${p.displayName ? ` (${p.displayName})` : ''}, client seed ${p.clientSeed}`,
          )
          .join('\n'),
      ],
      ['rolls', String(s.rolls)],
      ['events', String(s.events)],
      ['totals', s.totals.map((t) => `seat ${t.seat}: ${t.total}`).join(', ') || '-'],
      [
        'ranking',
        s.ranking.map((r) => `${r.rank}. seat ${r.seat} (${r.score}${r.quit ? ', quit' : ''})`).join('  ') || '-',
      ],
      ['chain head', s.head],
      ['server seed', s.serverSeedRevealed ? 'revealed' : 'not revealed yet'],
    ];
    for (const [k, val] of rows) summary.append(el('dt', k), el('dd', val));
  }

  const body = $('checks');
  body.replaceChildren();
  for (const c of report.checks) {
    const tr = el('tr', undefined, c.status);
    tr.dataset.check = c.name;
    tr.dataset.status = c.status;
    tr.append(
      el('td', c.name),
      el('td', MARK[c.status] ?? c.status, 'mark'),
      el('td', c.status === 'fail' && typeof c.version === 'number' ? String(c.version) : ''),
      el('td', c.detail ?? ''),
    );
    body.append(tr);
  }

  $('proved-title').textContent = report.ok
    ? 'What this proves'
    : 'Checks that passed (the bundle as a whole is NOT verified: see the failure above)';
  // The verifier's own claims (the command line prints the same): what is proved, what is not.
  const proved = $('proved');
  proved.replaceChildren();
  const notProved = $('not-proved');
  notProved.replaceChildren();
  for (const c of report.claims) {
    const li = el('li', `${c.status === 'failed' ? 'FAILED: ' : ''}${c.statement}${c.detail ? ` (${c.detail})` : ''}`);
    li.dataset.claim = c.id;
    (c.status === 'proved' ? proved : notProved).append(li);
  }
  $('report').hidden = false;
  $('details').hidden = false;
}

let lastFile: { name: string; text: string } | null = null;

function verifyText(name: string, text: string): void {
  lastFile = { name, text };
  const options = optionsFromForm();
  if (typeof options === 'string') return showError(`Cannot verify: ${options}.`);
  let bundle: unknown;
  try {
    bundle = JSON.parse(text);
  } catch (err) {
    return showError(`Cannot verify ${name}: not JSON (${(err as Error).message}).`);
  }
  render(verifyBundle(bundle, options), name);
}

function readFile(file: File): void {
  const reader = new FileReader();
  reader.onload = () => verifyText(file.name, typeof reader.result === 'string' ? reader.result : '');
  reader.onerror = () => showError(`Cannot read ${file.name}.`);
  reader.readAsText(file);
}

function main(): void {
  const input = $<HTMLInputElement>('file');
  input.addEventListener('change', () => {
    const f = input.files?.[0];
    if (f) readFile(f);
  });
  const drop = $('drop');
  drop.addEventListener('dragover', (e) => {
    e.preventDefault();
    drop.classList.add('over');
  });
  drop.addEventListener('dragleave', () => drop.classList.remove('over'));
  drop.addEventListener('drop', (e) => {
    e.preventDefault();
    drop.classList.remove('over');
    const f = e.dataTransfer?.files?.[0];
    if (f) readFile(f);
  });
  // Dropping a file anywhere else must not navigate away from the page.
  window.addEventListener('dragover', (e) => e.preventDefault());
  window.addEventListener('drop', (e) => e.preventDefault());
  $('options').addEventListener('change', () => {
    if (lastFile) verifyText(lastFile.name, lastFile.text);
  });
  document.body.dataset.ready = 'true';
}

main();
