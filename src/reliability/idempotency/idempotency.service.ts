/**
 * Idempotent commands: the first outcome of (player, key) is stored in the SAME transaction as
 * the command's events and replayed on every retry for the retention window (24 h default).
 *
 *   BEGIN
 *   pg_try_advisory_xact_lock(hash(player, key))   -- busy: another request with this key is running
 *   SELECT the record                               -- live: same request → replay, other → 422
 *                                                   -- none (or expired) and the lock was busy → 409
 *   INSERT the record ('running')                   -- the (player_id, key) primary key is the backstop
 *   SAVEPOINT work; work(tx)                        -- e.g. load + decide + append the events
 *   UPDATE the record ('done', status, body)        -- a 4xx error: ROLLBACK TO work, then store it
 *   COMMIT                                          -- events and outcome become visible together
 *
 * Because the record is written inside the transaction, a crash or a database failure at any
 * point leaves neither events nor a record: the retry simply runs again (no stale "running"
 * rows). Errors of 500 and 503 are never stored. Expired records are ignored, deleted when met
 * and purged in small batches now and then.
 */
import { createHash } from 'node:crypto';
import { Inject, Injectable, Logger } from '@nestjs/common';
import type { Pool, PoolClient } from 'pg';
import { APP_CONFIG, AppConfig } from '../../config/config';
import { DomainException, ERROR_MAP, ErrorCode, isErrorCode, normalizeError } from '../../common/errors';
import { PG_POOL } from '../../database/pg-pool';
import { IdempotencyKeyTaken, type IdempotentAppend, runInUnitOfWork } from '../../database/unit-of-work';

export interface IdempotentRequest {
  playerId: string;
  /** Validated key (parseIdempotencyKey); undefined = no idempotency, just run. */
  key: string | undefined;
  /** requestHash(...) of the operation and its arguments. */
  hash: string;
  /** HTTP status of a success (200, or 201 for creations). */
  successStatus?: number;
  /** Called when the outcome is a replay of the stored one (REST sets Idempotent-Replayed). */
  onReplay?: () => void;
  /**
   * The work is one append to an existing game (a game command): with group commit on it joins a
   * batch, and its outcome is stored by the append's statement (runBatched). Creations are not.
   */
  batched?: boolean;
}

const PURGE_EVERY_MS = 60_000;
const PURGE_BATCH = 500;

@Injectable()
export class IdempotencyService {
  private readonly logger = new Logger('Idempotency');
  private lastPurge = 0;
  private readonly ttlHours: number;
  private readonly batching: boolean;

  constructor(
    @Inject(PG_POOL) private readonly pool: Pool,
    @Inject(APP_CONFIG) config: AppConfig,
  ) {
    this.ttlHours = config.IDEMPOTENCY_TTL_HOURS;
    this.batching = config.APPEND_BATCHING ?? true;
  }

