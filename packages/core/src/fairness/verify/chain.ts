/**
 * Checks `chain` (verifyChain, strict: no envelope member besides the 8 hashed ones and hash;
 * versions 1..n, prevHash links from the commitment, stored hashes, roll numbers 0,1,2,...,
 * ending at chainHead) and `published-head` (with --head, repeatable: each head is the hash of one
 * version of the log, a prefix; with expectedHead: the chain ends exactly there).
 */
import type { AuditBundle } from '../audit-bundle';
import { eventHash, verifyChain } from '../hash-chain';
import { HEX_SHA256_PATTERN } from '../seeds';
import type { Checks, Envelope } from './checks';
import type { VerifyOptions, VerifySummary } from './types';

export interface ChainResult {
  /** The chain verified. */
  ok: boolean;
  /** The recomputed head (when the chain fails: the last stored hash, or the commitment). */
  head: string;
}

export function checkChain(checks: Checks, b: AuditBundle, events: Envelope[]): ChainResult {
  checks.add('chain');
  const chain = verifyChain(b.commitment, events, { gameId: b.gameId, expectedHead: b.chainHead, strict: true });
  if (!chain.ok)
    checks.fail('chain', chain.index < 0 ? null : Math.min(chain.index, events.length - 1) + 1, chain.reason);
  return { ok: chain.ok, head: chain.ok ? chain.head : (events.at(-1)?.hash ?? b.commitment) };
}

/** Check `published-head`; returns each well-formed head given with the version whose hash it is. */
export function checkPublishedHeads(
  checks: Checks,
  events: Envelope[],
  chainOk: boolean,
  options: VerifyOptions,
): VerifySummary['publishedHeads'] {
  checks.add('published-head');
  const heads: VerifySummary['publishedHeads'] = [];
  const given = [...(options.heads ?? []), ...(options.expectedHead !== undefined ? [options.expectedHead] : [])];
  // Hashed again only when heads are given (the chain check already recomputed them once).
  const recomputed: string[] = chainOk && given.length > 0 ? events.map((e) => eventHash(e)) : [];
  if (given.length === 0) {
    checks.skip('published-head', "no --head given: completeness is only relative to the bundle's own chainHead");
  }
  for (const raw of given) {
    const h = typeof raw === 'string' ? raw.toLowerCase() : '';
    if (!HEX_SHA256_PATTERN.test(h)) {
      checks.fail('published-head', null, `a published head must be 64 hex digits, got ${JSON.stringify(raw)}`);
      continue;
    }
    // Only a hash the chain check recomputed counts (a stored hash may be forged).
    const at = chainOk ? recomputed.indexOf(h) : -1;
    heads.push({ head: h, version: at >= 0 ? at + 1 : null });
    if (at < 0) {
      checks.fail(
        'published-head',
        chainOk ? events.length : null,
        `the published head ${h} is not the hash of any version of this log: the log was changed, or is another game's`,
      );
    } else if (raw === options.expectedHead && at !== events.length - 1) {
      checks.fail(
        'published-head',
        at + 2,
        `the published head is the hash of version ${at + 1}: the bundle has events after it`,
      );
    }
  }
  return heads;
}
