/**
 * The load scenarios of `npm run bench`, in the order they run: ceilings (a) bare Fastify and
 * (b) one-row INSERT; the server (REST actions, compact answers, GraphQL actions, REST reads);
 * three instances on one database; the --variants and --group-commit both servers; then, in
 * process, the job queue and one tournament round. Each appends its rows to the run.
 */
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { batchDelta, type BatchSizes, scrapeBatchSizes } from './batches';
import { type BenchDatabase, insertClient, insertPool, type postgresBackendCpu, prepareInsertCeiling } from './db';
import { f0, log } from './format';
import { type JobQueueBenchResult, runJobQueueBench } from './job-queue.bench';
import { HttpClient } from './load';
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
import { type Options, PROFILE_DIR, ROOT } from './options';
import { formatSummary, summarizeProfileFile } from './profile-summary';
import { scenario, type ScenarioRow, withServer } from './scenario';
import { freePort, ServerGroup, ServerProcess, vapidEnv } from './server-process';
import { WsPlayer } from './ws-player';
import { waitForAdviceTables } from './advice-ready';
import { runTournamentRoundBench, type TournamentRoundResult } from './tournament-round.bench';

/** One bench run: its options, database and what the scenarios have measured so far. */
export interface BenchRun {
  opts: Options;
  /** Whether scenario `id` runs (--only). */
  want: (id: string) => boolean;
  db: BenchDatabase;
  /** Committed transactions in the bench database so far (pg_stat_database). */
  commits: () => Promise<number>;
  backends: ReturnType<typeof postgresBackendCpu>;
  serverScript: string;
  helloScript: string;
  rows: ScenarioRow[];
  stats: Record<string, PlayStats>;
  /** Batch sizes per REST scenario (from the server's /metrics). */
  batchSizes: Record<string, BatchSizes | null>;
}

/** What the scenarios found besides their rows. */
export interface ScenarioResults {
  profileSection: string;
  serverStartupMs: number;
  jobQueue: JobQueueBenchResult | null;
  tournamentRound: TournamentRoundResult[] | null;
}

type ServerEnv = Record<string, string>;

/** Clients of the p99 scenarios (issue 29: p99 ≤ 25 ms at 16 clients for REST and WebSocket moves). */
const P99_CLIENTS = 16;

/** Runs every scenario the options select, in order. */
export async function runScenarios(run: BenchRun): Promise<ScenarioResults> {
  const { opts, want } = run;
  await runCeilings(run);

  // ---- the server (keys are required with DATABASE_URL: fresh ones per run, shared by both servers)
  const benchKeys = {
    LOG_SIGNING_KEY: randomBytes(32).toString('hex'),
    SEED_ENCRYPTION_KEYS: `bench:${randomBytes(32).toString('hex')}`,
    ...vapidEnv(),
  };
  // BENCH_SERVER_NODE_ARGS: flags for the server's node only (e.g. a V8 flag to measure), not the load generator's.
  const nodeArgs = [
    ...(process.env.BENCH_SERVER_NODE_ARGS?.split(/\s+/).filter(Boolean) ?? []),
    ...(opts.profile ? ['--cpu-prof', `--cpu-prof-dir=${PROFILE_DIR}`] : []),
  ];
  if (opts.profile) mkdirSync(PROFILE_DIR, { recursive: true });
  const before = new Set(existsSync(PROFILE_DIR) ? readdirSync(PROFILE_DIR) : []);
  log(`server: node ${nodeArgs.join(' ')} dist/src/main.js (pool ${opts.pool})`);
  const serverEnv: ServerEnv = {
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
    // K WebSocket clients from one address (the ws scenario): the per-address cap is 50 by default.
    WS_MAX_CONNECTIONS_PER_ADDRESS: '100000',
    APPEND_BATCHING: opts.groupCommit === 'off' ? 'false' : 'true',
  };
  const serverStartupMs = await runServer(run, serverEnv, nodeArgs);
  if (want('instances') && !opts.profile) await runInstances(run, serverEnv);
  if (want('firstWindow') && !opts.profile) await runFirstWindows(run, serverEnv);
  const profileSection = opts.profile ? profileOf(before, serverStartupMs) : '';
  if (opts.variants) await runRateLimiterOff(run, benchKeys);
  if (opts.groupCommit === 'both') await runGroupCommitOff(run, serverEnv);

  // ---- the job queue on its own (bench/job-queue.bench.ts), after the servers have stopped
  let jobQueue: JobQueueBenchResult | null = null;
  if (want('jobs')) {
    log('job queue: draining 5,000 no-op jobs, then a delivery behind 5,000 fan-out jobs');
    jobQueue = await runJobQueueBench(run.db.url, { jobs: 5000, pool: opts.pool }).catch((err: unknown) => {
      log(`job queue: failed (${err instanceof Error ? err.message : String(err)}); reported as –`);
      return null;
    });
  }
  // ---- one tournament round of 64 entrants (bench/tournament-round.bench.ts), in process
  let tournamentRound: TournamentRoundResult[] | null = null;
  if (want('tournament')) {
    log('tournament round: 64 entrants, duplicate and tables of 4, start → all games created (median of 3)');
    tournamentRound = await runTournamentRoundBench({ entrants: 64, runs: 3, databaseUrl: run.db.url }).catch(
      (err: unknown) => {
        log(`tournament round: failed (${err instanceof Error ? err.message : String(err)}); reported as –`);
        return null;
      },
    );
  }
  return { profileSection, serverStartupMs, jobQueue, tournamentRound };
}

