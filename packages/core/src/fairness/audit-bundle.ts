/**
 * The audit bundle (docs/fairness.md §5): one JSON document holding everything an independent
 * verifier needs to check a game — rule set and options, players and client seeds, commitment,
 * the server seed once revealed, and every event with its command and hashes.
 *
 * Pure types and constants: shared by the server (src/audit) and the offline verifier
 * (verifier.ts here, src/fairness/cli.ts, the verifier package and page), which must not depend on Nest, Prisma or the database.
 */
import { familyById } from '../rules/registry';
import { emptyGame, evolveGame, type GameCommand, type GameEvent, type GameState } from '../rules/game';
import { envelopeFields, type HashedEventEnvelope } from './hash-chain';
import { orderedClientSeeds } from './seeds';
import type { BundleTransparencyLog } from './log-proof';
import { isEnded } from '../rules/game/status';

export const AUDIT_FORMAT = 'fairdice-audit';
/**
 * 2: seeds are set after the commitment (setSeed, start), `players[].clientSeed` may be null before
 * the start, `clientSeedGenerated` comes from the gameStarted event. A verifier also reads format 1
 * (bundles stored before): the members are the same.
 */
export const AUDIT_FORMAT_VERSION = 2;
/**
 * 3: as 2, and `players` also lists the computer seats (`playerId: null`, docs/fairness.md §5.2,
 * decision 0077). Only bundles of games with a computer seat are format 3, so a verifier that reads
 * 2 keeps reading every other game, and refuses (rather than misreads) these.
 */
export const AUDIT_FORMAT_VERSION_COMPUTER_SEATS = 3;
export const SUPPORTED_FORMAT_VERSIONS: readonly number[] = [1, 2, 3];
/** Every member a bundle has (a verifier rejects others: they would be unchecked). */
export const BUNDLE_MEMBERS = [
  'format',
  'formatVersion',
  'algorithms',
  'gameId',
  'status',
  'ruleSet',
  'createdAt',
  'endedAt',
  'commitment',
  'organizerSeed',
  'players',
  'clientSeeds',
  'serverSeed',
  'rollCount',
  'events',
  'chainHead',
  'finalStandings',
  'generatedAt',
] as const;
/** Members a bundle may carry in addition (absent in bundles from before the transparency log, §9.4). */
export const OPTIONAL_BUNDLE_MEMBERS = ['transparencyLog'] as const;
export const PLAYER_MEMBERS = [
  'seat',
  'playerId',
  'displayName',
  'hotSeat',
  'clientSeed',
  'clientSeedGenerated',
] as const;
/** Version of the rules the bundle's events follow (bumped when a rule change alters outcomes). */
export const RULES_VERSION = '1';
export const AUDIT_ALGORITHMS = {
  commitment: 'sha256(serverSeed)',
  roll: 'fairdice/roll/v1',
  eventHash: 'sha256(canonical-json(envelope))/v1',
} as const;

/** Statuses of the game aggregate (rules/game). The server seed is revealed iff finished or abandoned. */
export type AuditGameStatus = 'open' | 'playing' | 'finished' | 'abandoned';

export interface AuditPlayer {
  seat: number;
  /** null: a computer seat (format 3; the service plays it, its seed generated at the start). */
  playerId: string | null;
  displayName: string | null;
  /** The seat is a hot seat played by the creator from one screen. */
  hotSeat: boolean;
  /** The seat's seed; null only before the start when nobody has set it yet. */
  clientSeed: string | null;
  /**
   * From the gameStarted event: true when the service generated the seed at the start (nobody
   * supplied one), false when a player gave it. null before the start, and in games started before
   * this was recorded (format 1).
   */
  clientSeedGenerated: boolean | null;
}

export interface AuditStanding {
  rank: number;
  seat: number;
  playerId: string | null;
  score: number;
  quit: boolean;
}

