/**
 * The tournament audit bundle and its offline verifier (docs/fairness.md §11). One bundle holds
 * the tournament's hash-chained events, every game's own audit bundle, the standings as the
 * service shows them and a Merkle root over the games' final chain heads. The verifier checks,
 * in this order, and names the first thing that does not check out:
 *
 *   1. format: the members and their shapes;
 *   2. tournament-chain: the tournament's events against its commitment (the same chain as a game's);
 *   3. expected-commitment (with --commitment): the commitment written down is the tournament's or
 *      one of its games';
 *   4. tournament-commands: every batch's command, re-run by decideTournament on the state replayed
 *      so far, yields exactly the stored events (so their order, preconditions and every derived
 *      field, such as entrant numbers, are the rules');
 *   5. tournament-seed: the revealed tournament seed against the commitment;
 *   6. round-seed <r>: each round's revealed seed = roundSeed(tournament seed, id, r, organizer seed
 *      and entrants' seeds in entrant order);
 *   7. draw <r>: the tables of round r are tableDraw(round seed, active entrants) (tables format);
 *   8. games-complete: every game the roundStarted events name is in the bundle, no other;
 *   9. game <id>: each game's own bundle verifies (verifyBundle, with --log-key, and with the
 *      commitment and heads given that are this game's), belongs to this tournament at the
 *      round, game and table the tournament says, and seats the entrants it says in that order;
 *  10. duplicate-stream <r>: every duplicate game of round r was dealt from the round's stream (its
 *      server seed is the round seed, from which verifyBundle re-derived each of its rolls);
 *  11. results <r>: each game's result in roundFinished is the game's verified final totals;
 *  12. standings: the bundle's standings = computeStandings of the replayed tournament;
 *  13. games-root: the Merkle root over the games' final heads;
 *  14. published-head (with --head): each head is the hash of one version of the tournament's log
 *      or of one game's log.
 */
import {
  computeStandings,
  decideTournament,
  emptyTournament,
  evolveTournament,
  replayTournament,
  roundSeedInputs,
  type StandingRow,
} from '../rules/tournament';
import type { TournamentCommand, TournamentEvent, TournamentState } from '../rules/tournament/types';
import { isRuleError, ruleError, type RuleError } from '../rules/core/errors';
import { bytesToHex, hexToBytes, sha256Hex, utf8ToBytes } from './bytes';
import { canonicalJson } from './canonical';
import { verifyChain, type HashedEventEnvelope } from './hash-chain';
import { roundSeedHex, tableDraw } from './tournament';
import { leafHash, merkleRoot } from './transparency-log';
import { verifyBundle, type VerifyOptions } from './verifier';

export const TOURNAMENT_AUDIT_FORMAT = 'fairdice-tournament-audit';
export const TOURNAMENT_AUDIT_FORMAT_VERSION = 1;
export const TOURNAMENT_BUNDLE_MEMBERS = [
  'format',
  'formatVersion',
  'tournamentId',
  'commitment',
  'tournamentSeed',
  'events',
  'games',
  'standings',
  'gamesRoot',
] as const;

export interface TournamentBundleEvent {
  version: number;
  type: string;
  dataJson: string;
  commandJson: string | null;
  prevHash: string;
  hash: string;
}

/** One game's place in the tournament and its final head: a leaf of the games' Merkle tree. */
export interface TournamentGameLeaf {
  gameId: string;
  round: number;
  game: number;
  table: number;
  head: string;
}

export interface TournamentAuditBundle {
  format: typeof TOURNAMENT_AUDIT_FORMAT;
  formatVersion: number;
  tournamentId: string;
  commitment: string;
  /** Revealed when the tournament ended; null before. */
  tournamentSeed: string | null;
  /**
   * The tournament's events, oldest first: the hashed envelope of each with `data` and `command`
   * as canonical JSON text (the envelope's gameId is the tournament id; seat and rollNumber null).
   */
  events: TournamentBundleEvent[];
  /** Every game's own audit bundle (docs/fairness.md §5), in the order the roundStarted events list them. */
  games: Array<Record<string, unknown>>;
  standings: StandingRow[];
  /** Hex root of the Merkle tree (RFC 9162) over gameLeafBytes of every game, in that order. */
  gamesRoot: string;
}

