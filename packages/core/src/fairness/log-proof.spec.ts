import { attachLogProof, cloneBundle, simulateGame } from './bundle-fixtures';
import { checkBundleLog, checkHeadConsistency } from './log-proof';
import {
  consistencyProof,
  encodeLeaf,
  fromHex,
  leafHash,
  logPublicKey,
  merkleRoot,
  signTreeHead,
  toHex,
} from './transparency-log';
import { verifyBundle } from './verifier';

const priv = fromHex('9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60');
const key = toHex(logPublicKey(priv));
const ended = attachLogProof(simulateGame({ ruleSet: 'simple', seats: 2 }).bundle, priv);
const running = attachLogProof(simulateGame({ ruleSet: 'simple', seats: 2, maxCommands: 6 }).bundle, priv, {
  before: 0,
});

/** The checks' outcomes with the log key `k` (null: no key). */
const statuses = (b: unknown, k: string | null = key) =>
  checkBundleLog(b as never, k ?? undefined).map((c) => `${c.name}:${c.status}`);

describe('checkBundleLog (docs/fairness.md §9.4)', () => {
  it('passes an ended game with both leaves and a running game with its created leaf', () => {
    expect(statuses(ended)).toEqual(['log-inclusion:pass', 'log-signature:pass']);
    expect(statuses(running)).toEqual(['log-inclusion:pass', 'log-signature:pass']);
    expect(statuses(ended, null)).toEqual(['log-inclusion:pass', 'log-signature:skipped']);
    expect(verifyBundle(ended, { logKey: key }).ok).toBe(true);
  });

  it('skips a bundle without a proof, unless a key is given', () => {
    const none = { ...cloneBundle(ended), transparencyLog: null };
    expect(statuses(none, null)).toEqual(['log-inclusion:skipped', 'log-signature:skipped']);
    expect(statuses(none)).toEqual(['log-inclusion:fail', 'log-signature:fail']);
  });

  const mutated = (b: typeof ended, f: (c: any) => void) => {
    const c = cloneBundle(b);
    f(c);
    return c;
  };

  it.each([
    ['another commitment in the created leaf', (c: any) => (c.commitment = 'ab'.repeat(32))],
    ['another final head', (c: any) => (c.chainHead = 'ab'.repeat(32))],
    ['a leaf about another game', (c: any) => (c.gameId = '00000000-0000-4000-8000-000000000001')],
    ['the ended leaf missing', (c: any) => c.transparencyLog.entries.pop()],
    ['a duplicated leaf', (c: any) => c.transparencyLog.entries.push(c.transparencyLog.entries[0])],
    ['a wrong leaf index', (c: any) => (c.transparencyLog.entries[0].leafIndex += 1)],
    ['a wrong tree size', (c: any) => (c.transparencyLog.treeHead.treeSize += 1)],
    ['an unknown member', (c: any) => (c.transparencyLog.entries[0].note = 'x')],
    ['a truncated leaf', (c: any) => (c.transparencyLog.entries[0].leaf = c.transparencyLog.entries[0].leaf.slice(2))],
  ])('fails the inclusion check on %s', (_name, f) => {
    expect(statuses(mutated(ended, f))[0]).toBe('log-inclusion:fail');
  });

  it('fails an ended leaf on a game the bundle shows running', () => {
    const c = cloneBundle(running);
    const e = c.transparencyLog!.entries[0];
    const fake = encodeLeaf({
      kind: 'ended',
      timestamp: 1,
      gameId: c.gameId,
      eventVersion: c.events.length,
      value: c.chainHead,
    });
    c.transparencyLog!.entries.push({ ...e, leaf: toHex(fake) });
    expect(statuses(c)[0]).toBe('log-inclusion:fail');
  });

  it('fails the signature check on a changed head, another key or a malformed key', () => {
    expect(statuses(mutated(ended, (c) => (c.transparencyLog.treeHead.timestamp += 1)))[1]).toBe('log-signature:fail');
    expect(statuses(ended, toHex(logPublicKey(new Uint8Array(32))))[1]).toBe('log-signature:fail');
    expect(statuses(ended, 'xyz')[1]).toBe('log-signature:fail');
  });

  it('a wrong log key fails the signature claim only: the dice, checked, are still proved (issue 24 item 4)', () => {
    const report = verifyBundle(ended, { logKey: toHex(logPublicKey(new Uint8Array(32))) });
    expect(report.ok).toBe(false);
    expect(report.failure?.name).toBe('log-signature');
    expect(report.diceChecked).toBe(true);
    const dice = report.claims.find((c) => c.id === 'dice')!;
    expect(dice.status).toBe('proved');
    expect(dice.detail).toBeUndefined();
    // Unrevealed, the claim says so; a changed die fails it with the dice check's own reason.
    const open = verifyBundle(running, { logKey: key }).claims.find((c) => c.id === 'dice')!;
    expect(open).toMatchObject({ status: 'not-proved', detail: expect.stringMatching(/not revealed yet/) });
    const forged = cloneBundle(ended);
    forged.serverSeed = 'ab'.repeat(32);
    const bad = verifyBundle(forged, { logKey: key }).claims.find((c) => c.id === 'dice')!;
    expect(bad).toMatchObject({ status: 'failed', detail: expect.stringMatching(/^SHA-256\(serverSeed\)/) });
  });
});

