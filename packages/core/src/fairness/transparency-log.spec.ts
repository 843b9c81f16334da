import {
  consistencyProof,
  consistencyProofRanges,
  combinePerfect,
  decodeLeaf,
  EMPTY_ROOT,
  encodeLeaf,
  encodeTreeHead,
  fromHex,
  inclusionProof,
  leafHash,
  logPublicKey,
  merkleRoot,
  perfectSubtrees,
  signTreeHead,
  toHex,
  verifyConsistency,
  verifyInclusion,
  verifyTreeHeadSignature,
} from './transparency-log';

// The RFC 6962 / RFC 9162 reference data used by Certificate Transparency implementations
// (certificate-transparency-go merkle tests): eight leaves and the roots of every prefix.
const CT_LEAVES = ['', '00', '10', '2021', '3031', '40414243', '5051525354555657', '606162636465666768696a6b6c6d6e6f'];
const CT_ROOTS = [
  '6e340b9cffb37a989ca544e6bb780a2c78901d3fb33738768511a30617afa01d',
  'fac54203e7cc696cf0dfcb42c92a1d9dbaf70ad9e621f4bd8d98662f00e3c125',
  'aeb6bcfe274b70a14fb067a5e5578264db0fa9b51af5e0ba159158f329e06e77',
  'd37ee418976dd95753c1c73862b9398fa2a2cf9b4ff0fdfe8b30cd95209614b7',
  '4e3bbb1f7b478dcfe71fb631631519a3bca12c9aefca1612bfce4c13a86264d4',
  '76e67dadbcdf1e10e1b74ddc608abd2f98dfb16fbce75277b5232a127f2087ef',
  'ddb89be403809e325750d3d263cd78929c2942b7942a34b77e122c9594a74c8c',
  '5dc9da79a70659a9ad559cb701ded9a2ab9d823aad2f4960cfe370eff4604328',
];
const ctHashes = CT_LEAVES.map((l) => leafHash(fromHex(l)));

describe('transparency log: RFC 9162 Merkle tree', () => {
  it('reproduces the CT reference roots for every prefix of the eight reference leaves', () => {
    for (let n = 1; n <= 8; n++) expect(toHex(merkleRoot(ctHashes.slice(0, n)))).toBe(CT_ROOTS[n - 1]);
    expect(toHex(EMPTY_ROOT())).toBe('e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');
  });

  it('reproduces the reference inclusion proof of leaf 0 in the tree of 8', () => {
    expect(inclusionProof(ctHashes, 0, 8).map(toHex)).toEqual([
      '96a296d224f285c67bee93c30f8a309157f0daa35dc5b87e410b78630a09cfc7',
      '5f083f0a1a33ca076a95279832580db3e0ef4584bdff1f54c8a360f50de3031e',
      '6b47aaf29ee3c2af9af889bc1fb9254dabd31177f16232dd6aab035ca39bf6e4',
    ]);
  });

  it('reproduces the reference consistency proof from 6 to 8', () => {
    expect(consistencyProof(ctHashes, 6, 8).map(toHex)).toEqual([
      '0ebc5d3437fbe2db158b9f126a1d118e308181031d0a949f8dededebc558ef6a',
      'ca854ea128ed050b41b35ffc1b87b8eb2bde461e9e3b5596ece6b9d5975a0ae0',
      'd37ee418976dd95753c1c73862b9398fa2a2cf9b4ff0fdfe8b30cd95209614b7',
    ]);
  });

  const leaves = Array.from({ length: 37 }, (_, i) => leafHash(new Uint8Array([i, i * 7, 255 - i])));

  it('verifies every inclusion proof of every tree up to 37 leaves, and rejects altered ones', () => {
    for (let n = 1; n <= leaves.length; n++) {
      const root = merkleRoot(leaves.slice(0, n));
      for (let m = 0; m < n; m++) {
        const proof = inclusionProof(leaves.slice(0, n), m, n);
        expect(verifyInclusion(m, n, leaves[m], proof, root)).toBe(true);
        // another leaf, another index, another size, a changed or dropped or extra proof element
        expect(verifyInclusion(m, n, leaves[(m + 1) % leaves.length], proof, root)).toBe(false);
        if (n > 1) expect(verifyInclusion((m + 1) % n, n, leaves[m], proof, root)).toBe(false);
        if (proof.length > 0) {
          const bad = proof.map((p) => p.slice());
          bad[bad.length - 1][0] ^= 1;
          expect(verifyInclusion(m, n, leaves[m], bad, root)).toBe(false);
          expect(verifyInclusion(m, n, leaves[m], proof.slice(1), root)).toBe(false);
        }
        expect(verifyInclusion(m, n, leaves[m], [...proof, root], root)).toBe(false);
      }
      expect(verifyInclusion(n, n, leaves[0], [], root)).toBe(false);
    }
  });

  it('verifies every consistency proof between sizes up to 37, and rejects altered ones', () => {
    for (let n = 1; n <= leaves.length; n++) {
      const newRoot = merkleRoot(leaves.slice(0, n));
      for (let m = 1; m <= n; m++) {
        const oldRoot = merkleRoot(leaves.slice(0, m));
        const proof = consistencyProof(leaves.slice(0, n), m, n);
        expect(verifyConsistency(m, n, oldRoot, newRoot, proof)).toBe(true);
        if (m < n) {
          // a fork: the old tree with a different last leaf is not a prefix
          const forked = merkleRoot([...leaves.slice(0, m - 1), leafHash(new Uint8Array([9, 9, 9]))]);
          expect(verifyConsistency(m, n, forked, newRoot, proof)).toBe(false);
          const bad = proof.map((p) => p.slice());
          bad[0][31] ^= 1;
          expect(verifyConsistency(m, n, oldRoot, newRoot, bad)).toBe(false);
          expect(verifyConsistency(m, n, oldRoot, newRoot, proof.slice(0, -1))).toBe(false);
          expect(verifyConsistency(m, n, oldRoot, merkleRoot(leaves.slice(0, n - 1)), proof)).toBe(false);
        }
      }
    }
  });

  it('builds any subtree root from its perfect subtrees (how the service reads stored nodes)', () => {
    const perfect = (level: number, index: number) =>
      merkleRoot(leaves.slice(index * 2 ** level, (index + 1) * 2 ** level));
    for (let n = 1; n <= leaves.length; n++) {
      for (const m of [1, Math.max(1, Math.floor(n / 2)), n]) {
        const ranges = consistencyProofRanges(m, n);
        for (const [lo, hi] of ranges) {
          const parts = perfectSubtrees(lo, hi);
          for (const p of parts) expect(p.index * 2 ** p.level).toBeGreaterThanOrEqual(lo);
          expect(toHex(combinePerfect(parts.map((p) => perfect(p.level, p.index))))).toBe(
            toHex(merkleRoot(leaves.slice(lo, hi))),
          );
        }
      }
      const whole = perfectSubtrees(0, n);
      expect(toHex(combinePerfect(whole.map((p) => perfect(p.level, p.index))))).toBe(
        toHex(merkleRoot(leaves.slice(0, n))),
      );
    }
  });
});

