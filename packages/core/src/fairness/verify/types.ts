/**
 * The verifier's public types (docs/fairness.md §6): the report, its checks, claims and summary,
 * and the options an auditor brings from outside the bundle. Re-exported by ../verifier.
 */
import type { OptimalTablesFor } from '../service-moves';

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