/** The leaf bytes: UTF-8 of the canonical JSON {gameId, round, game, table, head}. */
export function gameLeafBytes(leaf: TournamentGameLeaf): Uint8Array {
  return utf8ToBytes(
    canonicalJson({ gameId: leaf.gameId, round: leaf.round, game: leaf.game, table: leaf.table, head: leaf.head }),
  );
}

/** The games' Merkle root (hex); the root of no games is SHA-256 of the empty string. */
export function gamesRoot(leaves: readonly TournamentGameLeaf[]): string {
  return bytesToHex(merkleRoot(leaves.map((l) => leafHash(gameLeafBytes(l)))));
}

export interface TournamentCheck {
  name: string;
  ok: boolean;
  detail?: string;
}

export interface TournamentVerifyReport {
  ok: boolean;
  /** The first check that failed (the order above), or null. */
  failure: TournamentCheck | null;
  checks: TournamentCheck[];
}

class Failed extends Error {}

/**
 * What the auditor brings from outside the bundle, as for a game (VerifyOptions): `logKey` applies
 * to every game; `commitment` must be the tournament's or one game's (that game is then checked
 * against it); every `heads` entry must be a version of the tournament's log or of one game's log.
 */
export type TournamentVerifyOptions = Pick<VerifyOptions, 'commitment' | 'heads' | 'logKey'>;

/** Verifies a tournament audit bundle offline; stops at the first failure and names it. */
export function verifyTournamentBundle(input: unknown, options: TournamentVerifyOptions = {}): TournamentVerifyReport {
  const checks: TournamentCheck[] = [];
  const pass = (name: string) => checks.push({ name, ok: true });
  const fail = (name: string, detail: string): never => {
    checks.push({ name, ok: false, detail });
    throw new Failed(detail);
  };
  try {
    run(input, options, pass, fail);
  } catch (err) {
    if (!(err instanceof Failed)) checks.push({ name: 'format', ok: false, detail: String(err) });
  }
  const failure = checks.find((c) => !c.ok) ?? null;
  return { ok: failure === null, failure, checks };
}

type Pass = (name: string) => void;
type Fail = (name: string, detail: string) => never;

