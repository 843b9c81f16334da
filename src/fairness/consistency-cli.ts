/**
 * `fairdice consistency <older-head> <newer-head> <proof> --log-key <64-hex> [--json]`
 *
 * An organizer's fork check (docs/fairness.md §9.6), offline: each argument is a file (`-` for
 * standard input is not supported here) or an http(s) URL — typically an archived
 * GET /v1/transparency/tree-head, the current one, and
 * GET /v1/transparency/consistency?first=<older size>&second=<newer size>. Both heads must be
 * signed by the log key and the proof must show the older tree is a prefix of the newer one.
 *
 * Exit codes: 0 consistent, 1 not (a fork, a shrunk log, a bad signature), 2 usage or input error.
 */
import { readFile } from 'node:fs/promises';
import { checkHeadConsistency } from '@fairdice/core/fairness/log-proof';

export const CONSISTENCY_USAGE = `usage: fairdice consistency <older-head> <newer-head> <proof> --log-key <64-hex> [--json]

Checks that the transparency log shown now extends a tree head you archived (docs/fairness.md §9.6).
Each of <older-head>, <newer-head>, <proof> is a file or an http(s) URL, e.g.
  older-head.json  (saved earlier from GET /v1/transparency/tree-head)
  https://host/v1/transparency/tree-head
  https://host/v1/transparency/consistency?first=<older size>&second=<newer size>

exit codes: 0 consistent, 1 not consistent (fork, shrunk log, bad signature), 2 usage/input error`;

async function load(source: string): Promise<unknown> {
  if (/^https?:\/\//i.test(source)) {
    const res = await fetch(source, { headers: { accept: 'application/json' } });
    if (!res.ok) throw new Error(`GET ${source}: HTTP ${res.status}`);
    return JSON.parse(await res.text());
  }
  return JSON.parse(await readFile(source, 'utf8'));
}

export async function consistencyMain(
  argv: string[],
  out: (s: string) => void,
  err: (s: string) => void,
): Promise<number> {
  const files: string[] = [];
  let logKey: string | undefined;
  let json = false;
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--help' || a === '-h') {
      out(CONSISTENCY_USAGE);
      return 0;
    } else if (a === '--json') json = true;
    else if (a === '--log-key' || a.startsWith('--log-key=')) {
      const k = a === '--log-key' ? argv[++i] : a.slice('--log-key='.length);
      if (k === undefined || !/^[0-9a-fA-F]{64}$/.test(k)) {
        err(`fairdice: --log-key needs 64 hex digits (an Ed25519 public key)\n${CONSISTENCY_USAGE}`);
        return 2;
      }
      logKey = k.toLowerCase();
    } else if (a.startsWith('-')) {
      err(`fairdice: unknown option ${a}\n${CONSISTENCY_USAGE}`);
      return 2;
    } else files.push(a);
  }
  if (files.length !== 3 || logKey === undefined) {
    err(`fairdice: consistency needs <older-head> <newer-head> <proof> and --log-key\n${CONSISTENCY_USAGE}`);
    return 2;
  }
  const loaded: unknown[] = [];
  for (const f of files) {
    try {
      loaded.push(await load(f));
    } catch (e) {
      err(`fairdice: cannot read ${f}: ${(e as Error).message}`);
      return 2;
    }
  }
  const result = checkHeadConsistency(loaded[0], loaded[1], loaded[2], logKey);
  const code = result.ok ? 0 : 1;
  if (json) out(JSON.stringify({ exitCode: code, ...result }, null, 2));
  else {
    for (const c of result.checks) out(`${c.status === 'pass' ? 'PASS' : 'FAIL'}  ${c.name}: ${c.detail}`);
    out('');
    out(result.ok ? 'CONSISTENT: the newer head extends the archived one.' : 'NOT CONSISTENT: see the failed check.');
  }
  return code;
}