/** Ceilings (a) bare Fastify hello world and (b) one-row INSERT with plain pg (server pool, and pool of K). */
async function runCeilings(run: BenchRun): Promise<void> {
  const { opts, want, rows } = run;
  // ---- ceiling (a): bare Fastify
  if (want('a')) {
    const port = await freePort();
    const hello = await ServerProcess.start({ name: 'hello-server', script: run.helloScript, port, readyPath: '/' });
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
  if (want('b')) await prepareInsertCeiling(run.db.url);
  for (const [id, size] of [
    ['b', opts.pool],
    ['bK', opts.clients],
  ] as const) {
    if (!want('b')) break;
    const pool = insertPool(run.db.url, size);
    try {
      rows.push(
        await scenario(
          id,
          `pg INSERT one event row, pool ${size}`,
          'INSERT one game_events-shaped row (scratch table, same PK), autocommit',
          opts,
          () => insertClient(pool),
          null,
          run.commits,
          run.backends,
          run.db.settle,
        ),
      );
    } finally {
      await pool.end();
    }
  }
}

/** The server: REST actions, compact answers, GraphQL actions and REST reads. Returns its start-up ms. */
async function runServer(run: BenchRun, serverEnv: ServerEnv, nodeArgs: string[]): Promise<number> {
  const { opts, want, rows, stats, commits, backends } = run;
  const port = await freePort();
  const server = await ServerProcess.start({
    name: 'fairdice',
    script: run.serverScript,
    nodeArgs,
    port,
    readyPath: '/health/ready',
    env: { ...serverEnv, DATABASE_URL: run.db.url },
  });
  log(`server: ready in ${f0(server.startupMs)} ms (pid ${server.pid})`);
  await withServer(server, async () => {
    // Memory is measured with the advice tables loaded, as the default start has them.
    const tablesMs = await waitForAdviceTables(port);
    log(`server: advice tables (presets, Farkle) in memory after ${f0(tablesMs)} ms more`);
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
          run.db.settle,
        ),
      );
    const batches1 = await scrapeBatchSizes(port);
    if (want('rest')) run.batchSizes.rest = batches0 && batches1 ? batchDelta(batches0, batches1) : null;
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
          run.db.settle,
        ),
      );
    // K (or fewer) WebSocket players, each on its own /v1/ws connection, closed after the window.
    const wsMoves = async (id: string, name: string, what: string, o: Options): Promise<void> => {
      const wsPlayers: WsPlayer[] = [];
      const playStats = stats[id];
      rows.push(
        await scenario(
          id,
          name,
          what,
          o,
          (i) => (wsPlayers[i] = new WsPlayer(http, players[i], playStats, port)),
          server,
          commits,
          backends,
          run.db.settle,
        ),
      );
      await Promise.all(wsPlayers.map((p) => p.close()));
    };
    stats.ws = newPlayStats();
    if (want('ws'))
      await wsMoves(
        'ws',
        'WebSocket moves',
        'as REST actions, each command a move frame on one /v1/ws connection per client (a new game: a rematch frame)',
        opts,
      );
    // Issue 29's latency target is at 16 clients: the same REST and WebSocket moves with 16 of the K players.
    const sixteen = { ...opts, clients: Math.min(P99_CLIENTS, opts.clients) };
    stats.rest16 = newPlayStats();
    if (want('p16'))
      rows.push(
        await scenario(
          'rest16',
          `REST actions, ${sixteen.clients} clients`,
          `as REST actions, with ${sixteen.clients} clients (the p99 target's load)`,
          sixteen,
          (i) => new RestPlayer(http, players[i], stats.rest16),
          server,
          commits,
          backends,
          run.db.settle,
        ),
      );
    stats.ws16 = newPlayStats();
    if (want('p16'))
      await wsMoves(
        'ws16',
        `WebSocket moves, ${sixteen.clients} clients`,
        `as WebSocket moves, with ${sixteen.clients} clients (the p99 target's load)`,
        sixteen,
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
          run.db.settle,
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
          run.db.settle,
        ),
      );
    http.close();
  });
  return server.startupMs;
}