export interface AuditBundle {
  format: typeof AUDIT_FORMAT;
  formatVersion: number;
  algorithms: typeof AUDIT_ALGORITHMS;
  gameId: string;
  status: AuditGameStatus;
  /** name: the rule set preset (penta, simple, bonus, farkle); family: five-dice or farkle. */
  ruleSet: { name: string; family: string; version: string; options: Record<string, unknown> };
  createdAt: string;
  endedAt: string | null;
  commitment: string;
  organizerSeed: string | null;
  players: AuditPlayer[];
  /** Derivation order (organizer seed, then each seat's seed by seat number); null before the start. */
  clientSeeds: string[] | null;
  /** 64 hex digits once the game has ended, null before. */
  serverSeed: string | null;
  rollCount: number;
  events: HashedEventEnvelope[];
  chainHead: string;
  finalStandings: AuditStanding[] | null;
  generatedAt: string;
  /**
   * The game's leaves in the transparency log with their inclusion proofs and the signed tree head
   * (docs/fairness.md §8.4); null when the service did not attach it. Not covered by the chain:
   * the verifier checks it against the bundle and, given the log's public key, the signature.
   */
  transparencyLog?: BundleTransparencyLog | null;
}

/** Is the server seed public? Only once the game is over (finished or abandoned). */
export const isSeedRevealable = (status: string): boolean => isEnded(status);

export interface AssembleBundleInput {
  gameId: string;
  /** Every stored event, in version order, with command and hash. */
  events: HashedEventEnvelope[];
  /** The server seed (hex). Included ONLY if the replayed game has ended; pass null when in doubt. */
  serverSeed: string | null;
  /** Display names by player id (informational: not covered by the chain). */
  displayNames?: Record<string, string>;
  createdAt: string;
  endedAt: string | null;
  generatedAt: string;
}

/**
 * Builds the bundle from the stored events: everything except names and timestamps is derived by
 * replaying the events with the rules engine, so the bundle and its events cannot disagree. The
 * server seed is written only when the replayed game has ended (a second gate after the caller's).
 */
export function assembleBundle(input: AssembleBundleInput): AuditBundle {
  const gameEvents: GameEvent[] = input.events.map((e) => ({
    type: e.type,
    seat: e.seat,
    data: e.data,
    rollNumber: e.rollNumber,
    command: e.command as GameCommand | null,
  }));
  let state = emptyGame(input.gameId);
  let atStart: GameState | null = null;
  for (const e of gameEvents) {
    state = evolveGame(state, e);
    if (e.type === 'gameStarted') atStart = state;
  }
  // Every seat taken, the computer's included: an auditor sees every seat whose seed is in clientSeeds.
  const seated = (atStart ?? state).seats.filter((s) => s.playerId !== null || s.computer !== null);
  const hasComputer = seated.some((s) => s.computer !== null);
  const standings =
    state.status === 'finished' && state.play !== null ? familyById(state.family).standings(state.play) : null;
  const names = input.displayNames ?? {};
  const head = input.events.length ? input.events[input.events.length - 1].hash : state.commitment;
  return {
    format: AUDIT_FORMAT,
    formatVersion: hasComputer ? AUDIT_FORMAT_VERSION_COMPUTER_SEATS : AUDIT_FORMAT_VERSION,
    algorithms: AUDIT_ALGORITHMS,
    gameId: input.gameId,
    status: state.status,
    ruleSet: { name: state.ruleSet, family: state.family, version: RULES_VERSION, options: state.options },
    createdAt: input.createdAt,
    endedAt: input.endedAt,
    commitment: state.commitment,
    organizerSeed: state.organizerSeed,
    players: seated.map((s) => ({
      seat: s.seat,
      playerId: s.playerId,
      displayName: s.playerId !== null ? (names[s.playerId] ?? null) : null,
      hotSeat: s.hotSeat,
      clientSeed: s.clientSeed,
      clientSeedGenerated: s.clientSeedGenerated,
    })),
    clientSeeds: atStart
      ? orderedClientSeeds({
          organizerSeed: atStart.organizerSeed,
          seats: atStart.seats.map((s) => ({ seat: s.seat, clientSeed: s.clientSeed as string })),
        })
      : null,
    serverSeed: isSeedRevealable(state.status) ? input.serverSeed : null,
    rollCount: state.rollCount,
    events: input.events.map((e) => ({ ...envelopeFields(e), hash: e.hash })),
    chainHead: head,
    finalStandings: standings
      ? standings.map((s) => ({
          rank: s.rank,
          seat: s.seat,
          playerId: state.seats[s.seat]?.playerId ?? null,
          score: s.total,
          quit: s.quit,
        }))
      : null,
    generatedAt: input.generatedAt,
  };
}