  /**
   * Runs `work` at most once per (player, key). Returns its value, or the stored value of the
   * first run (dates revived); a stored 4xx error is thrown again. Inside `work`, dbOr() and
   * afterCommit() (unit-of-work.ts) give the transaction, so the work's statements commit
   * together with the outcome. Without a key, `work` just runs (on the pool).
   */
  async run<T>(request: IdempotentRequest, work: () => Promise<T>): Promise<T> {
    if (request.key === undefined) return work();
    if (request.batched && this.batching) return this.runBatched({ ...request, key: request.key }, work);
    this.maybePurge();
    const client = await this.pool.connect();
    let broken: Error | undefined;
    // A checked-out client has no listener of the pool's: a server shutdown (57P01) arriving
    // between two statements would otherwise be an unhandled 'error' event.
    const onError = (err: Error) => {
      broken = err;
    };
    client.on('error', onError);
    const callbacks: Array<() => void> = [];
    let value: T;
    try {
      await client.query('BEGIN');
      const { rows: lock } = await client.query<{ ok: boolean }>('SELECT pg_try_advisory_xact_lock($1::bigint) AS ok', [
        lockKey(request.playerId, request.key),
      ]);
      const locked = lock[0].ok;
      // Read the record even when another request holds the key's lock: a record that is visible
      // is committed, and a 'done' one is final, so concurrent retries of a completed key get its
      // replay rather than 409 in-progress.
      const { rows } = await client.query<{
        request_hash: string;
        status: string;
        response_status: number | null;
        response_body: unknown;
        live: boolean;
      }>(
        `SELECT request_hash, status, response_status, response_body, expires_at > now() AS live
           FROM idempotency_records WHERE player_id = $1 AND key = $2`,
        [request.playerId, request.key],
      );
      const existing = rows[0];
      if (existing && existing.live) {
        await client.query('COMMIT');
        if (existing.request_hash !== request.hash) throw reused();
        if (existing.status !== 'done' || existing.response_status === null) throw inProgress();
        request.onReplay?.();
        return replay<T>(existing.response_status, existing.response_body);
      }
      if (!locked) throw inProgress();
      if (existing)
        await client.query('DELETE FROM idempotency_records WHERE player_id = $1 AND key = $2', [
          request.playerId,
          request.key,
        ]);
      await client.query(
        `INSERT INTO idempotency_records (player_id, key, request_hash, status, created_at, expires_at)
         VALUES ($1, $2, $3, 'running', now(), now() + make_interval(hours => $4))`,
        [request.playerId, request.key, request.hash, this.ttlHours],
      );
      await client.query('SAVEPOINT work');
      try {
        value = await runInUnitOfWork({ db: client, afterCommit: (fn) => callbacks.push(fn) }, work);
      } catch (err) {
        if (!isStorableError(err)) throw err;
        // A domain error (4xx) is an outcome too: undo the work's statements, keep the record.
        await client.query('ROLLBACK TO SAVEPOINT work');
        const { problem } = normalizeError(err);
        await this.finish(client, request, problem.status, storedProblem(problem));
        await client.query('COMMIT');
        throw err;
      }
      await this.finish(client, request, request.successStatus ?? 200, value);
      await client.query('COMMIT');
    } catch (err) {
      // Nothing of this attempt stays (after COMMIT, ROLLBACK is a harmless no-op warning).
      // A failing ROLLBACK means the connection is gone: the pool must discard the client.
      await client.query('ROLLBACK').catch((e: Error) => {
        broken = e;
      });
      throw err;
    } finally {
      client.removeListener('error', onError);
      client.release(broken);
    }
    callbacks.forEach((fn) => fn());
    return value;
  }

  /**
   * Group commit (decision 0046): no transaction of its own. The record is looked up; without a live
   * one the work runs on the pool, and the event store writes the outcome record (the response, or
   * the VERSION_CONFLICT) in the append's own statement, under the key's advisory lock. A domain
   * error decided before the append (nothing written) is stored by one statement of its own. When
   * another request holds the key or stored its outcome meanwhile, nothing of this one was written:
   * the record is looked up again (its replay, 422 for another request, or 409 in progress).
   */
  private async runBatched<T>(request: IdempotentRequest & { key: string }, work: () => Promise<T>): Promise<T> {
    this.maybePurge();
    for (let attempt = 0; ; attempt++) {
      const existing = await this.lookup(request);
      if (existing !== undefined) return existing.answer() as T;
      const ctx: IdempotentAppend = {
        playerId: request.playerId,
        key: request.key,
        hash: request.hash,
        lockKey: lockKey(request.playerId, request.key),
        ttlHours: this.ttlHours,
        successStatus: request.successStatus ?? 200,
        problemOf: (err) => {
          const { problem } = normalizeError(err);
          return { status: problem.status, body: storedProblem(problem) };
        },
        recorded: false,
      };
      const callbacks: Array<() => void> = [];
      let value: T;
      try {
        value = await runInUnitOfWork(
          { db: this.pool, afterCommit: (fn) => callbacks.push(fn), idempotent: ctx },
          work,
        );
      } catch (err) {
        if (err instanceof IdempotencyKeyTaken) {
          if (attempt < 2) continue; // its record is visible now (replay), or it is still running
          throw inProgress();
        }
        if (ctx.recorded || !isStorableError(err)) throw err;
        const { problem } = normalizeError(err);
        if (await this.storeAlone(request, problem.status, storedProblem(problem))) throw err;
        if (attempt < 2) continue; // another request holds the key or stored an outcome: answer with it
        throw inProgress();
      }
      callbacks.forEach((fn) => fn());
      // Work that appended nothing (no such path today) still gets its outcome stored.
      if (!ctx.recorded) await this.storeAlone(request, request.successStatus ?? 200, value);
      return value;
    }
  }

  /** The live record's answer (replay, 422 for another request, 409 in progress), or undefined. */
  private async lookup(request: IdempotentRequest & { key: string }): Promise<{ answer: () => unknown } | undefined> {
    const { rows } = await this.pool.query<{
      request_hash: string;
      status: string;
      response_status: number | null;
      response_body: unknown;
    }>(
      `SELECT request_hash, status, response_status, response_body
         FROM idempotency_records WHERE player_id = $1 AND key = $2 AND expires_at > now()`,
      [request.playerId, request.key],
    );
    const existing = rows[0];
    if (!existing) return undefined;
    return {
      answer: () => {
        if (existing.request_hash !== request.hash) throw reused();
        if (existing.status !== 'done' || existing.response_status === null) throw inProgress();
        request.onReplay?.();
        return replay(existing.response_status, existing.response_body);
      },
    };
  }

