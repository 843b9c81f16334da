import { prefersMinimal } from './prefer';

describe('prefersMinimal (Prefer: return=minimal, RFC 7240)', () => {
  it('reads return=minimal among other preferences, in any case, quoted or with parameters', () => {
    expect(prefersMinimal('return=minimal')).toBe(true);
    expect(prefersMinimal('respond-async, wait=10, return=minimal')).toBe(true);
    expect(prefersMinimal('RETURN = "Minimal"')).toBe(true);
    expect(prefersMinimal('return=minimal; foo=bar')).toBe(true);
    expect(prefersMinimal(['wait=5', 'return=minimal'])).toBe(true);
  });

  it('the default and the explicit full representation are not minimal; the last return preference wins', () => {
    expect(prefersMinimal(undefined)).toBe(false);
    expect(prefersMinimal('return=representation')).toBe(false);
    expect(prefersMinimal('return=minimal, return=representation')).toBe(false);
  });

  it('ignores what it does not understand (RFC 7240 §2): unknown values, bare tokens, junk', () => {
    for (const junk of [
      'return=tiny',
      'return',
      'minimal',
      'return=',
      '=minimal',
      ';;;',
      'x'.repeat(2000) + ',return=minimal',
    ])
      expect(prefersMinimal(junk)).toBe(false);
  });
});
