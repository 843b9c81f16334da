import { ReadFreshness, type ReadStamp } from './read-freshness';

const GAME = '00000000-0000-4000-8000-000000000001';
const OTHER = '00000000-0000-4000-8000-000000000002';

/** A freshness check on a clock the test moves. */
function setup(maxAgeMs = 5000, maxNoted = 100) {
  let now = 1_000_000;
  const f = new ReadFreshness(maxAgeMs, maxNoted, () => now);
  /** An entry at `version` whose confirmation begins now. */
  const confirmed = (version: number) => ({ version, stamp: f.stamp() });
  const isCurrent = (gameId: string, e: { version: number; stamp: ReadStamp }) =>
    f.isCurrent(gameId, e.version, e.stamp);
  return { f, confirmed, isCurrent, advance: (ms: number) => (now += ms) };
}

describe('ReadFreshness (when a cached game may answer a read, decision 0150)', () => {
  it('answers nothing from the cache until the instance knows its peers', () => {
    const { isCurrent, confirmed } = setup();
    expect(isCurrent(GAME, confirmed(3))).toBe(false);
  });

  it('one instance: an entry is current while its confirmation is younger than the bound', () => {
    const { f, isCurrent, confirmed, advance } = setup(5000);
    f.single();
    const entry = confirmed(3);
    expect(isCurrent(GAME, entry)).toBe(true);
    advance(5000);
    expect(isCurrent(GAME, entry)).toBe(true);
    advance(1);
    expect(isCurrent(GAME, entry)).toBe(false);
  });

  it('a bound of 0 turns cached reads off', () => {
    const { f, isCurrent, confirmed } = setup(0);
    f.single();
    expect(isCurrent(GAME, confirmed(3))).toBe(false);
  });

  it('listening: a notification of a newer version outdates the entry, of its own or an older one does not', () => {
    const { f, isCurrent, confirmed } = setup();
    f.listening();
    const entry = confirmed(3);
    f.note(GAME, 2);
    f.note(GAME, 3);
    f.note(OTHER, 9);
    expect(isCurrent(GAME, entry)).toBe(true);
    f.note(GAME, 4);
    expect(isCurrent(GAME, entry)).toBe(false);
    // A load that began after the signal and read version 4 is current again.
    expect(isCurrent(GAME, confirmed(4))).toBe(true);
  });

  it('a signal heard while a load was under way outdates what the load read (stamped before)', () => {
    const { f, isCurrent } = setup();
    f.listening();
    const stamp = f.stamp(); // the load's read begins (its snapshot: version 3)
    f.note(GAME, 4); // another instance commits 4; the signal arrives before the load returns
    expect(isCurrent(GAME, { version: 3, stamp })).toBe(false);
  });

  it('losing the LISTEN session makes nothing current; entries of the old session stay outdated after it is back', () => {
    const { f, isCurrent, confirmed } = setup();
    f.listening();
    const before = confirmed(3);
    f.deaf();
    expect(isCurrent(GAME, before)).toBe(false);
    expect(isCurrent(GAME, confirmed(3))).toBe(false);
    f.listening();
    expect(isCurrent(GAME, before)).toBe(false);
    expect(isCurrent(GAME, confirmed(3))).toBe(true);
  });

  it('forgets the oldest signals past its bound (a signal it forgot cannot outdate an entry any more)', () => {
    const { f, isCurrent, confirmed } = setup(5000, 2);
    f.listening();
    const entry = confirmed(1);
    f.note(GAME, 2);
    f.note(OTHER, 2);
    expect(isCurrent(GAME, entry)).toBe(false);
    f.note('00000000-0000-4000-8000-000000000003', 1);
    expect(isCurrent(GAME, entry)).toBe(true);
  });
});
