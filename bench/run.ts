/**
 * `npm run bench`: the whole benchmark in one run (about 2.5 minutes with the defaults).
 *
 *   npm run bench -- [--clients 64] [--seconds 10] [--warmup 5] [--pool 10] [--micro-ms 300]
 *                    [--profile] [--no-readme] [--skip-micro] [--variants] [--group-commit on|off|both]
 *
 * 1. Micro-benchmarks (in this process, before any server runs): the existing family and
 *    fairness suites plus the game aggregate (bench/game-aggregate.bench.ts).
 * 2. A fresh database fairdice_bench_<ts> on DATABASE_URL (default postgresql://postgres@127.0.0.1:5432/postgres),
 *    migrated with src/database/migrate.ts, dropped at the end.
 * 3. Ceilings, same run, same load generator, same K:
 *    (a) bare Fastify hello world (child process);
 *    (b) INSERT of one game_events-shaped row with plain `pg` (scratch table, same PK), over a
 *        pool the size of the server's (DATABASE_POOL_MAX, --pool) and, for reference, over a
 *        pool of K.
 * 4. The server (`node dist/src/main.js`, LOG_LEVEL=warn, NODE_ENV=production, child process):
 *    REST actions, GraphQL actions, REST reads (GET /v1/games/:id), K closed-loop clients each.
 * 5. The job queue alone (bench/job-queue.bench.ts): jobs/s drained, and how long a delivery
 *    waits behind a fan-out backlog.
 * 5b. One tournament round of 64 entrants (bench/tournament-round.bench.ts, in process on the same
 *    database): ms from the start request to every game of round 1 created, duplicate and tables.
 * 6. Table + ratios printed, report written to bench/results/<YYYY-MM-DD>.md, and the README's
 *    Benchmarks table refreshed (between the bench:table markers).
 *
 * --variants adds a diagnostic scenario: REST actions on a second server started with
 * RATE_LIMIT_ENABLED=false (what the per-request rate-limit counter write costs).
 *
 * --group-commit (default on): the server's APPEND_BATCHING; `both` adds REST actions on a second
 * server with group commit off (ratio to the same run's ceiling (b)). The batch-size distribution
 * of each REST scenario is read from the server's /metrics (bench/batches.ts) and reported.
 *
 * --profile starts the server with `node --cpu-prof --cpu-prof-dir=bench/results/profiles` and
 * appends the self-time summary (bench/profile-summary.ts) to the report (named
 * <date>-profile.md, since a profiled server is slower; the README is not touched).
 */
import { randomBytes } from 'node:crypto';
import { execSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { runFairnessMicroBenchmarks } from './fairness.bench';
import { runGameAggregateMicroBenchmarks } from './game-aggregate.bench';
import { type JobQueueBenchResult, runJobQueueBench } from './job-queue.bench';
import { runTournamentRoundBench, type TournamentRoundResult } from './tournament-round.bench';
import {
  NESTED as GQL_NESTED,
  REPEATED as GQL_REPEATED,
  runGraphqlValidationMicroBenchmarks,
  TRIVIAL as GQL_TRIVIAL,
} from './graphql-validation.bench';
import { runAdviceMicroBenchmarks } from './advice.bench';
import { runFarkleMicroBenchmarks } from './rules-farkle.bench';
import { runFiveDiceMicroBenchmarks } from './rules-five-dice.bench';
import {
  createBenchDatabase,
  DEFAULT_DATABASE_URL,
  insertClient,
  insertPool,
  postgresBackendCpu,
  prepareInsertCeiling,
} from './db';
import { HttpClient, type LoadResult, runClosedLoop, type VirtualClient } from './load';
import {
  GraphqlPlayer,
  helloClient,
  newPlayStats,
  type PlayStats,
  Reader,
  registerPlayer,
  type Registered,
  RestPlayer,
  retrySetup,
} from './players';
import { formatSummary, summarizeProfileFile } from './profile-summary';
import { freePort, machineCpu, ServerGroup, ServerProcess, type WindowedServer } from './server-process';
import { redactUrl } from '../src/database/redact-url';
import { batchDelta, type BatchSizes, describeBatchSizes, scrapeBatchSizes } from './batches';

const ROOT = resolve(__dirname, '..', '..');
const RESULTS_DIR = join(ROOT, 'bench', 'results');
const PROFILE_DIR = join(RESULTS_DIR, 'profiles');

// ---------------------------------------------------------------- options

interface Options {
  clients: number;
  seconds: number;
  warmup: number;
  pool: number;
  microMs: number;
  profile: boolean;
  readme: boolean;
  micro: boolean;
  variants: boolean;
  groupCommit: 'on' | 'off' | 'both';
  /** Scenario ids to run (--only a,b,rest,graphql,reads,instances,jobs,tournament); null = all. */
  only: Set<string> | null;
  /** Report file suffix (--label perf → bench/results/<date>-perf.md). */
  label: string | null;
}

function parseArgs(argv: string[]): Options {
  const o: Options = {
    clients: 64,
    seconds: 10,
    warmup: 5,
    pool: Number(process.env.DATABASE_POOL_MAX ?? 10),
    microMs: 300,
    profile: false,
    readme: true,
    micro: true,
    variants: false,
    groupCommit: 'on',
    only: null,
    label: null,
  };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const [flag, inline] = a.includes('=') ? [a.slice(0, a.indexOf('=')), a.slice(a.indexOf('=') + 1)] : [a, undefined];
    const value = () => {
      const v = inline ?? argv[++i];
      const n = Number(v);
      if (!Number.isFinite(n) || n <= 0) throw new Error(`${flag} needs a positive number (got ${v})`);
      return n;
    };
    switch (flag) {
      case '--clients':
        o.clients = Math.floor(value());
        break;
      case '--seconds':
        o.seconds = value();
        break;
      case '--warmup':
        o.warmup = value();
        break;
      case '--pool':
        o.pool = Math.floor(value());
        break;
      case '--micro-ms':
        o.microMs = value();
        break;
      case '--profile':
        o.profile = true;
        break;
      case '--no-readme':
        o.readme = false;
        break;
      case '--skip-micro':
        o.micro = false;
        break;
      case '--variants':
        o.variants = true;
        break;
      case '--group-commit': {
        const v = inline ?? argv[++i];
        if (v !== 'on' && v !== 'off' && v !== 'both')
          throw new Error(`--group-commit needs on, off or both (got ${v})`);
        o.groupCommit = v;
        break;
      }
      case '--only':
        // For profiling one path; a report of a partial run is not a full bench (the README is not touched).
        o.only = new Set((inline ?? argv[++i] ?? '').split(',').filter(Boolean));
        o.readme = false;
        break;
      case '--label':
        o.label = (inline ?? argv[++i] ?? '').replace(/[^a-z0-9-]/gi, '') || null;
        break;
      case '--help':
      case '-h':
        console.log(
          'npm run bench -- [--clients 64] [--seconds 10] [--warmup 5] [--pool 10] [--micro-ms 300] [--profile] [--no-readme] [--skip-micro] [--variants] [--only rest,graphql,...] [--label name] [--group-commit on|off|both]',
        );
        process.exit(0);
        break;
      default:
        throw new Error(`unknown option ${a} (see --help)`);
    }
  }
  return o;
}

