import { commitmentOf, validateClientSeed } from '@fairdice/core/fairness/seeds';
import { generateClientSeed, generateServerSeed } from './seed-generation';

describe('seed generation', () => {
  it('generates 32-byte server seeds that differ', () => {
    const a = generateServerSeed();
    const b = generateServerSeed();
    expect(a).toHaveLength(32);
    expect(a.equals(b)).toBe(false);
    expect(commitmentOf(a)).toMatch(/^[0-9a-f]{64}$/);
  });

  it('generates valid, distinct client seeds', () => {
    const s = generateClientSeed();
    expect(s).toMatch(/^[0-9a-f]{32}$/);
    expect(validateClientSeed(s)).toBeNull();
    expect(generateClientSeed()).not.toBe(s);
  });
});
