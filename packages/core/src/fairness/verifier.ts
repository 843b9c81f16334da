/**
 * The offline verifier of audit bundles (docs/fairness.md §6): a pure function of the bundle,
 * using only the spec (fairness/) and the rules engine (rules/) of @fairdice/core. No database, no Nest,
 * no network, no clock.
 *
 * Checks (each PASS / FAIL / SKIPPED, failures naming the event version at fault):
 *   format         format, formatVersion, algorithms, rules version, field types, gameId a lowercase UUID
 *   commitment     SHA-256(serverSeed) = commitment (SKIPPED while the server seed is not revealed)
 *   chain          verifyChain: versions 1..n, prevHash links from the commitment, stored hashes
 *                  (over the 8-field envelope incl. command), roll numbers 0,1,2,..., ending at chainHead
 *   published-head with --head: the chain ends at that independently published head
 *   creation       version 1 is gameCreated from a create command for this game id and commitment;
 *                  rule set, family, options and organizer seed equal the bundle's
 *   dice           every roll event's rolled faces (family.rolledDice) = deriveDice(serverSeed,
 *                  clientSeeds, gameId, rollNumber, count) (SKIPPED while not revealed)
 *   commands       every batch's command, re-run by decideGame on the state replayed so far, with a
 *                  roller from the seeds starting at the state's rollCount (while unrevealed: the
 *                  recorded faces), yields exactly the stored events (type, seat, data, rollNumber, command)
 *   seeds          players (seat, playerId, hotSeat, clientSeed) = the seats at the start,
 *                  organizerSeed = the creation event's, clientSeeds = orderedClientSeeds(...)
 *   rollCount      = the number of roll numbers the events used
 *   status         = the replayed status
 *   standings      totals and ranking recomputed from the replayed state = finalStandings
 */
import type { Die, RollDice } from '../rules/core/dice';
import { RuleError } from '../rules/core/errors';
import type { SeatStanding } from '../rules/core/family';
import { decideGame, emptyGame, evolveGame, type GameCommand, type GameEvent, type GameState } from '../rules/game';
import { familyById } from '../rules/registry';
import {
  AUDIT_ALGORITHMS,
  AUDIT_FORMAT,
  AUDIT_FORMAT_VERSION,
  type AuditBundle,
  type AuditStanding,
  RULES_VERSION,
} from './audit-bundle';
import { hexToBytes, sha256Hex } from './bytes';
import { canonicalJson } from './canonical';
import { deriveDice, diceRoller, GAME_ID_PATTERN } from './derivation';
import { type EventEnvelope, verifyChain } from './hash-chain';
import { HEX_SHA256_PATTERN, orderedClientSeeds, validateClientSeed } from './seeds';
import { checkBundleLog } from './log-proof';

export type CheckStatus = 'pass' | 'fail' | 'skipped';

export interface VerifyCheck {
  name: string;
  status: CheckStatus;
  /**
   * The event at fault (failures), when the failure concerns one event: its position in the log,
   * counted from 1 — the version that event must carry (a forged event may claim another).
   */
  version?: number | null;
  detail?: string;
}

export interface VerifySummary {
  gameId: string;
  ruleSet: string;
  family: string;
  status: string;
  players: Array<{ seat: number; playerId: string; displayName: string | null; clientSeed: string }>;
  /** Physical rolls (roll numbers used). */
  rolls: number;
  events: number;
  /** Totals per seat, recomputed by replay. */
  totals: Array<{ seat: number; total: number }>;
  /** Ranking recomputed by replay (final once finished, provisional otherwise). */
  ranking: Array<{ rank: number; seat: number; playerId: string | null; score: number; quit: boolean }>;
  /** The recomputed chain head. */
  head: string;
  serverSeedRevealed: boolean;
}

export interface VerifyReport {
  /** No check failed. */
  ok: boolean;
  /** The dice were checked (the server seed is revealed and matches the commitment). */
  diceChecked: boolean;
  /** The first event (position = required version) any failed check names (null when none does or nothing failed). */
  firstBadVersion: number | null;
  /** The failure to name first: the one at the lowest version, else the first failed check. */
  failure: VerifyCheck | null;
  checks: VerifyCheck[];
  summary: VerifySummary | null;
}

