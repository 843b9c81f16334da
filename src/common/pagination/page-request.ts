import { DomainException } from '../errors';

export const DEFAULT_PAGE_SIZE = 20;
export const MAX_PAGE_SIZE = 100;
export const MAX_OFFSET = 1_000_000;

/** What a list call asks for, checked once for both transports. */
export interface PageRequest {
  limit: number;
  /** Opaque cursor from an earlier page (decoded by the list's service). */
  cursor?: string;
  /** Deprecated offset paging (lists that had it before cursors). */
  offset?: number;
}

/**
 * Checks `limit` (1..100, default 20), `offset` (0..1,000,000) and that `cursor` and `offset` are
 * not both given. REST's query DTOs check the same ranges first; GraphQL arguments arrive here.
 */
export function pageRequest(input: {
  limit?: number | null;
  cursor?: string | null;
  offset?: number | null;
}): PageRequest {
  const limit = input.limit ?? DEFAULT_PAGE_SIZE;
  if (!Number.isInteger(limit) || limit < 1 || limit > MAX_PAGE_SIZE)
    throw new DomainException('VALIDATION_FAILED', `limit (first) must be an integer from 1 to ${MAX_PAGE_SIZE}`);
  const offset = input.offset ?? undefined;
  if (offset !== undefined && (!Number.isInteger(offset) || offset < 0 || offset > MAX_OFFSET))
    throw new DomainException('VALIDATION_FAILED', `offset must be an integer from 0 to ${MAX_OFFSET}`);
  const cursor = input.cursor ?? undefined;
  if (cursor !== undefined && offset !== undefined)
    throw new DomainException('VALIDATION_FAILED', 'Give either a cursor or the deprecated offset, not both');
  return { limit, cursor, offset };
}
