#!/usr/bin/env node
/**
 * `fairdice verify <file-or-url> [--commitment <64-hex>] [--head <64-hex>]... [--log-key <64-hex>] [--json] [--allow-unrevealed]`
 *
 * Verifies a game's or a whole tournament's audit bundle offline (docs/fairness.md §6, §11; every
 * option applies to a tournament bundle too) with the rules engine and the spec only:
 * no database, no Nest, no account. Reads a file, standard input ('-'), or fetches an http(s) URL
 * with global fetch. Moves the service made at level optimal are re-derived with tables solved
 * here on demand (a few seconds per rule set). The command itself (arguments, checks, report, exit codes) is
 * @fairdice/core's runVerifyCommand, which the `fairdice-verify` package runs too.
 *
 * Exit codes: 0 every check passed (dice included); 1 a check failed (the first event at fault is
 * named); 2 usage or input error (unreadable file, not JSON, HTTP error); 3 every check that could
 * run passed but the server seed is not revealed yet, so the dice could not be checked
 * (`--allow-unrevealed` turns this into 0).
 */
import { readFile } from 'node:fs/promises';
import { solvedTables } from '@fairdice/core/fairness/service-moves';
import { EXIT_UNREVEALED, EXIT_USAGE, formatReport, runVerifyCommand } from '@fairdice/core/fairness/verify-command';
import { consistencyMain } from './consistency-cli';

/** The bundle's text from a file, standard input ('-') or an http(s) URL. */
export async function loadSource(source: string): Promise<string> {
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

export function main(
  argv: string[],
  out: (s: string) => void = (s) => process.stdout.write(s + '\n'),
  err: (s: string) => void = (s) => process.stderr.write(s + '\n'),
): Promise<number> {
  // `fairdice consistency …`: the organizer's fork check of archived tree heads (consistency-cli.ts).
  if (argv[0] === 'consistency') return consistencyMain(argv.slice(1), out, err);
  // Levels optimal and expert are always re-derived: their tables are solved here when a bundle needs them.
  const tables = solvedTables((table) =>
    err(
      `fairdice: solving the ${table} table of level optimal or expert (${table === 'two-player Farkle' ? 'about half a minute' : 'seconds'})…`,
    ),
  );
  return runVerifyCommand(argv, { load: loadSource, out, err, tables }, 'fairdice');
}

export { EXIT_UNREVEALED, formatReport };

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