export interface VerifyOptions {
  /** A chain head published independently of the bundle (e.g. noted by the organizer). */
  expectedHead?: string;
  /**
   * The transparency log's Ed25519 public key (64 hex), obtained independently of the bundle:
   * with it the tree head's signature is checked (log-signature), and a bundle without a log
   * proof fails.
   */
  logKey?: string;
}

type Envelope = EventEnvelope & { hash?: string };

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const canon = (v: unknown): string => {
  try {
    return canonicalJson(v);
  } catch (err) {
    return `<not canonical: ${(err as Error).message}>`;
  }
};
const same = (a: unknown, b: unknown) => canon(a) === canon(b);
const isEnded = (status: string) => status === 'finished' || status === 'abandoned';
const brief = (v: unknown, max = 160) => {
  const s = canon(v);
  return s.length > max ? `${s.slice(0, max)}…` : s;
};

class Checks {
  readonly list: VerifyCheck[] = [];
  private readonly byName = new Map<string, VerifyCheck>();

  add(name: string, status: CheckStatus = 'pass', detail?: string): VerifyCheck {
    const c: VerifyCheck = { name, status, ...(detail !== undefined ? { detail } : {}) };
    this.list.push(c);
    this.byName.set(name, c);
    return c;
  }
  /** Records the first failure of a check (later ones are consequences or less useful). */
  fail(name: string, version: number | null, detail: string): void {
    const c = this.byName.get(name) ?? this.add(name);
    if (c.status === 'fail') return;
    c.status = 'fail';
    c.version = version;
    c.detail = detail;
  }
  skip(name: string, detail: string): void {
    const c = this.byName.get(name) ?? this.add(name);
    if (c.status === 'fail') return;
    c.status = 'skipped';
    c.detail = detail;
  }
  failed(name: string): boolean {
    return this.byName.get(name)?.status === 'fail';
  }
}

/** Why the bundle's top-level shape is unusable, or null. */
function formatError(b: Record<string, unknown>): string | null {
  if (b.format !== AUDIT_FORMAT) return `format must be "${AUDIT_FORMAT}"`;
  if (b.formatVersion !== AUDIT_FORMAT_VERSION)
    return `formatVersion ${String(b.formatVersion)} is not supported (this verifier reads ${AUDIT_FORMAT_VERSION})`;
  if (!same(b.algorithms, AUDIT_ALGORITHMS)) return `algorithms must be ${canon(AUDIT_ALGORITHMS)}`;
  if (typeof b.gameId !== 'string' || !GAME_ID_PATTERN.test(b.gameId)) return 'gameId must be a lowercase UUID';
  if (!isObject(b.ruleSet) || typeof b.ruleSet.name !== 'string' || !isObject(b.ruleSet.options))
    return 'ruleSet must be { name, family, version, options }';
  if (b.ruleSet.version !== RULES_VERSION)
    return `ruleSet.version ${String(b.ruleSet.version)} is not supported (this verifier implements rules version ${RULES_VERSION})`;
  if (typeof b.commitment !== 'string' || !HEX_SHA256_PATTERN.test(b.commitment))
    return 'commitment must be 64 lowercase hex digits';
  if (b.serverSeed !== null && (typeof b.serverSeed !== 'string' || !HEX_SHA256_PATTERN.test(b.serverSeed)))
    return 'serverSeed must be 64 lowercase hex digits or null';
  if (b.organizerSeed !== null && typeof b.organizerSeed !== 'string') return 'organizerSeed must be a string or null';
  if (!Array.isArray(b.players)) return 'players must be an array';
  if (b.clientSeeds !== null && (!Array.isArray(b.clientSeeds) || b.clientSeeds.some((s) => typeof s !== 'string')))
    return 'clientSeeds must be an array of strings or null';
  if (!Number.isSafeInteger(b.rollCount) || (b.rollCount as number) < 0)
    return 'rollCount must be a non-negative integer';
  if (!Array.isArray(b.events) || b.events.length === 0) return 'events must be a non-empty array';
  if (typeof b.chainHead !== 'string' || !HEX_SHA256_PATTERN.test(b.chainHead))
    return 'chainHead must be 64 lowercase hex digits';
  if (b.finalStandings !== null && !Array.isArray(b.finalStandings)) return 'finalStandings must be an array or null';
  if (typeof b.status !== 'string') return 'status must be a string';
  return null;
}