describe('transparency log: leaves and signed tree heads', () => {
  const leaf = {
    kind: 'ended' as const,
    timestamp: 1_764_547_200_123,
    gameId: '0f8fad5b-d9cb-469f-a165-70867728950e',
    eventVersion: 42,
    value: 'ab'.repeat(32),
  };

  it('encodes a leaf in 62 bytes and decodes it back', () => {
    const bytes = encodeLeaf(leaf);
    expect(bytes.length).toBe(62);
    expect(toHex(bytes.subarray(0, 2))).toBe('0102');
    expect(toHex(bytes.subarray(10, 26))).toBe('0f8fad5bd9cb469fa16570867728950e');
    expect(decodeLeaf(bytes)).toEqual(leaf);
    expect(() => encodeLeaf({ ...leaf, gameId: 'not-a-uuid' })).toThrow(RangeError);
    expect(() => encodeLeaf({ ...leaf, value: 'AB'.repeat(32) })).toThrow(RangeError);
    expect(() => decodeLeaf(bytes.subarray(1))).toThrow(RangeError);
  });

  it('signs a tree head with Ed25519 and rejects any change of size, time, root or key', () => {
    const privateKey = fromHex('9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60');
    const publicKey = logPublicKey(privateKey);
    // RFC 8032 §7.1 test 1: this private key's public key
    expect(toHex(publicKey)).toBe('d75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a');
    const head = { treeSize: 8, timestamp: 1_764_547_200_000, rootHash: CT_ROOTS[7] };
    expect(encodeTreeHead(head).length).toBe(70);
    const signed = signTreeHead(head, privateKey);
    expect(verifyTreeHeadSignature(signed, publicKey)).toBe(true);
    expect(verifyTreeHeadSignature(signed, toHex(publicKey))).toBe(true);
    expect(verifyTreeHeadSignature({ ...signed, treeSize: 9 }, publicKey)).toBe(false);
    expect(verifyTreeHeadSignature({ ...signed, timestamp: signed.timestamp + 1 }, publicKey)).toBe(false);
    expect(verifyTreeHeadSignature({ ...signed, rootHash: CT_ROOTS[6] }, publicKey)).toBe(false);
    expect(verifyTreeHeadSignature(signed, logPublicKey(new Uint8Array(32)))).toBe(false);
    expect(verifyTreeHeadSignature({ ...signed, signature: 'zz' }, publicKey)).toBe(false);
  });
});
