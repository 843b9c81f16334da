/**
 * Opaque page cursors (decision 0025): base64url of the JSON `{"v":1,"l":<list>,"k":[<key>]}`,
 * where `l` names the list the cursor belongs to (with its parameters, e.g. "events:<gameId>")
 * and `k` is the sort key of the last item of a page. Clients must treat cursors as opaque; the
 * server checks every part, so a cursor that is malformed, of another version or of another list
 * is refused with INVALID_CURSOR (400) before anything is read. Cursors are not signed: a
 * well-formed hand-made cursor only names a position in a list the caller may read anyway.
 */
import { DomainException } from '../errors';
import { UUID_PATTERN as UUID } from '@fairdice/core/fairness/ids';

export const CURSOR_VERSION = 1;
/** Longest cursor accepted (the longest we issue is about 150 characters). */
export const CURSOR_MAX_LENGTH = 512;

/** One element of a sort key: an integer (versions, microseconds since the epoch), a UUID, or null. */
export type KeyPart = number | string | null;
export type KeyShape = readonly ('int' | 'uuid' | 'int?')[];

const BASE64URL = /^[A-Za-z0-9_-]+$/;

export function encodeCursor(list: string, key: readonly KeyPart[]): string {
  return Buffer.from(JSON.stringify({ v: CURSOR_VERSION, l: list, k: key }), 'utf8').toString('base64url');
}

/** The key inside `cursor`, checked against the list it must belong to and the key's shape. */
export function decodeCursor(cursor: unknown, list: string, shape: KeyShape): KeyPart[] {
  if (typeof cursor !== 'string' || cursor.length === 0 || cursor.length > CURSOR_MAX_LENGTH || !BASE64URL.test(cursor))
    throw invalidCursor('is not a cursor this service issued');
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    throw invalidCursor('is not a cursor this service issued');
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed))
    throw invalidCursor('is not a cursor this service issued');
  const { v, l, k, ...rest } = parsed as Record<string, unknown>;
  if (Object.keys(rest).length > 0 || v === undefined || l === undefined || k === undefined)
    throw invalidCursor('is not a cursor this service issued');
  if (v !== CURSOR_VERSION) throw invalidCursor('is of a version this service no longer reads');
  if (l !== list) throw invalidCursor('belongs to another list (or other list parameters)');
  if (!Array.isArray(k) || k.length !== shape.length || !k.every((part, i) => fits(part, shape[i])))
    throw invalidCursor('is not a cursor this service issued');
  return k as KeyPart[];
}

function fits(part: unknown, kind: KeyShape[number]): boolean {
  if (kind === 'uuid') return typeof part === 'string' && UUID.test(part);
  if (part === null) return kind === 'int?';
  return typeof part === 'number' && Number.isSafeInteger(part) && part >= 0;
}

function invalidCursor(why: string): DomainException {
  return new DomainException(
    'INVALID_CURSOR',
    `The cursor ${why}; pass a nextCursor/endCursor exactly as received, or start again without one`,
  );
}

/** One page of a cursor-paged list: the items, each item's cursor, and the cursor of the next page. */
export interface CursorPage<T> {
  items: T[];
  /** cursors[i] points right after items[i] (Relay edge cursors). */
  cursors: string[];
  /** The cursor for the page after this one; null on the last page. */
  nextCursor: string | null;
}

/**
 * A page from `limit + 1` rows (the extra row only says that a next page exists). `keyOf` gives
 * the sort key of a row.
 */
export function cursorPage<R, T>(
  rows: R[],
  limit: number,
  list: string,
  keyOf: (row: R) => KeyPart[],
  toItem: (row: R) => T,
): CursorPage<T> {
  const shown = rows.slice(0, limit);
  const cursors = shown.map((r) => encodeCursor(list, keyOf(r)));
  return {
    items: shown.map(toItem),
    cursors,
    nextCursor: rows.length > limit && cursors.length > 0 ? cursors[cursors.length - 1] : null,
  };
}

/** Postgres timestamptz (microseconds) as an integer: select it with micros(column). */
export const micros = (column: string) => `(extract(epoch from ${column}) * 1000000)::bigint`;
/** A microseconds-since-epoch parameter back as a timestamptz (exact, so the comparison can use an index). */
export const fromMicros = (param: string) => `(timestamptz 'epoch' + ${param}::bigint * interval '1 microsecond')`;