describe('checkHeadConsistency (an organizer comparing archived heads, docs/fairness.md §9.6)', () => {
  const leaves = Array.from({ length: 12 }, (_, i) => leafHash(new Uint8Array([i, 42])));
  const head = (n: number, hashes = leaves, k = priv) =>
    signTreeHead({ treeSize: n, timestamp: 1_764_410_400_000 + n, rootHash: toHex(merkleRoot(hashes.slice(0, n))) }, k);
  const proofOf = (m: number, n: number, hashes = leaves) => ({
    firstSize: m,
    secondSize: n,
    proof: consistencyProof(hashes.slice(0, n), m, n).map(toHex),
  });
  const names = (r: ReturnType<typeof checkHeadConsistency>) =>
    r.checks.filter((c) => c.status === 'fail').map((c) => c.name);

  it('passes a later head that extends the archived one', () => {
    for (const [m, n] of [
      [3, 12],
      [8, 12],
      [12, 12],
      [1, 2],
    ])
      expect(checkHeadConsistency(head(m), head(n), proofOf(m, n), key).ok).toBe(true);
  });

  it('detects a fork: a later head whose tree does not contain the archived tree', () => {
    const forked = [...leaves.slice(0, 4), leafHash(new Uint8Array([99])), ...leaves.slice(5)];
    const r = checkHeadConsistency(head(6), head(12, forked), proofOf(6, 12, forked), key);
    expect(names(r)).toEqual(['consistency']);
    // same size, another root
    expect(
      names(checkHeadConsistency(head(12), head(12, forked), { firstSize: 12, secondSize: 12, proof: [] }, key)),
    ).toEqual(['consistency']);
  });

  it('fails a shrunk log, a proof for other sizes, a head signed by another key, malformed input', () => {
    expect(names(checkHeadConsistency(head(8), head(5), proofOf(5, 8), key))).toEqual(['consistency']);
    expect(names(checkHeadConsistency(head(3), head(12), proofOf(4, 12), key))).toEqual(['consistency']);
    expect(
      names(checkHeadConsistency(head(3), head(12, leaves, new Uint8Array(32).fill(3)), proofOf(3, 12), key)),
    ).toEqual(['newer-signature']);
    expect(names(checkHeadConsistency({ treeSize: 'x' }, head(12), proofOf(3, 12), key))).toEqual(['format']);
    expect(names(checkHeadConsistency(head(3), head(12), { nope: true }, key))).toEqual(['consistency']);
  });
});
