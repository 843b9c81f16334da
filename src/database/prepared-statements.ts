/**
 * Named (prepared) statements for the hot path (decision 0152). PostgreSQL parses, analyses and
 * plans an unnamed statement on every call: for the event store's group-commit statement that was
 * as much server CPU as running it. A named statement is parsed once per connection, and after
 * five calls PostgreSQL keeps its generic plan when that costs no more than the custom ones.
 *
 * Only on connections of a pool created with `preparedStatements: true` (createPgPool): not
 * through a transaction pooler (PgBouncer before 1.21 does not carry a prepared statement from
 * one server connection to the next), nor on the embedded database. Elsewhere, and on any other
 * Queryable, the same text is sent unnamed.
 */
import type { QueryConfig } from 'pg';

/** Pools whose connections may hold prepared statements, and the clients they opened. */
const preparing = new WeakSet<object>();

/** Whether statements sent on `db` (a pool or one of its clients) are named. */
export const preparesStatements = (db: object): boolean => preparing.has(db);

/** Marks a pool (and, through its 'connect' event, each of its clients) as able to prepare. */
export function allowPreparedStatements(pool: { on(event: 'connect', fn: (client: object) => void): unknown }): void {
  preparing.add(pool);
  pool.on('connect', (client) => preparing.add(client));
}

/**
 * A statement declared once: `name` must be unique in the process and `text` constant (pg
 * refuses one name with two texts on a connection).
 */
export function namedStatement(name: string, text: string): (db: object, values: unknown[]) => QueryConfig {
  return (db, values) => (preparing.has(db) ? { name, text, values } : { text, values });
}
