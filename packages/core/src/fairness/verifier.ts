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
 */
import type { Die, RollDice } from '../rules/core/dice';
import { RuleError } from '../rules/core/errors';
import type { SeatStanding } from '../rules/core/family';
import {
  decideGame,
  emptyGame,
  evolveGame,
  type GameCommand,
  type GameEvent,
  type GameState,
  seedsStateFor,
} from '../rules/game';
import { familyById } from '../rules/registry';
import {
  AUDIT_ALGORITHMS,
  AUDIT_FORMAT,
  type AuditBundle,
  type AuditStanding,
  BUNDLE_MEMBERS,
  OPTIONAL_BUNDLE_MEMBERS,
  PLAYER_MEMBERS,
  RULES_VERSION,
  SUPPORTED_FORMAT_VERSIONS,
} from './audit-bundle';
import { hexToBytes, sha256Hex } from './bytes';
import { canonicalJson } from './canonical';
import { deriveDice, diceRoller, GAME_ID_PATTERN } from './derivation';
import { duplicateRoll } from './tournament';
import { filledCount } from '../rules/five-dice/decider';
import type { FiveDiceState } from '../rules/five-dice/types';
import { type EventEnvelope, eventHash, verifyChain } from './hash-chain';
import { HEX_SHA256_PATTERN, orderedClientSeeds, validateClientSeed } from './seeds';
import { checkBundleLog } from './log-proof';
import { checkServiceMove, type OptimalTablesFor, ServiceMovesTally } from './service-moves';
import { isEnded } from '../rules/game/status';

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
  /** Every seat listed in the bundle: players', and from format 3 the computer's (playerId null). */
  players: Array<{ seat: number; playerId: string | null; displayName: string | null; clientSeed: string | null }>;
  /** Where each seed in force came from (replayed from the commands): see SeedOrigin. */
  seedOrigins: SeedOrigin[];
  /** The published heads given (--head), each with the version whose hash it is (null: not in this log). */
  publishedHeads: Array<{ head: string; version: number | null }>;
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

/**
 * Who fixed a seed, and when relative to the commitment (version 1 publishes it):
 * - `create`: given in the create request, BEFORE the commitment existed (legacy games);
 * - `join`: given by the player when joining (after the commitment);
 * - `setSeed`: set or replaced by its owner after the commitment (event `version`);
 * - `start`: given by the creator in the start command;
 * - `generated`: nobody supplied one; the service generated it at the start.
 */
export interface SeedOrigin {
  /** The seat, or null for the organizer seed. */
  seat: number | null;
  clientSeed: string;
  source: 'create' | 'join' | 'setSeed' | 'start' | 'generated';
  /** The event that fixed it last. */
  version: number;
  /** Supplied by a party other than the service after the commitment (join, setSeed, start). */
  afterCommitment: boolean;
}

/** One statement of the report: proved by this bundle (and the options given), or not, and why. */
export interface VerifyClaim {
  id: string;
  status: 'proved' | 'not-proved' | 'failed';
  statement: string;
  detail?: string;
}

export interface VerifyReport {
  /** No check failed. */
  ok: boolean;
  /**
   * The dice were checked and every roll is the one the seeds give (the server seed is revealed and
   * matches the commitment). Other checks may still have failed (see `ok`).
   */
  diceChecked: boolean;
  /** The first event (position = required version) any failed check names (null when none does or nothing failed). */
  firstBadVersion: number | null;
  /** The failure to name first: the one at the lowest version, else the first failed check. */
  failure: VerifyCheck | null;
  checks: VerifyCheck[];
  summary: VerifySummary | null;
  /** What the bundle proves, with the options given, and what it does not (docs/fairness.md §6, §8). */
  claims: VerifyClaim[];
}

