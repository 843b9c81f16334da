#!/usr/bin/env node
/**
 * `fairdice verify <file-or-url> [--commitment <64-hex>] [--head <64-hex>]... [--log-key <64-hex>] [--json] [--allow-unrevealed]`
 * `fairdice consistency <older-head> <newer-head> <proof> --log-key <64-hex> [--json]` (consistency-cli.ts)
 *
 * Verifies an audit bundle offline (docs/fairness.md §6) with the rules engine and the spec only:
 * no database, no Nest, no account. Reads a file, or fetches an http(s) URL with global fetch.
 *
 * Exit codes: 0 every check passed (dice included); 1 a check failed (the first event at fault is
 * named); 2 usage or input error (unreadable file, not JSON, HTTP error); 3 every check that could
 * run passed but the server seed is not revealed yet, so the dice could not be checked
 * (`--allow-unrevealed` turns this into 0).
 */
import { readFile } from 'node:fs/promises';
import { consistencyMain } from './consistency-cli';
import {
  EXIT_FAILED,
  EXIT_OK,
  EXIT_UNREVEALED,
  EXIT_USAGE,
  exitCodeOf,
  verifyBundle,
  type VerifyReport,
} from '@fairdice/core/fairness/verifier';

const USAGE = `usage: fairdice verify <file-or-url> [--commitment <64-hex>] [--head <64-hex>]... [--log-key <64-hex>] [--json] [--allow-unrevealed]
       fairdice consistency <older-head> <newer-head> <proof> --log-key <64-hex> [--json]   (docs/fairness.md §9.6)

Checks an audit bundle (GET /v1/games/{id}/audit): the commitment, every roll, every command
re-run through the rules, the replayed totals and ranking, and the hash chain.

  --commitment <hex>    the commitment you wrote down before play (from the create response):
                        the bundle must be of that game
  --head <hex>          a chain head published during play (repeatable): each must be the hash of
                        one version of the log; the final head proves the log complete
  --log-key <hex>       the transparency log's Ed25519 public key: checks the signed tree head
                        and requires the bundle's log inclusion proof (docs/fairness.md §9.4)
  --json                print the report as JSON (checks, and what was proved and what was not)
  --allow-unrevealed    exit 0 (not 3) when the game has not ended and the dice cannot be checked yet

exit codes: 0 verified, 1 a check failed, 2 usage/input error, 3 passed so far but the server seed is not revealed yet`;

interface Args {
  source: string;
  heads: string[];
  commitment?: string;
  logKey?: string;
  json: boolean;
  allowUnrevealed: boolean;
}

function parseArgs(argv: string[]): Args | string {
  const [cmd, ...rest] = argv;
  if (cmd === '--help' || cmd === '-h' || cmd === 'help') return 'help';
  if (cmd !== 'verify') return cmd === undefined ? 'missing command' : `unknown command ${cmd}`;
  let source: string | undefined;
  const out: Omit<Args, 'source'> = { json: false, allowUnrevealed: false, heads: [] };
  const HEX64 = /^[0-9a-fA-F]{64}$/;
  for (let i = 0; i < rest.length; i++) {
    const a = rest[i];
    const [flag, inline] =
      a.startsWith('--') && a.includes('=')
        ? [a.slice(0, a.indexOf('=')), a.slice(a.indexOf('=') + 1)]
        : [a, undefined];
    if (a === '--json') out.json = true;
    else if (a === '--allow-unrevealed') out.allowUnrevealed = true;
    else if (flag === '--head' || flag === '--commitment') {
      const h = inline ?? rest[++i];
      if (h === undefined || !HEX64.test(h)) return `${flag} needs 64 hex digits`;
      if (flag === '--head') out.heads.push(h.toLowerCase());
      else if (out.commitment !== undefined) return '--commitment may be given once';
      else out.commitment = h.toLowerCase();
    } else if (flag === '--log-key') {
      const k = inline ?? rest[++i];
      if (k === undefined || !HEX64.test(k)) return '--log-key needs 64 hex digits (an Ed25519 public key)';
      out.logKey = k.toLowerCase();
    } else if (a === '--help' || a === '-h') return 'help';
    else if (a.startsWith('-') && a !== '-') return `unknown option ${a}`;
    else if (source === undefined) source = a;
    else return `unexpected argument ${a}`;
  }
  if (source === undefined) return 'missing <file-or-url>';
  return { source, ...out };
}

async function load(source: string): Promise<string> {
  if (/^https?:\/\//i.test(source)) {
    const res = await fetch(source, { headers: { accept: 'application/json' } });
    if (!res.ok) throw new Error(`GET ${source}: HTTP ${res.status}`);
    return res.text();
  }
  if (source === '-') {
    const chunks: Buffer[] = [];
    for await (const c of process.stdin) chunks.push(c as Buffer);
    return Buffer.concat(chunks).toString('utf8');
  }
  return readFile(source, 'utf8');
}

