/**
 * The transparency log of commitments (docs/fairness.md §9, docs/decisions/0016-transparency-log.md).
 *
 * Writing: the event store inserts a game's leaves pending (leaf_index NULL) in the very
 * statement that creates the game / ends it, so no game exists without its leaf.
 *
 * Integration (the sequencer, like a CT log's merge): one pass at a time across every instance,
 * under a transaction-scoped advisory lock. A pass reads the latest signed tree head (size n),
 * takes the pending leaves in id order, gives them the indexes n, n+1, ... (consecutive, no gaps:
 * only the sequencer assigns indexes, and only under the lock), stores the hash of every perfect
 * subtree completed by them (transparency_log_nodes), signs the new head and commits all of it
 * at once. Passes run every LOG_INTEGRATION_INTERVAL_MS in every instance (try-lock: an instance
 * that finds another integrating skips), and on demand (blocking lock) whenever a proof is asked
 * for a leaf still pending; so the merge delay is at most the interval plus one pass.
 *
 * Proofs are built from stored perfect subtrees: O(log² n) node reads for any inclusion or
 * consistency proof (packages/core/src/fairness/transparency-log.ts: ranges → perfect subtrees → root).
 */
import { Inject, Injectable, Logger, OnModuleDestroy, OnModuleInit } from '@nestjs/common';
import type { Pool } from 'pg';
import { APP_CONFIG, AppConfig } from '../config/config';
import { DomainException } from '../common/errors';
import { PG_POOL } from '../database/pg-pool';
import { SERVICE_KEYS, ServiceKeys } from '../keys/service-keys';
import {
  combinePerfect,
  consistencyProofRanges,
  encodeLeaf,
  frontier,
  inclusionProofRanges,
  leafHash,
  LOG_SIGNATURE_ALGORITHM,
  logIdOf,
  logPublicKey,
  nodeHash,
  signTreeHead,
  toHex,
} from '@fairdice/core/fairness/transparency-log';
import { UUID_PATTERN_ANY_CASE as UUID } from '@fairdice/core/fairness/ids';
import { maySeeGame } from '@fairdice/core/rules/game/access';
import {
  headRowAt,
  type HeadRow,
  latestHeadRow,
  type LeafRow,
  leafOf,
  leavesOf,
  rangeHashes,
  readNodes,
} from './log-store';
import type { ConsistencyProofView, GameLogProof, PublishedTreeHead } from './transparency-log.types';

export type { ConsistencyProofView, GameLogProof, PublishedTreeHead } from './transparency-log.types';

/** pg advisory lock key of the sequencer ("fair" in ASCII). */
export const LOG_SEQUENCER_LOCK_KEY = 0x66616972;
/** Leaves integrated per transaction (a pass repeats until none is pending). */
const BATCH = 2000;

const outOfRange = (message: string, details: Record<string, unknown>) =>
  new DomainException('LOG_SIZE_OUT_OF_RANGE', message, details);

@Injectable()
export class TransparencyLogService implements OnModuleInit, OnModuleDestroy {
  private readonly logger = new Logger('TransparencyLog');
  private readonly publicKey: string;
  private readonly logId: string;
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<unknown> | null = null;
  private stopped = false;
  private failing = false;