/** Three instances on the same database, K clients spread across them (issue 17, item 6). */
/** Seconds of each window of the warm-up comparison (issue 29: the first 20-second window after a fresh start). */
const FIRST_WINDOW_SECONDS = 20;

/**
 * Warm-up without theft (issue 29 item 4, decision 0141): a fresh server on an empty advice cache
 * (its first start ever: every table has to be solved, the worst case), K REST players from the
 * moment the players are registered, for two back-to-back 20-second windows with no warm-up
 * between; the report compares their server CPU per move (target: first ≤ 1.2 × second).
 */
async function runFirstWindows(run: BenchRun, serverEnv: ServerEnv): Promise<void> {
  const { opts } = run;
  const port = await freePort();
  const cacheDir = mkdtempSync(join(tmpdir(), 'fairdice-bench-advice-'));
  const server = await ServerProcess.start({
    name: 'fairdice (fresh start)',
    script: run.serverScript,
    port,
    readyPath: '/health/ready',
    env: { ...serverEnv, DATABASE_URL: run.db.url, ADVICE_CACHE_DIR: cacheDir },
  });
  log(`fresh start: ready in ${f0(server.startupMs)} ms (pid ${server.pid}), empty advice cache ${cacheDir}`);
  try {
    await withServer(server, async () => {
      const http = new HttpClient('127.0.0.1', port, opts.clients);
      const players: Registered[] = [];
      for (let i = 0; i < opts.clients; i++)
        players.push(await retrySetup('register', () => registerPlayer(http, 3000 + i), log));
      const windowOpts = { ...opts, warmup: 0, seconds: FIRST_WINDOW_SECONDS };
      for (const [id, name] of [
        ['first20', `REST actions, first ${FIRST_WINDOW_SECONDS} s after a fresh start`],
        ['later20', `REST actions, the next ${FIRST_WINDOW_SECONDS} s`],
      ] as const) {
        run.stats[id] = newPlayStats();
        run.rows.push(
          await scenario(
            id,
            name,
            'as REST actions, on a server started just before on an empty advice cache (no warm-up window)',
            windowOpts,
            (i) => new RestPlayer(http, players[i], run.stats[id]),
            server,
            run.commits,
            run.backends,
            // Not between the two windows: the second one follows the first at once.
            id === 'first20' ? run.db.settle : null,
          ),
        );
      }
      http.close();
    });
  } finally {
    rmSync(cacheDir, { recursive: true, force: true });
  }
}

