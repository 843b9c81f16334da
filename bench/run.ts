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
 *
 * This file runs the steps; the parts are bench/options.ts (the CLI), micro.ts (1), scenario.ts
 * (one measured window), scenarios.ts (3-5b) and report.ts (6).
 */
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { redactUrl } from '../src/database/redact-url';
import { describeBatchSizes } from './batches';
import { createBenchDatabase, DEFAULT_DATABASE_URL, insertPool, postgresBackendCpu } from './db';
import { f0, log } from './format';
import { runMicro } from './micro';
import { parseArgs, RESULTS_DIR, ROOT } from './options';
import {
  extraTargets,
  machine,
  plainTable,
  refreshReadme,
  renderReport,
  reportFileName,
  scenarioTable,
  targets,
  targetTable,
} from './report';
import { type BenchRun, runScenarios, type ScenarioResults } from './scenarios';

async function main(): Promise<void> {
  const opts = parseArgs(process.argv.slice(2));
  const began = performance.now();
  const adminUrl = process.env.DATABASE_URL || DEFAULT_DATABASE_URL;
  // BENCH_SERVER_SCRIPT: another build's server (e.g. the main checkout's, for a before/after in one setup).
  const serverScript = process.env.BENCH_SERVER_SCRIPT ?? join(ROOT, 'dist', 'src', 'main.js');
  const helloScript = join(__dirname, 'hello-server.js');
  if (!existsSync(serverScript)) throw new Error(`${serverScript} is missing: run npm run build first`);
  mkdirSync(RESULTS_DIR, { recursive: true });

  const micro = opts.micro ? runMicro(opts) : { rows: [], failures: [] };

  log(`database: creating a fresh database on ${redactUrl(adminUrl)}`);
  const db = await createBenchDatabase(adminUrl, (l) => log(`  migrate: ${l}`));
  log(`database: ${db.name} (${db.serverVersion})`);
  const statsPool = insertPool(adminUrl, 1);
  const run: BenchRun = {
    opts,
    want: (id: string) => opts.only === null || opts.only.has(id),
    db,
    commits: async () =>
      Number(
        (await statsPool.query('SELECT xact_commit FROM pg_stat_database WHERE datname = $1', [db.name])).rows[0]
          .xact_commit,
      ),
    backends: postgresBackendCpu(statsPool, db.name),
    serverScript,
    helloScript,
    rows: [],
    stats: {},
    batchSizes: {},
  };
  const loadBefore = os.loadavg();
  let found: ScenarioResults;
  try {
    found = await runScenarios(run);
  } finally {
    await statsPool.end().catch(() => undefined);
    log(`database: dropping ${db.name}`);
    await db
      .drop()
      .catch((err) => log(`  could not drop ${db.name}: ${err instanceof Error ? err.message : String(err)}`));
  }

  // ---- report
  const { rows } = run;
  const byId = new Map(rows.map((r) => [r.id, r]));
  const ts = [...targets(byId, micro.rows), ...extraTargets(byId, found.jobQueue, found.tournamentRound)];
  const batchLines = Object.entries(run.batchSizes).map(
    ([id, d]) =>
      `- ${byId.get(id)?.name ?? id}${id === 'rest' ? ` (group commit ${opts.groupCommit === 'off' ? 'off' : 'on'})` : ''}: ${d ? describeBatchSizes(d) : '/metrics not readable'}`,
  );
  for (const line of batchLines) log(`batches: ${line.slice(2)}`);
  const date = new Date().toISOString().slice(0, 10);
  const elapsedS = (performance.now() - began) / 1000;
  const command = `npm run bench${process.argv.length > 2 ? ` -- ${process.argv.slice(2).join(' ')}` : ''}`;
  const m = machine(db.serverVersion);
  m['PostgreSQL autovacuum'] = db.autovacuum
    ? 'on'
    : 'off on this server: the bench runs VACUUM (ANALYZE) on its database before each scenario that uses it (bench/db.ts), the work autovacuum would do';
  const loadAfter = os.loadavg();
  m['Load average (1/5/15 min)'] =
    `${loadBefore.map((x) => x.toFixed(2)).join(' / ')} before the load, ${loadAfter.map((x) => x.toFixed(2)).join(' / ')} after (other processes on the machine disturb the figures when this exceeds the CPU count)`;

  console.log('');
  console.log(plainTable(rows, ts));
  console.log('');

  const scenarioMd = scenarioTable(rows);
  const targetMd = targetTable(ts);
  const report = renderReport({
    opts,
    date,
    elapsedS,
    command,
    machine: m,
    serverStartupMs: found.serverStartupMs,
    rows,
    stats: run.stats,
    batchLines,
    scenarioMd,
    targetMd,
    micro,
    profileSection: found.profileSection,
  });
  const reportName = reportFileName(opts, date);
  const file = join(RESULTS_DIR, reportName);
  writeFileSync(file, report);
  log(`report: ${file.slice(ROOT.length + 1)}`);

  if (opts.readme && !opts.profile && !opts.variants && opts.groupCommit !== 'off') {
    const table = `_Latest run: ${date}, ${m.CPU}, Node ${m.Node}, PostgreSQL ${db.serverVersion.split(' ')[0]}, K = ${opts.clients}, ${opts.seconds} s per scenario ([full report](bench/results/${reportName}))._\n\n${scenarioMd}\n\n${targetMd}`;
    if (refreshReadme(join(ROOT, 'README.md'), table)) log('README.md: Benchmarks table refreshed');
  }
  log(`done in ${f0(elapsedS)} s`);
  const errors = rows.reduce((n, r) => n + r.result.errors, 0);
  if (errors > 0) log(`note: ${errors} request errors in total (see the report)`);
}

main().catch((err) => {
  process.stderr.write(`bench failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  process.exit(1);
});