  constructor(
    @Inject(PG_POOL) private readonly pool: Pool,
    @Inject(SERVICE_KEYS) private readonly keys: ServiceKeys,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {
    const pub = logPublicKey(keys.logSigningKey);
    this.publicKey = toHex(pub);
    this.logId = logIdOf(pub);
  }

  onModuleInit(): void {
    const interval = this.config.LOG_INTEGRATION_INTERVAL_MS;
    this.timer = setInterval(() => void this.tick(), interval);
    this.timer.unref();
  }

  async onModuleDestroy(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    await this.running?.catch(() => undefined);
  }

  private async tick(): Promise<void> {
    if (this.running || this.stopped) return;
    this.running = this.integrate({ wait: false }).then(
      () => {
        if (this.failing) this.logger.log('integration passes succeed again');
        this.failing = false;
      },
      (err: unknown) => {
        // Once per failure streak (a database outage would otherwise log every interval).
        if (!this.failing)
          this.logger.warn(`integration pass failed (retrying every interval): ${(err as Error).message}`);
        this.failing = true;
      },
    );
    try {
      await this.running;
    } finally {
      this.running = null;
    }
  }

  /**
   * Integrates every pending leaf and signs the new head (also signs the empty tree once, so a
   * head always exists). `wait: false` skips when another pass holds the lock. Returns the count.
   */
  async integrate(opts: { wait: boolean }): Promise<number> {
    let total = 0;
    for (;;) {
      const n = await this.integrateBatch(opts.wait);
      if (n === null) return total;
      total += n;
      if (n < BATCH) return total;
    }
  }

  /** One transaction; null when the lock was busy (wait: false). */
  private async integrateBatch(wait: boolean): Promise<number | null> {
    const client = await this.pool.connect();
    try {
      await client.query('BEGIN');
      if (wait) {
        await client.query('SELECT pg_advisory_xact_lock($1)', [LOG_SEQUENCER_LOCK_KEY]);
      } else {
        const { rows } = await client.query<{ ok: boolean }>('SELECT pg_try_advisory_xact_lock($1) AS ok', [
          LOG_SEQUENCER_LOCK_KEY,
        ]);
        if (!rows[0].ok) {
          await client.query('ROLLBACK');
          return null;
        }
      }
      const head = await latestHeadRow(client);
      const size = head ? Number(head.tree_size) : 0;
      const { rows: pending } = await client.query<LeafRow>(
        `SELECT id, game_id, kind, event_version, value, timestamp_ms, leaf_index
           FROM transparency_log_leaves WHERE leaf_index IS NULL ORDER BY id LIMIT $1`,
        [BATCH],
      );
      if (pending.length === 0 && head) {
        await client.query('ROLLBACK');
        return 0;
      }
      // The perfect subtrees of the current tree: every left sibling the new leaves can need.
      const nodes = await readNodes(client, frontier(size));
      const added: Array<{ level: number; idx: number; hash: string }> = [];
      const assigned: Array<{ id: string; leaf_index: number; leaf_hash: string }> = [];
      let n = size;
      for (const row of pending) {
        const index = n++;
        let h = leafHash(encodeLeaf(leafOf(row)));
        assigned.push({ id: row.id, leaf_index: index, leaf_hash: toHex(h) });
        let level = 0;
        let idx = index;
        nodes.set(`0:${idx}`, h);
        added.push({ level: 0, idx, hash: toHex(h) });
        while (idx % 2 === 1) {
          const left = nodes.get(`${level}:${idx - 1}`);
          if (!left) throw new Error(`transparency log: missing node ${level}:${idx - 1} at size ${index}`);
          h = nodeHash(left, h);
          level++;
          idx = (idx - 1) / 2;
          nodes.set(`${level}:${idx}`, h);
          added.push({ level, idx, hash: toHex(h) });
        }
      }
      const root = combinePerfect(
        frontier(n).map((p) => {
          const h = nodes.get(`${p.level}:${p.index}`);
          if (!h) throw new Error(`transparency log: missing node ${p.level}:${p.index}`);
          return h;
        }),
      );
      if (assigned.length > 0) {
        await client.query(
          `UPDATE transparency_log_leaves l SET leaf_index = x.leaf_index, leaf_hash = x.leaf_hash
             FROM jsonb_to_recordset($1::jsonb) AS x(id bigint, leaf_index bigint, leaf_hash text)
            WHERE l.id = x.id AND l.leaf_index IS NULL`,
          [JSON.stringify(assigned)],
        );
        await client.query(
          `INSERT INTO transparency_log_nodes (level, idx, hash)
           SELECT x.level, x.idx, x.hash FROM jsonb_to_recordset($1::jsonb) AS x(level smallint, idx bigint, hash text)`,
          [JSON.stringify(added)],
        );
      }
      // Timestamps never go backwards, even if this instance's clock is behind the last signer's.
      const timestamp = Math.max(Date.now(), head ? Number(head.timestamp_ms) : 0);
      const signed = signTreeHead({ treeSize: n, timestamp, rootHash: toHex(root) }, this.keys.logSigningKey);
      await client.query(
        `INSERT INTO transparency_tree_heads (tree_size, timestamp_ms, root_hash, signature, log_id)
         VALUES ($1, $2, $3, $4, $5)`,
        [n, timestamp, signed.rootHash, signed.signature, this.logId],
      );
      await client.query('COMMIT');
      return assigned.length;
    } catch (err) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw err;
    } finally {
      client.release();
    }
  }

  private published(r: HeadRow) {
    return {
      treeSize: Number(r.tree_size),
      timestamp: Number(r.timestamp_ms),
      rootHash: r.root_hash,
      signature: r.signature,
      signatureAlgorithm: LOG_SIGNATURE_ALGORITHM,
      publicKey: this.publicKey,
      logId: this.logId,
    } satisfies PublishedTreeHead;
  }

  /** The latest signed tree head, with the public key to check it. */
  async treeHead(): Promise<PublishedTreeHead> {
    let row = await latestHeadRow(this.pool);
    if (!row) {
      await this.integrate({ wait: true });
      row = await latestHeadRow(this.pool);
    }
    return this.published(row);
  }

  /** The signing public key and log id (also in every tree head). */
  identity(): { publicKey: string; logId: string } {
    return { publicKey: this.publicKey, logId: this.logId };
  }