async function runInstances(run: BenchRun, serverEnv: ServerEnv): Promise<void> {
  const { opts } = run;
  const ports = [await freePort(), await freePort(), await freePort()];
  log(`instances: 3 servers on one database (pool ${opts.pool} each), ${opts.clients} clients spread round-robin`);
  const group = new ServerGroup(
    await Promise.all(
      ports.map((p, n) =>
        ServerProcess.start({
          name: `fairdice #${n + 1}`,
          script: run.serverScript,
          port: p,
          readyPath: '/health/ready',
          env: { ...serverEnv, DATABASE_URL: run.db.url },
        }),
      ),
    ),
  );
  try {
    const https = ports.map((p) => new HttpClient('127.0.0.1', p, opts.clients));
    const players: Registered[] = [];
    for (let i = 0; i < opts.clients; i++)
      players.push(await retrySetup('register', () => registerPlayer(https[i % 3], 2000 + i), log));
    run.stats.instances3 = newPlayStats();
    run.rows.push(
      await scenario(
        'instances3',
        'REST actions, 3 instances',
        'as REST actions; client i talks to instance i mod 3 (one PostgreSQL); CPU = the three servers summed',
        opts,
        (i) => new RestPlayer(https[i % 3], players[i], run.stats.instances3),
        group,
        run.commits,
        run.backends,
        run.db.settle,
      ),
    );
    for (const h of https) h.close();
  } finally {
    await group.stop();
  }
}

/** --profile: the self-time summary of the .cpuprofile the server wrote (not in `before`). */
function profileOf(before: Set<string>, serverStartupMs: number): string {
  const fresh = readdirSync(PROFILE_DIR)
    .filter((f) => f.endsWith('.cpuprofile') && !before.has(f))
    .map((f) => join(PROFILE_DIR, f))
    .sort((x, y) => statSync(y).mtimeMs - statSync(x).mtimeMs);
  if (fresh.length === 0) return 'No .cpuprofile was written (did the server exit cleanly?).';
  const summary = summarizeProfileFile(fresh[0], { skipMs: serverStartupMs, top: 30 });
  log(`profile: ${fresh[0]}`);
  return `Profile file: \`${fresh[0].slice(ROOT.length + 1)}\` (not committed). Start-up (${f0(serverStartupMs)} ms) skipped.\n\n${formatSummary(summary)}`;
}

/** --variants: REST actions on a server with RATE_LIMIT_ENABLED=false. */
async function runRateLimiterOff(run: BenchRun, benchKeys: ServerEnv): Promise<void> {
  const { opts } = run;
  const vport = await freePort();
  const variant = await ServerProcess.start({
    name: 'fairdice (rate limiter off)',
    script: run.serverScript,
    port: vport,
    readyPath: '/health/ready',
    env: {
      DATABASE_URL: run.db.url,
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
    run.stats.restNoLimit = newPlayStats();
    run.rows.push(
      await scenario(
        'restNoLimit',
        'REST actions, rate limiter off (variant)',
        'as REST actions; server with RATE_LIMIT_ENABLED=false',
        opts,
        (i) => new RestPlayer(http, players[i], run.stats.restNoLimit),
        variant,
        run.commits,
        run.backends,
        run.db.settle,
      ),
    );
    http.close();
  });
}

/** --group-commit both: REST actions on a server with APPEND_BATCHING=false. */
async function runGroupCommitOff(run: BenchRun, serverEnv: ServerEnv): Promise<void> {
  const { opts } = run;
  const gport = await freePort();
  const unbatched = await ServerProcess.start({
    name: 'fairdice (group commit off)',
    script: run.serverScript,
    port: gport,
    readyPath: '/health/ready',
    env: { ...serverEnv, DATABASE_URL: run.db.url, APPEND_BATCHING: 'false' },
  });
  await withServer(unbatched, async () => {
    const http = new HttpClient('127.0.0.1', gport, opts.clients);
    const players: Registered[] = [];
    for (let i = 0; i < opts.clients; i++)
      players.push(await retrySetup('register', () => registerPlayer(http, 2000 + i), log));
    run.stats.restUnbatched = newPlayStats();
    const b0 = await scrapeBatchSizes(gport);
    run.rows.push(
      await scenario(
        'restUnbatched',
        'REST actions, group commit off',
        'as REST actions; server with APPEND_BATCHING=false',
        opts,
        (i) => new RestPlayer(http, players[i], run.stats.restUnbatched),
        unbatched,
        run.commits,
        run.backends,
        run.db.settle,
      ),
    );
    const b1 = await scrapeBatchSizes(gport);
    run.batchSizes.restUnbatched = b0 && b1 ? batchDelta(b0, b1) : null;
    http.close();
  });
}
