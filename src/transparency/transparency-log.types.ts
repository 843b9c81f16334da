/** The transparency log's answers (docs/fairness.md §9): signed tree heads and the proofs built on them. */
import type { LOG_SIGNATURE_ALGORITHM, LogLeafKind, SignedTreeHead } from '@fairdice/core/fairness/transparency-log';

export interface PublishedTreeHead extends SignedTreeHead {
  signatureAlgorithm: typeof LOG_SIGNATURE_ALGORITHM;
  /** The log's Ed25519 public key, 64 hex. */
  publicKey: string;
  /** SHA-256 of the public key, 64 hex. */
  logId: string;
}

export interface LogEntryProof {
  kind: LogLeafKind;
  leafIndex: number;
  /** The 62-byte leaf, hex (docs/fairness.md §9.1). */
  leaf: string;
  leafHash: string;
  timestamp: number;
  eventVersion: number;
  value: string;
  /** RFC 9162 inclusion proof in the tree of `treeSize`, hex, in order. */
  inclusionProof: string[];
}

export interface GameLogProof {
  gameId: string;
  treeHead: PublishedTreeHead;
  entries: LogEntryProof[];
}

export interface ConsistencyProofView {
  firstSize: number;
  secondSize: number;
  firstRootHash: string;
  secondRootHash: string;
  proof: string[];
}
