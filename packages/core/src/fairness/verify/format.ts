/**
 * Check `format`: the bundle's format, formatVersion (1, 2, 3), algorithms, rules version, field
 * types, gameId a lowercase UUID; no unknown or missing member (top level, players entries).
 */
import {
  AUDIT_ALGORITHMS,
  AUDIT_FORMAT,
  type AuditBundle,
  BUNDLE_MEMBERS,
  OPTIONAL_BUNDLE_MEMBERS,
  PLAYER_MEMBERS,
  RULES_VERSION,
  SUPPORTED_FORMAT_VERSIONS,
} from '../audit-bundle';
import { GAME_ID_PATTERN } from '../derivation';
import { HEX_SHA256_PATTERN } from '../seeds';
import { canon, type Checks, isObject, same } from './checks';

/** Why the bundle's top-level shape is unusable, or null. */
function formatError(b: Record<string, unknown>): string | null {
  if (b.format !== AUDIT_FORMAT) return `format must be "${AUDIT_FORMAT}"`;
  if (typeof b.formatVersion !== 'number' || !SUPPORTED_FORMAT_VERSIONS.includes(b.formatVersion))
    return `formatVersion ${String(b.formatVersion)} is not supported (this verifier reads ${SUPPORTED_FORMAT_VERSIONS.join(', ')})`;
  // Strict: a member this verifier does not know would pass unchecked, so it is refused.
  const known: readonly string[] = [...BUNDLE_MEMBERS, ...OPTIONAL_BUNDLE_MEMBERS];
  const unknown = Object.keys(b).filter((k) => !known.includes(k));
  if (unknown.length > 0) return `unknown member ${unknown.map((k) => JSON.stringify(k)).join(', ')}`;
  if (!same(b.algorithms, AUDIT_ALGORITHMS)) return `algorithms must be ${canon(AUDIT_ALGORITHMS)}`;
  if (typeof b.gameId !== 'string' || !GAME_ID_PATTERN.test(b.gameId)) return 'gameId must be a lowercase UUID';
  if (!isObject(b.ruleSet) || typeof b.ruleSet.name !== 'string' || !isObject(b.ruleSet.options))
    return 'ruleSet must be { name, family, version, options }';
  if (b.ruleSet.version !== RULES_VERSION)
    return `ruleSet.version ${String(b.ruleSet.version)} is not supported (this verifier implements rules version ${RULES_VERSION})`;
  if (typeof b.commitment !== 'string' || !HEX_SHA256_PATTERN.test(b.commitment))
    return 'commitment must be 64 lowercase hex digits';
  if (b.serverSeed !== null && (typeof b.serverSeed !== 'string' || !HEX_SHA256_PATTERN.test(b.serverSeed)))
    return 'serverSeed must be 64 lowercase hex digits or null';
  if (b.organizerSeed !== null && typeof b.organizerSeed !== 'string') return 'organizerSeed must be a string or null';
  if (!Array.isArray(b.players)) return 'players must be an array';
  for (const [i, p] of (b.players as unknown[]).entries()) {
    if (!isObject(p)) return `players[${i}] must be an object`;
    const extra = Object.keys(p).filter((k) => !(PLAYER_MEMBERS as readonly string[]).includes(k));
    if (extra.length > 0) return `players[${i}] has unknown member ${extra.map((k) => JSON.stringify(k)).join(', ')}`;
    if (p.clientSeedGenerated !== null && typeof p.clientSeedGenerated !== 'boolean')
      return `players[${i}].clientSeedGenerated must be true, false or null`;
  }
  if (b.clientSeeds !== null && (!Array.isArray(b.clientSeeds) || b.clientSeeds.some((s) => typeof s !== 'string')))
    return 'clientSeeds must be an array of strings or null';
  if (!Number.isSafeInteger(b.rollCount) || (b.rollCount as number) < 0)
    return 'rollCount must be a non-negative integer';
  if (!Array.isArray(b.events) || b.events.length === 0) return 'events must be a non-empty array';
  if (typeof b.chainHead !== 'string' || !HEX_SHA256_PATTERN.test(b.chainHead))
    return 'chainHead must be 64 lowercase hex digits';
  if (b.finalStandings !== null && !Array.isArray(b.finalStandings)) return 'finalStandings must be an array or null';
  if (typeof b.status !== 'string') return 'status must be a string';
  for (const k of BUNDLE_MEMBERS) if (!(k in b)) return `member ${k} is missing`;
  return null;
}

/** Adds check `format`; returns the bundle when its shape is usable, else null (and the check fails). */
export function checkFormat(checks: Checks, input: unknown): AuditBundle | null {
  checks.add('format');
  if (!isObject(input)) {
    checks.fail('format', null, 'the bundle is not a JSON object');
    return null;
  }
  const shape = formatError(input);
  if (shape) {
    checks.fail('format', null, shape);
    return null;
  }
  return input as unknown as AuditBundle;
}
