/**
 * The ambient unit of work: while IdempotencyService runs a command inside a transaction, code
 * further down (the event store) finds the transaction's client here instead of taking its own
 * pool connection, and defers in-memory side effects (cache updates, in-process publishing)
 * until the transaction has committed. Outside a transaction: the pool, effects run at once.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import type { Pool } from 'pg';

/** What SQL runs on: a pg Pool or the transaction's PoolClient. */
export type Queryable = Pick<Pool, 'query'>;

export interface UnitOfWork {
  db: Queryable;
  /** Runs `fn` once the transaction has committed; dropped if it rolls back. */
  afterCommit(fn: () => void): void;
  /**
   * An idempotent command WITHOUT a transaction of its own (group commit, decision 0046): `db` is
   * the pool, and the event store writes the command's outcome record in its append's statement.
   */
  idempotent?: IdempotentAppend;
}

/** What the event store needs to store an idempotent command's outcome with its append. */
export interface IdempotentAppend {
  playerId: string;
  key: string;
  hash: string;
  /** Advisory lock key of (player, key): held by the statement, as by the transactional path. */
  lockKey: string;
  ttlHours: number;
  /** HTTP status of a success. */
  successStatus: number;
  /** The stored form of an error outcome (a VERSION_CONFLICT of the append). */
  problemOf(err: Error): { status: number; body: unknown };
  /** Set by the event store once a statement stored the outcome (success or conflict). */
  recorded: boolean;
}

const storage = new AsyncLocalStorage<UnitOfWork>();

export const currentUnitOfWork = (): UnitOfWork | undefined => storage.getStore();

/** The transaction's client when inside one, else `fallback` (the pool). */
export const dbOr = (fallback: Queryable): Queryable => storage.getStore()?.db ?? fallback;

/** Runs `fn` after the current transaction commits, or now when there is none. */
export function afterCommit(fn: () => void): void {
  const uow = storage.getStore();
  if (uow) uow.afterCommit(fn);
  else fn();
}

export const runInUnitOfWork = <T>(uow: UnitOfWork, fn: () => Promise<T>): Promise<T> => storage.run(uow, fn);

/**
 * An idempotent append wrote nothing because another request holds its key or has stored an
 * outcome for it (IdempotencyService looks the key up again).
 */
export class IdempotencyKeyTaken extends Error {
  constructor() {
    super('idempotency key taken by another request');
  }
}

/**
 * Runs `fn` in one transaction on a client of `pool` (statements made through `dbOr` join it);
 * inside a transaction already, `fn` simply joins that one. Commit → the afterCommit callbacks run;
 * any error → ROLLBACK and the error is rethrown.
 */
export async function inTransaction<T>(pool: Pool, fn: () => Promise<T>): Promise<T> {
  if (storage.getStore()) return fn();
  const client = await pool.connect();
  const callbacks: Array<() => void> = [];
  let broken = false;
  try {
    await client.query('BEGIN');
    const value = await runInUnitOfWork({ db: client, afterCommit: (cb) => callbacks.push(cb) }, fn);
    await client.query('COMMIT');
    for (const cb of callbacks) cb();
    return value;
  } catch (err) {
    await client.query('ROLLBACK').catch(() => {
      broken = true;
    });
    throw err;
  } finally {
    client.release(broken);
  }
}
