import { canonicalBytes, canonicalJson, CanonicalJsonError } from './canonical';

describe('canonicalJson', () => {
  it('sorts keys recursively and writes no whitespace', () => {
    expect(canonicalJson({ b: [1, 'é', null], a: { y: true, x: -3 } })).toBe(
      '{"a":{"x":-3,"y":true},"b":[1,"é",null]}',
    );
    expect(canonicalJson({ b: 1, a: 2, A: 3, _: 4, '10': 5, '9': 6 })).toBe('{"10":5,"9":6,"A":3,"_":4,"a":2,"b":1}');
    expect(canonicalJson([])).toBe('[]');
    expect(canonicalJson({})).toBe('{}');
    expect(canonicalJson('')).toBe('""');
  });

  it('is independent of insertion order', () => {
    const a = { gameId: 'g', version: 1, data: { z: 1, a: [{ q: 1, p: 2 }] } };
    const b = { data: { a: [{ p: 2, q: 1 }], z: 1 }, version: 1, gameId: 'g' };
    expect(canonicalJson(a)).toBe(canonicalJson(b));
  });

  it('sorts keys by UTF-16 code units (RFC 8785)', () => {
    // U+20AC (€) < U+1F600 (😀, surrogates D83D DE00) < U+FB01 (ﬁ) in UTF-16 code unit order
    expect(canonicalJson({ ﬁ: 1, '😀': 2, '€': 3, é: 4 })).toBe('{"é":4,"€":3,"😀":2,"ﬁ":1}');
  });

  it('writes non-ASCII characters as themselves, in UTF-8', () => {
    expect(canonicalJson({ n: 'Zoë 🎲 漢字' })).toBe('{"n":"Zoë 🎲 漢字"}');
    expect(Buffer.from(canonicalBytes('é')).toString('hex')).toBe('22c3a922');
    expect(Buffer.from(canonicalBytes('🎲')).toString('hex')).toBe('22f09f8eb222');
  });

  it('escapes like RFC 8785', () => {
    expect(canonicalJson('"\\/\b\f\n\r\t\u0000\u001f\u007f')).toBe('"\\"\\\\/\\b\\f\\n\\r\\t\\u0000\\u001f\u007f"');
    expect(canonicalJson('\u2028')).toBe('"\u2028"');
  });

  it('writes integers plainly, -0 as 0', () => {
    expect(canonicalJson([0, -0, 1, -1, 10000, 9007199254740991, -9007199254740991])).toBe(
      '[0,0,1,-1,10000,9007199254740991,-9007199254740991]',
    );
  });

  it.each([
    [1.5, /non-integer/],
    [0.1, /non-integer/],
    [NaN, /non-finite/],
    [Infinity, /non-finite/],
    [-Infinity, /non-finite/],
    [2 ** 53, /outside/],
  ])('rejects the number %p', (n, msg) => {
    expect(() => canonicalJson({ a: { b: [n] } })).toThrow(msg);
    expect(() => canonicalJson({ a: { b: [n] } })).toThrow(CanonicalJsonError);
  });

  it('reports the path of the offending value', () => {
    expect(() => canonicalJson({ data: { dice: [1, 2.5] } })).toThrow('non-integer number 2.5 at $.data.dice[1]');
  });

  it('rejects values outside JSON and non-plain objects', () => {
    expect(() => canonicalJson(undefined)).toThrow(/undefined/);
    expect(() => canonicalJson([undefined])).toThrow(/undefined/);
    expect(() => canonicalJson([1, , 3])).toThrow(/hole/); // eslint-disable-line no-sparse-arrays -- the hole is what is tested
    expect(() => canonicalJson(10n)).toThrow(/bigint/);
    expect(() => canonicalJson(() => 1)).toThrow(/function/);
    expect(() => canonicalJson(Symbol('s'))).toThrow(/symbol/);
    expect(() => canonicalJson(new Date(0))).toThrow(/Date/);
    expect(() => canonicalJson(new Map())).toThrow(/Map/);
    expect(() => canonicalJson({ [Symbol('k')]: 1 })).toThrow(/symbol keys/);
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    expect(() => canonicalJson(cyclic)).toThrow(/cyclic/);
  });

  it('accepts the same object twice when it is not a cycle', () => {
    const shared = { a: 1 };
    expect(canonicalJson([shared, shared])).toBe('[{"a":1},{"a":1}]');
    expect(canonicalJson(Object.assign(Object.create(null), { b: 1 }))).toBe('{"b":1}');
  });

  it('omits members whose value is undefined, so a JSON round trip hashes the same', () => {
    const v = { a: 1, b: undefined, c: { d: undefined } };
    expect(canonicalJson(v)).toBe('{"a":1,"c":{}}');
    expect(canonicalJson(JSON.parse(JSON.stringify(v)))).toBe(canonicalJson(v));
  });

  it('rejects lone surrogates (no UTF-8 encoding)', () => {
    expect(() => canonicalJson('\ud83d')).toThrow(/lone surrogate/);
    expect(() => canonicalJson({ '\udc00': 1 })).toThrow(/lone surrogate/);
    expect(() => canonicalJson('a\ude00\ud83d')).toThrow(/lone surrogate/);
    expect(canonicalJson('\ud83d\ude00')).toBe('"😀"');
  });

  it('encodes deep values (past the fast path depth) and reports a cycle deep down', () => {
    let deep: unknown = { leaf: [1, 'x'] };
    for (let i = 0; i < 100; i++) deep = i % 2 ? { z: deep, a: i } : [deep, i];
    expect(canonicalJson(deep)).toBe(reference(deep));
    const cyclic: Record<string, unknown>[] = [{}];
    for (let i = 1; i < 80; i++) cyclic.push({ next: cyclic[i - 1] });
    cyclic[0].back = cyclic[79];
    expect(() => canonicalJson(cyclic[79])).toThrow(/cyclic/);
  });

  it('gives the text of sorted-keys JSON.stringify on random values of the subset', () => {
    // A reference written independently: JSON.stringify already escapes strings as RFC 8785 and
    // writes safe integers plainly, so with members sorted it is canonical JSON of the subset.
    // mulberry32: a plain LCG's low bits repeat with a short period (seed % 8 cycled through 8
    // values), which left every member of the larger objects undefined.
    let seed = 12345;
    const next = (n: number) => {
      seed = (seed + 0x6d2b79f5) >>> 0;
      let t = Math.imul(seed ^ (seed >>> 15), seed | 1);
      t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
      return ((t ^ (t >>> 14)) >>> 0) % n;
    };
    const chars = ['a', 'B', '_', '0', 'é', '€', '😀', '"', '\\', '\n', '\u0001', '\u2028', 'ﬁ', ' '];
    const text = () => Array.from({ length: next(6) }, () => chars[next(chars.length)]).join('');
    const value = (depth: number): unknown => {
      switch (next(depth > 3 ? 5 : 7)) {
        case 0:
          return null;
        case 1:
          return next(2) === 0;
        case 2:
          return (next(2) ? -1 : 1) * next(2 ** 31) * (next(3) === 0 ? 2 ** 21 : 1);
        case 3:
        case 4:
          return text();
        case 5:
          return Array.from({ length: next(5) }, () => value(depth + 1));
        default: {
          const o: Record<string, unknown> = {};
          // Mostly a handful of members; one object in four up to 40 (past the insertion sort's 16).
          const members = next(4) === 0 ? next(41) : next(6);
          for (let i = members; i > 0; i--) o[text()] = next(8) === 0 ? undefined : value(depth + 1);
          return o;
        }
      }
    };
    for (let i = 0; i < 3000; i++) {
      const v = value(0);
      expect(canonicalJson(v)).toBe(reference(v));
    }
  });
});

// Objects are written member by member: JSON.stringify itself would put an integer-like key
// ("0") first whatever the sort, as JavaScript enumerates such keys first.
function reference(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(reference).join(',')}]`;
  if (v === null || typeof v !== 'object') return JSON.stringify(v);
  const o = v as Record<string, unknown>;
  const members = Object.keys(o)
    .filter((k) => o[k] !== undefined)
    .sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))
    .map((k) => `${JSON.stringify(k)}:${reference(o[k])}`);
  return `{${members.join(',')}}`;
}