function run(input: unknown, options: TournamentVerifyOptions, pass: Pass, fail: Fail): void {
  // 1. format
  if (typeof input !== 'object' || input === null || Array.isArray(input)) fail('format', 'not a JSON object');
  const b = input as Record<string, unknown>;
  const extra = Object.keys(b).filter((k) => !(TOURNAMENT_BUNDLE_MEMBERS as readonly string[]).includes(k));
  if (extra.length) fail('format', `unknown members: ${extra.join(', ')}`);
  if (b.format !== TOURNAMENT_AUDIT_FORMAT || b.formatVersion !== TOURNAMENT_AUDIT_FORMAT_VERSION)
    fail('format', `format must be ${TOURNAMENT_AUDIT_FORMAT} version ${TOURNAMENT_AUDIT_FORMAT_VERSION}`);
  if (typeof b.tournamentId !== 'string') fail('format', 'tournamentId must be a string');
  if (!Array.isArray(b.events) || !Array.isArray(b.games) || !Array.isArray(b.standings))
    fail('format', 'events, games and standings must be arrays');
  if (typeof b.commitment !== 'string' || typeof b.gamesRoot !== 'string')
    fail('format', 'commitment and gamesRoot must be strings');
  const id = b.tournamentId;
  const events: HashedEventEnvelope[] = (b.events as TournamentBundleEvent[]).map((e, i) => {
    if (typeof e !== 'object' || e === null || typeof e.dataJson !== 'string')
      return fail('format', `events[${i}] must be an object with dataJson`);
    let data: unknown;
    let command: unknown;
    try {
      data = JSON.parse(e.dataJson);
      command = e.commandJson === null ? null : JSON.parse(e.commandJson);
    } catch {
      return fail('format', `events[${i}]: dataJson / commandJson is not JSON`);
    }
    return {
      gameId: id,
      version: e.version,
      type: e.type,
      seat: null,
      data: data as Record<string, unknown>,
      rollNumber: null,
      command: command as HashedEventEnvelope['command'],
      prevHash: e.prevHash,
      hash: e.hash,
    };
  });
  pass('format');

  // 2. tournament-chain
  const chain = verifyChain(b.commitment, events, { gameId: id, strict: true });
  if (!chain.ok) fail('tournament-chain', `event ${chain.version ?? chain.index + 1}: ${chain.reason}`);
  pass('tournament-chain');
  const tEvents: TournamentEvent[] = events.map((e) => ({ type: e.type as TournamentEvent['type'], data: e.data }));
  const state = replayTournament(id, tEvents);
  if (state.commitment !== b.commitment) fail('tournament-chain', 'tournamentCreated names another commitment');

  // 3. expected-commitment: the one written down before play is the tournament's or one of its games'.
  const commitment = typeof options.commitment === 'string' ? options.commitment.toLowerCase() : undefined;
  const games = b.games as Array<Record<string, unknown>>;
  if (commitment !== undefined) {
    if (commitment !== b.commitment && !games.some((g) => g.commitment === commitment))
      fail(
        'expected-commitment',
        `the commitment written down before play (${commitment}) is neither the tournament's (${b.commitment}) nor any of its games'`,
      );
    pass('expected-commitment');
  }

  // 4. tournament-commands
  replayCommands(id, events, fail);
  pass('tournament-commands');

  // 5. tournament-seed
  const seed = b.tournamentSeed;
  if (typeof seed !== 'string')
    fail('tournament-seed', 'the tournament seed is not revealed yet (the tournament has not ended)');
  if (state.tournamentSeed !== seed)
    fail('tournament-seed', 'the bundle and the tournament events reveal different seeds');
  if (!/^[0-9a-f]{64}$/.test(seed) || sha256Hex(hexToBytes(seed)) !== b.commitment)
    fail('tournament-seed', 'SHA-256 of the tournament seed is not the commitment');
  pass('tournament-seed');

  // 6. round-seed <r>
  // No round started (a tournament cancelled before its start): no round seed to check.
  const seeds = state.roundStates.length > 0 ? roundSeedInputs(state) : [];
  const roundSeeds = new Map<number, string>();
  for (const r of state.roundStates) {
    const expected = roundSeedHex({ tournamentSeedHex: seed, tournamentId: id, round: r.round, seeds });
    if (r.roundSeed !== null && r.roundSeed !== expected)
      fail(
        `round-seed ${r.round}`,
        `round ${r.round}'s revealed seed is not derived from the tournament seed, the organizer seed and the entrants' seeds`,
      );
    roundSeeds.set(r.round, expected);
    pass(`round-seed ${r.round}`);
  }

  // 7. draw <r> (before the games: a changed draw is named as such, not as a game's seats)
  if (state.format === 'tables') {
    for (const r of state.roundStates) {
      const active = activeAtRound(id, tEvents, r.round);
      const draw = tableDraw(
        hexToBytes(roundSeeds.get(r.round)!),
        active.map((e) => e.playerId),
        state.tableSizeMin,
        state.tableSizeMax,
      );
      const byPlayer = new Map(active.map((e) => [e.playerId, e.number]));
      for (const g of r.games) {
        const want = draw?.[g.table]?.map((pid) => byPlayer.get(pid));
        if (!want || canonicalJson(want) !== canonicalJson(g.entrants))
          fail(`draw ${r.round}`, `table ${g.table} of round ${r.round} is not the draw from the round seed`);
      }
      pass(`draw ${r.round}`);
    }
  }

  // 8. games-complete
  const places = state.roundStates.flatMap((r) => r.games.map((g) => ({ ...g, round: r.round })));
  const bundled = new Map(games.map((g) => [g.gameId as string, g]));
  for (const p of places)
    if (!bundled.has(p.gameId))
      fail('games-complete', `game ${p.gameId} (round ${p.round}, game ${p.game}, table ${p.table}) is missing`);
  const named = new Set(places.map((p) => p.gameId));
  for (const g of games)
    if (!named.has(g.gameId as string)) fail('games-complete', `game ${String(g.gameId)} is not in any round`);
  if (games.length !== places.length) fail('games-complete', 'a game is listed twice');
  pass('games-complete');

  // 9. game <id>, 10. duplicate-stream <r>
  const heads = (options.heads ?? []).map((h) => (typeof h === 'string' ? h.toLowerCase() : String(h)));
  const entrantOf = new Map(state.entrants.map((e) => [e.number, e]));
  const verified = new Map<string, { head: string; totals: number[]; status: string }>();
  for (const p of places) {
    const g = bundled.get(p.gameId)!;
    const name = `game ${p.gameId}`;
    const report = verifyBundle(g, {
      logKey: options.logKey,
      commitment: commitment !== undefined && g.commitment === commitment ? commitment : undefined,
      heads: headsOf(g, heads),
    });
    if (!report.ok || !report.summary)
      fail(name, `${report.failure?.name ?? 'verify'}: ${report.failure?.detail ?? 'does not verify'}`);
    const created = (g.events as HashedEventEnvelope[])[0]?.data;
    const ref = created?.tournament as Record<string, unknown> | undefined;
    if (!ref || ref.id !== id || ref.round !== p.round || ref.game !== p.game || ref.table !== p.table)
      fail(name, `its gameCreated event does not place it at round ${p.round}, game ${p.game}, table ${p.table}`);
    const seated = report.summary.players.map((pl) => pl.playerId);
    const expected = p.entrants.map((n) => entrantOf.get(n)?.playerId);
    if (canonicalJson(seated) !== canonicalJson(expected))
      fail(name, `its seats are not the entrants ${p.entrants.join(', ')} in that order`);
    if (state.format === 'duplicate' && g.serverSeed !== roundSeeds.get(p.round))
      fail(`duplicate-stream ${p.round}`, `game ${p.gameId} was not dealt from round ${p.round}'s stream`);
    const totals = [...report.summary.totals].sort((x, y) => x.seat - y.seat).map((t) => t.total);
    verified.set(p.gameId, { head: report.summary.head, totals, status: report.summary.status });
    pass(name);
  }
  if (state.format === 'duplicate') for (const r of state.roundStates) pass(`duplicate-stream ${r.round}`);

  // 11. results <r>
  for (const r of state.roundStates) {
    if (!r.finished) continue;
    for (const res of r.results) {
      const h = verified.get(res.gameId);
      if (!h || canonicalJson(res.scores) !== canonicalJson(h.totals))
        fail(`results ${r.round}`, `game ${res.gameId}'s result is not its verified final totals`);
    }
    pass(`results ${r.round}`);
  }

  // 12. standings
  // displayName is shown for convenience and not checked (it is not part of any hash).
  const shown = (b.standings as Array<Record<string, unknown>>).map(({ displayName: _name, ...row }) => row);
  // Bundles made before shared ranks (decision 0073) have no `tied` and rank by position: the same
  // order, so they are checked against that form.
  const before0073 = shown.every((row) => !('tied' in row));
  const expected = computeStandings(state).map(({ tied, ...row }, i) =>
    before0073 ? { ...row, rank: i + 1 } : { ...row, tied },
  );
  if (canonicalJson(shown) !== canonicalJson(expected))
    fail('standings', 'the standings are not those the results give (docs/tournaments.md, standings)');
  pass('standings');

  // 13. games-root
  const root = gamesRoot(places.map((p) => ({ ...p, head: verified.get(p.gameId)!.head })));
  if (root !== b.gamesRoot)
    fail('games-root', `the games' Merkle root is ${root}, the bundle says ${String(b.gamesRoot)}`);
  pass('games-root');

  // 14. published-head: the chains are verified, so their stored hashes are the recomputed ones.
  if (heads.length > 0) {
    const tournamentHashes = new Set(events.map((e) => e.hash));
    for (const h of heads) {
      if (!/^[0-9a-f]{64}$/.test(h)) fail('published-head', `a published head must be 64 hex digits, got ${h}`);
      if (!tournamentHashes.has(h) && !games.some((g) => headsOf(g, [h]).length > 0))
        fail(
          'published-head',
          `the published head ${h} is not the hash of any version of the tournament's log or of any game's log`,
        );
    }
    pass('published-head');
  }
}

