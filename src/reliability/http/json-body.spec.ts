import { findUnsafeNumber, jsonNestingExceeds } from './json-body';
import { requestHash } from '../idempotency/idempotency-key';
import { DomainException } from '../../common/errors';

describe('JSON body checks', () => {
  it('counts object and array nesting, ignoring brackets inside strings (escaped quotes included)', () => {
    expect(jsonNestingExceeds('{"a":{"b":[1]}}', 3)).toBe(false);
    expect(jsonNestingExceeds('{"a":{"b":[1]}}', 2)).toBe(true);
    expect(jsonNestingExceeds(JSON.stringify({ s: '[[[[{{{{"\\' }), 1)).toBe(false);
    expect(jsonNestingExceeds('['.repeat(10_000), 32)).toBe(true);
  });

  it('finds numbers JSON cannot carry exactly, with their path', () => {
    expect(findUnsafeNumber({ a: [1, 2.5, -3], b: { c: 2 ** 53 - 1 } })).toBeNull();
    expect(findUnsafeNumber({ a: [1, 2 ** 53] })).toBe('$.a[1]');
    expect(findUnsafeNumber({ b: { c: Infinity } })).toBe('$.b.c');
    expect(findUnsafeNumber(JSON.parse('{"x":1e400}'))).toBe('$.x');
    expect(findUnsafeNumber(-1e308)).toBe('$');
  });
});

describe('requestHash', () => {
  it('is a 400 VALIDATION_FAILED naming the field, never a crash, for values canonical JSON refuses', () => {
    for (const args of [{ options: { target: 1.5 } }, { hold: [1e308] }, { n: 2 ** 60 }]) {
      let thrown: unknown;
      try {
        requestHash('create', null, args);
      } catch (err) {
        thrown = err;
      }
      expect(thrown).toBeInstanceOf(DomainException);
      expect((thrown as DomainException).code).toBe('VALIDATION_FAILED');
    }
    expect(requestHash('roll', 'g', { hold: [0, 1] })).toMatch(/^[0-9a-f]{64}$/);
  });
});
