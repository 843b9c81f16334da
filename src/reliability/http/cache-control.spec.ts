import { asksForFreshRead } from './cache-control';

describe('asksForFreshRead (request Cache-Control)', () => {
  it.each(['no-cache', 'No-Cache', 'max-age=0', 'max-age="0"', 'no-store, no-cache', ' max-age = 00 '])(
    '%p asks for a fresh read',
    (header) => expect(asksForFreshRead(header)).toBe(true),
  );
  it.each([
    undefined,
    '',
    'max-age=5',
    'no-store',
    'private',
    'no-cachex',
    'max-age=0x',
    ['no-cache'],
    'no-cache'.padEnd(2000, ' '),
  ])('%p does not (absent, other or malformed directives are ignored)', (header) =>
    expect(asksForFreshRead(header)).toBe(false),
  );
});
