/**
 * The bench report: the ratios and targets read off the rows, the tables (markdown and plain
 * text), the machine description, the markdown report in bench/results/ and the README's
 * Benchmarks table.
 */
import { execSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { redactUrl } from '../src/database/redact-url';
import { f0, f1, f2, f3 } from './format';
import { NESTED as GQL_NESTED, REPEATED as GQL_REPEATED, TRIVIAL as GQL_TRIVIAL } from './graphql-validation.bench';
import type { JobQueueBenchResult } from './job-queue.bench';
import type { MicroRow } from './micro';
import { type Options, ROOT } from './options';
import type { PlayStats } from './players';
import type { ScenarioRow } from './scenario';
import type { TournamentRoundResult } from './tournament-round.bench';

export function machine(pgVersion: string): Record<string, string> {
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

export interface Target {
  name: string;
  value: number;
  target: string;
  met: boolean | null;
  show: string;
}

export function targets(rows: Map<string, ScenarioRow>, micro: MicroRow[]): Target[] {
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
  // Issue 29: p99 ≤ 25 ms at 16 clients, for REST and WebSocket moves.
  for (const [id, what] of [
    ['rest16', 'REST actions'],
    ['ws16', 'WebSocket moves'],
  ] as const) {
    const row = rows.get(id);
    const p = row?.result.p99Ms ?? NaN;
    out.push({
      name: `${what} p99 at 16 clients (ms)`,
      value: p,
      target: '≤ 25',
      met: Number.isFinite(p) ? p <= 25 : null,
      show: f2(p),
    });
  }
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
  // Issue 29: a WebSocket move's server CPU, absolute and against a hello-world request of the same run.
  const wsCpu = rows.get('ws')?.serverCpuMsPerRequest ?? NaN;
  const helloCpu = rows.get('a')?.serverCpuMsPerRequest ?? NaN;
  out.push({
    name: 'Server CPU ms per WebSocket move (/v1/ws)',
    value: wsCpu,
    target: '≤ 0.15',
    met: Number.isFinite(wsCpu) ? wsCpu <= 0.15 : null,
    show: f3(wsCpu),
  });
  out.push({
    name: 'Server CPU per WebSocket move ÷ per hello-world request (ceiling (a))',
    value: wsCpu / helloCpu,
    target: '≤ 8',
    met: Number.isFinite(wsCpu / helloCpu) ? wsCpu / helloCpu <= 8 : null,
    show: f2(wsCpu / helloCpu),
  });
  const wsP99 = rows.get('ws')?.result.p99Ms ?? NaN;
  out.push({
    name: '(info) WebSocket moves p99 at K clients (ms)',
    value: wsP99,
    target: '–',
    met: null,
    show: f2(wsP99),
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
  // Warm-up without theft (decision 0141): server CPU per move in the first 20 s after a fresh start ÷ the next 20 s.
  const first = rows.get('first20')?.serverCpuMsPerRequest ?? NaN;
  const later = rows.get('later20')?.serverCpuMsPerRequest ?? NaN;
  const warm = first / later;
  out.push({
    name: 'Server CPU per REST action, first 20 s after a fresh start (empty advice cache) ÷ the next 20 s',
    value: warm,
    target: '≤ 1.2',
    met: Number.isFinite(warm) ? warm <= 1.2 : null,
    show: f3(warm),
  });
  // The largest peak of the one-server scenarios, each summed over the server's process tree
  // (worker threads are inside it), with the advice tables loaded (bench/advice-ready.ts).
  const peaks = ['rest', 'restCompact', 'ws', 'graphql', 'reads']
    .map((id) => rows.get(id)?.peakMiB)
    .filter((v): v is number => typeof v === 'number' && Number.isFinite(v));
  const peak = peaks.length > 0 ? Math.max(...peaks) : NaN;
  out.push({
    name: 'Server peak RSS under K clients (MiB, summed over the process tree, advice tables loaded; largest of the one-server scenarios)',
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
  // Rating update of a finished rated game (bench/ratings.bench.ts): the core Glicko-2 computation, 2 seats.
  const rating = micro.find((m) => m.suite === 'ratings' && m.name.includes('2-seat'));
  out.push({
    name: '(info) Rating update µs per finished 2-seat rated game (core computation)',
    value: rating?.usPerOp ?? NaN,
    target: '–',
    met: null,
    show: f3(rating?.usPerOp ?? NaN),
  });
  // The matchmaker's pairing pass over 10,000 waiting seeks (bench/matchmaker.bench.ts), ms per pass.
  for (const shape of ['mixed kinds', 'none can pair']) {
    const pass = micro.find((m) => m.suite === 'matchmaker' && m.name.includes(shape));
    const ms = (pass?.usPerOp ?? NaN) / 1000;
    out.push({
      name: `(info) Matchmaker pass over 10,000 waiting seeks, ${shape} (ms per pass)`,
      value: ms,
      target: '–',
      met: null,
      show: f1(ms),
    });
  }
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

export function scenarioTable(rows: ScenarioRow[]): string {
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

export function targetTable(ts: Target[]): string {
  const lines = ['| ratio / figure | value | target | |', '|---|---:|---:|---|'];
  for (const t of ts)
    lines.push(`| ${t.name} | ${t.show} | ${t.target} | ${t.met === null ? '' : t.met ? 'met' : '**missed**'} |`);
  return lines.join('\n');
}

export function microTable(rows: MicroRow[]): string {
  const lines = ['| suite | benchmark | ops/s | µs/op |', '|---|---|---:|---:|'];
  for (const r of rows) lines.push(`| ${r.suite} | ${r.name} | ${f0(r.opsPerSec)} | ${f3(r.usPerOp)} |`);
  return lines.join('\n');
}

export function plainTable(rows: ScenarioRow[], ts: Target[]): string {
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

/** The targets of the in-process benches and of the group-commit-off server, when they ran. */
export function extraTargets(
  byId: Map<string, ScenarioRow>,
  jobQueue: JobQueueBenchResult | null,
  tournamentRound: TournamentRoundResult[] | null,
): Target[] {
  const ts: Target[] = [];
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
  return ts;
}

/** What the markdown report is made of. */
export interface ReportInput {
  opts: Options;
  date: string;
  elapsedS: number;
  command: string;
  machine: Record<string, string>;
  serverStartupMs: number;
  rows: ScenarioRow[];
  stats: Record<string, PlayStats>;
  batchLines: string[];
  scenarioMd: string;
  targetMd: string;
  micro: { rows: MicroRow[]; failures: string[] };
  profileSection: string;
}

/** The markdown report written to bench/results/. */
export function renderReport(x: ReportInput): string {
  const { opts, stats, rows, micro } = x;
  const mix = (s: PlayStats | undefined) =>
    s
      ? `${s.byKind.create} create, ${s.byKind.start} start, ${s.byKind.roll} roll, ${s.byKind.score} score; ${s.gamesFinished} games finished (counts include the warm-up)`
      : '';
  return [
    `# fairdice benchmark, ${x.date}${opts.profile ? ' (PROFILED run: the server ran with --cpu-prof, figures are lower than a clean run)' : ''}`,
    '',
    `Generated by \`bench/run.ts\` in ${f0(x.elapsedS)} s.`,
    '',
    '## Machine',
    '',
    ...Object.entries(x.machine).map(([k, v]) => `- **${k}**: ${v}`),
    "- Client (load generator, in the bench process), server (child process) and PostgreSQL all share these CPUs: every figure includes the load generator's own CPU use.",
    '',
    '## Commands',
    '',
    '```sh',
    `${process.env.DATABASE_URL ? `DATABASE_URL=${redactUrl(process.env.DATABASE_URL)} ` : ''}${x.command}`,
    '```',
    '',
    `- K = ${opts.clients} closed-loop clients per scenario (node:http, keep-alive agent, maxSockets = K); ${opts.warmup} s warm-up, then ${opts.seconds} s measured. Latency: exact percentiles of every request completed in the window.`,
    `- Server: \`node ${opts.profile ? '--cpu-prof --cpu-prof-dir=bench/results/profiles ' : ''}dist/src/main.js\` with LOG_LEVEL=warn, NODE_ENV=production, DATABASE_POOL_MAX=${opts.pool}, fresh database \`fairdice_bench_<ts>\` (migrated by src/database/migrate.ts, dropped afterwards). Start-up took ${f0(x.serverStartupMs)} ms.`,
    `- Ceiling (b) uses a pg pool of ${opts.pool} connections, the server's own pool size, so it is the most the server's pool could push; (b′) uses a pool of K = ${opts.clients} for reference.`,
    '- DB commits / req: committed transactions in the bench database during the window (pg_stat_database.xact_commit, which PostgreSQL updates with up to ~1 s delay) ÷ requests: the database round trips that each commit a transaction.',
    "- CPU: server % = the server child's utime+stime over the window (100 = one core); client % = the bench process (load generator, and the pg pool for (b)); machine busy % = all cores from /proc/stat, including PostgreSQL and anything else running.",
    '- Peak RSS: the VmHWM from /proc/<pid>/status of the server child and of every process it started (summed; worker threads are inside their process), reset at the start of each measured window (clear_refs); "–" for (b), which runs in the bench process. The advice tables (three five-dice presets and Farkle) are in memory before the first window (bench/advice-ready.ts), as the default start has them.',
    '',
    '## Load (same run)',
    '',
    x.scenarioMd,
    '',
    `Request mix, REST: ${mix(stats.rest)}.  `,
    `Request mix, REST compact: ${mix(stats.restCompact)}.  `,
    ...(stats.ws ? [`Request mix, WebSocket moves: ${mix(stats.ws)}.  `] : []),
    ...(stats.rest16 ? [`Request mix, REST at 16 clients: ${mix(stats.rest16)}.  `] : []),
    ...(stats.ws16 ? [`Request mix, WebSocket moves at 16 clients: ${mix(stats.ws16)}.  `] : []),
    ...(stats.instances3 ? [`Request mix, REST on 3 instances: ${mix(stats.instances3)}.  `] : []),
    `Request mix, GraphQL: ${mix(stats.graphql)}.`,
    '',
    '## Group commit: commands per event-store write statement',
    '',
    "From the server's `fairdice_event_append_batch_size` histogram, scraped before and after each REST scenario (warm-up included; a creation is a statement of one command).",
    '',
    ...x.batchLines,
    '',
    '## Ratios and targets',
    '',
    x.targetMd,
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
    ...(opts.profile ? ['## Server CPU profile', '', x.profileSection, ''] : []),
  ].join('\n');
}

/** The report's file name: <date>[-label | -profile | -variants | -group-commit-<x> | -partial].md */
export function reportFileName(opts: Options, date: string): string {
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
  return `${date}${suffix}.md`;
}

/** Replaces the README's Benchmarks table (between the bench:table markers); false when there are none. */
export function refreshReadme(readme: string, tableBody: string): boolean {
  if (!existsSync(readme)) return false;
  const text = readFileSync(readme, 'utf8');
  const start = '<!-- bench:table:start -->';
  const end = '<!-- bench:table:end -->';
  const a = text.indexOf(start);
  const b = text.indexOf(end);
  if (a < 0 || b <= a) return false;
  writeFileSync(readme, text.slice(0, a) + `${start}\n${tableBody}\n${end}` + text.slice(b + end.length));
  return true;
}