/** The given heads that are hashes of events of game bundle `g` (each game checks those itself). */
function headsOf(g: Record<string, unknown>, heads: readonly string[]): string[] {
  const events = Array.isArray(g.events) ? (g.events as Array<{ hash?: unknown }>) : [];
  const own = new Set(events.map((e) => e?.hash));
  return heads.filter((h) => own.has(h));
}

/**
 * Re-runs every batch's command through the tournament decider on the state replayed so far (as
 * the game verifier does with decideGame): the stored batch must be exactly what it yields, so a
 * reordered, skipped or invented event, or a changed derived field, fails here.
 */
function replayCommands(id: string, events: readonly HashedEventEnvelope[], fail: Fail): void {
  let state = emptyTournament(id);
  for (let i = 0; i < events.length;) {
    const command = events[i].command as unknown as TournamentCommand | null;
    if (command === null || typeof command !== 'object')
      fail('tournament-commands', `event ${i + 1} starts a batch but carries no command`);
    if (i === 0 && (command.type !== 'create' || (command as { tournamentId?: unknown }).tournamentId !== id))
      fail('tournament-commands', `event 1 must carry the create command of tournament ${id}`);
    let j = i + 1;
    while (j < events.length && events[j].command === null) j++;
    let produced: TournamentEvent[] | RuleError;
    try {
      produced = decideTournament(state, command);
    } catch (err) {
      produced = ruleError('INVALID_COMMAND', (err as Error).message);
    }
    if (isRuleError(produced))
      fail(
        'tournament-commands',
        `event ${i + 1}: its ${String(command.type)} command is not legal here (${produced.code}: ${produced.message})`,
      );
    const stored = events.slice(i, j).map((e) => ({ type: e.type, data: e.data }));
    for (let k = 0; k < Math.max(produced.length, stored.length); k++) {
      const want = produced[k];
      const got = stored[k];
      if (!want) fail('tournament-commands', `event ${i + k + 1} does not follow from the command of event ${i + 1}`);
      if (!got)
        fail('tournament-commands', `the command of event ${i + 1} yields a ${want.type} event missing from the log`);
      if (canonicalJson(want) !== canonicalJson(got))
        fail(
          'tournament-commands',
          `event ${i + k + 1}: re-running the ${command.type} command of event ${i + 1} yields ${want.type} ${canonicalJson(want.data)}, the log has ${got.type} ${canonicalJson(got.data)}`,
        );
      state = evolveTournament(state, want);
    }
    i = j;
  }
}

/** The entrants still active when round `round` started (replayed up to its roundStarted event). */
function activeAtRound(id: string, events: TournamentEvent[], round: number): TournamentState['entrants'] {
  const upTo = events.findIndex((e) => e.type === 'roundStarted' && e.data.round === round);
  const s = replayTournament(id, events.slice(0, upTo));
  return s.entrants.filter((e) => e.status === 'active').sort((a, b) => a.number - b.number);
}
