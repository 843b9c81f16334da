/**
 * One load scenario measured (`scenario`): K closed-loop clients, a warm-up, then a window in
 * which throughput, latency, CPU (server, client, machine, PostgreSQL), peak RSS and database
 * commits per request are taken; the row the report tables print.
 */
import { performance } from 'node:perf_hooks';
import type { postgresBackendCpu } from './db';
import { f0, f1, f2, log } from './format';
import { type LoadResult, runClosedLoop, type VirtualClient } from './load';
import type { Options } from './options';
import { machineCpu, type ServerProcess, type WindowedServer } from './server-process';

export interface ScenarioRow {
  id: string;
  name: string;
  what: string;
  result: LoadResult;
  peakMiB: number | null;
  peakSource: string;
  /** Committed PostgreSQL transactions in the bench database per completed request (pg_stat_database). */
  txPerRequest: number | null;
  /** CPU use during the window, % of one core: server child, bench process (client), whole machine (% of all cores). */
  serverCpu: number;
  clientCpu: number;
  machineBusy: number;
  /** CPU milliseconds per completed request: the server child, and PostgreSQL's backends for the bench database. */
  serverCpuMsPerRequest: number | null;
  postgresCpuMsPerRequest: number | null;
}

export async function withServer<T>(server: ServerProcess, fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } finally {
    await server.stop();
  }
}

export async function scenario(
  id: string,
  name: string,
  what: string,
  opts: Options,
  makeClient: (i: number) => VirtualClient,
  server: WindowedServer | null,
  commits: (() => Promise<number>) | null,
  backends: ReturnType<typeof postgresBackendCpu> | null = null,
  /** Run first, outside the window: the bench database's settle (db.ts). */
  settle: (() => Promise<void>) | null = null,
): Promise<ScenarioRow> {
  await settle?.();
  log(`${id} ${name}: ${opts.clients} clients, ${opts.warmup} s warm-up + ${opts.seconds} s measured`);
  // Assigned in a callback: the cast keeps TypeScript from narrowing it to null below.
  let atStart = null as Promise<number> | null;
  let backendsAtStart = null as Promise<Map<number, number> | null> | null;
  let clientCpu0 = process.cpuUsage();
  let machine0 = machineCpu();
  let t0 = performance.now();
  const result = await runClosedLoop(makeClient, {
    clients: opts.clients,
    warmupMs: opts.warmup * 1000,
    durationMs: opts.seconds * 1000,
    onMeasureStart: () => {
      clientCpu0 = process.cpuUsage();
      machine0 = machineCpu();
      t0 = performance.now();
      server?.beginWindow();
      if (commits) atStart = commits().catch(() => NaN);
      if (backends) backendsAtStart = backends.sample().catch(() => null);
    },
  });
  const wall = (performance.now() - t0) / 1000;
  const cu = process.cpuUsage(clientCpu0);
  const clientCpu = ((cu.user + cu.system) / 1e6 / wall) * 100;
  const machine1 = machineCpu();
  const machineBusy =
    machine0 && machine1 ? ((machine1.busy - machine0.busy) / (machine1.total - machine0.total)) * 100 : NaN;
  const mem = server ? server.endWindow() : null;
  let txPerRequest: number | null = null;
  if (commits && atStart) {
    const end = await commits().catch(() => NaN);
    txPerRequest = (end - (await atStart)) / result.requests;
  }
  let postgresCpuMsPerRequest: number | null = null;
  if (backends && backendsAtStart) {
    const start = await backendsAtStart;
    const end = await backends.sample().catch(() => null);
    if (start && end && result.requests > 0)
      postgresCpuMsPerRequest = (backends.delta(start, end) * 1000) / result.requests;
  }
  const serverCpuMsPerRequest =
    mem && result.requests > 0 ? ((mem.cpuPercent / 100) * wall * 1000) / result.requests : null;
  log(
    `  → ${f0(result.perSec)} /s, p50 ${f2(result.p50Ms)} ms, p99 ${f2(result.p99Ms)} ms, errors ${result.errors}${mem ? `, peak RSS ${f1(mem.peakMiB)} MiB, server CPU ${f0(mem.cpuPercent)} %` : ''}, client CPU ${f0(clientCpu)} %, machine busy ${f0(machineBusy)} %`,
  );
  for (const e of result.errorSamples) log(`  error: ${e}`);
  return {
    id,
    name,
    what,
    result,
    peakMiB: mem ? mem.peakMiB : null,
    peakSource: mem ? mem.source : 'n/a (in the bench process)',
    txPerRequest,
    serverCpu: mem ? mem.cpuPercent : NaN,
    clientCpu,
    machineBusy,
    serverCpuMsPerRequest,
    postgresCpuMsPerRequest,
  };
}
