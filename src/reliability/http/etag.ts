/**
 * Conditional requests on games (and tournament commands, by the same rule). A game's ETag is its version as a strong entity tag, "<version>"
 * (the version names one state; its representation is the same for everyone allowed to see it).
 * - GET with If-None-Match naming the current version → 304 Not Modified.
 * - Commands with If-Match → 412 PRECONDITION_FAILED unless the game is still at a named
 *   version ("*" matches any existing game). Weak tags W/"n" are accepted as "n".
 */
import { DomainException } from '../../common/errors';

export const etagOf = (version: number): string => `"${version}"`;

/** '*' or the versions named by an If-Match / If-None-Match header; undefined when absent. 400 when malformed. */
export function parseEntityTags(header: unknown, name: 'If-Match' | 'If-None-Match'): '*' | number[] | undefined {
  if (header === undefined || header === null || header === '') return undefined;
  if (typeof header !== 'string') throw malformed(name);
  if (header.trim() === '*') return '*';
  const versions: number[] = [];
  for (const part of header.split(',')) {
    const m = /^\s*(?:W\/)?"(\d{1,9})"\s*$/.exec(part);
    if (!m) throw malformed(name);
    versions.push(Number(m[1]));
  }
  return versions;
}

export const matchesVersion = (tags: '*' | number[], version: number): boolean =>
  tags === '*' || tags.includes(version);

/** Throws 412 when `tags` (If-Match) does not name `version` (of a game, or of a tournament). */
export function checkIfMatch(
  tags: '*' | number[] | undefined,
  version: number,
  what: 'game' | 'tournament' | 'account' | 'challenge' | 'seek' = 'game',
): void {
  if (tags === undefined || matchesVersion(tags, version)) return;
  throw new DomainException(
    'PRECONDITION_FAILED',
    `The ${what} is at version ${version}, not ${tags === '*' ? '*' : tags.join(' or ')}; reload it and decide again`,
    { currentVersion: version },
    { etag: etagOf(version) },
  );
}

const malformed = (name: string) =>
  new DomainException('VALIDATION_FAILED', `${name} must be "*" or a list of entity tags such as "12"`, {
    errors: [{ field: name, problems: ['malformed entity tag'] }],
  });
