import { Inject, Injectable } from '@nestjs/common';
import { Pool } from 'pg';
import { DomainException } from '../common/errors';
import { PG_POOL } from '../database/pg-pool';
import { ReadRouter, type ReadTarget } from '../database/read-routing';
import type { Queryable } from '../database/unit-of-work';
import { SeedVault } from '../keys/seed-vault';
import { TransparencyLogService } from '../transparency/transparency-log.service';
import { EventStore } from '../event-store/event-store.service';
import { assembleBundle, AuditBundle, isSeedRevealable } from '@fairdice/core/fairness/audit-bundle';
import type { HashedEventEnvelope } from '@fairdice/core/fairness/hash-chain';
import type { AuthenticatedPlayer } from '../players/players.types';
import { UUID_PATTERN_ANY_CASE as UUID } from '@fairdice/core/fairness/ids';
import { maySeeGame } from '@fairdice/core/rules/game/access';

const notFound = () => new DomainException('GAME_NOT_FOUND', 'No such game');

/**
 * Builds a game's audit bundle (docs/fairness.md §5): the game row, the events via the
 * event store, everything else by replaying the events (assembleBundle). The server seed leaves the
 * database row only when the game has ended (and assembleBundle checks the replayed status again).
 */
const TOURNAMENT_READER = Symbol('tournament audit');

@Injectable()
export class AuditService {
  constructor(
    @Inject(PG_POOL) private readonly pool: Pool,
    private readonly store: EventStore,
    private readonly vault: SeedVault,
    private readonly log: TransparencyLogService,
    private readonly reads: ReadRouter,
  ) {}

  /**
   * A game's bundle for the audit of its ended tournament (src/tournaments/tournament-audit.service.ts):
   * without the per-game access check, which the tournament's own check replaces.
   */
  async bundleForTournament(gameId: string): Promise<AuditBundle> {
    return (await this.bundleWithTimes(TOURNAMENT_READER, gameId)).bundle;
  }

  /** As bundleForTournament, with when each event was stored (GraphQL's typed events carry createdAt). */
  bundleForTournamentWithTimes(gameId: string): Promise<{ bundle: AuditBundle; eventTimes: Map<number, Date> }> {
    return this.bundleWithTimes(TOURNAMENT_READER, gameId);
  }

  async bundle(player: AuthenticatedPlayer | null, rawId: string): Promise<AuditBundle> {
    return (await this.bundleWithTimes(player, rawId)).bundle;
  }

  /** The bundle and when each event was stored (by version): GraphQL's events carry createdAt. */
  async bundleWithTimes(
    player: AuthenticatedPlayer | null | typeof TOURNAMENT_READER,
    rawId: string,
  ): Promise<{ bundle: AuditBundle; eventTimes: Map<number, Date> }> {
    if (typeof rawId !== 'string' || !UUID.test(rawId)) {
      throw new DomainException('VALIDATION_FAILED', 'gameId must be a UUID', {
        errors: [{ field: 'gameId', problems: ['gameId must be a UUID'] }],
      });
    }
    const id = rawId.toLowerCase();
    // A tournament's audit reads its games on the primary; a game's own audit is a public read:
    // on the standby when DATABASE_READ_URL is set, for a game that has ended there (decision 0091).
    if (player === TOURNAMENT_READER) return this.build(player, id, null);
    return this.reads.read((t) => this.build(player, id, t), {
      isAnswer: (err) => err instanceof DomainException,
    });
  }

