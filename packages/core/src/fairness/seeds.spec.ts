import { createHash } from 'node:crypto';
import { commitmentOf, HEX_SHA256_PATTERN, orderedClientSeeds, validateClientSeed } from './seeds';

describe('seeds', () => {
  it('commits to the raw seed bytes with SHA-256 hex', () => {
    const seed = Buffer.from([...Array(32).keys()]);
    expect(commitmentOf(seed)).toBe('630dcd2966c4336691125448bbb25b4ff412a49c732db2c8abc1b8581bd710dd');
    expect(commitmentOf(seed)).toBe(createHash('sha256').update(seed).digest('hex'));
    expect(commitmentOf(seed)).toMatch(HEX_SHA256_PATTERN);
    expect(commitmentOf(new Uint8Array(seed))).toBe(commitmentOf(seed)); // Buffer or plain Uint8Array
    expect(() => commitmentOf(Buffer.alloc(31))).toThrow(RangeError);
    expect(() => commitmentOf('00'.repeat(32) as unknown as Buffer)).toThrow(RangeError);
  });

  it.each(['a', '!', '~', 'alice:lucky#7', 'x'.repeat(128), '00112233445566778899aabbccddeeff'])('accepts %j', (s) => {
    expect(validateClientSeed(s)).toBeNull();
  });

  it.each([
    ['', /empty/],
    ['x'.repeat(129), /at most 128/],
    ['has space', /visible ASCII/],
    ['tab\there', /visible ASCII/],
    ['new\nline', /visible ASCII/],
    ['zoë', /visible ASCII/],
    ['🎲', /visible ASCII/],
    ['\x7f', /visible ASCII/],
  ])('rejects %j', (s, msg) => {
    expect(validateClientSeed(s)).toMatch(msg);
  });

  it('rejects non-strings', () => {
    expect(validateClientSeed(42)).toMatch(/string/);
    expect(validateClientSeed(null)).toMatch(/string/);
  });

  it('orders the organizer seed first, then seats ascending', () => {
    expect(
      orderedClientSeeds({
        organizerSeed: 'org',
        seats: [
          { seat: 2, clientSeed: 'c' },
          { seat: 0, clientSeed: 'a' },
          { seat: 1, clientSeed: 'b' },
        ],
      }),
    ).toEqual(['org', 'a', 'b', 'c']);
    expect(
      orderedClientSeeds({
        organizerSeed: null,
        seats: [
          { seat: 3, clientSeed: 'd' },
          { seat: 1, clientSeed: 'b' },
        ],
      }),
    ).toEqual(['b', 'd']);
    expect(orderedClientSeeds({ seats: [] })).toEqual([]);
  });

  it('refuses duplicate seats, bad seat numbers and invalid seeds', () => {
    expect(() =>
      orderedClientSeeds({
        seats: [
          { seat: 0, clientSeed: 'a' },
          { seat: 0, clientSeed: 'b' },
        ],
      }),
    ).toThrow(/duplicate seat 0/);
    expect(() => orderedClientSeeds({ seats: [{ seat: -1, clientSeed: 'a' }] })).toThrow(/seat/);
    expect(() => orderedClientSeeds({ seats: [{ seat: 0.5, clientSeed: 'a' }] })).toThrow(/seat/);
    expect(() => orderedClientSeeds({ seats: [{ seat: 0, clientSeed: 'a b' }] })).toThrow(/seat 0/);
    expect(() => orderedClientSeeds({ organizerSeed: '', seats: [] })).toThrow(/organizer/);
  });
});
