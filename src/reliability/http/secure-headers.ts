/**
 * helmet's secure headers, computed once. With the Content-Security-Policy set per response by
 * security.ts, every header helmet sets depends on its options only, never on the request, so the
 * middleware is run once at start against a recorder and each response gets the recorded set.
 * (@fastify/helmet rebuilt helmet's middleware from its options and ran its chain of a dozen
 * closures on every request: 4–6 % of a cached game read; decision 0153.)
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import helmet, { type HelmetOptions } from 'helmet';

/** Lower-case header name → value: what helmet's middleware sets with `options`. */
export function helmetHeaders(options: Readonly<HelmetOptions>): Readonly<Record<string, string>> {
  if (options.contentSecurityPolicy !== false)
    throw new Error('secure headers: the Content-Security-Policy is set per response (security.ts), not here');
  const headers: Record<string, string> = {};
  const recorder = {
    setHeader(name: string, value: string | number | readonly string[]) {
      headers[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : String(value);
      return recorder;
    },
    removeHeader(name: string) {
      delete headers[name.toLowerCase()];
    },
  };
  let completed = false;
  helmet(options)({} as IncomingMessage, recorder as unknown as ServerResponse, (err?: unknown) => {
    if (err) throw err instanceof Error ? err : new Error('secure headers: helmet failed');
    completed = true;
  });
  // Every middleware of helmet 8 is synchronous; a version that was not would have left headers out.
  if (!completed) throw new Error('secure headers: helmet did not complete synchronously');
  return Object.freeze(headers);
}