export interface VerifyOptions {
  /**
   * The commitment the organizer wrote down before play (from the create response): the bundle
   * must be of that game (check `expected-commitment`).
   */
  commitment?: string;
  /**
   * Chain heads published during play (e.g. shown after each move, noted by an organizer). Each
   * must be the hash of one of the log's events: the log up to that version is then the one that
   * was published (check `published-head`). A head equal to the bundle's last hash proves the log
   * complete up to its end.
   */
  heads?: string[];
  /** Legacy: a head the log must END at exactly (as `heads`, and it must be the last event's hash). */
  expectedHead?: string;
  /**
   * The transparency log's Ed25519 public key (64 hex), obtained independently of the bundle:
   * with it the tree head's signature is checked (log-signature), and a bundle without a log
   * proof fails.
   */
  logKey?: string;
  /**
   * The solved tables of level `optimal` (costly to build, so injected: `fairdice verify` passes
   * `solvedTables()`). Without them, moves the service made at level optimal are not checked.
   */
  optimalTables?: OptimalTablesFor;
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
  if (typeof b.formatVersion !== 'number' || !SUPPORTED_FORMAT_VERSIONS.includes(b.formatVersion))
    return `formatVersion ${String(b.formatVersion)} is not supported (this verifier reads ${SUPPORTED_FORMAT_VERSIONS.join(', ')})`;
  // Strict: a member this verifier does not know would pass unchecked, so it is refused.
  const known: readonly string[] = [...BUNDLE_MEMBERS, ...OPTIONAL_BUNDLE_MEMBERS];
  const unknown = Object.keys(b).filter((k) => !known.includes(k));
  if (unknown.length > 0) return `unknown member ${unknown.map((k) => JSON.stringify(k)).join(', ')}`;
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
  for (const [i, p] of (b.players as unknown[]).entries()) {
    if (!isObject(p)) return `players[${i}] must be an object`;
    const extra = Object.keys(p).filter((k) => !(PLAYER_MEMBERS as readonly string[]).includes(k));
    if (extra.length > 0) return `players[${i}] has unknown member ${extra.map((k) => JSON.stringify(k)).join(', ')}`;
    if (p.clientSeedGenerated !== null && typeof p.clientSeedGenerated !== 'boolean')
      return `players[${i}].clientSeedGenerated must be true, false or null`;
  }
  if (b.clientSeeds !== null && (!Array.isArray(b.clientSeeds) || b.clientSeeds.some((s) => typeof s !== 'string')))
    return 'clientSeeds must be an array of strings or null';
  if (!Number.isSafeInteger(b.rollCount) || (b.rollCount as number) < 0)
    return 'rollCount must be a non-negative integer';
  if (!Array.isArray(b.events) || b.events.length === 0) return 'events must be a non-empty array';
  if (typeof b.chainHead !== 'string' || !HEX_SHA256_PATTERN.test(b.chainHead))
    return 'chainHead must be 64 lowercase hex digits';
  if (b.finalStandings !== null && !Array.isArray(b.finalStandings)) return 'finalStandings must be an array or null';
  if (typeof b.status !== 'string') return 'status must be a string';
  for (const k of BUNDLE_MEMBERS) if (!(k in b)) return `member ${k} is missing`;
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

/** The seats a bundle's `players` lists: those of players, and from format 3 the computer seats too. */
function listedSeats(state: GameState, formatVersion: number): GameState['seats'] {
  return state.seats.filter((s) => s.playerId !== null || (formatVersion >= 3 && s.computer !== null));
}

/** Verifies an audit bundle. Never throws: malformed input is a failed check. */
export function verifyBundle(input: unknown, options: VerifyOptions = {}): VerifyReport {
  const checks = new Checks();
  const ctx: ClaimContext = { origins: [], heads: [], lastVersion: 0, status: null, options };
  const finish = (summary: VerifySummary | null, diceChecked: boolean): VerifyReport => {
    const failed = checks.list.filter((c) => c.status === 'fail');
    const withVersion = failed
      .filter((c) => typeof c.version === 'number')
      .sort((a, b) => (a.version as number) - (b.version as number));
    // The dice claim stands on the dice check alone: a failure elsewhere (a wrong --log-key) is its own claim's.
    const diceProved = diceChecked && checks.list.find((c) => c.name === 'dice')?.status === 'pass';
    return {
      ok: failed.length === 0,
      diceChecked: diceProved,
      firstBadVersion: withVersion.length ? (withVersion[0].version as number) : null,
      failure: withVersion[0] ?? failed[0] ?? null,
      checks: checks.list,
      summary,
      claims: claimsOf(checks, ctx, diceProved),
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
  const chain = verifyChain(b.commitment, events, { gameId, expectedHead: b.chainHead, strict: true });
  if (!chain.ok)
    checks.fail('chain', chain.index < 0 ? null : Math.min(chain.index, events.length - 1) + 1, chain.reason);
  const computedHead = chain.ok ? chain.head : (events.at(-1)?.hash ?? b.commitment);
  checks.add('expected-commitment');
  if (options.commitment === undefined) {
    checks.skip(
      'expected-commitment',
      'no --commitment given: nothing shows that this is the game whose commitment was announced before play',
    );
  } else if (!HEX_SHA256_PATTERN.test(options.commitment.toLowerCase())) {
    checks.fail('expected-commitment', null, 'the expected commitment must be 64 hex digits');
  } else if (options.commitment.toLowerCase() !== b.commitment) {
    checks.fail(
      'expected-commitment',
      1,
      `the bundle's commitment ${b.commitment} is not the one written down before play (${options.commitment.toLowerCase()})`,
    );
  }

  checks.add('published-head');
  ctx.lastVersion = events.length;
  const given = [...(options.heads ?? []), ...(options.expectedHead !== undefined ? [options.expectedHead] : [])];
  // Hashed again only when heads are given (the chain check already recomputed them once).
  const recomputed: string[] = chain.ok && given.length > 0 ? events.map((e) => eventHash(e)) : [];
  if (given.length === 0) {
    checks.skip('published-head', "no --head given: completeness is only relative to the bundle's own chainHead");
  }
  for (const raw of given) {
    const h = typeof raw === 'string' ? raw.toLowerCase() : '';
    if (!HEX_SHA256_PATTERN.test(h)) {
      checks.fail('published-head', null, `a published head must be 64 hex digits, got ${JSON.stringify(raw)}`);
      continue;
    }
    // Only a hash the chain check recomputed counts (a stored hash may be forged).
    const at = chain.ok ? recomputed.indexOf(h) : -1;
    ctx.heads.push({ head: h, version: at >= 0 ? at + 1 : null });
    if (at < 0) {
      checks.fail(
        'published-head',
        chain.ok ? events.length : null,
        `the published head ${h} is not the hash of any version of this log: the log was changed, or is another game's`,
      );
    } else if (raw === options.expectedHead && at !== events.length - 1) {
      checks.fail(
        'published-head',
        at + 2,
        `the published head is the hash of version ${at + 1}: the bundle has events after it`,
      );
    }
  }

  // ---- creation, dice, commands (one pass over the batches), then seeds, rollCount, status, standings
  checks.add('creation');
  checks.add('dice');
  if (!revealed) checks.skip('dice', 'the server seed is not revealed yet: the dice cannot be checked yet');
  checks.add('commands');
  checks.add('service-moves');

  let state = emptyGame(gameId);
  let startState: GameState | null = null;
  let startVersion: number | null = null;
  const seatVersion = new Map<number, number>();
  /** Origin of each seed in force, by seat (-1: organizer). */
  const origins = new Map<number, SeedOrigin>();
  let aborted: string | null = null;
  let finishedVersion: number | null = null;
  const serviceMoves = new ServiceMovesTally();

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
        const dup = before.tournament?.format === 'duplicate' ? before.tournament : null;
        if (serverSeed && dup) {
          // Duplicate tournament game (docs/fairness.md §10): the server seed is the round seed.
          return (count, at) => {
            if (!at) throw new Error('a duplicate roll needs its address (turn, roll, positions)');
            const dice = duplicateRoll(
              { roundSeed: serverSeed, tournamentId: dup.id, round: dup.round },
              { game: dup.game, turn: at.turn, roll: at.roll },
              at.positions,
            );
            if (dice.length !== count) throw new Error(`${count} dice asked for ${dice.length} positions`);
            return dice;
          };
        }
        if (serverSeed) {
          let roll: RollDice | null = null;
          return (count) => {
            roll ??= diceRoller({
              serverSeed,
              clientSeeds: streamSeeds(seedsStateFor(before, e0.command as unknown as GameCommand)),
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
      let batchOk = false;
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
        batchOk = true;
        for (let k = 0; k < Math.max(produced.length, batch.length); k++) {
          const p = produced[k];
          const s = batch[k];
          if (!s) {
            batchOk = false;
            checks.fail(
              'commands',
              j + 1,
              `the command of event ${i + 1} yields an event that is missing from the log: ${brief({ type: p.type, data: p.data })}`,
            );
            break;
          }
          if (!p) {
            batchOk = false;
            checks.fail('commands', i + k + 1, `the command of event ${i + 1} does not yield this event`);
            break;
          }
          const want = { type: p.type, seat: p.seat, data: p.data, rollNumber: p.rollNumber, command: p.command };
          const got = { type: s.type, seat: s.seat, data: s.data, rollNumber: s.rollNumber, command: s.command };
          if (!same(want, got)) {
            batchOk = false;
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
      // A move the service chose: legal (above), and the one its level makes on the same dice?
      if (batchOk) {
        try {
          serviceMoves.note(
            i + 1,
            checkServiceMove(before, e0.command as unknown as GameCommand, rollerFor(), options.optimalTables),
          );
        } catch (err) {
          checks.fail('service-moves', i + 1, `cannot re-derive the service's move: ${(err as Error).message}`);
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
          const derived =
            state.tournament?.format === 'duplicate'
              ? duplicateFacesOf(serverSeed, state, e)
              : deriveDice({
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
      trackOrigin(origins, e, at, (e0.command as { type?: unknown } | null)?.type, state);
      if (e.type === 'seatTaken' && e.seat !== null) seatVersion.set(e.seat, at);
      if (e.type === 'gameStarted') {
        startState = state;
        startVersion = at;
        ctx.origins = [...origins.values()].sort((x, y) => (x.seat ?? -1) - (y.seat ?? -1));
      }
      if (e.type === 'gameFinished') finishedVersion = at;
    }
    i = j;
  }

  const sm = serviceMoves.summary();
  if (sm.status === 'fail') checks.fail('service-moves', sm.version, sm.detail);
  else if (sm.status === 'skipped') checks.skip('service-moves', sm.detail);
  else {
    const c = checks.list.find((x) => x.name === 'service-moves');
    if (c && c.status === 'pass') c.detail = sm.detail;
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
        `organizerSeed ${JSON.stringify(b.organizerSeed)} differs from the log's ${JSON.stringify(state.organizerSeed)}`,
      );
    }
    const seats = listedSeats(startState ?? state, b.formatVersion);
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
      // Before the start a seat may have no seed yet (null); from the start on, every seat has one.
      const seedErr = p.clientSeed === null && !startState ? null : validateClientSeed(p.clientSeed);
      // Format 2: whether the seed was generated is recorded in gameStarted, so it must match.
      // Format 1 bundles carried it as unverified information (or null).
      const generatedDiffers = b.formatVersion >= 2 && p.clientSeedGenerated !== s.clientSeedGenerated;
      if (
        p.seat !== s.seat ||
        p.playerId !== s.playerId ||
        p.clientSeed !== s.clientSeed ||
        p.hotSeat !== s.hotSeat ||
        seedErr ||
        generatedDiffers
      ) {
        checks.fail(
          'seeds',
          seatVersion.get(s.seat) ?? null,
          seedErr && p.clientSeed === s.clientSeed
            ? `seat ${s.seat}: ${seedErr}`
            : generatedDiffers && p.clientSeed === s.clientSeed
              ? `players[${k}].clientSeedGenerated is ${String(p.clientSeedGenerated)}, the gameStarted event says ${String(s.clientSeedGenerated)}`
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
      players: listedSeats(startState ?? state, b.formatVersion).map((s) => ({
        seat: s.seat,
        playerId: s.playerId,
        displayName: names.get(s.seat) ?? null,
        clientSeed: s.clientSeed,
      })),
      seedOrigins: startState ? ctx.origins : [...origins.values()].sort((x, y) => (x.seat ?? -1) - (y.seat ?? -1)),
      publishedHeads: ctx.heads,
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

  ctx.status = state.status;
  if (!startState) ctx.origins = summary?.seedOrigins ?? [];
  ctx.started = startState !== null;
  return finish(summary, revealed && !checks.failed('commitment'));
}

/** Follows who fixed each seed, event by event (for the report; the rules already checked legality). */
function trackOrigin(
  origins: Map<number, SeedOrigin>,
  e: Envelope,
  version: number,
  commandType: unknown,
  after: GameState,
): void {
  const d = e.data;
  const set = (seat: number | null, clientSeed: unknown, source: SeedOrigin['source']) => {
    if (typeof clientSeed !== 'string') return void origins.delete(seat ?? -1);
    origins.set(seat ?? -1, {
      seat,
      clientSeed,
      source,
      version,
      afterCommitment: source === 'join' || source === 'setSeed' || source === 'start',
    });
  };
  switch (e.type) {
    case 'gameCreated':
      if (typeof d.organizerSeed === 'string') set(null, d.organizerSeed, 'create');
      break;
    case 'seatTaken':
      set(e.seat, d.clientSeed, commandType === 'create' ? 'create' : 'join');
      break;
    case 'seatLeft':
      origins.delete(e.seat ?? -1);
      break;
    case 'seedSet':
      set(d.seat === null ? null : (d.seat as number), d.clientSeed, 'setSeed');
      break;
    case 'gameStarted':
      for (const s of after.seats) {
        const known = origins.get(s.seat);
        if (s.clientSeedGenerated === true) set(s.seat, s.clientSeed, 'generated');
        else if (!known || known.clientSeed !== s.clientSeed) set(s.seat, s.clientSeed, 'start');
      }
      break;
  }
}

interface ClaimContext {
  origins: SeedOrigin[];
  heads: Array<{ head: string; version: number | null }>;
  lastVersion: number;
  status: string | null;
  started?: boolean;
  options: VerifyOptions;
}

const whose = (o: SeedOrigin) => (o.seat === null ? 'the organizer seed' : `seat ${o.seat}'s seed`);

/**
 * The report's plain statements (docs/fairness.md §6, §8): what this bundle proves with the options
 * given, what it does not, and what no bundle can prove.
 */
function claimsOf(checks: Checks, ctx: ClaimContext, diceChecked: boolean): VerifyClaim[] {
  const out: VerifyClaim[] = [];
  const status = (name: string) => checks.list.find((c) => c.name === name)?.status;
  const add = (id: string, ok: boolean | 'failed', statement: string, detail?: string) =>
    out.push({
      id,
      status: ok === 'failed' ? 'failed' : ok ? 'proved' : 'not-proved',
      statement,
      ...(detail ? { detail } : {}),
    });
  const failedOr = (name: string, ok: boolean) => (status(name) === 'fail' ? 'failed' : ok);

  if (status('format') === 'fail') {
    add('format', 'failed', 'The document is an audit bundle this verifier reads.', checks.list[0]?.detail);
    return out;
  }
  add(
    'commitment-announced',
    failedOr('expected-commitment', status('expected-commitment') === 'pass'),
    'This is the game whose commitment was written down before play.',
    status('expected-commitment') === 'skipped' ? 'give --commitment <hex> (from the create response)' : undefined,
  );
  add(
    'log-intact',
    failedOr('chain', status('chain') === 'pass'),
    "The log is intact from the commitment to the bundle's head: no event changed, inserted, removed or reordered, commands included.",
  );
  const lastHead = ctx.heads.filter((h) => h.version !== null).sort((a, b) => b.version! - a.version!)[0];
  add(
    'log-matches-published-heads',
    failedOr('published-head', ctx.heads.length > 0 && status('published-head') === 'pass'),
    'Every head published during play is a version of this log (the log up to it is the one that was shown).',
    ctx.heads.length === 0 ? 'give --head <hex> for each head noted during play' : undefined,
  );
  add(
    'log-complete',
    failedOr('published-head', lastHead?.version === ctx.lastVersion && status('published-head') === 'pass'),
    'The log is complete: its last event is a head published independently of this bundle.',
    lastHead?.version === ctx.lastVersion
      ? undefined
      : lastHead
        ? `events after version ${lastHead.version} are covered only by the bundle's own head`
        : 'no published head given: a shortened or extended log would not be detected',
  );
  add(
    'rules',
    failedOr('commands', status('commands') === 'pass'),
    "Every event follows from its logged command by the rules; the service's own moves (timeout, computer seat, auto-score, abandon) are legal (moves the service chose are listed in its command and checked for legality here, and re-derived at their level under service-moves; a timeout without listed moves is re-run with the reference policy).",
  );
  const moves = checks.list.find((c) => c.name === 'service-moves');
  if (moves)
    add(
      'service-moves',
      failedOr('service-moves', moves.status === 'pass'),
      'Every move the service chose (computer seat, timeout, auto-score) is the one its level makes, re-derived on the same state and dice.',
      moves.status === 'fail' && typeof moves.version === 'number'
        ? `event version ${moves.version}: ${moves.detail}`
        : moves.detail,
    );
  const diceCheck = checks.list.find((c) => c.name === 'dice');
  add(
    'dice',
    status('commitment') === 'fail' ? 'failed' : failedOr('dice', diceChecked),
    'Every roll is the one the server seed and the client seeds give (the server seed matches the commitment).',
    diceChecked
      ? undefined
      : status('commitment') === 'fail'
        ? checks.list.find((c) => c.name === 'commitment')?.detail
        : diceCheck?.detail,
  );
  if (ctx.status === 'finished')
    add(
      'standings',
      failedOr('standings', status('standings') === 'pass'),
      'The final standings follow from the events.',
    );
  for (const o of ctx.origins) {
    const statement = `${whose(o)} was fixed after the commitment by the party it belongs to.`;
    if (o.source === 'generated')
      add(
        `seed:${o.seat ?? 'organizer'}`,
        false,
        statement,
        `generated by the service at the start (event ${o.version}): it protects only if the service is honest`,
      );
    else if (o.source === 'create')
      add(
        `seed:${o.seat ?? 'organizer'}`,
        false,
        statement,
        'given in the create request, before the commitment existed (a game created before seeds moved after the commitment)',
      );
    else add(`seed:${o.seat ?? 'organizer'}`, true, statement, `${o.source} at event ${o.version}`);
  }
  const independent = ctx.origins.some((o) => o.afterCommitment);
  add(
    'entropy-after-commitment',
    ctx.started === true && independent,
    'At least one seed the service did not choose was fixed after the commitment, so the service could not pick the server seed to suit the dice.',
    !ctx.started
      ? 'the game has not started: seeds may still change'
      : independent
        ? 'provided that party saw the commitment before sending the seed and kept the seed unpredictable'
        : 'every seed was generated by the service or given before the commitment',
  );
  add(
    'commands-authentic',
    false,
    'Each command was sent by the player it names.',
    'commands are not signed by the players; the log proves what the service applied',
  );
  add(
    'timing',
    false,
    'Timeouts, auto-scores and abandonment happened when the limits said.',
    'times are not in the chain; a service could time out a turn early',
  );
  return out;
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

/**
 * The faces a duplicate tournament game's roll event must record: the round stream's faces at the
 * positions the roll threw (not held), at (game, the seat's turn = boxes filled, roll in turn).
 */
function duplicateFacesOf(roundSeed: Uint8Array, state: GameState, e: { seat: number | null; data: unknown }): Die[] {
  const t = state.tournament!;
  const play = state.play as FiveDiceState | null;
  const seat = e.seat;
  if (!play || seat === null || !play.turn) throw new Error('a duplicate roll outside a turn');
  const held = ((e.data as { held?: unknown }).held ?? []) as number[];
  const positions = [0, 1, 2, 3, 4].filter((p) => !held.includes(p));
  return duplicateRoll(
    { roundSeed, tournamentId: t.id, round: t.round },
    { game: t.game, turn: filledCount(play.sheets[seat]), roll: play.turn.rollInTurn },
    positions,
  );
}