  /**
   * Stores an outcome by itself (replacing an expired record), under the key's advisory lock; false
   * when a live record exists or another request holds the key (its statement is running).
   */
  private async storeAlone(request: IdempotentRequest & { key: string }, status: number, body: unknown) {
    const { rowCount } = await this.pool.query(
      `INSERT INTO idempotency_records (player_id, key, request_hash, status, response_status, response_body, created_at, expires_at)
       SELECT $1, $2, $3, 'done', $4, $5::jsonb, now(), now() + make_interval(hours => $6)
        WHERE pg_try_advisory_xact_lock($7::bigint)
       ON CONFLICT (player_id, key) DO UPDATE
         SET request_hash = EXCLUDED.request_hash, status = 'done', response_status = EXCLUDED.response_status,
             response_body = EXCLUDED.response_body, created_at = EXCLUDED.created_at, expires_at = EXCLUDED.expires_at
         WHERE idempotency_records.expires_at <= now()`,
      [
        request.playerId,
        request.key,
        request.hash,
        status,
        JSON.stringify(body ?? null),
        this.ttlHours,
        lockKey(request.playerId, request.key),
      ],
    );
    return rowCount === 1;
  }

  private async finish(client: PoolClient, request: IdempotentRequest, status: number, body: unknown): Promise<void> {
    await client.query(
      `UPDATE idempotency_records SET status = 'done', response_status = $3, response_body = $4::jsonb
        WHERE player_id = $1 AND key = $2`,
      [request.playerId, request.key, status, JSON.stringify(body ?? null)],
    );
  }

  /** Deletes a batch of expired records at most once a minute per process (fire and forget). */
  private maybePurge(): void {
    const now = Date.now();
    if (now - this.lastPurge < PURGE_EVERY_MS) return;
    this.lastPurge = now;
    this.pool
      .query(
        `DELETE FROM idempotency_records WHERE (player_id, key) IN
           (SELECT player_id, key FROM idempotency_records WHERE expires_at < now() LIMIT ${PURGE_BATCH})`,
      )
      .catch((err: Error) => this.logger.warn({ msg: 'purging expired idempotency records failed', err: err.message }));
  }
}

const reused = () =>
  new DomainException(
    'IDEMPOTENCY_KEY_REUSED',
    'This Idempotency-Key was already used for a different request; use a new key for a new request',
  );

const inProgress = () =>
  new DomainException(
    'IDEMPOTENCY_IN_PROGRESS',
    'A request with this Idempotency-Key is still running; retry in a moment to get its result',
    undefined,
    { 'retry-after': '1' },
  );

/** Client errors (4xx) are outcomes and are stored; 5xx (database down, bugs) are not. */
function isStorableError(err: unknown): err is DomainException {
  if (!(err instanceof DomainException)) return false;
  const status = ERROR_MAP[err.code].status;
  return status >= 400 && status < 500 && err.code !== 'IDEMPOTENCY_IN_PROGRESS' && err.code !== 'RATE_LIMITED';
}

/** The problem as stored: without per-request fields (instance, requestId). */
function storedProblem(problem: Record<string, unknown>): Record<string, unknown> {
  const { instance: _i, requestId: _r, ...rest } = problem;
  return rest;
}

function replay<T>(status: number, body: unknown): T {
  if (status >= 400) {
    const { code, detail, type: _t, title: _ti, status: _s, ...details } = (body ?? {}) as Record<string, unknown>;
    const errorCode: ErrorCode = isErrorCode(code) ? code : 'INTERNAL';
    throw new DomainException(
      errorCode,
      typeof detail === 'string' ? detail : '',
      Object.keys(details).length ? details : undefined,
    );
  }
  return reviveDates(body) as T;
}

const ISO_DATE = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,3})?Z$/;
const DATE_KEY = /(At|Deadline)$/;

/** Stored JSON has ISO strings where the first response had Date objects (GraphQL needs Dates). */
export function reviveDates(value: unknown, key = ''): unknown {
  if (Array.isArray(value)) return value.map((v) => reviveDates(v));
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, reviveDates(v, k)]));
  }
  if (typeof value === 'string' && DATE_KEY.test(key) && ISO_DATE.test(value)) return new Date(value);
  return value;
}

/** A signed 64-bit advisory lock key from (player, key). */
function lockKey(playerId: string, key: string): string {
  return createHash('sha256').update(`idempotency\0${playerId}\0${key}`).digest().readBigInt64BE(0).toString();
}
