/**
 * The audit bundle's transparency-log member and its offline check (docs/fairness.md §9.4).
 * Pure and browser-safe (no `node:` imports).
 *
 *   transparencyLog: {
 *     treeHead: { treeSize, timestamp, rootHash, signature, logId },
 *     entries: [ { leafIndex, leaf, inclusionProof: [hex, ...] }, ... ]
 *   } | null
 *
 * Checks:
 *   log-inclusion  every entry's leaf decodes, names this game, and records what the bundle
 *                  shows (created: version 0 and the commitment; ended: the last version and
 *                  the chain head); its inclusion proof leads to treeHead.rootHash; the bundle
 *                  holds the created leaf, and the ended leaf once the game has ended.
 *   log-signature  treeHead.signature is the Ed25519 signature of the given log key over the
 *                  head (SKIPPED without a key: the proofs then only tie the game to a root
 *                  nobody vouched for).
 */
import {
  decodeLeaf,
  fromHex,
  leafHash,
  logIdOf,
  type LogLeaf,
  type SignedTreeHead,
  verifyConsistency,
  verifyInclusion,
  verifyTreeHeadSignature,
} from './transparency-log';
import { isEnded } from '../rules/game/status';

export interface BundleLogEntry {
  leafIndex: number;
  /** The 62-byte leaf, hex. */
  leaf: string;
  inclusionProof: string[];
}

export interface BundleTransparencyLog {
  treeHead: SignedTreeHead & { logId: string };
  entries: BundleLogEntry[];
}

export interface LogCheckResult {
  name: 'log-inclusion' | 'log-signature';
  status: 'pass' | 'fail' | 'skipped';
  detail?: string;
}

const HEX64 = /^[0-9a-f]{64}$/;
const HEX = /^(?:[0-9a-f]{2})*$/;
const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Why `v` is not a well-formed transparencyLog member, or null. */
export function logShapeError(v: unknown): string | null {
  if (!isObject(v)) return 'transparencyLog must be an object or null';
  const unknownKeys = Object.keys(v).filter((k) => k !== 'treeHead' && k !== 'entries');
  if (unknownKeys.length) return `transparencyLog has unknown member(s) ${unknownKeys.join(', ')}`;
  const h = v.treeHead;
  if (!isObject(h)) return 'transparencyLog.treeHead must be an object';
  const extra = Object.keys(h).filter((k) => !['treeSize', 'timestamp', 'rootHash', 'signature', 'logId'].includes(k));
  if (extra.length) return `transparencyLog.treeHead has unknown member(s) ${extra.join(', ')}`;
  if (!Number.isSafeInteger(h.treeSize) || (h.treeSize as number) < 0)
    return 'treeHead.treeSize must be a whole number';
  if (!Number.isSafeInteger(h.timestamp) || (h.timestamp as number) < 0)
    return 'treeHead.timestamp must be a whole number';
  if (typeof h.rootHash !== 'string' || !HEX64.test(h.rootHash)) return 'treeHead.rootHash must be 64 lowercase hex';
  if (typeof h.signature !== 'string' || !/^[0-9a-f]{128}$/.test(h.signature))
    return 'treeHead.signature must be 128 lowercase hex';
  if (typeof h.logId !== 'string' || !HEX64.test(h.logId)) return 'treeHead.logId must be 64 lowercase hex';
  if (!Array.isArray(v.entries)) return 'transparencyLog.entries must be an array';
  for (const [i, e] of v.entries.entries()) {
    if (!isObject(e)) return `transparencyLog.entries[${i}] must be an object`;
    const more = Object.keys(e).filter((k) => !['leafIndex', 'leaf', 'inclusionProof'].includes(k));
    if (more.length) return `transparencyLog.entries[${i}] has unknown member(s) ${more.join(', ')}`;
    if (!Number.isSafeInteger(e.leafIndex) || (e.leafIndex as number) < 0)
      return `transparencyLog.entries[${i}].leafIndex must be a whole number`;
    if (typeof e.leaf !== 'string' || !HEX.test(e.leaf)) return `transparencyLog.entries[${i}].leaf must be hex`;
    if (!Array.isArray(e.inclusionProof) || e.inclusionProof.some((p) => typeof p !== 'string' || !HEX64.test(p)))
      return `transparencyLog.entries[${i}].inclusionProof must be an array of 64-hex hashes`;
  }
  return null;
}

/**
 * Checks the bundle's log member. `bundle` needs gameId, status, commitment, chainHead, events
 * (their count is the last version); `logKey`: the log's public key, 64 hex, obtained
 * independently (e.g. the organizer's copy of GET /v1/transparency/tree-head's publicKey).
 */