// ---------------------------------------------------------------- helpers

const log = (line: string) => process.stderr.write(`[bench ${new Date().toISOString().slice(11, 19)}] ${line}\n`);
const f0 = (n: number) => (Number.isFinite(n) ? Math.round(n).toLocaleString('en-US') : '–');
const f1 = (n: number) => (Number.isFinite(n) ? n.toFixed(1) : '–');
const f2 = (n: number) => (Number.isFinite(n) ? n.toFixed(2) : '–');
const f3 = (n: number) => (Number.isFinite(n) ? n.toFixed(3) : '–');

interface ScenarioRow {
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

interface MicroRow {
  suite: string;
  name: string;
  opsPerSec: number;
  usPerOp: number;
}

function machine(pgVersion: string): Record<string, string> {
  const cpus = os.cpus();
  let commit = '';
  try {
    commit = execSync('git rev-parse --short HEAD', { cwd: ROOT, stdio: ['ignore', 'pipe', 'ignore'] })
      .toString()
      .trim();
    const dirty = execSync('git status --porcelain --untracked-files=no', {
      cwd: ROOT,
      stdio: ['ignore', 'pipe', 'ignore'],
    })
      .toString()
      .trim();
    if (dirty) commit += ' (working tree has uncommitted changes)';
  } catch {
    commit = 'unknown';
  }
  return {
    CPU: `${cpus[0]?.model ?? 'unknown'} × ${cpus.length} (${os.availableParallelism()} available to Node)`,
    Memory: `${(os.totalmem() / 2 ** 30).toFixed(1)} GiB`,
    OS: `${os.type()} ${os.release()} ${os.arch()}`,
    Node: process.version,
    PostgreSQL: pgVersion,
    Commit: commit,
  };
}

async function withServer<T>(server: ServerProcess, fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } finally {
    await server.stop();
  }
}

