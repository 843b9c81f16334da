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
});
