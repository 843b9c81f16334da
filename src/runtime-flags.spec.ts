import { setFlagsFromString } from 'node:v8';
import { applyRuntimeFlags } from './runtime-flags';

jest.mock('node:v8', () => ({ setFlagsFromString: jest.fn() }));
const setFlags = jest.mocked(setFlagsFromString);

/** The V8 flags main.ts sets before anything loads (decisions 0151, 0163). */
describe('applyRuntimeFlags', () => {
  const flagsFor = (env: NodeJS.ProcessEnv) => {
    setFlags.mockClear();
    applyRuntimeFlags(env);
    return setFlags.mock.calls.map(([f]) => f);
  };

  it('by default turns allocation-site pretenuring off and leaves the heap growing factor to V8', () => {
    expect(flagsFor({})).toEqual(['--no-allocation-site-pretenuring']);
  });

  it('V8_ALLOCATION_SITE_PRETENURING=true leaves pretenuring on; false or junk keep it off', () => {
    expect(flagsFor({ V8_ALLOCATION_SITE_PRETENURING: 'true' })).toEqual([]);
    expect(flagsFor({ V8_ALLOCATION_SITE_PRETENURING: 'false' })).toEqual(['--no-allocation-site-pretenuring']);
    expect(flagsFor({ V8_ALLOCATION_SITE_PRETENURING: 'sometimes' })).toEqual(['--no-allocation-site-pretenuring']);
  });

  it('V8_HEAP_GROWING_PERCENT 1–300 fixes the factor; 0, out of range or junk set nothing', () => {
    expect(flagsFor({ V8_ALLOCATION_SITE_PRETENURING: 'true', V8_HEAP_GROWING_PERCENT: '50' })).toEqual([
      '--heap-growing-percent=50',
    ]);
    for (const v of ['0', '301', 'big', '2.5'])
      expect(flagsFor({ V8_ALLOCATION_SITE_PRETENURING: 'true', V8_HEAP_GROWING_PERCENT: v })).toEqual([]);
  });
});
