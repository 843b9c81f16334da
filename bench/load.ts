/**
 * A small closed-loop load generator on node:http (no dependencies).
 *
 * - K virtual clients share one keep-alive Agent with maxSockets = K, so each client keeps its
 *   own connection in practice.
 * - Closed loop: a client sends its next request only when the previous one answered.
 * - Fixed duration: a warm-up window (not recorded), then a measured window. Requests that
 *   COMPLETE successfully inside the measured window are counted (failed ones are counted as
 *   errors, apart, so fast failures cannot inflate the rate); their latency goes into the sample list,
 *   sorted at the end for p50 / p95 / p99 (exact percentiles, no bucketing).
 * - The generator runs in the bench process; the servers are child processes. On this 2-CPU
 *   machine client, server and PostgreSQL share the same two cores: every figure includes the
 *   client's own CPU cost, and the ratios compare like with like.
 */
import http from 'node:http';
import { performance } from 'node:perf_hooks';

export interface HttpResult {
  status: number;
  body: string;
}

export class HttpClient {
  readonly agent: http.Agent;
  constructor(
    readonly host: string,
    readonly port: number,
    maxSockets: number,
  ) {
    this.agent = new http.Agent({ keepAlive: true, maxSockets, maxFreeSockets: maxSockets });
  }

  request(method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<HttpResult> {
    return new Promise((resolve, reject) => {
      const payload = body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body);
      const h: Record<string, string | number> = { ...headers };
      if (payload !== undefined) {
        h['content-type'] = 'application/json';
        h['content-length'] = Buffer.byteLength(payload);
      }
      const req = http.request(
        { host: this.host, port: this.port, method, path, agent: this.agent, headers: h },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () =>
            resolve({
              status: res.statusCode ?? 0,
              body: chunks.length === 1 ? chunks[0].toString('utf8') : Buffer.concat(chunks).toString('utf8'),
            }),
          );
          res.on('error', reject);
        },
      );
      req.on('error', reject);
      if (payload !== undefined) req.write(payload);
      req.end();
    });
  }

  close(): void {
    this.agent.destroy();
  }
}

/** One virtual client: `step` performs ONE request (or one unit of work); it throws on failure. */
export interface VirtualClient {
  step(): Promise<void>;
}

export interface LoadOptions {
  clients: number;
  warmupMs: number;
  durationMs: number;
  /** Called when the measured window opens (e.g. to reset the server's peak RSS). */
  onMeasureStart?: () => void;
}

export interface LoadResult {
  requests: number;
  errors: number;
  seconds: number;
  perSec: number;
  p50Ms: number;
  p95Ms: number;
  p99Ms: number;
  maxMs: number;
  meanMs: number;
  /** First error messages seen (for the log), at most 5. */
  errorSamples: string[];
}

export function percentile(sorted: Float64Array | number[], p: number): number {
  if (sorted.length === 0) return NaN;
  const idx = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[idx];
}

/** Runs the closed loop: every client calls step() back to back until the window closes. */
export async function runClosedLoop(
  makeClient: (i: number) => VirtualClient,
  options: LoadOptions,
): Promise<LoadResult> {
  const clients = Array.from({ length: options.clients }, (_, i) => makeClient(i));
  const t0 = performance.now();
  const measureStart = t0 + options.warmupMs;
  const measureEnd = measureStart + options.durationMs;
  let samples = new Float64Array(1 << 16);
  let n = 0;
  let errors = 0;
  const errorSamples: string[] = [];
  const startTimer = setTimeout(() => options.onMeasureStart?.(), options.warmupMs);

  const loop = async (c: VirtualClient) => {
    for (;;) {
      const s = performance.now();
      if (s >= measureEnd) return;
      let ok = true;
      try {
        await c.step();
      } catch (err) {
        ok = false;
        if (errorSamples.length < 5) errorSamples.push(err instanceof Error ? err.message : String(err));
      }
      const e = performance.now();
      if (e >= measureStart && e < measureEnd) {
        if (!ok) {
          errors++;
          continue; // throughput and latency count answered requests only; errors are reported apart
        }
        if (n === samples.length) {
          const bigger = new Float64Array(samples.length * 2);
          bigger.set(samples);
          samples = bigger;
        }
        samples[n++] = e - s;
      }
    }
  };
  await Promise.all(clients.map(loop));
  clearTimeout(startTimer);
  const sorted = samples.subarray(0, n).sort();
  let sum = 0;
  for (let i = 0; i < n; i++) sum += sorted[i];
  const seconds = options.durationMs / 1000;
  return {
    requests: n,
    errors,
    seconds,
    perSec: n / seconds,
    p50Ms: percentile(sorted, 50),
    p95Ms: percentile(sorted, 95),
    p99Ms: percentile(sorted, 99),
    maxMs: n ? sorted[n - 1] : NaN,
    meanMs: n ? sum / n : NaN,
    errorSamples,
  };
}