const toGameEvent = (e: Envelope): GameEvent => ({
  type: e.type,
  seat: e.seat,
  data: e.data,
  rollNumber: e.rollNumber,
  command: (e.command ?? null) as GameCommand | null,
});

/** The rolled faces an event records, by the family's own definition (null: no roll). */
function facesOf(state: GameState, e: Envelope): number[] | null {
  if (e.rollNumber === null) return null;
  const family = familyById(state.family);
  if (!family || typeof family.rolledDice !== 'function')
    throw new Error(`family ${String(state.family)} cannot say which dice an event rolled`);
  const faces = family.rolledDice(e.data);
  if (!Array.isArray(faces))
    throw new Error(`event type ${e.type} with rollNumber ${e.rollNumber} records no roll for family ${state.family}`);
  return faces;
}

function streamSeeds(state: GameState): string[] {
  return orderedClientSeeds({
    organizerSeed: state.organizerSeed,
    seats: state.seats.map((s) => ({ seat: s.seat, clientSeed: s.clientSeed as string })),
  });
}

/** Verifies an audit bundle. Never throws: malformed input is a failed check. */
export function verifyBundle(input: unknown, options: VerifyOptions = {}): VerifyReport {
  const checks = new Checks();
  const finish = (summary: VerifySummary | null, diceChecked: boolean): VerifyReport => {
    const failed = checks.list.filter((c) => c.status === 'fail');
    const withVersion = failed
      .filter((c) => typeof c.version === 'number')
      .sort((a, b) => (a.version as number) - (b.version as number));
    return {
      ok: failed.length === 0,
      diceChecked: diceChecked && failed.length === 0,
      firstBadVersion: withVersion.length ? (withVersion[0].version as number) : null,
      failure: withVersion[0] ?? failed[0] ?? null,
      checks: checks.list,
      summary,
    };
  };

  // ---- format
  checks.add('format');
  if (!isObject(input)) {
    checks.fail('format', null, 'the bundle is not a JSON object');
    return finish(null, false);
  }
  const shape = formatError(input);
  if (shape) {
    checks.fail('format', null, shape);
    return finish(null, false);
  }
  const b = input as unknown as AuditBundle;
  const events = b.events as Envelope[];
  const gameId = b.gameId;
  const revealed = b.serverSeed !== null;
  const serverSeed = revealed ? hexToBytes(b.serverSeed as string) : null;

  // ---- commitment
  checks.add('commitment');
  if (serverSeed) {
    const c = sha256Hex(serverSeed);
    if (c !== b.commitment)
      checks.fail('commitment', null, `SHA-256(serverSeed) = ${c}, but the commitment is ${b.commitment}`);
  } else {
    checks.skip(
      'commitment',
      'the server seed is not revealed yet (it is revealed when the game ends): the dice cannot be checked yet',
    );
  }

  // ---- chain
  checks.add('chain');
  const chain = verifyChain(b.commitment, events, { gameId, expectedHead: b.chainHead });
  if (!chain.ok)
    checks.fail('chain', chain.index < 0 ? null : Math.min(chain.index, events.length - 1) + 1, chain.reason);
  const computedHead = chain.ok ? chain.head : (events.at(-1)?.hash ?? b.commitment);
  checks.add('published-head');
  if (options.expectedHead === undefined) {
    checks.skip('published-head', "no --head given: completeness is only relative to the bundle's own chainHead");
  } else if (!HEX_SHA256_PATTERN.test(options.expectedHead)) {
    checks.fail('published-head', null, 'the published head must be 64 lowercase hex digits');
  } else if (options.expectedHead !== b.chainHead || (chain.ok && chain.head !== options.expectedHead)) {
    const at = events.findIndex((e) => e.hash === options.expectedHead);
    checks.fail(
      'published-head',
      at >= 0 ? at + 2 : events.length,
      at >= 0
        ? `the published head is the hash of version ${events[at].version}: the bundle has events after it`
        : 'the chain does not pass through the published head (events changed, missing or extra)',
    );
  }

  // ---- creation, dice, commands (one pass over the batches), then seeds, rollCount, status, standings
  checks.add('creation');
  checks.add('dice');
  if (!revealed) checks.skip('dice', 'the server seed is not revealed yet: the dice cannot be checked yet');
  checks.add('commands');

  let state = emptyGame(gameId);
  let startState: GameState | null = null;
  let startVersion: number | null = null;
  const seatVersion = new Map<number, number>();
  let aborted: string | null = null;
  let finishedVersion: number | null = null;

  const first = events[0];
  if (!isObject(first) || first.type !== 'gameCreated' || !isObject(first.command) || first.command.type !== 'create') {
    checks.fail('creation', 1, 'version 1 must be the gameCreated event carrying the create command');
  } else {
    const cmd = first.command;
    if (cmd.gameId !== gameId)
      checks.fail('creation', 1, `the create command is for game ${String(cmd.gameId)}, not ${gameId}`);
    if (cmd.commitment !== b.commitment)
      checks.fail('creation', 1, "the create command does not carry the bundle's commitment");
  }

  for (let i = 0; i < events.length && aborted === null;) {
    const e0 = events[i];
    if (!isObject(e0) || !Number.isSafeInteger(e0.version)) {
      aborted = `event at index ${i} is malformed`;
      checks.fail('commands', null, aborted);
      break;
    }
    let j = i + 1;
    while (j < events.length && isObject(events[j]) && (events[j].command === null || events[j].command === undefined))
      j++;
    const batch = events.slice(i, j);
    const before = state;

    // Re-run the command.
    if (!isObject(e0.command)) {
      checks.fail('commands', i + 1, 'the first event carries no command');
    } else {
      const rollerFor = (): RollDice => {
        if (serverSeed) {
          let roll: RollDice | null = null;
          return (count) => {
            roll ??= diceRoller({
              serverSeed,
              clientSeeds: streamSeeds(before),
              gameId,
              firstRollNumber: before.rollCount,
            }).roll;
            return roll(count);
          };
        }
        // Unrevealed seed: replay the recorded faces (checks the rules, not the dice).
        const recorded: number[][] = [];
        for (const e of batch) {
          const f = facesOf(before, e);
          if (f) recorded.push(f);
        }
        let k = 0;
        return (count) => {
          const f = recorded[k++];
          if (!f) throw new Error('the rules roll more often than the events record');
          if (f.length !== count) throw new Error(`the rules roll ${count} dice where the event records ${f.length}`);
          return f as Die[];
        };
      };
      let produced: GameEvent[] | RuleError;
      try {
        produced = decideGame(before, e0.command as unknown as GameCommand, rollerFor());
      } catch (err) {
        produced = new RuleError('INVALID_COMMAND', (err as Error).message);
      }
      if (produced instanceof RuleError) {
        checks.fail(
          'commands',
          i + 1,
          `the command of event ${i + 1} ${brief(e0.command, 100)} does not yield these events: ${produced.message}`,
        );
      } else {
        for (let k = 0; k < Math.max(produced.length, batch.length); k++) {
          const p = produced[k];
          const s = batch[k];
          if (!s) {
            checks.fail(
              'commands',
              j + 1,
              `the command of event ${i + 1} yields an event that is missing from the log: ${brief({ type: p.type, data: p.data })}`,
            );
            break;
          }
          if (!p) {
            checks.fail('commands', i + k + 1, `the command of event ${i + 1} does not yield this event`);
            break;
          }
          const want = { type: p.type, seat: p.seat, data: p.data, rollNumber: p.rollNumber, command: p.command };
          const got = { type: s.type, seat: s.seat, data: s.data, rollNumber: s.rollNumber, command: s.command };
          if (!same(want, got)) {
            const field = (['type', 'seat', 'data', 'rollNumber', 'command'] as const).find(
              (f) => !same(want[f], got[f]),
            );
            checks.fail(
              'commands',
              i + k + 1,
              `re-running the command of event ${i + 1} yields ${field} ${brief(want[field!])}, the log has ${brief(got[field!])}`,
            );
            break;
          }
        }
      }
    }

    // Check the dice and replay the stored events.
    for (let k = 0; k < batch.length; k++) {
      const e = batch[k];
      const at = i + k + 1;
      try {
        if (e.rollNumber !== null && serverSeed) {
          const faces = facesOf(state, e)!;
          const derived = deriveDice({
            serverSeed,
            clientSeeds: streamSeeds(state),
            gameId,
            rollNumber: e.rollNumber,
            count: faces.length,
          });
          if (!same(derived, faces))
            checks.fail(
              'dice',
              at,
              `roll ${e.rollNumber} has faces ${faces.join(' ')}, the seeds give ${derived.join(' ')}`,
            );
        }
      } catch (err) {
        checks.fail('dice', at, `cannot check roll ${String(e.rollNumber)}: ${(err as Error).message}`);
      }
      try {
        state = evolveGame(state, toGameEvent(e));
      } catch (err) {
        aborted = `replay stopped at event ${at}: ${(err as Error).message}`;
        checks.fail('commands', at, `the event cannot be applied: ${(err as Error).message}`);
        break;
      }
      if (e.type === 'seatTaken' && e.seat !== null) seatVersion.set(e.seat, at);
      if (e.type === 'gameStarted') {
        startState = state;
        startVersion = at;
      }
      if (e.type === 'gameFinished') finishedVersion = at;
    }
    i = j;
  }

  if (!checks.failed('creation') && state.version > 0) {
    // State as created is kept in `state` fields that never change after creation.
    if (state.commitment !== b.commitment)
      checks.fail('creation', 1, "the creation event's commitment differs from the bundle's");
    else if (state.ruleSet !== b.ruleSet.name)
      checks.fail(
        'creation',
        1,
        `the creation event's rule set is ${state.ruleSet}, the bundle says ${b.ruleSet.name}`,
      );
    else if (state.family !== b.ruleSet.family)
      checks.fail(
        'creation',
        1,
        `the creation event's family is ${state.family}, the bundle says ${String(b.ruleSet.family)}`,
      );
    else if (!same(state.options, b.ruleSet.options))
      checks.fail('creation', 1, "the creation event's options differ from the bundle's ruleSet.options");
  }

  const replayDone = aborted === null;
  const names = ['seeds', 'rollCount', 'status', 'standings'];
  for (const n of names) checks.add(n);
  if (!replayDone) {
    for (const n of names) checks.skip(n, `not checked: ${aborted}`);
  } else {
    // ---- seeds
    if (b.organizerSeed !== state.organizerSeed) {
      checks.fail(
        'seeds',
        1,
        `organizerSeed ${JSON.stringify(b.organizerSeed)} differs from the creation event's ${JSON.stringify(state.organizerSeed)}`,
      );
    }
    const seats = (startState ?? state).seats.filter((s) => s.playerId !== null);
    const players = b.players as unknown[];
    for (let k = 0; k < Math.max(seats.length, players.length); k++) {
      const s = seats[k];
      const p = players[k] as Record<string, unknown> | undefined;
      if (!s || !isObject(p)) {
        checks.fail(
          'seeds',
          s ? (seatVersion.get(s.seat) ?? null) : null,
          s ? `seat ${s.seat} is missing from players` : 'players lists more seats than the events',
        );
        break;
      }
      const seedErr = validateClientSeed(p.clientSeed);
      if (
        p.seat !== s.seat ||
        p.playerId !== s.playerId ||
        p.clientSeed !== s.clientSeed ||
        p.hotSeat !== s.hotSeat ||
        seedErr
      ) {
        checks.fail(
          'seeds',
          seatVersion.get(s.seat) ?? null,
          seedErr && p.clientSeed === s.clientSeed
            ? `seat ${s.seat}: ${seedErr}`
            : `players[${k}] ${brief({ seat: p.seat, playerId: p.playerId, hotSeat: p.hotSeat, clientSeed: p.clientSeed })} differs from the seat taken in the log ${brief({ seat: s.seat, playerId: s.playerId, hotSeat: s.hotSeat, clientSeed: s.clientSeed })}`,
        );
        break;
      }
    }
    if (startState) {
      let expected: string[] | null = null;
      try {
        expected = streamSeeds(startState);
      } catch (err) {
        checks.fail('seeds', startVersion, `the seeds at the start are invalid: ${(err as Error).message}`);
      }
      if (expected && !same(b.clientSeeds, expected)) {
        checks.fail(
          'seeds',
          startVersion,
          `clientSeeds ${brief(b.clientSeeds)} differ from the derivation order fixed at the start ${brief(expected)}`,
        );
      }
    } else if (b.clientSeeds !== null) {
      checks.fail('seeds', null, 'clientSeeds must be null: the game has not started');
    }

    // ---- rollCount, status
    if (b.rollCount !== state.rollCount)
      checks.fail('rollCount', null, `rollCount is ${b.rollCount}, the events use ${state.rollCount} roll numbers`);
    if (b.status !== state.status)
      checks.fail('status', null, `status is ${b.status}, the replayed status is ${state.status}`);
    if (isEnded(state.status) && !revealed) {
      checks.skip(
        'commitment',
        'the game has ended but the bundle does not reveal the server seed: the dice cannot be checked',
      );
      checks.skip('dice', 'the game has ended but the bundle does not reveal the server seed');
    }
  }

  // ---- standings and summary
  let summary: VerifySummary | null = null;
  try {
    const family = state.play !== null ? familyById(state.family) : null;
    const standings: SeatStanding[] = family ? family.standings(state.play) : [];
    const playerOf = (seat: number) => state.seats[seat]?.playerId ?? null;
    const ranking: AuditStanding[] = standings.map((s) => ({
      rank: s.rank,
      seat: s.seat,
      playerId: playerOf(s.seat),
      score: s.total,
      quit: s.quit,
    }));
    if (replayDone) {
      if (state.status === 'finished') {
        if (!same(state.standings, standings)) {
          checks.fail(
            'standings',
            finishedVersion,
            'the standings in the gameFinished event differ from those recomputed from the replayed state',
          );
        } else if (!same(b.finalStandings, ranking)) {
          checks.fail(
            'standings',
            finishedVersion,
            `finalStandings ${brief(b.finalStandings)} differ from the ranking recomputed by replay ${brief(ranking)}`,
          );
        }
      } else if (b.finalStandings !== null) {
        checks.fail('standings', null, 'finalStandings must be null: the game is not finished');
      }
    }
    const names = new Map(
      (b.players as unknown[])
        .filter(isObject)
        .map((p) => [p.seat, typeof p.displayName === 'string' ? p.displayName : null]),
    );
    summary = {
      gameId,
      ruleSet: state.ruleSet,
      family: state.family,
      status: state.status,
      players: (startState ?? state).seats
        .filter((s) => s.playerId !== null)
        .map((s) => ({
          seat: s.seat,
          playerId: s.playerId as string,
          displayName: names.get(s.seat) ?? null,
          clientSeed: s.clientSeed as string,
        })),
      rolls: state.rollCount,
      events: events.length,
      totals: [...standings].sort((x, y) => x.seat - y.seat).map((s) => ({ seat: s.seat, total: s.total })),
      ranking,
      head: computedHead,
      serverSeedRevealed: revealed,
    };
  } catch (err) {
    checks.fail('standings', finishedVersion, `cannot compute the standings: ${(err as Error).message}`);
  }

  // ---- transparency log (log-proof.ts): inclusion of the commitment / final head, head signature
  for (const c of checkBundleLog(b, options.logKey)) {
    if (c.status === 'fail') checks.fail(c.name, null, c.detail ?? 'failed');
    else checks.add(c.name, c.status, c.detail);
  }

  return finish(summary, revealed && !checks.failed('commitment'));
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
