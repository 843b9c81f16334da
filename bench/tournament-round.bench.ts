/**
 * One tournament round of 64 entrants (issue 13): the time from the start request to every game of
 * round 1 created (POST /v1/tournaments/{id}/start answers once the round's games exist), through
 * the real app (in process, fastify inject: no network), on a fresh migrated database. Duplicate
 * (64 solo games) and tables of 4 (16 games), median of --runs tournaments each; the per-game
 * figure and the ratio between the two formats are what to compare across machines.
 *
 *   npx tsc -p tsconfig.build.json && node dist/bench/tournament-round.bench.js [--entrants 64] [--runs 3]
 *
 * DATABASE_URL names the PostgreSQL server (default postgresql://postgres@127.0.0.1:5432/postgres);
 * a fresh fairdice_bench_<ts>_<pid> database is created, migrated and dropped.
 */
import { randomBytes } from 'node:crypto';
import pino from 'pino';
import { Pool } from 'pg';
import { createApp } from '../src/app.factory';
import { loadConfig } from '../src/config/config';
import { createBenchDatabase, DEFAULT_DATABASE_URL } from './db';
import { vapidEnv } from './server-process';

function arg(name: string, fallback: number): number {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? Number(process.argv[i + 1]) : fallback;
}
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

export interface TournamentRoundResult {
  format: 'duplicate' | 'tables';
  entrants: number;
  games: number;
  runs: number;
  /** Median ms from the start request to every game of round 1 created. */
  medianMs: number;
}

/**
 * Runs the measure on a migrated database (databaseUrl; npm run bench passes its own), or on a
 * fresh one created and dropped here when databaseUrl is omitted.
 */
export async function runTournamentRoundBench(
  opts: { entrants?: number; runs?: number; databaseUrl?: string } = {},
): Promise<TournamentRoundResult[]> {
  const entrants = opts.entrants ?? 64;
  const runs = opts.runs ?? 3;
  const db = opts.databaseUrl
    ? { url: opts.databaseUrl, drop: () => Promise.resolve() }
    : await createBenchDatabase(process.env.DATABASE_URL ?? DEFAULT_DATABASE_URL, () => undefined);
  const config = loadConfig({
    NODE_ENV: 'production',
    LOG_LEVEL: 'silent',
    DATABASE_URL: db.url,
    RATE_LIMIT_ENABLED: 'false',
    LOG_SIGNING_KEY: randomBytes(32).toString('hex'),
    SEED_ENCRYPTION_KEYS: `bench:${randomBytes(32).toString('hex')}`,
    ...vapidEnv(),
    ADVICE_WARM_PRESETS: 'false',
  });
  const app = await createApp({ config, databaseUrl: db.url, poolMax: 10, logger: pino({ level: 'silent' }) });
  await app.init();
  const pool = new Pool({ connectionString: db.url, max: 1 });
  await app.getHttpAdapter().getInstance().ready();
  const call = async (method: 'GET' | 'POST', url: string, token: string | null, body?: unknown) => {
    const res = await app.inject({
      method,
      url,
      headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
      payload: body === undefined ? undefined : JSON.stringify(body),
    });
    if (res.statusCode >= 300) throw new Error(`${method} ${url}: ${res.statusCode} ${res.body}`);
    return res.json();
  };
  const register = async (name: string) =>
    (await call('POST', '/v1/players', null, { displayName: name })).token as string;
  try {
    const organizer = await register('Organizer');
    const players = [];
    for (let i = 0; i < entrants; i++) players.push(await register(`Entrant ${i + 1}`));
    const results: TournamentRoundResult[] = [];
    for (const format of ['duplicate', 'tables'] as const) {
      const times: number[] = [];
      let games = 0;
      for (let run = 0; run < runs; run++) {
        const t = await call('POST', '/v1/tournaments', organizer, {
          name: `Bench ${format} ${run}`,
          ruleSet: 'simple',
          format,
          maxEntrants: entrants,
          rounds: 1,
          ...(format === 'tables' ? { tableSizeMin: 4, tableSizeMax: 4 } : {}),
        });
        for (const [i, p] of players.entries())
          await call('POST', `/v1/tournaments/${t.id}/entrants`, p, { clientSeed: `seed-${run}-${i}` });
        await call('POST', `/v1/tournaments/${t.id}/close`, organizer, {});
        const start = process.hrtime.bigint();
        const started = await call('POST', `/v1/tournaments/${t.id}/start`, organizer, {});
        times.push(Number(process.hrtime.bigint() - start) / 1e6);
        games = started.roundDetails[0].games.length;
        // Every game of the round exists (duplicate games are private to their player: read the table).
        const ids = started.roundDetails[0].games.map((g: { gameId: string }) => g.gameId);
        const { rows } = await pool.query<{ n: string }>('SELECT count(*) AS n FROM games WHERE id = ANY($1::uuid[])', [
          ids,
        ]);
        if (Number(rows[0].n) !== games) throw new Error(`only ${rows[0].n} of ${games} games exist`);
      }
      results.push({ format, entrants, games, runs, medianMs: median(times) });
    }
    return results;
  } finally {
    await pool.end();
    await app.close();
    await db.drop();
  }
}

async function main(): Promise<void> {
  const results = await runTournamentRoundBench({ entrants: arg('entrants', 64), runs: arg('runs', 3) });
  const lines = results.map(
    (r) =>
      `| tournament round, ${r.entrants} entrants, ${r.format} (${r.games} games): start → all games created | ${r.medianMs.toFixed(0)} ms | ${(r.medianMs / r.games).toFixed(1)} ms/game |`,
  );
  console.log(`| measure | median of ${results[0]?.runs ?? 0} | per game |\n|---|---|---|\n${lines.join('\n')}`);
}

if (require.main === module)
  main().catch((err) => {
    console.error(err);
    process.exit(1);
  });
