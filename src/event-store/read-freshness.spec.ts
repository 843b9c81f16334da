import { ReadFreshness } from './read-freshness';

const GAME = '00000000-0000-4000-8000-000000000001';
const OTHER = '00000000-0000-4000-8000-000000000002';

/** A freshness check on a clock the test moves. */
function setup(maxAgeMs = 5000, maxNoted = 100) {
  let now = 1_000_000;
  const f = new ReadFreshness(maxAgeMs, maxNoted, () => now);
  const confirmed = (version: number) => ({ version, ...f.stamp() });
  return { f, confirmed, advance: (ms: number) => (now += ms) };
}

describe('ReadFreshness (when a cached game may answer a read, decision 0150)', () => {
  it('answers nothing from the cache until the instance knows its peers', () => {
    const { f, confirmed } = setup();
    expect(f.isCurrent(GAME, confirmed(3))).toBe(false);
  });

  it('one instance: an entry is current while its confirmation is younger than the bound', () => {
    const { f, confirmed, advance } = setup(5000);
    f.single();
    const entry = confirmed(3);
    expect(f.isCurrent(GAME, entry)).toBe(true);
    advance(5000);
    expect(f.isCurrent(GAME, entry)).toBe(true);
    advance(1);
    expect(f.isCurrent(GAME, entry)).toBe(false);
  });

  it('a bound of 0 turns cached reads off', () => {
    const { f, confirmed } = setup(0);
    f.single();
    expect(f.isCurrent(GAME, confirmed(3))).toBe(false);
  });

  it('listening: a notification of a newer version outdates the entry, of its own or an older one does not', () => {
    const { f, confirmed } = setup();
    f.listening();
    const entry = confirmed(3);
    f.note(GAME, 2);
    f.note(GAME, 3);
    f.note(OTHER, 9);
    expect(f.isCurrent(GAME, entry)).toBe(true);
    f.note(GAME, 4);
    expect(f.isCurrent(GAME, entry)).toBe(false);
    // A load that began after the signal and read version 4 is current again.
    expect(f.isCurrent(GAME, confirmed(4))).toBe(true);
  });

  it('a signal heard while a load was under way outdates what the load read (stamped before)', () => {
    const { f } = setup();
    f.listening();
    const stamp = f.stamp(); // the load's read begins (its snapshot: version 3)
    f.note(GAME, 4); // another instance commits 4; the signal arrives before the load returns
    expect(f.isCurrent(GAME, { version: 3, ...stamp })).toBe(false);
  });

  it('losing the LISTEN session makes nothing current; entries of the old session stay outdated after it is back', () => {
    const { f, confirmed } = setup();
    f.listening();
    const before = confirmed(3);
    f.deaf();
    expect(f.isCurrent(GAME, before)).toBe(false);
    expect(f.isCurrent(GAME, confirmed(3))).toBe(false);
    f.listening();
    expect(f.isCurrent(GAME, before)).toBe(false);
    expect(f.isCurrent(GAME, confirmed(3))).toBe(true);
  });

  it('forgets the oldest signals past its bound (a signal it forgot cannot outdate an entry any more)', () => {
    const { f, confirmed } = setup(5000, 2);
    f.listening();
    const entry = confirmed(1);
    f.note(GAME, 2);
    f.note(OTHER, 2);
    expect(f.isCurrent(GAME, entry)).toBe(false);
    f.note('00000000-0000-4000-8000-000000000003', 1);
    expect(f.isCurrent(GAME, entry)).toBe(true);
  });
});