export function checkBundleLog(
  bundle: {
    gameId: string;
    status: unknown;
    commitment: string;
    chainHead: string;
    events: readonly unknown[];
    transparencyLog?: unknown;
  },
  logKey?: string,
): LogCheckResult[] {
  const log = bundle.transparencyLog;
  if (log === undefined || log === null) {
    const why = 'the bundle carries no transparency-log proof';
    return logKey === undefined
      ? [
          { name: 'log-inclusion', status: 'skipped', detail: why },
          { name: 'log-signature', status: 'skipped', detail: why },
        ]
      : [
          { name: 'log-inclusion', status: 'fail', detail: `${why}, but a log key was given` },
          { name: 'log-signature', status: 'fail', detail: why },
        ];
  }
  const shape = logShapeError(log);
  if (shape) {
    return [
      { name: 'log-inclusion', status: 'fail', detail: shape },
      { name: 'log-signature', status: 'fail', detail: shape },
    ];
  }
  const { treeHead, entries } = log as BundleTransparencyLog;
  const out: LogCheckResult[] = [];

  // ---- inclusion
  const root = fromHex(treeHead.rootHash);
  let inclusion: string | null = null;
  const seen = new Map<string, LogLeaf>();
  for (const [i, e] of entries.entries()) {
    let leaf: LogLeaf;
    try {
      leaf = decodeLeaf(fromHex(e.leaf));
    } catch (err) {
      inclusion = `entry ${i}: ${(err as Error).message}`;
      break;
    }
    if (leaf.gameId !== bundle.gameId) {
      inclusion = `entry ${i}: the leaf is about game ${leaf.gameId}, not ${bundle.gameId}`;
      break;
    }
    if (seen.has(leaf.kind)) {
      inclusion = `entry ${i}: a second "${leaf.kind}" leaf`;
      break;
    }
    seen.set(leaf.kind, leaf);
    if (leaf.kind === 'created' && (leaf.eventVersion !== 0 || leaf.value !== bundle.commitment)) {
      inclusion = `entry ${i}: the logged commitment ${leaf.value} (version ${leaf.eventVersion}) is not the bundle's ${bundle.commitment}`;
      break;
    }
    if (leaf.kind === 'ended') {
      if (!isEnded(bundle.status)) {
        inclusion = `entry ${i}: the log says the game ended, but the bundle's status is ${String(bundle.status)}`;
        break;
      }
      if (leaf.eventVersion !== bundle.events.length || leaf.value !== bundle.chainHead) {
        inclusion = `entry ${i}: the logged final head ${leaf.value} at version ${leaf.eventVersion} is not the bundle's ${bundle.chainHead} at version ${bundle.events.length}`;
        break;
      }
    }
    const proof = e.inclusionProof.map(fromHex);
    if (!verifyInclusion(e.leafIndex, treeHead.treeSize, leafHash(fromHex(e.leaf)), proof, root)) {
      inclusion = `entry ${i}: the inclusion proof of leaf ${e.leafIndex} does not lead to the root of the tree of size ${treeHead.treeSize}`;
      break;
    }
  }
  if (inclusion === null && !seen.has('created'))
    inclusion = "the game's commitment (created leaf) is not in the proof";
  if (inclusion === null && isEnded(bundle.status) && !seen.has('ended'))
    inclusion = 'the game has ended but its final head (ended leaf) is not in the proof';
  out.push(
    inclusion === null
      ? {
          name: 'log-inclusion',
          status: 'pass',
          detail: `${[...seen.keys()].join(' and ')} leaf in the log of size ${treeHead.treeSize}, root ${treeHead.rootHash}`,
        }
      : { name: 'log-inclusion', status: 'fail', detail: inclusion },
  );

  // ---- signature
  if (logKey === undefined) {
    out.push({
      name: 'log-signature',
      status: 'skipped',
      detail: "no log key given (--log-key): the tree head is not known to be the log operator's",
    });
  } else if (!HEX64.test(logKey)) {
    out.push({ name: 'log-signature', status: 'fail', detail: 'the log key must be 64 lowercase hex digits' });
  } else if (logIdOf(fromHex(logKey)) !== treeHead.logId) {
    out.push({
      name: 'log-signature',
      status: 'fail',
      detail: `the tree head names log ${treeHead.logId}, not the log of the given key (${logIdOf(fromHex(logKey))})`,
    });
  } else if (!verifyTreeHeadSignature(treeHead, logKey)) {
    out.push({
      name: 'log-signature',
      status: 'fail',
      detail: 'the tree head signature does not verify with the log key',
    });
  } else {
    out.push({
      name: 'log-signature',
      status: 'pass',
      detail: `tree head of size ${treeHead.treeSize} signed at ${new Date(treeHead.timestamp).toISOString()} by log ${treeHead.logId}`,
    });
  }
  return out;
}

