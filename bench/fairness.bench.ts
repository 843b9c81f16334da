/**
 * Micro-benchmarks of the fairness primitives: deriving one roll of 5 dice, hashing one event envelope,
 * the transparency log's leaf hash, inclusion-proof check (2^20 leaves) and tree-head signature, and
 * sealing / opening a server seed at rest (AES-256-GCM).
 *
 *   npx tsc -p tsconfig.build.json && node dist/bench/fairness.bench.js
 */
import { createHash, createHmac } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { hmacSha256 } from '@fairdice/core/fairness/bytes';
import { canonicalBytes } from '@fairdice/core/fairness/canonical';
import { deriveDice, diceRoller } from '@fairdice/core/fairness/derivation';
import { type EventEnvelope, envelopeFields, eventHash } from '@fairdice/core/fairness/hash-chain';
import { commitmentOf } from '@fairdice/core/fairness/seeds';
import {
  encodeLeaf,
  inclusionProof,
  leafHash,
  logPublicKey,
  merkleRoot,
  signTreeHead,
  toHex,
  verifyInclusion,
  verifyTreeHeadSignature,
} from '@fairdice/core/fairness/transparency-log';
import { NODE_HASHES } from '../src/fairness/node-hashes';
import { SeedVault } from '../src/keys/seed-vault';

export interface BenchResult {
  name: string;
  opsPerSec: number;
  usPerOp: number;
  iterations: number;
}

/** Runs `fn` repeatedly for about `ms` milliseconds after a warm-up, and returns its throughput. */
function measure(name: string, fn: (i: number) => unknown, ms = 500): BenchResult {
  let sink: unknown;
  for (let i = 0; i < 2_000; i++) sink = fn(i); // warm-up (JIT)
  let iterations = 0;
  let batch = 256;
  const start = performance.now();
  let elapsed = 0;
  while (elapsed < ms) {
    for (let i = 0; i < batch; i++) sink = fn(iterations + i);
    iterations += batch;
    elapsed = performance.now() - start;
    if (elapsed < ms / 10) batch *= 2;
  }
  if (sink === Symbol.for('never')) console.log(sink); // keep the result observable
  const usPerOp = (elapsed * 1000) / iterations;
  return { name, opsPerSec: Math.round(1e6 / usPerOp), usPerOp: Math.round(usPerOp * 1000) / 1000, iterations };
}

export function runFairnessMicroBenchmarks(options: { durationMs?: number } = {}): BenchResult[] {
  const ms = options.durationMs ?? 500;
  const serverSeed = Buffer.alloc(32, 0x5a);
  const gameId = '3f2504e0-4f89-41d3-9a0c-0305e82c3301';
  const clientSeeds = ['tournament-2026', 'alice:lucky#7', '00112233445566778899aabbccddeeff', 'bob-seed'];
  const envelope: EventEnvelope = {
    gameId,
    version: 42,
    type: 'DiceRolled',
    seat: 1,
    data: { dice: [3, 1, 6, 6, 2], kept: [2, 3], rollIndex: 2, turn: 7, note: 'Zoë 🎲' },
    rollNumber: 41,
    command: { type: 'play', playerId: 'p-bob', move: { type: 'roll', hold: [2, 3] } },
    prevHash: commitmentOf(serverSeed),
  };
  const message = Buffer.alloc(144, 0x2a);
  const roller = diceRoller({ serverSeed, clientSeeds, gameId, firstRollNumber: 0 });
  const results = [
    // Baseline for reading the other figures on a given machine: one bare HMAC-SHA256 of a 144-byte message.
    measure('baseline: one HMAC-SHA256 (144 B)', () => createHmac('sha256', serverSeed).update(message).digest(), ms),
    // @fairdice/core hashes with @noble/hashes (browser-safe: decision 0018). Against the node:crypto rows:
    // the same HMAC, the server's per-roll path (key schedule once per game), and the event hash's SHA-256.
    measure('@noble/hashes: one HMAC-SHA256 (144 B)', () => hmacSha256(serverSeed, message), ms),
    measure('diceRoller: 5 dice per roll (one game)', () => roller.roll(5), ms),
    measure(
      'node:crypto SHA-256 of the canonical envelope (reference for eventHash)',
      (i) =>
        createHash('sha256')
          .update(canonicalBytes(envelopeFields({ ...envelope, version: (i % 1_000_000) + 1 })))
          .digest('hex'),
      ms,
    ),
    measure(
      'deriveDice (5 dice)',
      (i) => deriveDice({ serverSeed, clientSeeds, gameId, rollNumber: i >>> 0, count: 5 }),
      ms,
    ),
    measure(
      'deriveDice (100 dice)',
      (i) => deriveDice({ serverSeed, clientSeeds, gameId, rollNumber: i >>> 0, count: 100 }),
      ms,
    ),
    measure('eventHash (DiceRolled envelope)', (i) => eventHash({ ...envelope, version: (i % 1_000_000) + 1 }), ms),
    measure(
      "eventHash with the server's node:crypto SHA-256 (decision 0157)",
      (i) => eventHash({ ...envelope, version: (i % 1_000_000) + 1 }, NODE_HASHES),
      ms,
    ),
  ];
  // Transparency log: a proof in a tree of 2^20 leaves has 20 hashes. The check computes all 20
  // nodes before comparing with the root, so it costs the same whether or not it passes.
  const leaf = encodeLeaf({
    kind: 'created',
    timestamp: 1_764_410_400_000,
    gameId,
    eventVersion: 0,
    value: commitmentOf(serverSeed),
  });
  const small = Array.from({ length: 1024 }, (_, i) => leafHash(new Uint8Array([i & 255, i >> 8])));
  const subRoot = merkleRoot(small);
  const proof = [...inclusionProof(small, 5, 1024), ...Array.from({ length: 10 }, () => subRoot)];
  const root = subRoot;
  const key = new Uint8Array(32).fill(9);
  const head = signTreeHead({ treeSize: 1 << 20, timestamp: 1_764_410_400_000, rootHash: toHex(root) }, key);
  const pub = logPublicKey(key);
  const vault = new SeedVault({
    logSigningKey: key,
    seedKeys: [{ id: 'bench', key: Buffer.alloc(32, 7) }],
    source: 'memory',
  });
  const seedHex = serverSeed.toString('hex');
  const sealed = vault.seal(gameId, seedHex);
  results.push(
    measure('log: leaf hash (62-byte leaf)', () => leafHash(leaf), ms),
    measure('log: inclusion proof check (20 hashes)', () => verifyInclusion(5, 1 << 20, small[5], proof, root), ms),
    measure('log: Ed25519 tree-head signature check', () => verifyTreeHeadSignature(head, pub), ms),
    measure('seed at rest: seal (AES-256-GCM)', () => vault.seal(gameId, seedHex), ms),
    measure('seed at rest: open (AES-256-GCM)', () => vault.open(gameId, sealed), ms),
  );
  return results;
}

if (require.main === module) {
  console.table(
    runFairnessMicroBenchmarks().map((r) => ({
      name: r.name,
      'ops/s': r.opsPerSec,
      'µs/op': r.usPerOp,
      iterations: r.iterations,
    })),
  );
}
