import { attachLogProof, cloneBundle, simulateGame } from './bundle-fixtures';
import { checkBundleLog } from './log-proof';
import { encodeLeaf, fromHex, logPublicKey, toHex } from './transparency-log';
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
});