  /**
   * The bundle, read through `target` (null: the primary). On the standby only a game that has
   * ended there is served (its row and events no longer change); a game it does not have, or has
   * not seen end yet, is read on the primary instead of answering 404 or a stale "not ended".
   */
  private async build(
    player: AuthenticatedPlayer | null | typeof TOURNAMENT_READER,
    id: string,
    target: ReadTarget | null,
  ): Promise<{ bundle: AuditBundle; eventTimes: Map<number, Date> }> {
    const game = await findAuditedGame(target?.db ?? this.pool, id);
    if (target?.source === 'replica' && !(game && isSeedRevealable(game.status) && !game.seedSealed)) target.missing();
    if (!game) throw notFound();
    // Private games: only their seated players (and the creator); everyone else sees no such game.
    // (The tournament bundle passes `player: 'tournament'`: it includes a tournament's games only
    // once the tournament has ended, to whoever may see the tournament.)
    if (player !== TOURNAMENT_READER && !maySeeGame(game, player)) throw notFound();
    // Events up to the row's version: a consistent snapshot even if a move lands meanwhile.
    const stored = await this.store.readEventsUpTo(id, game.version, target?.db);
    const events: HashedEventEnvelope[] = stored.map((e) => ({
      gameId: id,
      version: e.version,
      type: e.type,
      seat: e.seat,
      data: e.data,
      rollNumber: e.rollNumber,
      command: e.command,
      prevHash: e.prevHash,
      hash: e.hash,
    }));
    // A duplicate tournament game's seed (the round seed) stays sealed until its whole round ended.
    const ended = isSeedRevealable(game.status) && !game.seedSealed;
    const displayNames: Record<string, string> = {};
    for (const s of game.seats) if (s.playerId && s.displayName !== null) displayNames[s.playerId] = s.displayName;
    const bundle = assembleBundle({
      gameId: id,
      events,
      // Sealed at rest (src/keys/seed-vault.ts): opened only for a game that has ended.
      serverSeed: ended ? this.vault.open(id, game.serverSeed) : null,
      displayNames,
      createdAt: game.createdAt.toISOString(),
      endedAt: ended && game.finishedAt ? game.finishedAt.toISOString() : null,
      generatedAt: new Date().toISOString(),
    });
    // The leaves of this game and the head they are proved against (docs/fairness.md §9.4), always
    // from the primary (the log's sequencer integrates pending leaves there). The
    // proof is taken after the events: a game ended meanwhile shows its ended leaf only if the
    // bundle's events include the end (the verifier checks the leaf against the bundle).
    const proof = await this.log.proofForGame(id);
    bundle.transparencyLog = proof
      ? {
          treeHead: {
            treeSize: proof.treeHead.treeSize,
            timestamp: proof.treeHead.timestamp,
            rootHash: proof.treeHead.rootHash,
            signature: proof.treeHead.signature,
            logId: proof.treeHead.logId,
          },
          entries: proof.entries
            .filter((e) => e.eventVersion <= game.version)
            .map((e) => ({ leafIndex: e.leafIndex, leaf: e.leaf, inclusionProof: e.inclusionProof })),
        }
      : null;
    return { bundle, eventTimes: new Map(stored.map((e) => [e.version, e.createdAt])) };
  }
}

/** The row an audit needs, with its seats and the seated players' display names. */
interface AuditedGame {
  id: string;
  visibility: string;
  creatorId: string;
  status: string;
  version: number;
  serverSeed: string;
  createdAt: Date;
  finishedAt: Date | null;
  seedSealed: boolean;
  seats: { seat: number; playerId: string | null; displayName: string | null }[];
}

async function findAuditedGame(db: Queryable, id: string): Promise<AuditedGame | null> {
  const { rows } = await db.query<{
    id: string;
    visibility: string;
    creator_id: string;
    status: string;
    version: number;
    server_seed: string;
    created_at: Date;
    finished_at: Date | null;
    seed_sealed: boolean;
    seats: AuditedGame['seats'];
  }>(
    `SELECT g.id, g.visibility, g.creator_id, g.status, g.version, g.server_seed, g.created_at, g.finished_at,
            g.seed_sealed,
            COALESCE((SELECT json_agg(json_build_object('seat', s.seat, 'playerId', s.player_id,
                                                       'displayName', p.display_name) ORDER BY s.seat)
                        FROM game_seats s LEFT JOIN players p ON p.id = s.player_id
                       WHERE s.game_id = g.id), '[]') AS seats
       FROM games g WHERE g.id = $1`,
    [id],
  );
  const r = rows[0];
  if (!r) return null;
  return {
    id: r.id,
    visibility: r.visibility,
    creatorId: r.creator_id,
    status: r.status,
    version: r.version,
    serverSeed: r.server_seed,
    createdAt: r.created_at,
    finishedAt: r.finished_at,
    seedSealed: r.seed_sealed,
    seats: r.seats,
  };
}
