/**
 * `fairdice-verify <file-or-url> [options]` (also `fairdice-verify verify <file-or-url> [options]`):
 * the same command as the service's `fairdice verify` (@fairdice/core's runVerifyCommand: arguments,
 * checks, report, exit codes), bundled by build.js with @fairdice/core and @noble/hashes into one
 * file that requires only Node's built-ins. This file is its Node I/O.
 */
import { readFile } from 'node:fs/promises';
import { solvedTables } from '@fairdice/core/fairness/service-moves';
import { EXIT_USAGE, runVerifyCommand } from '@fairdice/core/fairness/verify-command';

const PROGRAM = 'fairdice-verify';

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

const argv = process.argv.slice(2);
// The package does one thing: `fairdice-verify <file>` means `fairdice-verify verify <file>`.
if (!['verify', 'help', '--help', '-h'].includes(argv[0] ?? '')) argv.unshift('verify');

runVerifyCommand(
  argv,
  {
    load,
    out: (s) => process.stdout.write(s + '\n'),
    err: (s) => process.stderr.write(s + '\n'),
    // Levels optimal and expert are re-derived with tables solved on demand (seconds per rule set,
    // about half a minute for the two-player Farkle table).
    tables: solvedTables((table) =>
      process.stderr.write(`${PROGRAM}: solving the ${table} table of level optimal or expert…\n`),
    ),
  },
  PROGRAM,
).then(
  (code) => {
    process.exitCode = code;
  },
  (e) => {
    process.stderr.write(`${PROGRAM}: ${(e as Error).stack ?? String(e)}\n`);
    process.exitCode = EXIT_USAGE;
  },
);