export interface HeadConsistencyResult {
  ok: boolean;
  checks: Array<{ name: string; status: 'pass' | 'fail'; detail: string }>;
}

const headShape = (h: unknown, which: string): string | null => {
  if (!isObject(h)) return `the ${which} head must be a JSON object`;
  if (!Number.isSafeInteger(h.treeSize) || (h.treeSize as number) < 0)
    return `the ${which} head's treeSize must be a whole number`;
  if (!Number.isSafeInteger(h.timestamp) || (h.timestamp as number) < 0)
    return `the ${which} head's timestamp must be a whole number`;
  if (typeof h.rootHash !== 'string' || !HEX64.test(h.rootHash))
    return `the ${which} head's rootHash must be 64 lowercase hex`;
  if (typeof h.signature !== 'string' || !/^[0-9a-f]{128}$/.test(h.signature))
    return `the ${which} head's signature must be 128 lowercase hex`;
  return null;
};

/**
 * An organizer's fork check (docs/fairness.md §9.6): `older` (an archived signed head) and `newer`
 * (a later one) are both signed by `logKey`, and `proof` (GET /v1/transparency/consistency) shows
 * the older tree is a prefix of the newer one. Heads are { treeSize, timestamp, rootHash, signature }.
 */
export function checkHeadConsistency(
  older: unknown,
  newer: unknown,
  proof: unknown,
  logKey: string,
): HeadConsistencyResult {
  const checks: HeadConsistencyResult['checks'] = [];
  const done = () => ({ ok: checks.every((c) => c.status === 'pass'), checks });
  const shape = headShape(older, 'older') ?? headShape(newer, 'newer');
  if (shape) {
    checks.push({ name: 'format', status: 'fail', detail: shape });
    return done();
  }
  const a = older as SignedTreeHead;
  const b = newer as SignedTreeHead;
  for (const [which, h] of [
    ['older', a],
    ['newer', b],
  ] as const) {
    const good = HEX64.test(logKey) && verifyTreeHeadSignature(h, logKey);
    checks.push({
      name: `${which}-signature`,
      status: good ? 'pass' : 'fail',
      detail: good
        ? `size ${h.treeSize} signed at ${new Date(h.timestamp).toISOString()}`
        : `the ${which} head (size ${h.treeSize}) is not signed by the given log key`,
    });
  }
  if (a.treeSize > b.treeSize) {
    checks.push({
      name: 'consistency',
      status: 'fail',
      detail: `the newer head is smaller (${b.treeSize}) than the older one (${a.treeSize}): the log shrank`,
    });
    return done();
  }
  let list: Uint8Array[] | null = null;
  if (a.treeSize === b.treeSize) list = [];
  else if (
    isObject(proof) &&
    Array.isArray(proof.proof) &&
    proof.proof.every((p) => typeof p === 'string' && HEX64.test(p))
  ) {
    if (proof.firstSize !== a.treeSize || proof.secondSize !== b.treeSize) {
      checks.push({
        name: 'consistency',
        status: 'fail',
        detail: `the proof is between sizes ${String(proof.firstSize)} and ${String(proof.secondSize)}, not ${a.treeSize} and ${b.treeSize}`,
      });
      return done();
    }
    list = (proof.proof as string[]).map(fromHex);
  }
  if (list === null) {
    checks.push({
      name: 'consistency',
      status: 'fail',
      detail: 'the proof must be { firstSize, secondSize, proof: [64-hex, ...] }',
    });
    return done();
  }
  const good =
    a.treeSize === 0 || verifyConsistency(a.treeSize, b.treeSize, fromHex(a.rootHash), fromHex(b.rootHash), list);
  checks.push({
    name: 'consistency',
    status: good ? 'pass' : 'fail',
    detail: good
      ? `the tree of size ${a.treeSize} (root ${a.rootHash}) is a prefix of the tree of size ${b.treeSize} (root ${b.rootHash})`
      : `the proof does not show the tree of size ${a.treeSize} to be a prefix of the tree of size ${b.treeSize}: a fork (or a bad proof)`,
  });
  return done();
}
