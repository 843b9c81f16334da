/**
 * `fairdice-verify`: the service's own command line (src/fairness/cli.ts: `fairdice verify`),
 * bundled by build.js with @fairdice/core and @noble/hashes into one file with no dependencies.
 * `fairdice-verify <file-or-url> [options]` and `fairdice-verify verify <file-or-url> [options]`
 * are the same command.
 */
const args = process.argv;
const first = args[2];
if (first !== undefined && !['verify', 'help', '--help', '-h'].includes(first)) args.splice(2, 0, 'verify');
// Runs the command (cli.ts starts itself when it is the main module, which the bundle is).
require('../../../src/fairness/cli');
