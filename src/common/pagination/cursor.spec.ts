import { DomainException } from '../errors';
import { CURSOR_MAX_LENGTH, cursorPage, decodeCursor, encodeCursor } from './cursor';
import { pageRequest } from './page-request';

const ID = '0b6f1c1e-8d2a-4c55-9a43-7f1e2d3c4b5a';
const b64 = (text: string) => Buffer.from(text, 'utf8').toString('base64url');

function codeOf(f: () => unknown): string | undefined {
  try {
    f();
  } catch (err) {
    if (err instanceof DomainException) return err.code;
    throw err;
  }
  return undefined;
}

describe('page cursors', () => {
  it('round-trips a key, and the cursor is URL-safe text', () => {
    const cursor = encodeCursor('games:open', [1764561600123456, ID]);
    expect(cursor).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(decodeCursor(cursor, 'games:open', ['int', 'uuid'])).toEqual([1764561600123456, ID]);
    expect(decodeCursor(encodeCursor('inbox', [1, null, 2, ID]), 'inbox', ['int', 'int?', 'int', 'uuid'])).toEqual([
      1,
      null,
      2,
      ID,
    ]);
  });

  it('refuses a cursor of another list (or other list parameters)', () => {
    const cursor = encodeCursor('games:mine', [1, ID]);
    expect(codeOf(() => decodeCursor(cursor, 'games:open', ['int', 'uuid']))).toBe('INVALID_CURSOR');
    const events = encodeCursor(`events:${ID}`, [3]);
    expect(codeOf(() => decodeCursor(events, 'events:00000000-0000-4000-8000-000000000000', ['int']))).toBe(
      'INVALID_CURSOR',
    );
  });

  it.each([
    ['empty', ''],
    ['not base64url', 'abc+/='],
    ['not JSON', b64('{"v":1,')],
    ['JSON but not an object', b64('[1,2]')],
    ['null', b64('null')],
    ['another version', b64(JSON.stringify({ v: 2, l: 'games:open', k: [1, ID] }))],
    ['an extra member', b64(JSON.stringify({ v: 1, l: 'games:open', k: [1, ID], x: 1 }))],
    ['no key', b64(JSON.stringify({ v: 1, l: 'games:open' }))],
    ['a key too short', b64(JSON.stringify({ v: 1, l: 'games:open', k: [1] }))],
    ['a key too long', b64(JSON.stringify({ v: 1, l: 'games:open', k: [1, ID, 3] }))],
    ['a negative time', b64(JSON.stringify({ v: 1, l: 'games:open', k: [-1, ID] }))],
    ['a fractional time', b64(JSON.stringify({ v: 1, l: 'games:open', k: [1.5, ID] }))],
    ['a time beyond 2^53', b64(JSON.stringify({ v: 1, l: 'games:open', k: [2 ** 53, ID] }))],
    ['a string time', b64(JSON.stringify({ v: 1, l: 'games:open', k: ['1', ID] }))],
    ['null where null is not allowed', b64(JSON.stringify({ v: 1, l: 'games:open', k: [null, ID] }))],
    ['an id that is no UUID', b64(JSON.stringify({ v: 1, l: 'games:open', k: [1, "x' OR 1=1 --"] }))],
    [
      'an upper-case UUID (we issue lower case)',
      b64(JSON.stringify({ v: 1, l: 'games:open', k: [1, ID.toUpperCase()] })),
    ],
    ['too long', 'A'.repeat(CURSOR_MAX_LENGTH + 1)],
  ])('refuses %s with INVALID_CURSOR', (_why, cursor) => {
    expect(codeOf(() => decodeCursor(cursor, 'games:open', ['int', 'uuid']))).toBe('INVALID_CURSOR');
  });

  it('a page of limit + 1 rows shows limit items, each with its cursor, and the last one as nextCursor', () => {
    const rows = [1, 2, 3].map((n) => ({ n }));
    const page = cursorPage(
      rows,
      2,
      'events:x',
      (r) => [r.n],
      (r) => r.n * 10,
    );
    expect(page.items).toEqual([10, 20]);
    expect(page.cursors.map((c) => decodeCursor(c, 'events:x', ['int']))).toEqual([[1], [2]]);
    expect(page.nextCursor).toBe(page.cursors[1]);
    const last = cursorPage(
      rows,
      3,
      'events:x',
      (r) => [r.n],
      (r) => r.n,
    );
    expect(last.nextCursor).toBeNull();
    expect(
      cursorPage(
        [],
        3,
        'events:x',
        () => [1],
        (r) => r,
      ),
    ).toEqual({ items: [], cursors: [], nextCursor: null });
  });
});

describe('pageRequest', () => {
  it('defaults to 20 and keeps what is valid', () => {
    expect(pageRequest({})).toEqual({ limit: 20, cursor: undefined, offset: undefined });
    expect(pageRequest({ limit: 100, offset: 0 })).toEqual({ limit: 100, cursor: undefined, offset: 0 });
    expect(pageRequest({ limit: 1, cursor: 'abc' })).toEqual({ limit: 1, cursor: 'abc', offset: undefined });
  });

  it.each([
    [{ limit: 0 }],
    [{ limit: 101 }],
    [{ limit: 2.5 }],
    [{ limit: -1 }],
    [{ offset: -1 }],
    [{ offset: 1.5 }],
    [{ offset: 1_000_001 }],
    [{ cursor: 'abc', offset: 0 }],
  ])('refuses %j with VALIDATION_FAILED', (input) => {
    expect(codeOf(() => pageRequest(input))).toBe('VALIDATION_FAILED');
  });
});
