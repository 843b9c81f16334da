/**
 * The `verify` command line without its I/O (docs/fairness.md §6): arguments, the text report and the
 * verdict line. Shared, so that they say the same thing, by `fairdice verify` (src/fairness/cli.ts),
 * the `fairdice-verify` package (packages/verifier/src/cli.ts) and the verifier page. The callers
 * supply `load` (a file, standard input or a URL) and the output streams.
 */
import type { OptimalTablesFor } from './service-moves';
import { TOURNAMENT_AUDIT_FORMAT, verifyTournamentBundle } from './tournament-verifier';
import {
  EXIT_FAILED,
  EXIT_OK,
  EXIT_UNREVEALED,
  EXIT_USAGE,
  exitCodeOf,
  verifyBundle,
  type VerifyReport,
} from './verifier';

export { EXIT_FAILED, EXIT_OK, EXIT_UNREVEALED, EXIT_USAGE };

/** The usage text of `<program> verify`. */
export function verifyUsage(program = 'fairdice'): string {
  return `usage: ${program} verify <file-or-url> [--commitment <64-hex>] [--head <64-hex>]... [--log-key <64-hex>] [--json] [--allow-unrevealed]

Checks an audit bundle (GET /v1/games/{id}/audit): the commitment, every roll, every command
re-run through the rules, every move the service chose re-derived at its level, the replayed
totals and ranking, and the hash chain.

  --commitment <hex>    the commitment you wrote down before play (from the create response):
                        the bundle must be of that game
  --head <hex>          a chain head published during play (repeatable): each must be the hash of
                        one version of the log; the final head proves the log complete
  --log-key <hex>       the transparency log's Ed25519 public key: checks the signed tree head
                        and requires the bundle's log inclusion proof (docs/fairness.md §9.4)
  --json                print the report as JSON (checks, and what was proved and what was not)
  --allow-unrevealed    exit 0 (not 3) when the game has not ended and the dice cannot be checked yet

A tournament bundle (GET /v1/tournaments/{id}/audit) takes the same options: --log-key applies to
every game; --commitment is the tournament's or one of its games'; each --head a version of the
tournament's log or of one game's log.

exit codes: 0 verified, 1 a check failed, 2 usage/input error, 3 passed so far but the server seed is not revealed yet`;
}

export interface VerifyArgs {
  source: string;
  heads: string[];
  commitment?: string;
  logKey?: string;
  json: boolean;
  allowUnrevealed: boolean;
}

/** The parsed arguments, 'help', or a usage error message. */
export function parseVerifyArgs(argv: string[]): VerifyArgs | string {
  const [cmd, ...rest] = argv;
  if (cmd === '--help' || cmd === '-h' || cmd === 'help') return 'help';
  if (cmd !== 'verify') return cmd === undefined ? 'missing command' : `unknown command ${cmd}`;
  let source: string | undefined;
  const out: Omit<VerifyArgs, 'source'> = { json: false, allowUnrevealed: false, heads: [] };
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

const MARK = { pass: 'PASS', fail: 'FAIL', skipped: 'SKIP' } as const;

/** The text report: summary, every check, what was proved and what not, the verdict line. */
export function formatReport(report: VerifyReport, code: number): string {
  const lines: string[] = [];
  const s = report.summary;
  if (s) {
    lines.push(`game      ${s.gameId}`);
    lines.push(`rule set  ${s.ruleSet} (${s.family}), status ${s.status}`);
    lines.push('players');
    for (const p of s.players)
      lines.push(
        `  seat ${p.seat}  ${p.playerId ?? 'computer'}${p.displayName ? ` (${p.displayName})` : ''}  client seed ${p.clientSeed}`,
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
  lines.push(verdictLine(report, code));
  return lines.join('\n');
}

/** The one-line verdict a person reads last (the command line's last line; the verifier page's verdict). */
export function verdictLine(report: VerifyReport, code: number = exitCodeOf(report)): string {
  if (code === EXIT_FAILED && report.failure) {
    const f = report.failure;
    return report.firstBadVersion !== null
      ? `FAILED: event version ${report.firstBadVersion} does not check out (${f.name}: ${f.detail})`
      : `FAILED: ${f.name}: ${f.detail}`;
  }
  if (code === EXIT_UNREVEALED || (!report.diceChecked && report.ok))
    return 'NOT COMPLETE: everything checked so far passed, but the server seed is not revealed yet, so the dice cannot be checked yet.';
  return 'VERIFIED: every check passed.';
}

export interface VerifyCommandIo {
  /** The bundle's text: a file, '-' for standard input, or an http(s) URL. */
  load: (source: string) => Promise<string>;
  out: (s: string) => void;
  err: (s: string) => void;
  /** Level optimal's solved tables, to re-derive the service's moves at that level (absent: reported not checked). */
  tables?: OptimalTablesFor;
}

/** Runs `<program> verify ...` and returns its exit code (0 verified, 1 failed, 2 usage/input, 3 not revealed yet). */
export async function runVerifyCommand(argv: string[], io: VerifyCommandIo, program = 'fairdice'): Promise<number> {
  const args = parseVerifyArgs(argv);
  if (args === 'help') {
    io.out(verifyUsage(program));
    return EXIT_OK;
  }
  if (typeof args === 'string') {
    io.err(`${program}: ${args}\n${verifyUsage(program)}`);
    return EXIT_USAGE;
  }
  let bundle: unknown;
  try {
    bundle = JSON.parse(await io.load(args.source));
  } catch (e) {
    io.err(`${program}: cannot read ${args.source}: ${(e as Error).message}`);
    return EXIT_USAGE;
  }
  // A whole tournament's bundle (docs/fairness.md §11): its own verifier, which stops at the first failure.
  if (
    typeof bundle === 'object' &&
    bundle !== null &&
    (bundle as { format?: unknown }).format === TOURNAMENT_AUDIT_FORMAT
  ) {
    // Every option applies: --log-key to every game, --commitment and each --head to the tournament or a game.
    const t = verifyTournamentBundle(bundle, { heads: args.heads, commitment: args.commitment, logKey: args.logKey });
    const tcode = t.ok ? EXIT_OK : EXIT_FAILED;
    if (args.json) io.out(JSON.stringify({ exitCode: tcode, ...t }, null, 2));
    else
      io.out(
        [
          ...t.checks.map((c) => `${c.ok ? 'pass' : 'FAIL'}  ${c.name}${c.detail ? `: ${c.detail}` : ''}`),
          t.failure ? `FAILED: ${t.failure.name}: ${t.failure.detail}` : 'VERIFIED: every check passed.',
        ].join('\n'),
      );
    return tcode;
  }
  const report = verifyBundle(bundle, {
    heads: args.heads,
    commitment: args.commitment,
    logKey: args.logKey,
    optimalTables: io.tables,
  });
  const code = exitCodeOf(report, args.allowUnrevealed);
  if (args.json) io.out(JSON.stringify({ exitCode: code, ...report }, null, 2));
  else io.out(formatReport(report, code));
  return code;
}