async function scenario(
  id: string,
  name: string,
  what: string,
  opts: Options,
  makeClient: (i: number) => VirtualClient,
  server: WindowedServer | null,
  commits: (() => Promise<number>) | null,
  backends: ReturnType<typeof postgresBackendCpu> | null = null,
): Promise<ScenarioRow> {
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

// ---------------------------------------------------------------- micro

function runMicro(opts: Options): { rows: MicroRow[]; failures: string[] } {
  const rows: MicroRow[] = [];
  const failures: string[] = [];
  const suites: Array<[string, () => Array<{ name: string; opsPerSec: number; usPerOp: number }>]> = [
    ['five-dice', () => runFiveDiceMicroBenchmarks()],
    ['farkle', () => runFarkleMicroBenchmarks({ durationMs: opts.microMs })],
    ['fairness', () => runFairnessMicroBenchmarks({ durationMs: opts.microMs })],
    ['game aggregate', () => runGameAggregateMicroBenchmarks({ durationMs: opts.microMs })],
    ['graphql validation', () => runGraphqlValidationMicroBenchmarks({ durationMs: opts.microMs })],
    ['advice', () => runAdviceMicroBenchmarks()],
  ];
  for (const [suite, run] of suites) {
    log(`micro: ${suite}`);
    try {
      for (const r of run()) rows.push({ suite, name: r.name, opsPerSec: r.opsPerSec, usPerOp: r.usPerOp });
    } catch (err) {
      const msg = `${suite}: ${err instanceof Error ? err.message : String(err)}`;
      failures.push(msg);
      log(`  micro suite failed: ${msg}`);
    }
  }
  return { rows, failures };
}

// ---------------------------------------------------------------- report

interface Target {
  name: string;
  value: number;
  target: string;
  met: boolean | null;
  show: string;
}

function targets(rows: Map<string, ScenarioRow>, micro: MicroRow[]): Target[] {
  const v = (id: string) => rows.get(id)?.result.perSec ?? NaN;
  const rest = rows.get('rest');
  const out: Target[] = [];
  const ratio = (name: string, a: number, b: number, min: number): Target => {
    const r = a / b;
    return { name, value: r, target: `≥ ${min}`, met: Number.isFinite(r) ? r >= min : null, show: f3(r) };
  };
  out.push(ratio('REST actions/s ÷ ceiling (b) insert/s (server pool)', v('rest'), v('b'), 0.5));
  out.push(ratio('REST reads/s ÷ ceiling (a) hello/s', v('reads'), v('a'), 0.3));
  out.push(ratio('GraphQL actions/s ÷ REST actions/s', v('graphql'), v('rest'), 0.6));
  const p99 = rest?.result.p99Ms ?? NaN;
  out.push({
    name: 'REST actions p99 at K clients (ms)',
    value: p99,
    target: '≤ 25',
    met: Number.isFinite(p99) ? p99 <= 25 : null,
    show: f2(p99),
  });
  const cpu = rest?.serverCpuMsPerRequest ?? NaN;
  out.push({
    name: 'Server CPU ms per REST action',
    value: cpu,
    target: '≤ 0.3',
    met: Number.isFinite(cpu) ? cpu <= 0.3 : null,
    show: f3(cpu),
  });
  const compact = rows.get('restCompact');
  const compactCpu = compact?.serverCpuMsPerRequest ?? NaN;
  out.push({
    name: '(info) Server CPU ms per REST action, compact answers (Prefer: return=minimal)',
    value: compactCpu,
    target: '–',
    met: null,
    show: f3(compactCpu),
  });
  out.push({
    name: '(info) REST actions/s, compact ÷ full answers',
    value: v('restCompact') / v('rest'),
    target: '–',
    met: null,
    show: f3(v('restCompact') / v('rest')),
  });
  const three = rows.get('instances3');
  out.push({
    name: '(info) REST actions/s, 3 instances ÷ 1 instance (aggregate; 2 cores: overhead, not scaling)',
    value: v('instances3') / v('rest'),
    target: '–',
    met: null,
    show: f3(v('instances3') / v('rest')),
  });
  out.push({
    name: '(info) Server CPU ms per REST action, 3 instances (summed)',
    value: three?.serverCpuMsPerRequest ?? NaN,
    target: '–',
    met: null,
    show: f3(three?.serverCpuMsPerRequest ?? NaN),
  });
  const pgCpu = rest?.postgresCpuMsPerRequest ?? NaN;
  out.push({ name: '(info) PostgreSQL CPU ms per REST action', value: pgCpu, target: '–', met: null, show: f3(pgCpu) });
  const peak = rest?.peakMiB ?? NaN;
  out.push({
    name: 'Server peak RSS under K clients (MiB, REST actions)',
    value: peak,
    target: '≤ 250',
    met: Number.isFinite(peak) ? peak <= 250 : null,
    show: f1(peak),
  });
  const replay = micro.find((m) => m.suite === 'game aggregate' && m.name.startsWith('replayGame, simple solo'));
  const us = replay?.usPerOp ?? NaN;
  out.push({
    name: 'replayGame µs per event (simple solo game)',
    value: us,
    target: '≤ 2',
    met: Number.isFinite(us) ? us <= 2 : null,
    show: f3(us),
  });
  // Five-dice optimal advice (bench/advice.bench.ts): a warm decision from a solved table.
  const decision = micro.find((m) => m.suite === 'advice' && m.name.startsWith('five-dice warm decision p99'));
  const decisionUs = decision?.usPerOp ?? NaN;
  out.push({
    name: 'five-dice optimal advice: warm decision p99 (µs)',
    value: decisionUs,
    target: '≤ 100',
    met: Number.isFinite(decisionUs) ? decisionUs <= 100 : null,
    show: f1(decisionUs),
  });
  // GraphQL validation time, as ratios to a trivial query (bench/graphql-validation.bench.ts).
  const gqlUs = (name: string) =>
    micro.find((m) => m.suite === 'graphql validation' && m.name === name)?.usPerOp ?? NaN;
  const nestedRatio = gqlUs(GQL_NESTED) / gqlUs(GQL_TRIVIAL);
  out.push({
    name: 'GraphQL validation: 13-level nested-fragment document ÷ trivial query (time)',
    value: nestedRatio,
    target: '≤ 50',
    met: Number.isFinite(nestedRatio) ? nestedRatio <= 50 : null,
    show: f1(nestedRatio),
  });
  const repeatedRatio = gqlUs(GQL_REPEATED) / gqlUs(GQL_TRIVIAL);
  out.push({
    name: '(info) GraphQL validation: 2,400 repeated fields ÷ trivial query (time)',
    value: repeatedRatio,
    target: '–',
    met: null,
    show: f1(repeatedRatio),
  });
  out.push(ratio('(info) REST actions/s ÷ ceiling (b′) insert/s (pool of K)', v('rest'), v('bK'), 0));
  out[out.length - 1].target = '–';
  out[out.length - 1].met = null;
  return out;
}

function scenarioTable(rows: ScenarioRow[]): string {
  const lines = [
    '| scenario | what one request does | req/s | p50 ms | p95 ms | p99 ms | max ms | errors | server peak RSS MiB | DB commits / req | server CPU % | server CPU ms / req | PostgreSQL CPU ms / req | client CPU % | machine busy % |',
    '|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
  ];
  for (const r of rows) {
    const x = r.result;
    lines.push(
      `| ${r.id === 'a' || r.id === 'b' || r.id === 'bK' ? `ceiling (${r.id === 'bK' ? 'b′' : r.id}) ` : ''}${r.name} | ${r.what} | ${f0(x.perSec)} | ${f2(x.p50Ms)} | ${f2(x.p95Ms)} | ${f2(x.p99Ms)} | ${f1(x.maxMs)} | ${x.errors} | ${r.peakMiB === null ? '–' : f1(r.peakMiB)} | ${r.txPerRequest === null ? '–' : f2(r.txPerRequest)} | ${f0(r.serverCpu)} | ${r.serverCpuMsPerRequest === null ? '–' : f3(r.serverCpuMsPerRequest)} | ${r.postgresCpuMsPerRequest === null ? '–' : f3(r.postgresCpuMsPerRequest)} | ${f0(r.clientCpu)} | ${f0(r.machineBusy)} |`,
    );
  }
  return lines.join('\n');
}

function targetTable(ts: Target[]): string {
  const lines = ['| ratio / figure | value | target | |', '|---|---:|---:|---|'];
  for (const t of ts)
    lines.push(`| ${t.name} | ${t.show} | ${t.target} | ${t.met === null ? '' : t.met ? 'met' : '**missed**'} |`);
  return lines.join('\n');
}

function microTable(rows: MicroRow[]): string {
  const lines = ['| suite | benchmark | ops/s | µs/op |', '|---|---|---:|---:|'];
  for (const r of rows) lines.push(`| ${r.suite} | ${r.name} | ${f0(r.opsPerSec)} | ${f3(r.usPerOp)} |`);
  return lines.join('\n');
}

function plainTable(rows: ScenarioRow[], ts: Target[]): string {
  const pad = (s: string, n: number) => (s.length >= n ? s : s + ' '.repeat(n - s.length));
  const lpad = (s: string, n: number) => (s.length >= n ? s : ' '.repeat(n - s.length) + s);
  const out = [
    `${pad('scenario', 40)}${lpad('req/s', 10)}${lpad('p50', 9)}${lpad('p95', 9)}${lpad('p99', 9)}${lpad('errors', 8)}${lpad('RSS MiB', 9)}${lpad('srv CPU%', 10)}`,
  ];
  for (const r of rows) {
    const x = r.result;
    const label = `${r.id === 'a' ? '(a) ' : r.id === 'b' ? '(b) ' : r.id === 'bK' ? "(b') " : ''}${r.name}`;
    out.push(
      `${pad(label, 40)}${lpad(f0(x.perSec), 10)}${lpad(f2(x.p50Ms), 9)}${lpad(f2(x.p95Ms), 9)}${lpad(f2(x.p99Ms), 9)}${lpad(String(x.errors), 8)}${lpad(r.peakMiB === null ? '-' : f1(r.peakMiB), 9)}${lpad(f0(r.serverCpu), 10)}`,
    );
  }
  out.push('');
  for (const t of ts)
    out.push(
      `${pad(t.name, 60)}${lpad(t.show, 10)}  target ${pad(t.target, 7)} ${t.met === null ? '' : t.met ? 'met' : 'MISSED'}`,
    );
  return out.join('\n');
}

// ---------------------------------------------------------------- main

async function main(): Promise<void> {
  const opts = parseArgs(process.argv.slice(2));
  const want = (id: string) => opts.only === null || opts.only.has(id);
  const began = performance.now();
  const adminUrl = process.env.DATABASE_URL || DEFAULT_DATABASE_URL;
  const serverScript = join(ROOT, 'dist', 'src', 'main.js');
  const helloScript = join(__dirname, 'hello-server.js');
  if (!existsSync(serverScript)) throw new Error(`${serverScript} is missing: run npm run build first`);
  mkdirSync(RESULTS_DIR, { recursive: true });

  const micro = opts.micro ? runMicro(opts) : { rows: [], failures: [] };

  log(`database: creating a fresh database on ${redactUrl(adminUrl)}`);
  const db = await createBenchDatabase(adminUrl, (l) => log(`  migrate: ${l}`));
  log(`database: ${db.name} (${db.serverVersion})`);
  const statsPool = insertPool(adminUrl, 1);
  const backends = postgresBackendCpu(statsPool, db.name);
  const commits = async () =>
    Number(
      (await statsPool.query('SELECT xact_commit FROM pg_stat_database WHERE datname = $1', [db.name])).rows[0]
        .xact_commit,
    );
  const loadBefore = os.loadavg();
  const rows: ScenarioRow[] = [];
  const stats: Record<string, PlayStats> = {};
  let profileSection = '';
  let serverStartupMs = 0;
  let jobQueue: JobQueueBenchResult | null = null;
  let tournamentRound: TournamentRoundResult[] | null = null;
  /** Batch sizes per REST scenario (from the server's /metrics). */
  const batchSizes: Record<string, BatchSizes | null> = {};
  try {
    // ---- ceiling (a): bare Fastify
    if (want('a')) {
      const port = await freePort();
      const hello = await ServerProcess.start({ name: 'hello-server', script: helloScript, port, readyPath: '/' });
      await withServer(hello, async () => {
        const http = new HttpClient('127.0.0.1', port, opts.clients);
        rows.push(
          await scenario(
            'a',
            'bare Fastify hello world',
            'GET / → {"hello":"world"}',
            opts,
            () => helloClient(http),
            hello,
            null,
          ),
        );
        http.close();
      });
    }

    // ---- ceiling (b): one-row INSERT with plain pg
    if (want('b')) await prepareInsertCeiling(db.url);
    for (const [id, size] of [
      ['b', opts.pool],
      ['bK', opts.clients],
    ] as const) {
      if (!want('b')) break;
      const pool = insertPool(db.url, size);
      try {
        rows.push(
          await scenario(
            id,
            `pg INSERT one event row, pool ${size}`,
            'INSERT one game_events-shaped row (scratch table, same PK), autocommit',
            opts,
            () => insertClient(pool),
            null,
            commits,
            backends,
          ),
        );
      } finally {
        await pool.end();
      }
    }

    // ---- the server (keys are required with DATABASE_URL: fresh ones per run, shared by both servers)
    const benchKeys = {
      LOG_SIGNING_KEY: randomBytes(32).toString('hex'),
      SEED_ENCRYPTION_KEYS: `bench:${randomBytes(32).toString('hex')}`,
    };
    const port = await freePort();
    const nodeArgs = opts.profile ? ['--cpu-prof', `--cpu-prof-dir=${PROFILE_DIR}`] : [];
    if (opts.profile) mkdirSync(PROFILE_DIR, { recursive: true });
    const before = new Set(existsSync(PROFILE_DIR) ? readdirSync(PROFILE_DIR) : []);
    log(`server: node ${nodeArgs.join(' ')} dist/src/main.js (pool ${opts.pool})`);
    const serverEnv = {
      ...benchKeys,
      DATABASE_POOL_MAX: String(opts.pool),
      LOG_LEVEL: 'warn',
      NODE_ENV: 'production',
      MIGRATE_ON_START: 'false',
      // The limiter stays ON (its counter UPSERT is part of every request's cost) but its limit
      // is lifted so that K busy clients are never answered 429.
      RATE_LIMIT_PER_MINUTE: '100000000',
      // K players register at once from one address (the registration budget is per address).
      RATE_LIMIT_REGISTRATIONS_PER_MINUTE: '100000',
      APPEND_BATCHING: opts.groupCommit === 'off' ? 'false' : 'true',
    };
    const server = await ServerProcess.start({
      name: 'fairdice',
      script: serverScript,
      nodeArgs,
      port,
      readyPath: '/health/ready',
      env: { ...serverEnv, DATABASE_URL: db.url },
    });
    serverStartupMs = server.startupMs;
    log(`server: ready in ${f0(server.startupMs)} ms (pid ${server.pid})`);
    await withServer(server, async () => {
      const http = new HttpClient('127.0.0.1', port, opts.clients);
      const players: Registered[] = [];
      for (let i = 0; i < opts.clients; i++)
        players.push(await retrySetup('register', () => registerPlayer(http, i), log));

      stats.rest = newPlayStats();
      const batches0 = await scrapeBatchSizes(port);
      if (want('rest'))
        rows.push(
          await scenario(
            'rest',
            'REST actions',
            'one game command: create / start / roll / score (solo five-dice "simple")',
            opts,
            (i) => new RestPlayer(http, players[i], stats.rest),
            server,
            commits,
            backends,
          ),
        );
      const batches1 = await scrapeBatchSizes(port);
      if (want('rest')) batchSizes.rest = batches0 && batches1 ? batchDelta(batches0, batches1) : null;
      stats.restCompact = newPlayStats();
      if (want('restCompact'))
        rows.push(
          await scenario(
            'restCompact',
            'REST actions, compact answers',
            'as REST actions, each command with Prefer: return=minimal (its events and the version, not the game)',
            opts,
            (i) => new RestPlayer(http, players[i], stats.restCompact, true),
            server,
            commits,
            backends,
          ),
        );
      stats.graphql = newPlayStats();
      if (want('graphql'))
        rows.push(
          await scenario(
            'graphql',
            'GraphQL actions',
            'the same commands as GraphQL mutations (createGame / startGame / roll / score)',
            opts,
            (i) => new GraphqlPlayer(http, players[i], stats.graphql),
            server,
            commits,
            backends,
          ),
        );
      const readers: Reader[] = [];
      for (let i = 0; i < opts.clients && want('reads'); i++)
        readers.push(await retrySetup('reads setup', () => Reader.prepare(http, players[i]), log));
      if (want('reads'))
        rows.push(
          await scenario(
            'reads',
            'REST reads',
            'GET /v1/games/:id (own game in progress, with token)',
            opts,
            (i) => readers[i],
            server,
            commits,
            backends,
          ),
        );
      http.close();
    });
    // ---- three instances on the same database, K clients spread across them (issue 17, item 6)
    if (want('instances') && !opts.profile) {
      const ports = [await freePort(), await freePort(), await freePort()];
      log(`instances: 3 servers on one database (pool ${opts.pool} each), ${opts.clients} clients spread round-robin`);
      const group = new ServerGroup(
        await Promise.all(
          ports.map((p, n) =>
            ServerProcess.start({
              name: `fairdice #${n + 1}`,
              script: serverScript,
              port: p,
              readyPath: '/health/ready',
              env: { ...serverEnv, DATABASE_URL: db.url },
            }),
          ),
        ),
      );
      try {
        const https = ports.map((p) => new HttpClient('127.0.0.1', p, opts.clients));
        const players: Registered[] = [];
        for (let i = 0; i < opts.clients; i++)
          players.push(await retrySetup('register', () => registerPlayer(https[i % 3], 2000 + i), log));
        stats.instances3 = newPlayStats();
        rows.push(
          await scenario(
            'instances3',
            'REST actions, 3 instances',
            'as REST actions; client i talks to instance i mod 3 (one PostgreSQL); CPU = the three servers summed',
            opts,
            (i) => new RestPlayer(https[i % 3], players[i], stats.instances3),
            group,
            commits,
            backends,
          ),
        );
        for (const h of https) h.close();
      } finally {
        await group.stop();
      }
    }

    if (opts.profile) {
      const fresh = readdirSync(PROFILE_DIR)
        .filter((f) => f.endsWith('.cpuprofile') && !before.has(f))
        .map((f) => join(PROFILE_DIR, f))
        .sort((x, y) => statSync(y).mtimeMs - statSync(x).mtimeMs);
      if (fresh.length === 0) {
        profileSection = 'No .cpuprofile was written (did the server exit cleanly?).';
      } else {
        const summary = summarizeProfileFile(fresh[0], { skipMs: serverStartupMs, top: 30 });
        profileSection = `Profile file: \`${fresh[0].slice(ROOT.length + 1)}\` (not committed). Start-up (${f0(serverStartupMs)} ms) skipped.\n\n${formatSummary(summary)}`;
        log(`profile: ${fresh[0]}`);
      }
    }

    if (opts.variants) {
      const vport = await freePort();
      const variant = await ServerProcess.start({
        name: 'fairdice (rate limiter off)',
        script: serverScript,
        port: vport,
        readyPath: '/health/ready',
        env: {
          DATABASE_URL: db.url,
          ...benchKeys,
          DATABASE_POOL_MAX: String(opts.pool),
          LOG_LEVEL: 'warn',
          NODE_ENV: 'production',
          MIGRATE_ON_START: 'false',
          RATE_LIMIT_ENABLED: 'false',
        },
      });
      await withServer(variant, async () => {
        const http = new HttpClient('127.0.0.1', vport, opts.clients);
        const players: Registered[] = [];
        for (let i = 0; i < opts.clients; i++)
          players.push(await retrySetup('register', () => registerPlayer(http, 1000 + i), log));
        stats.restNoLimit = newPlayStats();
        rows.push(
          await scenario(
            'restNoLimit',
            'REST actions, rate limiter off (variant)',
            'as REST actions; server with RATE_LIMIT_ENABLED=false',
            opts,
            (i) => new RestPlayer(http, players[i], stats.restNoLimit),
            variant,
            commits,
            backends,
          ),
        );
        http.close();
      });
    }
    if (opts.groupCommit === 'both') {
      const gport = await freePort();
      const unbatched = await ServerProcess.start({
        name: 'fairdice (group commit off)',
        script: serverScript,
        port: gport,
        readyPath: '/health/ready',
        env: { ...serverEnv, DATABASE_URL: db.url, APPEND_BATCHING: 'false' },
      });
      await withServer(unbatched, async () => {
        const http = new HttpClient('127.0.0.1', gport, opts.clients);
        const players: Registered[] = [];
        for (let i = 0; i < opts.clients; i++)
          players.push(await retrySetup('register', () => registerPlayer(http, 2000 + i), log));
        stats.restUnbatched = newPlayStats();
        const b0 = await scrapeBatchSizes(gport);
        rows.push(
          await scenario(
            'restUnbatched',
            'REST actions, group commit off',
            'as REST actions; server with APPEND_BATCHING=false',
            opts,
            (i) => new RestPlayer(http, players[i], stats.restUnbatched),
            unbatched,
            commits,
            backends,
          ),
        );
        const b1 = await scrapeBatchSizes(gport);
        batchSizes.restUnbatched = b0 && b1 ? batchDelta(b0, b1) : null;
        http.close();
      });
    }
    // ---- the job queue on its own (bench/job-queue.bench.ts), after the servers have stopped
    if (want('jobs')) {
      log('job queue: draining 5,000 no-op jobs, then a delivery behind 5,000 fan-out jobs');
      jobQueue = await runJobQueueBench(db.url, { jobs: 5000, pool: opts.pool }).catch((err: unknown) => {
        log(`job queue: failed (${err instanceof Error ? err.message : String(err)}); reported as –`);
        return null;
      });
    }
    // ---- one tournament round of 64 entrants (bench/tournament-round.bench.ts), in process
    if (want('tournament')) {
      log('tournament round: 64 entrants, duplicate and tables of 4, start → all games created (median of 3)');
      tournamentRound = await runTournamentRoundBench({ entrants: 64, runs: 3, databaseUrl: db.url }).catch(
        (err: unknown) => {
          log(`tournament round: failed (${err instanceof Error ? err.message : String(err)}); reported as –`);
          return null;
        },
      );
    }
  } finally {
    await statsPool.end().catch(() => undefined);
    log(`database: dropping ${db.name}`);
    await db
      .drop()
      .catch((err) => log(`  could not drop ${db.name}: ${err instanceof Error ? err.message : String(err)}`));
  }

  // ---- report
  const byId = new Map(rows.map((r) => [r.id, r]));
  const ts = targets(byId, micro.rows);
  if (jobQueue) {
    ts.push({
      name: 'Job queue: jobs drained per second (no-op handlers, one instance)',
      value: jobQueue.jobsPerSecond,
      target: '≥ 1,000',
      met: jobQueue.jobsPerSecond >= 1000,
      show: f0(jobQueue.jobsPerSecond),
    });
    ts.push({
      name: `(info) Job queue: ms a webhook delivery waited behind ${jobQueue.jobs} fan-out jobs`,
      value: jobQueue.deliveryWaitMs,
      target: '–',
      met: null,
      show: f0(jobQueue.deliveryWaitMs),
    });
  }
  for (const t of tournamentRound ?? []) {
    ts.push({
      name: `(info) Tournament round, ${t.entrants} entrants, ${t.format} (${t.games} games): ms from start to all games created`,
      value: t.medianMs,
      target: '–',
      met: null,
      show: f0(t.medianMs),
    });
  }
  if (byId.has('restUnbatched')) {
    const r = (a: string, b: string) => (byId.get(a)?.result.perSec ?? NaN) / (byId.get(b)?.result.perSec ?? NaN);
    ts.push({
      name: '(info) REST actions/s with group commit OFF ÷ ceiling (b)',
      value: r('restUnbatched', 'b'),
      target: '–',
      met: null,
      show: f3(r('restUnbatched', 'b')),
    });
    ts.push({
      name: '(info) REST actions/s, group commit on ÷ off',
      value: r('rest', 'restUnbatched'),
      target: '–',
      met: null,
      show: f3(r('rest', 'restUnbatched')),
    });
  }
  const batchLines = Object.entries(batchSizes).map(
    ([id, d]) =>
      `- ${byId.get(id)?.name ?? id}${id === 'rest' ? ` (group commit ${opts.groupCommit === 'off' ? 'off' : 'on'})` : ''}: ${d ? describeBatchSizes(d) : '/metrics not readable'}`,
  );
  for (const line of batchLines) log(`batches: ${line.slice(2)}`);
  const date = new Date().toISOString().slice(0, 10);
  const elapsedS = (performance.now() - began) / 1000;
  const command = `npm run bench${process.argv.length > 2 ? ` -- ${process.argv.slice(2).join(' ')}` : ''}`;
  const m = machine(db.serverVersion);
  const loadAfter = os.loadavg();
  m['Load average (1/5/15 min)'] =
    `${loadBefore.map((x) => x.toFixed(2)).join(' / ')} before the load, ${loadAfter.map((x) => x.toFixed(2)).join(' / ')} after (other processes on the machine disturb the figures when this exceeds the CPU count)`;
  const mix = (s: PlayStats | undefined) =>
    s
      ? `${s.byKind.create} create, ${s.byKind.start} start, ${s.byKind.roll} roll, ${s.byKind.score} score; ${s.gamesFinished} games finished (counts include the warm-up)`
      : '';

  console.log('');
  console.log(plainTable(rows, ts));
  console.log('');

  const scenarioMd = scenarioTable(rows);
  const targetMd = targetTable(ts);
  const report = [
    `# fairdice benchmark, ${date}${opts.profile ? ' (PROFILED run: the server ran with --cpu-prof, figures are lower than a clean run)' : ''}`,
    '',
    `Generated by \`bench/run.ts\` in ${f0(elapsedS)} s.`,
    '',
    '## Machine',
    '',
    ...Object.entries(m).map(([k, v]) => `- **${k}**: ${v}`),
    "- Client (load generator, in the bench process), server (child process) and PostgreSQL all share these CPUs: every figure includes the load generator's own CPU use.",
    '',
    '## Commands',
    '',
    '```sh',
    `${process.env.DATABASE_URL ? `DATABASE_URL=${redactUrl(process.env.DATABASE_URL)} ` : ''}${command}`,
    '```',
    '',
    `- K = ${opts.clients} closed-loop clients per scenario (node:http, keep-alive agent, maxSockets = K); ${opts.warmup} s warm-up, then ${opts.seconds} s measured. Latency: exact percentiles of every request completed in the window.`,
    `- Server: \`node ${opts.profile ? '--cpu-prof --cpu-prof-dir=bench/results/profiles ' : ''}dist/src/main.js\` with LOG_LEVEL=warn, NODE_ENV=production, DATABASE_POOL_MAX=${opts.pool}, fresh database \`fairdice_bench_<ts>\` (migrated by src/database/migrate.ts, dropped afterwards). Start-up took ${f0(serverStartupMs)} ms.`,
    `- Ceiling (b) uses a pg pool of ${opts.pool} connections, the server's own pool size, so it is the most the server's pool could push; (b′) uses a pool of K = ${opts.clients} for reference.`,
    '- DB commits / req: committed transactions in the bench database during the window (pg_stat_database.xact_commit, which PostgreSQL updates with up to ~1 s delay) ÷ requests: the database round trips that each commit a transaction.',
    "- CPU: server % = the server child's utime+stime over the window (100 = one core); client % = the bench process (load generator, and the pg pool for (b)); machine busy % = all cores from /proc/stat, including PostgreSQL and anything else running.",
    '- Peak RSS: the server child\'s VmHWM from /proc/<pid>/status, reset at the start of each measured window (clear_refs); "–" for (b), which runs in the bench process.',
    '',
    '## Load (same run)',
    '',
    scenarioMd,
    '',
    `Request mix, REST: ${mix(stats.rest)}.  `,
    `Request mix, REST compact: ${mix(stats.restCompact)}.  `,
    ...(stats.instances3 ? [`Request mix, REST on 3 instances: ${mix(stats.instances3)}.  `] : []),
    `Request mix, GraphQL: ${mix(stats.graphql)}.`,
    '',
    '## Group commit: commands per event-store write statement',
    '',
    "From the server's `fairdice_event_append_batch_size` histogram, scraped before and after each REST scenario (warm-up included; a creation is a statement of one command).",
    '',
    ...batchLines,
    '',
    '## Ratios and targets',
    '',
    targetMd,
    '',
    '## Micro-benchmarks (bench process, before the load)',
    '',
    micro.rows.length ? microTable(micro.rows) : '_skipped_',
    ...(micro.failures.length ? ['', 'Suites that failed:', '', ...micro.failures.map((f) => `- ${f}`)] : []),
    '',
    ...(rows.some((r) => r.result.errorSamples.length)
      ? [
          '## Errors seen',
          '',
          ...rows.flatMap((r) =>
            r.result.errorSamples.map((e) => `- ${r.name}: \`${e.replace(/`/g, "'").slice(0, 300)}\``),
          ),
          '',
        ]
      : []),
    ...(opts.profile ? ['## Server CPU profile', '', profileSection, ''] : []),
  ].join('\n');
  const suffix = opts.label
    ? `-${opts.label}`
    : opts.profile
      ? '-profile'
      : opts.variants
        ? '-variants'
        : opts.groupCommit !== 'on'
          ? `-group-commit-${opts.groupCommit}`
          : opts.only
            ? '-partial'
            : '';
  const reportName = `${date}${suffix}.md`;
  const file = join(RESULTS_DIR, reportName);
  writeFileSync(file, report);
  log(`report: ${file.slice(ROOT.length + 1)}`);

  if (opts.readme && !opts.profile && !opts.variants && opts.groupCommit !== 'off') {
    const readme = join(ROOT, 'README.md');
    if (existsSync(readme)) {
      const text = readFileSync(readme, 'utf8');
      const start = '<!-- bench:table:start -->';
      const end = '<!-- bench:table:end -->';
      const a = text.indexOf(start);
      const b = text.indexOf(end);
      if (a >= 0 && b > a) {
        const block = `${start}\n_Latest run: ${date}, ${m.CPU}, Node ${m.Node}, PostgreSQL ${db.serverVersion.split(' ')[0]}, K = ${opts.clients}, ${opts.seconds} s per scenario ([full report](bench/results/${reportName}))._\n\n${scenarioMd}\n\n${targetMd}\n${end}`;
        writeFileSync(readme, text.slice(0, a) + block + text.slice(b + end.length));
        log('README.md: Benchmarks table refreshed');
      }
    }
  }
  log(`done in ${f0(elapsedS)} s`);
  const errors = rows.reduce((n, r) => n + r.result.errors, 0);
  if (errors > 0) log(`note: ${errors} request errors in total (see the report)`);
}

main().catch((err) => {
  process.stderr.write(`bench failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  process.exit(1);
});
