/**
 * The offline verifier of audit bundles (docs/fairness.md §6): a pure function of the bundle,
 * using only the spec (fairness/) and the rules engine (rules/) of @fairdice/core. No database, no Nest,
 * no network, no clock.
 *
 * Checks (each PASS / FAIL / SKIPPED, failures naming the event version at fault):
 *   format         format, formatVersion (1, 2, 3), algorithms, rules version, field types, gameId a lowercase
 *                  UUID; no unknown or missing member (top level, players entries)
 *   commitment     SHA-256(serverSeed) = commitment (SKIPPED while the server seed is not revealed)
 *   chain          verifyChain (strict: no envelope member besides the 8 hashed ones and hash): versions
 *                  1..n, prevHash links from the commitment, stored hashes, roll numbers 0,1,2,..., ending
 *                  at chainHead
 *   expected-commitment  with --commitment: the commitment the organizer wrote down before play
 *   published-head with --head (repeatable): each head is the hash of one version of the log (a prefix);
 *                  with expectedHead: the chain ends exactly there
 *   creation       version 1 is gameCreated from a create command for this game id and commitment;
 *                  rule set, family, options and organizer seed equal the bundle's
 *   dice           every roll event's rolled faces (family.rolledDice) = deriveDice(serverSeed,
 *                  clientSeeds, gameId, rollNumber, count) (SKIPPED while not revealed)
 *   commands       every batch's command, re-run by decideGame on the state replayed so far, with a
 *                  roller from the seeds starting at the state's rollCount (while unrevealed: the
 *                  recorded faces), yields exactly the stored events (type, seat, data, rollNumber, command)
 *   seeds          players (seat, playerId, hotSeat, clientSeed; format 2: clientSeedGenerated) = the seats at the start
 *                  (format 3: computer seats too, playerId null),
 *                  organizerSeed = the creation event's, clientSeeds = orderedClientSeeds(...)
 *   rollCount      = the number of roll numbers the events used
 *   status         = the replayed status
 *   standings      totals and ranking recomputed from the replayed state = finalStandings
 *   service-moves  every move the service chose (computer seat, timeout with moves, auto-score) is
 *                  the one its level makes, re-derived on the same state and dice (service-moves.ts);
 *                  SKIPPED for level optimal without the solved tables (options.optimalTables)
 *
 * The report also lists claims (what was proved and what was not, docs/fairness.md §6) and where
 * each seed came from (summary.seedOrigins).
 *
 * Each check is its own function under verify/ (named for the check); verifyBundle runs them in
 * the order above and assembles the report.
 */
import { hexToBytes } from './bytes';
import { checkBundleLog } from './log-proof';
import { checkChain, checkPublishedHeads } from './verify/chain';
import { Checks, type Envelope } from './verify/checks';
import { type ClaimContext, claimsOf } from './verify/claims';
import { checkCommitment, checkExpectedCommitment } from './verify/commitment';
import { checkCreatedState, checkCreationCommand } from './verify/creation';
import { checkFormat } from './verify/format';
import { checkRollCountAndStatus } from './verify/outcome';
import { replayLog } from './verify/replay';
import { checkSeeds } from './verify/seeds';
import { checkStandingsAndSummarize } from './verify/standings';
import type { VerifyOptions, VerifyReport, VerifySummary } from './verify/types';

export type {
  CheckStatus,
  SeedOrigin,
  VerifyCheck,
  VerifyClaim,
  VerifyOptions,
  VerifyReport,
  VerifySummary,
} from './verify/types';

/** The report from the checks run so far (the failure to name first, the claims). */
function reportOf(
  checks: Checks,
  ctx: ClaimContext,
  summary: VerifySummary | null,
  diceChecked: boolean,
): VerifyReport {
  const failed = checks.list.filter((c) => c.status === 'fail');
  const withVersion = failed
    .filter((c) => typeof c.version === 'number')
    .sort((a, b) => (a.version as number) - (b.version as number));
  // The dice claim stands on the dice check alone: a failure elsewhere (a wrong --log-key) is its own claim's.
  const diceProved = diceChecked && checks.status('dice') === 'pass';
  return {
    ok: failed.length === 0,
    diceChecked: diceProved,
    firstBadVersion: withVersion.length ? (withVersion[0].version as number) : null,
    failure: withVersion[0] ?? failed[0] ?? null,
    checks: checks.list,
    summary,
    claims: claimsOf(checks, ctx, diceProved),
  };
}

/** Verifies an audit bundle. Never throws: malformed input is a failed check. */
export function verifyBundle(input: unknown, options: VerifyOptions = {}): VerifyReport {
  const checks = new Checks();
  const ctx: ClaimContext = { origins: [], heads: [], lastVersion: 0, status: null };

  const b = checkFormat(checks, input);
  if (!b) return reportOf(checks, ctx, null, false);
  const events = b.events as Envelope[];
  const revealed = b.serverSeed !== null;
  const serverSeed = revealed ? hexToBytes(b.serverSeed as string) : null;

  checkCommitment(checks, b, serverSeed);
  const chain = checkChain(checks, b, events);
  checkExpectedCommitment(checks, b, options);
  ctx.lastVersion = events.length;
  ctx.heads = checkPublishedHeads(checks, events, chain.ok, options);

  // creation, dice, commands, service-moves (one pass over the batches), then seeds, rollCount, status, standings
  checkCreationCommand(checks, b, events);
  const replay = replayLog(checks, b, events, serverSeed, options);
  checkCreatedState(checks, b, replay.state);

  const replayDone = replay.aborted === null;
  const names = ['seeds', 'rollCount', 'status', 'standings'];
  for (const n of names) checks.add(n);
  if (!replayDone) {
    for (const n of names) checks.skip(n, `not checked: ${replay.aborted}`);
  } else {
    checkSeeds(checks, b, replay);
    checkRollCountAndStatus(checks, b, replay.state);
  }
  const summary = checkStandingsAndSummarize(checks, b, replay, replayDone, ctx.heads, chain.head);

  // transparency log (log-proof.ts): inclusion of the commitment / final head, head signature
  for (const c of checkBundleLog(b, options.logKey)) {
    if (c.status === 'fail') checks.fail(c.name, null, c.detail ?? 'failed');
    else checks.add(c.name, c.status, c.detail);
  }

  ctx.status = replay.state.status;
  ctx.origins = replay.startState ? replay.originsAtStart : (summary?.seedOrigins ?? []);
  ctx.started = replay.startState !== null;
  return reportOf(checks, ctx, summary, revealed && !checks.failed('commitment'));
}

/** Exit codes of `fairdice verify` (docs/fairness.md §6). */
export const EXIT_OK = 0;
export const EXIT_FAILED = 1;
export const EXIT_USAGE = 2;
export const EXIT_UNREVEALED = 3;

/** The exit code for a report: 0 all checked, 1 a check failed, 3 passed but the dice could not be checked yet. */
export function exitCodeOf(report: VerifyReport, allowUnrevealed = false): number {
  if (!report.ok) return EXIT_FAILED;
  if (!report.diceChecked) return allowUnrevealed ? EXIT_OK : EXIT_UNREVEALED;
  return EXIT_OK;
}