  /** RFC 9162 consistency proof between two sizes, 1 <= first <= second <= the latest signed size. */
  async consistency(firstRaw: unknown, secondRaw: unknown): Promise<ConsistencyProofView> {
    const first = parseSize(firstRaw, 'first');
    const second = parseSize(secondRaw, 'second');
    const head = await this.treeHead();
    if (first < 1 || first > second || second > head.treeSize) {
      throw outOfRange(`Sizes must satisfy 1 <= first <= second <= ${head.treeSize} (the latest signed tree size)`, {
        first,
        second,
        treeSize: head.treeSize,
      });
    }
    const ranges = consistencyProofRanges(first, second);
    const hashes = await rangeHashes(this.pool, [[0, first], [0, second], ...ranges]);
    return {
      firstSize: first,
      secondSize: second,
      firstRootHash: toHex(hashes[0]),
      secondRootHash: toHex(hashes[1]),
      proof: hashes.slice(2).map(toHex),
    };
  }

  /**
   * The game's leaves with their inclusion proofs in the tree of a signed head: the latest one,
   * or the one of size `treeSizeRaw` (LOG_TREE_HEAD_NOT_FOUND when none was signed at that size;
   * leaves added after it are left out). Pending leaves are integrated first. The caller checks
   * that the player may see the game. Null when the log holds no leaf of the game.
   */
  async proofForGame(gameId: string, treeSizeRaw?: unknown): Promise<GameLogProof | null> {
    const treeSize = treeSizeRaw === undefined || treeSizeRaw === null ? null : parseSize(treeSizeRaw, 'treeSize');
    let leaves = await leavesOf(this.pool, gameId);
    if (leaves.length === 0) return null;
    if (leaves.some((l) => l.leaf_index === null)) {
      await this.integrate({ wait: true });
      leaves = await leavesOf(this.pool, gameId);
    }
    let headRow;
    if (treeSize === null) {
      headRow = await latestHeadRow(this.pool);
    } else {
      headRow = await headRowAt(this.pool, treeSize);
      if (!headRow)
        throw new DomainException('LOG_TREE_HEAD_NOT_FOUND', `No tree head was signed at size ${treeSize}`, {
          treeSize,
        });
    }
    const head = this.published(headRow);
    const included = leaves.filter((l) => l.leaf_index !== null && Number(l.leaf_index) < head.treeSize);
    const rangeLists = included.map((l) => inclusionProofRanges(Number(l.leaf_index), head.treeSize));
    const hashes = await rangeHashes(this.pool, rangeLists.flat());
    let at = 0;
    const entries = included.map((l, i) => {
      const leaf = leafOf(l);
      const bytes = encodeLeaf(leaf);
      const proof = hashes.slice(at, at + rangeLists[i].length).map(toHex);
      at += rangeLists[i].length;
      return {
        kind: leaf.kind,
        leafIndex: Number(l.leaf_index),
        leaf: toHex(bytes),
        leafHash: toHex(leafHash(bytes)),
        timestamp: leaf.timestamp,
        eventVersion: leaf.eventVersion,
        value: leaf.value,
        inclusionProof: proof,
      };
    });
    return { gameId, treeHead: head, entries };
  }

  /** proofForGame for a caller: public games for anyone, private ones for their seats only. */
  async proofForPlayer(player: { id: string } | null, rawId: unknown, treeSizeRaw?: unknown): Promise<GameLogProof> {
    if (typeof rawId !== 'string' || !UUID.test(rawId)) {
      throw new DomainException('VALIDATION_FAILED', 'gameId must be a UUID', {
        errors: [{ field: 'gameId', problems: ['gameId must be a UUID'] }],
      });
    }
    const id = rawId.toLowerCase();
    const { rows } = await this.pool.query<{ visibility: string; creator_id: string; seated: string[] | null }>(
      `SELECT g.visibility, g.creator_id,
              (SELECT array_agg(s.player_id::text) FROM game_seats s WHERE s.game_id = g.id AND s.player_id IS NOT NULL) AS seated
         FROM games g WHERE g.id = $1`,
      [id],
    );
    const g = rows[0];
    const seats = (g?.seated ?? []).map((playerId) => ({ playerId }));
    if (!g || !maySeeGame({ visibility: g.visibility, creatorId: g.creator_id, seats }, player))
      throw new DomainException('GAME_NOT_FOUND', 'No such game');
    const proof = await this.proofForGame(id, treeSizeRaw);
    if (!proof) throw new DomainException('GAME_NOT_FOUND', 'No such game');
    return proof;
  }
}

/** A tree size from a query string or a GraphQL argument: a whole number. */
export function parseSize(raw: unknown, name: string): number {
  const text = typeof raw === 'number' ? String(raw) : raw;
  if (typeof text !== 'string' || !/^\d{1,15}$/.test(text)) {
    throw new DomainException('VALIDATION_FAILED', `${name} must be a whole number`, {
      errors: [{ field: name, problems: [`${name} must be a whole number`] }],
    });
  }
  return Number(text);
}
