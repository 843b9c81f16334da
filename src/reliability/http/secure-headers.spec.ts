import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import helmet, { type HelmetOptions } from 'helmet';
import { helmetHeaders } from './secure-headers';

/** The headers helmet's middleware puts on a real response of node:http, for comparison. */
async function headersOfRealResponse(options: HelmetOptions): Promise<Record<string, string>> {
  const middleware = helmet(options);
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    middleware(req, res, () => res.end('ok'));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  try {
    const { port } = server.address() as AddressInfo;
    const res = await fetch(`http://127.0.0.1:${port}/`);
    await res.text();
    const out: Record<string, string> = {};
    for (const [name, value] of res.headers) {
      if (['date', 'connection', 'keep-alive', 'content-length', 'transfer-encoding'].includes(name)) continue;
      out[name] = value;
    }
    return out;
  } finally {
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}

describe('helmetHeaders', () => {
  const ours = (policy: 'same-origin' | 'cross-origin'): HelmetOptions => ({
    contentSecurityPolicy: false,
    crossOriginEmbedderPolicy: false,
    crossOriginResourcePolicy: { policy },
  });

  it.each(['same-origin', 'cross-origin'] as const)(
    'records exactly what helmet sets on a real response (resource policy %s)',
    async (policy) => {
      const recorded = helmetHeaders(ours(policy));
      expect(recorded).toEqual(await headersOfRealResponse(ours(policy)));
      expect(recorded['cross-origin-resource-policy']).toBe(policy);
      expect(recorded['x-content-type-options']).toBe('nosniff');
      expect(recorded['strict-transport-security']).toMatch(/^max-age=\d+/);
      expect(recorded).not.toHaveProperty('content-security-policy');
      expect(recorded).not.toHaveProperty('cross-origin-embedder-policy');
      expect(recorded).not.toHaveProperty('x-powered-by');
    },
  );

  it('is computed once: a frozen object', () => {
    const recorded = helmetHeaders(ours('same-origin'));
    expect(Object.isFrozen(recorded)).toBe(true);
  });

  it('refuses a Content-Security-Policy (it is set per response, not once)', () => {
    expect(() => helmetHeaders({ crossOriginEmbedderPolicy: false })).toThrow(/Content-Security-Policy/);
  });
});