const MARK = { pass: 'PASS', fail: 'FAIL', skipped: 'SKIP' } as const;

export function formatReport(report: VerifyReport, code: number): string {
  const lines: string[] = [];
  const s = report.summary;
  if (s) {
    lines.push(`game      ${s.gameId}`);
    lines.push(`rule set  ${s.ruleSet} (${s.family}), status ${s.status}`);
    lines.push('players');
    for (const p of s.players)
      lines.push(
        `  seat ${p.seat}  ${p.playerId}${p.displayName ? ` (${p.displayName})` : ''}  client seed ${p.clientSeed}`,
      );
    lines.push(`rolls     ${s.rolls}`);
    lines.push(`events    ${s.events}`);
    lines.push(`totals    ${s.totals.map((t) => `seat ${t.seat}: ${t.total}`).join(', ') || '-'}`);
    lines.push(
      `ranking   ${s.ranking.map((r) => `${r.rank}. seat ${r.seat} (${r.score}${r.quit ? ', quit' : ''})`).join('  ') || '-'}`,
    );
    lines.push(`head      ${s.head}`);
    lines.push(`seed      ${s.serverSeedRevealed ? 'revealed' : 'not revealed yet'}`);
    for (const o of s.seedOrigins)
      lines.push(
        `  ${o.seat === null ? 'organizer' : `seat ${o.seat}`} seed ${o.source === 'generated' ? 'generated by the service at the start' : o.afterCommitment ? `supplied after the commitment (${o.source}, event ${o.version})` : 'given before the commitment (create request)'}`,
      );
    lines.push('');
  }
  for (const c of report.checks) {
    const at = c.status === 'fail' && typeof c.version === 'number' ? ` [event version ${c.version}]` : '';
    lines.push(`${MARK[c.status]}  ${c.name}${at}${c.detail ? `: ${c.detail}` : ''}`);
  }
  lines.push('');
  const mark = { proved: 'PROVED    ', 'not-proved': 'NOT PROVED', failed: 'FAILED    ' } as const;
  for (const c of report.claims) lines.push(`${mark[c.status]}  ${c.statement}${c.detail ? ` (${c.detail})` : ''}`);
  lines.push('');
  if (code === EXIT_FAILED && report.failure) {
    const f = report.failure;
    lines.push(
      report.firstBadVersion !== null
        ? `FAILED: event version ${report.firstBadVersion} does not check out (${f.name}: ${f.detail})`
        : `FAILED: ${f.name}: ${f.detail}`,
    );
  } else if (code === EXIT_UNREVEALED || (!report.diceChecked && report.ok)) {
    lines.push(
      'NOT COMPLETE: everything checked so far passed, but the server seed is not revealed yet, so the dice cannot be checked yet.',
    );
  } else {
    lines.push('VERIFIED: every check passed.');
  }
  return lines.join('\n');
}

export async function main(
  argv: string[],
  out: (s: string) => void = (s) => process.stdout.write(s + '\n'),
  err: (s: string) => void = (s) => process.stderr.write(s + '\n'),
): Promise<number> {
  // `fairdice consistency …`: the organizer's fork check of archived tree heads (consistency-cli.ts).
  if (argv[0] === 'consistency') return consistencyMain(argv.slice(1), out, err);
  const args = parseArgs(argv);
  if (args === 'help') {
    out(USAGE);
    return EXIT_OK;
  }
  if (typeof args === 'string') {
    err(`fairdice: ${args}\n${USAGE}`);
    return EXIT_USAGE;
  }
  let bundle: unknown;
  try {
    bundle = JSON.parse(await load(args.source));
  } catch (e) {
    err(`fairdice: cannot read ${args.source}: ${(e as Error).message}`);
    return EXIT_USAGE;
  }
  const report = verifyBundle(bundle, { heads: args.heads, commitment: args.commitment, logKey: args.logKey });
  const code = exitCodeOf(report, args.allowUnrevealed);
  if (args.json) out(JSON.stringify({ exitCode: code, ...report }, null, 2));
  else out(formatReport(report, code));
  return code;
}

export { EXIT_UNREVEALED };

if (require.main === module) {
  main(process.argv.slice(2)).then(
    (code) => {
      process.exitCode = code;
    },
    (e) => {
      process.stderr.write(`fairdice: ${(e as Error).stack ?? String(e)}\n`);
      process.exitCode = EXIT_USAGE;
    },
  );
}
