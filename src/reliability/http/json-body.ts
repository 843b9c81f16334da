/**
 * The request body parsers (docs/operations.md, *Threat model*).
 *
 * - `application/json` (and `+json` types): a linear pre-scan refuses nesting deeper than
 *   MAX_JSON_DEPTH before anything is parsed (400 JSON_TOO_DEEP: about 10,000 levels of `{"a":` fit
 *   under the body limit and would overflow the stack of recursive code further down, such as
 *   class-transformer). Then Fastify's own parser (prototype-poisoning protection kept), then a
 *   walk (bounded by the depth) that refuses numbers JSON cannot carry exactly: non-finite
 *   (`1e400` parses to Infinity) and integers beyond ±(2^53 − 1), whose digits were already lost
 *   (400 VALIDATION_FAILED naming the field). Nothing downstream then meets such a number.
 *   The body must be an object: `null`, arrays and bare values are 400 VALIDATION_FAILED (Nest's
 *   ValidationPipe would let `null` through unvalidated: a null roll would roll).
 * - A JSON body is read as UTF-8: a `charset` parameter other than utf-8 (`utf-16`, `latin1`...)
 *   is 415 UNSUPPORTED_MEDIA_TYPE rather than bytes decoded as something they are not.
 * - Every other content type (text/plain included) has no parser: 415 UNSUPPORTED_MEDIA_TYPE.
 */
import type { FastifyBodyParser, FastifyInstance } from 'fastify';
import { DomainException } from '../../common/errors';

/** Deepest object/array nesting a JSON body may have. Our deepest input is 3 levels. */
export const MAX_JSON_DEPTH = 32;

/** Depth of the deepest `{`/`[` nesting in `text`, stopping as soon as it passes `limit`. Ignores string contents. */
export function jsonNestingExceeds(text: string, limit: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c /* \ */) i++;
      else if (c === 0x22 /* " */) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x7b /* { */ || c === 0x5b /* [ */) {
      if (++depth > limit) return true;
    } else if (c === 0x7d /* } */ || c === 0x5d /* ] */) depth--;
  }
  return false;
}

/** The path of the first number JSON cannot carry exactly, or null. `value` is already depth-bounded. */
export function findUnsafeNumber(value: unknown, path = '$'): string | null {
  if (typeof value === 'number')
    return Number.isFinite(value) && Math.abs(value) <= Number.MAX_SAFE_INTEGER ? null : path;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const found = findUnsafeNumber(value[i], `${path}[${i}]`);
      if (found) return found;
    }
    return null;
  }
  if (value !== null && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) {
      const found = findUnsafeNumber(v, `${path}.${k}`);
      if (found) return found;
    }
  }
  return null;
}

export const jsonTooDeep = () =>
  new DomainException('JSON_TOO_DEEP', `JSON nested deeper than ${MAX_JSON_DEPTH} levels is not accepted`, {
    maxDepth: MAX_JSON_DEPTH,
  });

/** Every JSON body of the API is an object (a null body would otherwise skip DTO validation). */
export const notAnObject = () => {
  const problem = 'the body must be a JSON object';
  return new DomainException('VALIDATION_FAILED', problem, { errors: [{ field: '(body)', problems: [problem] }] });
};

export const unsafeNumber = (path: string) => {
  const field = path.replace(/^\$\.?/, '') || '(body)';
  const problem = 'numbers must be finite and at most 2^53 - 1 in magnitude';
  return new DomainException('VALIDATION_FAILED', `${field}: ${problem}`, { errors: [{ field, problems: [problem] }] });
};

/** The `charset` parameter of a Content-Type value, lower case; null when there is none. */
export function charsetOf(contentType: string | undefined): string | null {
  const m = /;\s*charset\s*=\s*(?:"([^"]*)"|([^;\s]*))/i.exec(contentType ?? '');
  return m ? (m[1] ?? m[2]).toLowerCase() : null;
}

const notUtf8 = (charset: string) =>
  new DomainException(
    'UNSUPPORTED_MEDIA_TYPE',
    `JSON bodies are read as UTF-8: charset=${charset.slice(0, 40)} is not supported (send utf-8 or no charset)`,
  );

/** Replaces Fastify's JSON and text parsers (see the file comment). Call before the routes are ready. */
export function registerBodyParsers(fastify: FastifyInstance): void {
  const defaultJson = fastify.getDefaultJsonParser('error', 'error');
  fastify.removeAllContentTypeParsers();
  const parseJson: FastifyBodyParser<string> = (request, text, done) => {
    const charset = charsetOf(request.headers['content-type']);
    if (charset !== null && charset !== 'utf-8' && charset !== 'utf8') return done(notUtf8(charset), undefined);
    if (jsonNestingExceeds(text, MAX_JSON_DEPTH)) return done(jsonTooDeep(), undefined);
    void defaultJson(request, text, (err, parsed) => {
      if (err) return done(err, undefined);
      if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return done(notAnObject(), undefined);
      const unsafe = findUnsafeNumber(parsed);
      if (unsafe) return done(unsafeNumber(unsafe), undefined);
      done(null, parsed);
    });
  };
  fastify.addContentTypeParser('application/json', { parseAs: 'string' }, parseJson);
  fastify.addContentTypeParser(/^application\/[a-z0-9.-]+\+json$/, { parseAs: 'string' }, parseJson);
}
