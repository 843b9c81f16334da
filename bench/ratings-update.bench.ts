/**
 * The end-to-end cost of a rating update per finished rated game (docs/ratings.md §3): the real
 * RatingUpdatesService.rateFinishedGame against a migrated PostgreSQL (the players' locks, the
 * rated_games row, the ratings upserts and history rows, one transaction), sequentially over
 * `games` finished two-player games among `players` players. The game itself is handed over
 * already loaded (the event store's load is not part of the update's own cost); the timeout
 * query on game_events runs as in production.
 *
 *   npx tsc -p tsconfig.build.json && node dist/bench/ratings-update.bench.js [--games 300] [--players 40]
 *   (DATABASE_URL: the server to use; a scratch database is created and dropped)
 */
import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { Pool } from 'pg';
import type { JobQueue } from '../src/async/jobs/job-queue.service';
import type { EventStore, LoadedGame } from '../src/event-store/event-store.service';
import { RatingUpdatesService } from '../src/ratings/rating-updates.service';
import { createBenchDatabase, DEFAULT_DATABASE_URL } from './db';

export async function runRatingsUpdateBench(
  url: string,
  opts: { games: number; players: number },
): Promise<{ games: number; msPerUpdate: number }> {
  const pool = new Pool({ connectionString: url, max: 2 });
  try {
    const players = Array.from({ length: opts.players }, () => randomUUID());
    await pool.query(
      `INSERT INTO players (id, display_name, token_hash, updated_at)
       SELECT id, 'p', md5(id::text), now() FROM unnest($1::uuid[]) id`,
      [players],
    );
    const loaded = new Map<string, LoadedGame>();
    const start = Date.UTC(2026, 0, 1);
    for (let i = 0; i < opts.games; i++) {
      const id = randomUUID();
      const a = players[i % opts.players];
      const b =
        players[(i * 7 + 1) % opts.players] === a
          ? players[(i + 1) % opts.players]
          : players[(i * 7 + 1) % opts.players];
      await pool.query(
        `INSERT INTO games (id, rule_set, family, options, seat_count, visibility, creator_id, status, server_seed, server_seed_hash, updated_at)
         VALUES ($1, 'simple', 'five-dice', '{}', 2, 'public', $2, 'finished', 'x', 'y', now())`,
        [id, a],
      );
      const finishedAt = new Date(start + i * 3_600_000);
      loaded.set(id, {
        row: { finishedAt },
        state: {
          id,
          rated: true,
          status: 'finished',
          ruleSet: 'simple',
          seats: [
            { seat: 0, playerId: a },
            { seat: 1, playerId: b },
          ],
          standings: [
            { seat: 0, total: 150 + (i % 50), rank: 1, quit: false },
            { seat: 1, total: 150 + ((i * 3) % 50), rank: 2, quit: false },
          ],
        },
      } as unknown as LoadedGame);
    }
    const store = { load: (id: string) => Promise.resolve(loaded.get(id) ?? null) } as unknown as EventStore;
    const jobs = { register: () => undefined } as unknown as JobQueue;
    const service = new RatingUpdatesService(pool, store, jobs);
    const ids = [...loaded.keys()];
    for (const id of ids.slice(0, 20)) await service.rateFinishedGame(id); // warm-up (JIT, plans)
    const t0 = performance.now();
    for (const id of ids.slice(20)) await service.rateFinishedGame(id);
    const elapsed = performance.now() - t0;
    const { rows } = await pool.query('SELECT count(*)::int AS n FROM rating_updates');
    if (rows[0].n !== 2 * ids.length)
      throw new Error(`ratings update bench: ${rows[0].n} history rows, not ${2 * ids.length}`);
    return { games: ids.length - 20, msPerUpdate: elapsed / (ids.length - 20) };
  } finally {
    await pool.end();
  }
}

if (require.main === module) {
  const arg = (name: string, fallback: number) => {
    const i = process.argv.indexOf(`--${name}`);
    return i >= 0 ? Number(process.argv[i + 1]) : fallback;
  };
  void (async () => {
    const db = await createBenchDatabase(process.env.DATABASE_URL ?? DEFAULT_DATABASE_URL, () => undefined);
    try {
      const r = await runRatingsUpdateBench(db.url, { games: arg('games', 300), players: arg('players', 40) });
      process.stdout.write(
        `rating update end to end (one transaction per finished 2-seat rated game): ${r.msPerUpdate.toFixed(2)} ms per game over ${r.games} games\n`,
      );
    } finally {
      await db.drop();
    }
  })();
}
